/* --report flat --diff: the delta layout's rows for scripts and code
 * review.  Every row says how its function was paired (diff.h) and which
 * side lacks it, so that a one-sided function is never read as a change
 * of zero. */
#include "diff_report.h"

#include <math.h>
#include <string.h>

#include "base/escape.h"
#include "base/units.h"

static const char *const side_names[DIFF_SIDES] = { "base", "new" };

static const struct frame *side_frame(const struct diff *d,
				      const struct diff_row *r, enum diff_side s)
{
	return &d->model[s]->frames[r->frame[s]];
}

/* ---- text ------------------------------------------------------------------ */

static void text_side_header(FILE *out, const struct diff_report *rep,
			     enum diff_side s)
{
	const struct diff *d = rep->diff;
	const struct model *m = d->model[s];
	unsigned type = d->type[s];
	char duration[32], safe[1024];
	format_value(m, type, unit_kind_of(m, type) == UNIT_TIME_US ? m->duration : NAN,
		     duration, sizeof(duration));
	escape_text(rep->file[s], safe, sizeof(safe));
	char type_name[256], unit[64];
	escape_text(model_str(m, m->types[type].name), type_name, sizeof(type_name));
	escape_text(model_str(m, m->types[type].unit), unit, sizeof(unit));
	fprintf(out, "# %-5s %s   format: %s   duration: %s   samples: %zu   "
		     "sample type: %s (%s)\n",
		side_names[s], safe, m->format, duration, model_sample_count(m), type_name, unit);
	if (sample_time_text(m->sample_time))
		fprintf(out, "#       sample time: %s\n", sample_time_text(m->sample_time));
	if (!d->totals[s]->total)
		fprintf(out, "#       total: n/a (%s)\n", d->totals[s]->why_not);
}

static void text_counts(FILE *out, const struct diff *d)
{
	size_t both = 0, only[DIFF_SIDES] = { 0 }, loosely = 0;
	for (size_t i = 0; i < d->nrows; i++) {
		const struct diff_row *r = &d->rows[i];
		if (!diff_present(r, DIFF_NEW))
			only[DIFF_BASE]++;
		else if (!diff_present(r, DIFF_BASE))
			only[DIFF_NEW]++;
		else
			both++;
		if (r->match != MATCH_SAME && r->match != MATCH_NONE)
			loosely++;
	}
	fprintf(out, "# functions: %zu in both, %zu only in base (-), %zu only in "
		     "new (+); %zu paired by name or kind only (~)\n",
		both, only[DIFF_BASE], only[DIFF_NEW], loosely);
}

static void text_header(FILE *out, const struct diff_report *rep)
{
	const struct diff *d = rep->diff;
	fprintf(out, "# wprof-tui flat diff\n");
	text_side_header(out, rep, DIFF_BASE);
	text_side_header(out, rep, DIFF_NEW);
	fprintf(out, "# rule: %s   sorted by: %s%s   values: %s\n", rule_name(d->rule),
		diff_sort_name(d->sort), d->reversed ? " (reversed)" : "",
		d->normalize ? "% of each side's profile" : "absolute");
	fprintf(out, "# delta = new total - base total (a missing side counts as 0)\n");
	text_counts(out, d);
}

static void text_value(const struct diff *d, double v, bool sign, char *buf,
		       size_t cap)
{
	const char *plus = sign && v > 0 ? "+" : "";
	if (d->normalize && !isnan(v)) {
		snprintf(buf, cap, "%s%.2f%%", plus, v);
		return;
	}
	char plain[32];
	format_value(d->model[DIFF_BASE], d->type[DIFF_BASE], v, plain, sizeof(plain));
	snprintf(buf, cap, "%s%s", plus, plain);
}

static void text_value_or_blank(const struct diff *d, double v, bool present,
				char *buf, size_t cap)
{
	if (present)
		text_value(d, v, false, buf, cap);
	else
		snprintf(buf, cap, "-");
}

static char row_marker(const struct diff_row *r)
{
	return !diff_present(r, DIFF_NEW) ? '-'
	     : !diff_present(r, DIFF_BASE) ? '+'
	     : r->match == MATCH_SAME ? ' ' : '~';
}

/* "name  url:line:column" of one side, escaped. */
static void text_function(const struct diff *d, const struct diff_row *r,
			  enum diff_side s, char *buf, size_t cap)
{
	char name[1024], loc[1024];
	escape_text(model_str(d->model[s], side_frame(d, r, s)->name), name, sizeof(name));
	format_location(d->model[s], r->frame[s], loc, sizeof(loc));
	snprintf(buf, cap, "%s%s%s", name, *loc ? "  " : "", loc);
}

static void text_rows(FILE *out, const struct diff *d)
{
	fprintf(out, "%12s %12s %12s %12s %12s %8s    %s\n", "base self", "base total",
		"new self", "new total", "delta", "delta%", "name");
	for (size_t i = 0; i < d->nrows; i++) {
		const struct diff_row *r = &d->rows[i];
		char v[5][48], pct[16], who[2200];
		text_value_or_blank(d, r->self[DIFF_BASE], diff_present(r, DIFF_BASE), v[0], 48);
		text_value_or_blank(d, r->total[DIFF_BASE], diff_present(r, DIFF_BASE), v[1], 48);
		text_value_or_blank(d, r->self[DIFF_NEW], diff_present(r, DIFF_NEW), v[2], 48);
		text_value_or_blank(d, r->total[DIFF_NEW], diff_present(r, DIFF_NEW), v[3], 48);
		text_value(d, r->delta, true, v[4], 48);
		if (isnan(r->delta_pct))
			snprintf(pct, sizeof(pct), "%s", !diff_present(r, DIFF_BASE) ? "new" : "n/a");
		else
			snprintf(pct, sizeof(pct), "%+.1f%%", r->delta_pct);
		text_function(d, r, diff_row_side(r), who, sizeof(who));
		fprintf(out, "%12s %12s %12s %12s %12s %8s  %c %s", v[0], v[1], v[2],
			v[3], v[4], pct, row_marker(r), who);
		if (r->match != MATCH_SAME && r->match != MATCH_NONE) {
			text_function(d, r, DIFF_NEW, who, sizeof(who));
			fprintf(out, "  (new: %s)", who);
		}
		fputc('\n', out);
	}
}

