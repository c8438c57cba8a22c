#include "report_lines.h"

#include <math.h>
#include <regex.h>
#include <stdlib.h>
#include <string.h>

#include "views/lines.h"
#include "rules/rules.h"
#include "base/escape.h"
#include "base/units.h"
#include "base/util.h"

/* One function to list: the first of its frames (pprof lists "f" and
 * "f (inline)" of one file together). */
struct listed {
	uint32_t frame;
	const char *name;
	size_t name_len;
	const char *url;
	int32_t line, column;
};

/* By name, file, then place in the file: each function once, in the
 * order pprof lists them. */
static int by_name_then_place(const void *a, const void *b)
{
	const struct listed *x = a, *y = b;
	size_t n = x->name_len < y->name_len ? x->name_len : y->name_len;
	int c = strncmp(x->name, y->name, n);
	if (c)
		return c;
	if (x->name_len != y->name_len)
		return x->name_len < y->name_len ? -1 : 1;
	c = strcmp(x->url, y->url);
	if (c)
		return c;
	if (x->line != y->line)
		return x->line < y->line ? -1 : 1;
	return x->column < y->column ? -1 : x->column > y->column;
}

/* Matching functions, one entry per function (name, file, line, column). */
static size_t matching(const struct model *m, const regex_t *re, struct listed **out)
{
	size_t n = 0, cap = 0;
	struct listed *list = NULL;
	for (uint32_t f = 0; f < m->nframes; f++) {
		const char *name = model_str(m, m->frames[f].name);
		size_t len = lines_plain_name_length(name);
		char *plain = xmalloc(len + 1);
		memcpy(plain, name, len);
		plain[len] = 0;
		bool hit = !regexec(re, plain, 0, NULL, 0);
		free(plain);
		if (!hit)
			continue;
		GROW(list, cap, n + 1);
		list[n++] = (struct listed){ f, name, len, model_str(m, m->frames[f].url),
					     m->frames[f].line, m->frames[f].column };
	}
	if (n)
		qsort(list, n, sizeof(*list), by_name_then_place);
	size_t kept = 0;
	for (size_t i = 0; i < n; i++)
		if (!kept || !lines_same_function(m, list[kept - 1].frame, list[i].frame))
			list[kept++] = list[i];
	*out = list;
	return kept;
}

/* pprof prints "." for nothing. */
static const char *text_value(const struct model *m, unsigned type, double v,
			      char *buf, size_t cap)
{
	if (v == 0)
		return ".";
	format_value(m, type, v, buf, cap);
	return buf;
}

static void text_percent(FILE *out, double part, double whole)
{
	if (isnan(part) || !(whole != 0))
		fputs("n/a", out);
	else if (fabs(part) == fabs(whole))
		fputs("100%", out);
	else
		fprintf(out, "%.2f%%", 100 * part / whole);
}

/* A source line made safe for a terminal, its tabs kept as pprof keeps
 * them (they move the cursor, nothing more). */
static void print_source_text(FILE *out, const char *text, size_t len)
{
	char *piece = xmalloc(len + 1), *safe = xmalloc(4 * len + 8);
	for (size_t a = 0, b; a <= len; a = b + 1) {
		for (b = a; b < len && text[b] != '\t'; b++)
			;
		memcpy(piece, text + a, b - a);
		piece[b - a] = 0;
		escape_text(piece, safe, 4 * len + 8);
		fputs(safe, out);
		if (b < len)
			fputc('\t', out);
	}
	free(piece);
	free(safe);
}

static void text_function(FILE *out, const struct lines_view *v, double whole,
			  const struct source_options *src)
{
	const struct model *m = v->model;
	char name[1024], file[1024], a[64], b[64];
	escape_text(model_str(m, m->frames[v->frame].name), name, sizeof(name));
	name[lines_plain_name_length(name)] = 0;
	escape_text(source_shown_path(src, model_str(m, m->frames[v->frame].url)), file,
		    sizeof(file));
	fprintf(out, "ROUTINE ======================== %s in %s\n", name, file);
	fprintf(out, "%10s %10s (flat, cum) ", text_value(m, v->type, v->self_sum, a, sizeof(a)),
		text_value(m, v->type, v->total_sum, b, sizeof(b)));
	text_percent(out, v->total_sum, whole);
	fputs(" of Total\n", out);
	if (!v->source.path && v->prof.nrows) {
		escape_text(v->source.tried ? v->source.tried : "nothing", file, sizeof(file));
		fprintf(out, "# source not found (tried %s)\n", file);
	}
	if (!v->prof.has_total)
		fprintf(out, "# cum per line: n/a (%s)\n", v->prof.why_no_total);
	for (size_t i = 0; i < v->nrows; i++) {
		const struct source_row *r = &v->rows[i];
		fprintf(out, "%10s %10s %6d:", text_value(m, v->type, r->self, a, sizeof(a)),
			r->has_value ? text_value(m, v->type, r->total, b, sizeof(b)) : ".",
			r->line);
		print_source_text(out, r->text ? r->text : "", r->text ? r->text_len : 0);
		fputc('\n', out);
	}
}

