/* --report: the rows of a view printed as text, CSV or JSON, for scripts,
 * code review and tests.  The same rows the TUI draws. */
#include "report.h"

#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/complain.h"
#include "base/escape.h"
#include "gprof_report.h"
#include "base/units.h"
#include "base/util.h"
#include "transform/symbolize.h"

static const char *const format_names[REPORT_FORMAT_COUNT] = {
	[REPORT_TEXT] = "text",
	[REPORT_CSV] = "csv",
	[REPORT_JSON] = "json",
};

ENUM_PARSE_FN(report_format_parse, enum report_format, format_names)

/* ---- limits ------------------------------------------------------------- */

/* The call graph is printed in whole blocks (callers, the function,
 * callees): a block starts where a caller or primary row follows a row
 * that is not a caller. */
static bool block_starts(const struct view *v, size_t i)
{
	uint32_t f = v->rows[i].flags;
	return (f & (ROW_CALLER | ROW_PRIMARY)) &&
	       (i == 0 || !(v->rows[i - 1].flags & ROW_CALLER));
}

static size_t rows_to_keep(const struct view *v, enum view_kind kind, size_t max_rows)
{
	if (v->nrows <= max_rows || kind != VIEW_CALLGRAPH)
		return v->nrows < max_rows ? v->nrows : max_rows;
	size_t keep = max_rows;
	while (keep > 0 && !block_starts(v, keep))
		keep--;
	if (keep == 0) /* the first block alone is larger: it is shown whole */
		for (keep = 1; keep < v->nrows && !block_starts(v, keep); keep++)
			;
	return keep;
}

void report_expand(struct view *v, enum view_kind kind, uint32_t depth,
		   size_t max_rows, struct report_cut *cut)
{
	if (kind == VIEW_FLAT) {
		depth = REPORT_NO_LIMIT;
		max_rows = SIZE_MAX;
	}
	*cut = (struct report_cut){ .depth = depth, .max_rows = max_rows };
	view_expand_all(v, SIZE_MAX, depth, max_rows);
	size_t keep = rows_to_keep(v, kind, max_rows);
	cut->rows_past_max = v->nrows - keep;
	v->nrows = keep;
	for (size_t i = 0; i < v->nrows; i++) {
		const struct row *r = &v->rows[i];
		if (!(r->flags & ROW_EXPANDABLE) || (r->flags & ROW_EXPANDED))
			continue;
		if (r->depth >= depth)
			cut->deeper++;
		else
			cut->left_closed++;
	}
}

static bool report_was_cut(const struct report_cut *cut)
{
	return cut && (cut->deeper || cut->rows_past_max || cut->left_closed);
}

/* One line on what the limits left out, and the option that shows it. */
static void describe_cut(const struct report_cut *cut, char *out, size_t cap)
{
	size_t n = 0;
	out[0] = '\0';
	if (cut->deeper)
		n += (size_t)snprintf(out + n, cap - n,
				      "rows below depth %u not shown (under %zu row%s; "
				      "--depth N or --depth all shows them)", cut->depth,
				      cut->deeper, cut->deeper == 1 ? "" : "s");
	if (!cut->rows_past_max && !cut->left_closed)
		return;
	n += (size_t)snprintf(out + n, cap - n, "%s--max-rows %zu: ", n ? "; " : "",
			      cut->max_rows);
	if (cut->rows_past_max && n < cap)
		n += (size_t)snprintf(out + n, cap - n, "%zu more row%s not shown%s",
				      cut->rows_past_max, cut->rows_past_max == 1 ? "" : "s",
				      cut->left_closed ? ", " : "");
	if (cut->left_closed && n < cap)
		n += (size_t)snprintf(out + n, cap - n, "%zu row%s left closed",
				      cut->left_closed, cut->left_closed == 1 ? "" : "s");
	if (n < cap)
		snprintf(out + n, cap - n, " (--max-rows N or --max-rows all shows them)");
}

static const char *row_name(const struct model *m, const struct row *r,
			    char *buf, size_t cap)
{
	escape_text(model_str(m, m->frames[r->frame].name), buf, cap);
	return buf;
}

static const char *row_role(const struct row *r)
{
	return r->flags & ROW_CALLER ? "caller"
	     : r->flags & ROW_CALLEE ? "callee"
	     : r->flags & ROW_PRIMARY ? "primary" : "";
}

/* ---- text --------------------------------------------------------------- */