/* ---- CSV ------------------------------------------------------------------- */

static void csv_rows(FILE *out, const struct diff_report *rep)
{
	const struct diff *d = rep->diff;
	fprintf(out, "name,url,line,column,match,base_self,base_total,new_self,"
		     "new_total,delta,delta_pct,base_file,new_file\n");
	for (size_t i = 0; i < d->nrows; i++) {
		const struct diff_row *r = &d->rows[i];
		enum diff_side s = diff_row_side(r);
		const struct frame *f = side_frame(d, r, s);
		csv_field(out, model_str(d->model[s], f->name));
		fputc(',', out);
		csv_field(out, model_str(d->model[s], f->url));
		fprintf(out, ",%d,%d,%s", f->line, f->column, diff_match_name(r->match));
		const double values[] = { r->self[DIFF_BASE], r->total[DIFF_BASE],
					  r->self[DIFF_NEW], r->total[DIFF_NEW],
					  r->delta, r->delta_pct };
		for (size_t k = 0; k < sizeof(values) / sizeof(values[0]); k++) {
			fputc(',', out);
			csv_number(out, values[k]);
		}
		for (int side = 0; side < DIFF_SIDES; side++) {
			fputc(',', out);
			csv_field(out, rep->file[side]);
		}
		fputc('\n', out);
	}
}

/* ---- JSON ------------------------------------------------------------------ */

static void json_side_header(FILE *out, const struct diff_report *rep,
			     enum diff_side s)
{
	const struct diff *d = rep->diff;
	const struct model *m = d->model[s];
	unsigned type = d->type[s];
	fprintf(out, "\"%s\":{\"file\":", side_names[s]);
	json_string(out, rep->file[s]);
	fputs(",\"format\":", out);
	json_string(out, m->format);
	json_profile_fields(out, m, type, d->totals[s]);
	fputc('}', out);
}

static void json_location(FILE *out, const struct model *m, const struct frame *f)
{
	fputs("\"name\":", out);
	json_string(out, model_str(m, f->name));
	fputs(",\"url\":", out);
	json_string(out, model_str(m, f->url));
	fprintf(out, ",\"line\":%d,\"column\":%d", f->line, f->column);
}

/* A side's object: where the function is on that side and its numbers,
 * or null where it is absent. */
static void json_side(FILE *out, const struct diff *d, const struct diff_row *r,
		      enum diff_side s)
{
	fprintf(out, ",\"%s\":", side_names[s]);
	if (!diff_present(r, s)) {
		fputs("null", out);
		return;
	}
	fputc('{', out);
	json_location(out, d->model[s], side_frame(d, r, s));
	const struct model *m = d->model[s];
	json_frame_origin(out, m, (uint32_t)(side_frame(d, r, s) - m->frames));
	fputs(",\"self\":", out);
	json_number(out, r->self[s]);
	fputs(",\"total\":", out);
	json_number(out, r->total[s]);
	fputc('}', out);
}

static void json_rows(FILE *out, const struct diff *d)
{
	for (size_t i = 0; i < d->nrows; i++) {
		const struct diff_row *r = &d->rows[i];
		enum diff_side s = diff_row_side(r);
		fputs(i ? ",{" : "{", out);
		json_location(out, d->model[s], side_frame(d, r, s));
		fprintf(out, ",\"match\":\"%s\"", diff_match_name(r->match));
		json_side(out, d, r, DIFF_BASE);
		json_side(out, d, r, DIFF_NEW);
		fputs(",\"delta\":", out);
		json_number(out, r->delta);
		fputs(",\"delta_pct\":", out);
		json_number(out, r->delta_pct);
		fputc('}', out);
	}
}

static void json_report(FILE *out, const struct diff_report *rep)
{
	const struct diff *d = rep->diff;
	const struct model *m = d->model[DIFF_BASE];
	fputs("{", out);
	json_side_header(out, rep, DIFF_BASE);
	fputc(',', out);
	json_side_header(out, rep, DIFF_NEW);
	fprintf(out, ",\"view\":\"flat\",\"rule\":\"%s\",\"sort\":\"%s\","
		     "\"normalize\":%s,\"unit\":",
		rule_name(d->rule), diff_sort_name(d->sort),
		d->normalize ? "true" : "false");
	json_string(out, d->normalize ? "%"
				      : model_str(m, m->types[d->type[DIFF_BASE]].unit));
	fputs(",\"rows\":[", out);
	json_rows(out, d);
	fputs("]}\n", out);
}

void diff_report_print(FILE *out, const struct diff_report *rep)
{
	switch (rep->format) {
	case REPORT_TEXT:
		text_header(out, rep);
		text_rows(out, rep->diff);
		break;
	case REPORT_CSV:
		csv_rows(out, rep);
		break;
	default:
		json_report(out, rep);
		break;
	}
}