static void csv_function(FILE *out, const struct lines_view *v)
{
	const struct model *m = v->model;
	for (size_t i = 0; i < v->prof.nrows; i++) {
		const struct line_row *r = &v->prof.rows[i];
		csv_field(out, model_str(m, m->frames[v->frame].name));
		fputc(',', out);
		csv_field(out, model_str(m, m->frames[v->frame].url));
		fprintf(out, ",%d,", r->line);
		csv_number(out, r->self);
		fputc(',', out);
		csv_number(out, r->total);
		fputc('\n', out);
	}
}

static void json_function(FILE *out, const struct lines_view *v, bool first)
{
	const struct model *m = v->model;
	fputs(first ? "{\"name\":" : ",{\"name\":", out);
	json_string(out, model_str(m, m->frames[v->frame].name));
	fputs(",\"file\":", out);
	json_string(out, model_str(m, m->frames[v->frame].url));
	fprintf(out, ",\"start_line\":%d,\"self\":", v->prof.start_line);
	json_number(out, v->self_sum);
	fputs(",\"total\":", out);
	json_number(out, v->total_sum);
	fputs(",\"source\":", out);
	if (v->source.path)
		json_string(out, v->source.path);
	else
		fputs("null", out);
	if (!v->prof.has_total) {
		fputs(",\"total_unavailable\":", out);
		json_string(out, v->prof.why_no_total);
	}
	fputs(",\"rows\":[", out);
	for (size_t i = 0; i < v->prof.nrows; i++) {
		const struct line_row *r = &v->prof.rows[i];
		fputs(i ? ",{\"file\":" : "{\"file\":", out);
		json_string(out, model_str(m, m->frames[v->frame].url));
		fprintf(out, ",\"line\":%d,\"self\":", r->line);
		json_number(out, r->self);
		fputs(",\"total\":", out);
		json_number(out, r->total);
		fputs("}", out);
	}
	fputs("]}", out);
}

static void print_header(FILE *out, const struct model *m, const struct lines_report *rep,
			 double whole)
{
	char buf[1024];
	if (rep->format == REPORT_TEXT) {
		escape_text(rep->file, buf, sizeof(buf));
		fprintf(out, "# wprof-tui lines report\n# file: %s   format: %s\n", buf,
			m->format);
		escape_text(model_str(m, m->types[rep->type].name), buf, sizeof(buf));
		fprintf(out, "# sample type: %s\n", buf);
		format_value(m, rep->type, whole, buf, sizeof(buf));
		fprintf(out, "Total: %s\n", buf);
	} else if (rep->format == REPORT_CSV) {
		fputs("function,file,line,self,total\n", out);
	} else {
		fputs("{\"file\":", out);
		json_string(out, rep->file);
		fputs(",\"format\":", out);
		json_string(out, m->format);
		fputs(",\"view\":\"lines\",\"sample_type\":", out);
		json_string(out, model_str(m, m->types[rep->type].name));
		fputs(",\"unit\":", out);
		json_string(out, model_str(m, m->types[rep->type].unit));
		fputs(",\"profile_total\":", out);
		json_number(out, whole);
		fputs(",\"functions\":[", out);
	}
}

bool report_lines(FILE *out, const struct model *m, const struct lines_report *rep,
		  char *err, size_t cap)
{
	regex_t re;
	int rc = regcomp(&re, rep->function_regex, REG_EXTENDED | REG_NOSUB);
	if (rc) {
		char why[256];
		regerror(rc, &re, why, sizeof(why));
		snprintf(err, cap, "--function: %s", why);
		return false;
	}
	struct listed *list;
	size_t n = matching(m, &re, &list);
	regfree(&re);
	double whole = model_type_total(m, rep->type);
	struct rules rules; /* a function's cum where its lines have none */
	rules_init(&rules, m);
	print_header(out, m, rep, whole);
	bool first = true;
	for (size_t i = 0; i < n; i++) {
		struct lines_view v;
		lines_view_open(&v, m, list[i].frame, rep->type, rep->source,
				rules_totals(&rules, RULE_EXACT, rep->type)->total);
		if (v.prof.nrows) {
			if (rep->format == REPORT_TEXT)
				text_function(out, &v, whole, rep->source);
			else if (rep->format == REPORT_CSV)
				csv_function(out, &v);
			else
				json_function(out, &v, first);
			first = false;
		}
		lines_view_close(&v);
	}
	if (rep->format == REPORT_JSON)
		fputs("]}\n", out);
	rules_free(&rules);
	free(list);
	return true;
}