static void text_header(FILE *out, const struct report *rep)
{
	const struct model *m = rep->view->ctx->model;
	const struct totals *t = rep->view->totals;
	unsigned type = rep->view->ctx->type;
	char duration[32], safe[1024];
	format_duration(m, duration, sizeof(duration));
	escape_text(rep->file, safe, sizeof(safe));
	fprintf(out, "# wprof-tui %s report\n", view_kind_name(rep->kind));
	fprintf(out, "# file: %s   format: %s\n", safe, m->format);
	if (m->thread != STR_NONE) {
		escape_text(model_str(m, m->thread), safe, sizeof(safe));
		fprintf(out, "# thread: %s\n", safe);
	}
	if (m->nother_threads) {
		char others[1024];
		model_join_other_threads(m, others, sizeof(others));
		escape_text(others, safe, sizeof(safe));
		fprintf(out, "# other threads: %s\n", safe);
	}
	if (rep->range)
		fprintf(out, "# %s\n", rep->range);
	char type_name[256], unit[64];
	escape_text(model_str(m, m->types[type].name), type_name, sizeof(type_name));
	escape_text(model_str(m, m->types[type].unit), unit, sizeof(unit));
	char records[48] = "";
	if (m->sample_records)
		snprintf(records, sizeof(records), " (%zu records)", m->sample_records);
	fprintf(out, "# duration: %s   samples: %zu%s   sample type: %s (%s)\n",
		duration, model_sample_count(m), records, type_name, unit);
	if (sample_time_text(m->sample_time))
		fprintf(out, "# sample time: %s\n", sample_time_text(m->sample_time));
	if (m->warning != STR_NONE) {
		escape_text(model_str(m, m->warning), safe, sizeof(safe));
		fprintf(out, "# warning: %s\n", safe);
	}
	if (m->symbols != STR_NONE) {
		escape_text(model_str(m, m->symbols), safe, sizeof(safe));
		fprintf(out, "# %s\n", safe);
	}
	if (rep->nfilters) {
		fprintf(out, "# Active filters:\n");
		for (size_t i = 0; i < rep->nfilters; i++)
			fprintf(out, "#    %s\n", rep->filters[i]);
	}
	if (rep->view->ctx->min_share > 0)
		fprintf(out, "# hidden: rows under %g%% of the profile (--min-share)\n",
			rep->view->ctx->min_share);
	fprintf(out, "# rule: %s", rule_name(rep->view->ctx->rule));
	if (!t->total)
		fprintf(out, "   total: n/a (%s)", t->why_not);
	fprintf(out, "\n");
}

static void text_rows(FILE *out, const struct report *rep)
{
	const struct view *v = rep->view;
	const struct model *m = v->ctx->model;
	unsigned type = v->ctx->type;
	bool calls = m->caps & HAS_CALL_COUNTS;
	bool graph = rep->kind == VIEW_CALLGRAPH;
	bool sum = rep->kind == VIEW_FLAT;
	double self_above = 0;
	fprintf(out, "%12s %7s%s %12s %7s%s  %s\n", "self", "self%", sum ? "    sum%" : "",
		"total", "total%", calls ? "        calls" : "", "name");
	for (size_t i = 0; i < v->nrows; i++) {
		const struct row *r = &v->rows[i];
		char self[32], selfp[16], total[32], totalp[16], name[1024], loc[1024];
		format_value(m, type, r->self, self, sizeof(self));
		format_percent(r->self, v->totals->profile_total, selfp, sizeof(selfp));
		char sump[16] = "", sum_column[24] = "";
		if (sum) {
			self_above += r->self;
			format_percent(self_above, v->totals->profile_total, sump, sizeof(sump));
			snprintf(sum_column, sizeof(sum_column), " %7s", sump);
		}
		format_value(m, type, r->total, total, sizeof(total));
		format_percent(r->total, v->totals->profile_total, totalp, sizeof(totalp));
		format_location(m, r->frame, loc, sizeof(loc));
		if (rep->kind == VIEW_SANDWICH && r->depth == 0)
			fprintf(out, "%s# %s of %s\n", i ? "\n" : "",
				r->flags & ROW_CALLER ? "callers" : "callees",
				row_name(m, r, name, sizeof(name)));
		fprintf(out, "%12s %7s%s %12s %7s", self, selfp, sum_column, total, totalp);
		if (calls) {
			if (isnan(r->calls))
				fprintf(out, " %12s", "");
			else
				fprintf(out, " %12.0f", r->calls);
		}
		/* Past REPORT_INDENT_LEVELS the depth is a number, so that a
		 * chain a million deep costs a million lines, not their square. */
		int indent = graph ? (r->flags & ROW_PRIMARY ? 0 : 4)
			   : 2 * (int)(r->depth < REPORT_INDENT_LEVELS ? r->depth
								: REPORT_INDENT_LEVELS);
		char depth[16] = "";
		if (!graph && r->depth >= REPORT_INDENT_LEVELS)
			snprintf(depth, sizeof(depth), "[%u] ", r->depth);
		fprintf(out, "  %*s%s%s%s%s%s%s%s%s\n", indent, "", depth,
			graph && (r->flags & ROW_PRIMARY) ? "[" : "",
			row_name(m, r, name, sizeof(name)),
			graph && (r->flags & ROW_PRIMARY) ? "]" : "",
			*loc ? "  " : "", loc,
			r->flags & ROW_CYCLE ? "  (cycle)" : "",
			r->self < 0 ? "  [negative self]" : "");
		if (graph && i + 1 < v->nrows && (v->rows[i + 1].flags & ROW_CALLER) &&
		    !(r->flags & ROW_CALLER))
			fprintf(out, "\n");
	}
}

/* ---- CSV (RFC 4180) --------------------------------------------------------- */

/* Control characters, which no terminal or spreadsheet should get raw,
 * are spelled out, and so is a backslash (escape.h): a tab is `\t`, a
 * backslash and a t `\\t`.  Commas and quotes are quoted as RFC 4180
 * says. */
void csv_field(FILE *out, const char *s)
{
	size_t cap = 4 * strlen(s) + 1;
	char *safe = xmalloc(cap);
	escape_text_reversible(s, safe, cap);
	if (!strpbrk(safe, ",\"")) {
		fputs(safe, out);
		free(safe);
		return;
	}
	fputc('"', out);
	for (const char *c = safe; *c; c++) {
		if (*c == '"')
			fputc('"', out);
		fputc(*c, out);
	}
	fputc('"', out);
	free(safe);
}

void csv_number(FILE *out, double v)
{
	if (!isnan(v))
		fprintf(out, "%.17g", v);
}

static void csv_rows(FILE *out, const struct report *rep)
{
	const struct view *v = rep->view;
	const struct model *m = v->ctx->model;
	double whole = v->totals->profile_total;
	bool sum = rep->kind == VIEW_FLAT;
	double self_above = 0;
	fprintf(out, "depth,role,name,url,line,column,self,self_pct,total,total_pct,calls%s\n",
		sum ? ",sum_pct" : "");
	for (size_t i = 0; i < v->nrows; i++) {
		const struct row *r = &v->rows[i];
		const struct frame *f = &m->frames[r->frame];
		fprintf(out, "%u,%s,", r->depth, row_role(r));
		csv_field(out, model_str(m, f->name));
		fputc(',', out);
		csv_field(out, model_str(m, f->url));
		fprintf(out, ",%d,%d,", model_shown_place(m, f->line),
			model_shown_place(m, f->column));
		csv_number(out, r->self);
		fputc(',', out);
		csv_number(out, whole ? 100 * r->self / whole : NAN);
		fputc(',', out);
		csv_number(out, r->total);
		fputc(',', out);
		csv_number(out, whole ? 100 * r->total / whole : NAN);
		fputc(',', out);
		csv_number(out, r->calls);
		if (sum) {
			self_above += r->self;
			fputc(',', out);
			csv_number(out, whole ? 100 * self_above / whole : NAN);
		}
		fputc('\n', out);
	}
}

/* ---- JSON ----------------------------------------------------------------- */

void json_string(FILE *out, const char *s)
{
	json_escape_to(out, s);
}

/* Shortest text that reads back as the same double. */
void json_number(FILE *out, double v)
{
	if (isnan(v) || isinf(v)) {
		fputs("null", out);
		return;
	}
	char buf[40];
	snprintf(buf, sizeof(buf), "%.15g", v);
	double back;
	if (sscanf(buf, "%lf", &back) != 1 || back != v)
		snprintf(buf, sizeof(buf), "%.17g", v);
	fputs(buf, out);
}

void json_place(FILE *out, const struct model *m, uint32_t frame)
{
	const struct frame *f = &m->frames[frame];
	int64_t offset = model_wasm_offset(m, frame);
	if (offset >= 0)
		fprintf(out, ",\"offset\":%" PRId64, offset);
	else
		fprintf(out, ",\"line\":%d,\"column\":%d", model_shown_place(m, f->line),
			model_shown_place(m, f->column));
}

void json_frame_origin(FILE *out, const struct model *m, uint32_t frame)
{
	const struct frame_origin *o = symbol_origin(m, frame);
	const struct model *of = m->range.of ? m->range.of : m;
	int64_t offset = o ? model_wasm_place_offset(of, m->frames[frame].kind, o->url, o->column)
			   : -1;
	if (o && o->url != STR_NONE) {
		fputs(",\"generated\":{\"url\":", out);
		json_string(out, model_str(m, o->url));
		if (offset >= 0)
			fprintf(out, ",\"offset\":%" PRId64 "}", offset);
		else
			fprintf(out, ",\"line\":%d,\"column\":%d}", symbol_place_shown(m, o->line),
				symbol_place_shown(m, o->column));
	} else if (o) {
		fputs(",\"unmapped\":", out);
		json_string(out, model_str(m, o->why_not));
	}
}

static void json_row_fields(FILE *out, const struct report *rep,
			    const struct row *r)
{
	const struct model *m = rep->view->ctx->model;
	const struct frame *f = &m->frames[r->frame];
	fputs("{\"name\":", out);
	json_string(out, model_str(m, f->name));
	fputs(",\"url\":", out);
	json_string(out, model_str(m, f->url));
	json_place(out, m, r->frame);
	json_frame_origin(out, m, r->frame);
	fputs(",\"self\":", out);
	json_number(out, r->self);
	fputs(",\"total\":", out);
	json_number(out, r->total);
	json_frame_origin(out, m, r->frame);
	if (m->caps & HAS_CALL_COUNTS) {
		fputs(",\"calls\":", out);
		json_number(out, r->calls);
	}
	if (r->flags & ROW_CYCLE)
		fputs(",\"cycle\":true", out);
	if (r->self < 0)
		fputs(",\"negative_self\":true", out);
}

void json_profile_fields(FILE *out, const struct model *m, unsigned type,
			 const struct totals *t)
{
	fputs(",\"sample_type\":", out);
	json_string(out, model_str(m, m->types[type].name));
	fputs(",\"unit\":", out);
	json_string(out, model_str(m, m->types[type].unit));
	fputs(",\"duration\":", out);
	json_number(out, m->duration);
	if (m->thread != STR_NONE) {
		fputs(",\"thread\":", out);
		json_string(out, model_str(m, m->thread));
		char others[1024];
		model_join_other_threads(m, others, sizeof(others));
		fputs(",\"other_threads\":", out);
		json_string(out, others);
	}
	fprintf(out, ",\"samples\":%zu", model_sample_count(m));
	if (m->sample_records)
		fprintf(out, ",\"sample_records\":%zu", m->sample_records);
	fputs(",\"profile_total\":", out);
	json_number(out, t->profile_total);
	if (sample_time_text(m->sample_time)) {
		fputs(",\"sample_time\":", out);
		json_string(out, sample_time_text(m->sample_time));
	}
	if (m->warning != STR_NONE) {
		fputs(",\"warning\":", out);
		json_string(out, model_str(m, m->warning));
	}
	if (m->symbols != STR_NONE) {
		fputs(",\"symbols\":", out);
		json_string(out, model_str(m, m->symbols));
	}
	if (!t->total) {
		fputs(",\"total_unavailable\":", out);
		json_string(out, t->why_not);
	}
}

static void json_header(FILE *out, const struct report *rep)
{
	const struct view *v = rep->view;
	const struct model *m = v->ctx->model;
	unsigned type = v->ctx->type;
	fputs("{\"file\":", out);
	json_string(out, rep->file);
	fputs(",\"format\":", out);
	json_string(out, m->format);
	fprintf(out, ",\"view\":\"%s\",\"rule\":\"%s\"", view_kind_name(rep->kind),
		rule_name(v->ctx->rule));
	if (rep->range) {
		fputs(",\"range\":", out);
		json_string(out, rep->range);
	}
	if (rep->nfilters) {
		fputs(",\"filters\":[", out);
		for (size_t i = 0; i < rep->nfilters; i++) {
			fputs(i ? "," : "", out);
			json_string(out, rep->filters[i]);
		}
		fputs("]", out);
	}
	json_profile_fields(out, m, type, v->totals);
	if (v->ctx->min_share > 0) {
		fputs(",\"min_share\":", out);
		json_number(out, v->ctx->min_share);
	}
	if (report_was_cut(rep->cut)) {
		const struct report_cut *cut = rep->cut;
		char what[512];
		describe_cut(cut, what, sizeof(what));
		fputs(",\"cut\":{\"depth\":", out);
		json_number(out, cut->depth == REPORT_NO_LIMIT ? NAN : cut->depth);
		fputs(",\"max_rows\":", out);
		json_number(out, cut->max_rows == SIZE_MAX ? NAN : (double)cut->max_rows);
		fprintf(out, ",\"rows_with_children_deeper\":%zu,\"rows_past_max_rows\":%zu,"
			     "\"rows_left_closed\":%zu,\"message\":", cut->deeper,
			cut->rows_past_max, cut->left_closed);
		json_string(out, what);
		fputs("}", out);
	}
	fputs(",\"rows\":[", out);
}

/* Tree views: rows nest by depth into "children" arrays.  Each row's
 * object stays open until the next row shows whether it has children. */
static void json_tree_rows(FILE *out, const struct report *rep)
{
	const struct view *v = rep->view;
	double whole = v->totals->profile_total, self_above = 0;
	for (size_t i = 0; i < v->nrows; i++) {
		const struct row *r = &v->rows[i];
		if (i) {
			uint32_t prev = v->rows[i - 1].depth;
			if (r->depth > prev) {
				fputs(",\"children\":[", out);
			} else {
				fputs("}", out);
				for (uint32_t d = prev; d > r->depth; d--)
					fputs("]}", out);
				fputs(",", out);
			}
		}
		json_row_fields(out, rep, r);
		if (rep->kind == VIEW_FLAT) { /* pprof's sum%: this row and those above */
			self_above += r->self;
			fputs(",\"sum_pct\":", out);
			json_number(out, whole ? 100 * self_above / whole : NAN);
		}
	}
	if (v->nrows) {
		fputs("}", out);
		for (uint32_t d = v->rows[v->nrows - 1].depth; d > 0; d--)
			fputs("]}", out);
	}
}

static void json_callgraph_rows(FILE *out, const struct report *rep)
{
	const struct view *v = rep->view;
	bool first_block = true;
	for (size_t i = 0; i < v->nrows;) {
		size_t primary = i;
		while (primary < v->nrows && !(v->rows[primary].flags & ROW_PRIMARY))
			primary++;
		if (primary == v->nrows)
			break;
		fputs(first_block ? "" : ",", out);
		first_block = false;
		json_row_fields(out, rep, &v->rows[primary]);
		fputs(",\"callers\":[", out);
		for (size_t k = i; k < primary; k++) {
			fputs(k > i ? "," : "", out);
			json_row_fields(out, rep, &v->rows[k]);
			fputs("}", out);
		}
		fputs("],\"callees\":[", out);
		size_t k = primary + 1;
		for (; k < v->nrows && (v->rows[k].flags & ROW_CALLEE); k++) {
			fputs(k > primary + 1 ? "," : "", out);
			json_row_fields(out, rep, &v->rows[k]);
			fputs("}", out);
		}
		fputs("]}", out);
		i = k;
	}
}

/* gprof's own layout is of times (seconds, ms); counts of other events
 * (callgrind's instructions) are printed as any other rows. */
static bool gprof_layout(const struct report *rep)
{
	const struct totals *t = rep->view->totals;
	return t->gprof && unit_is_time(rep->view->ctx->model, t->type);
}

void report_print(FILE *out, const struct report *rep)
{
	switch (rep->format) {
	case REPORT_TEXT:
		text_header(out, rep);
		if (gprof_layout(rep) && rep->kind == VIEW_FLAT)
			gprof_print_flat(out, rep->view);
		else if (gprof_layout(rep) && rep->kind == VIEW_CALLGRAPH)
			gprof_print_callgraph(out, rep->view);
		else
			text_rows(out, rep);
		if (report_was_cut(rep->cut)) {
			char what[512];
			describe_cut(rep->cut, what, sizeof(what));
			fprintf(out, "# cut: %s\n", what);
		}
		break;
	case REPORT_CSV:
		csv_rows(out, rep);
		/* CSV has no header: a reading other than DevTools' goes
		 * where the notes go. */
		if (rep->view->ctx->model->sample_time == SAMPLE_TIME_OWN)
			complain("%s: sample time: %s", rep->file,
				 sample_time_text(SAMPLE_TIME_OWN));
		if (rep->view->ctx->min_share > 0)
			complain("%s: rows under %g%% of the profile hidden (--min-share)",
				 rep->file, rep->view->ctx->min_share);
		if (report_was_cut(rep->cut)) {
			/* CSV has no place for a note: it goes where people look. */
			char what[512];
			describe_cut(rep->cut, what, sizeof(what));
			complain("%s: the report is cut: %s", rep->file, what);
		}
		break;
	default:
		json_header(out, rep);
		if (rep->kind == VIEW_CALLGRAPH)
			json_callgraph_rows(out, rep);
		else
			json_tree_rows(out, rep);
		fputs("]}\n", out);
		break;
	}
}
