/* --report flat --diff: the delta layout's rows for scripts and code
 * review.  Every row says how its function was paired (diff.h) and which
 * side lacks it, so that a one-sided function is never read as a change
 * of zero.  Values are each side's means over its runs (runs.h), which
 * with one run a side are that run's values. */
#include "diff_report.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "base/escape.h"
#include "base/util.h"
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
	const struct diff *d = rep->runs->first;
	const struct model *m = d->model[s];
	unsigned type = d->type[s];
	char duration[32], safe[1024];
	format_duration(m, duration, sizeof(duration));
	escape_text(rep->files[s][0], safe, sizeof(safe));
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
	for (size_t i = 1; i < rep->runs->nruns[s]; i++) {
		escape_text(rep->files[s][i], safe, sizeof(safe));
		fprintf(out, "#       run %zu: %s\n", i + 1, safe);
	}
}

static void text_counts(FILE *out, const struct runs_diff *rd)
{
	size_t both = 0, only[DIFF_SIDES] = { 0 }, loosely = 0;
	for (size_t i = 0; i < rd->nrows; i++) {
		const struct runs_row *r = &rd->rows[i];
		if (!r->present[DIFF_NEW])
			only[DIFF_BASE]++;
		else if (!r->present[DIFF_BASE])
			only[DIFF_NEW]++;
		else
			both++;
		if (r->row->match != MATCH_SAME && r->row->match != MATCH_NONE)
			loosely++;
	}
	fprintf(out, "# functions: %zu in both, %zu only in base (-), %zu only in "
		     "new (+); %zu paired by name or kind only (~)\n",
		both, only[DIFF_BASE], only[DIFF_NEW], loosely);
}

static void text_runs_header(FILE *out, const struct runs_diff *rd)
{
	if (rd->nruns[DIFF_BASE] == 1 && rd->nruns[DIFF_NEW] == 1)
		return;
	fprintf(out, "# runs: %zu base, %zu new; values are the means over each "
		     "side's runs\n", rd->nruns[DIFF_BASE], rd->nruns[DIFF_NEW]);
	if (runs_testable(rd))
		fprintf(out, "# ! = significant: Welch's t-test on the totals, p < 0.05 "
			     "(listed first); interval: 95 %% of the delta\n");
	else
		fprintf(out, "# a side has one run: no spread, so no test (p and "
			     "significance unknown)\n");
}

static void text_header(FILE *out, const struct diff_report *rep)
{
	const struct diff *d = rep->runs->first;
	fprintf(out, "# wprof-tui flat diff\n");
	text_side_header(out, rep, DIFF_BASE);
	text_side_header(out, rep, DIFF_NEW);
	fprintf(out, "# rule: %s   sorted by: %s%s   values: %s\n", rule_name(d->rule),
		diff_sort_name(d->sort), d->reversed ? " (reversed)" : "",
		d->normalize ? "% of each side's profile" : "absolute");
	fprintf(out, "# delta = new total - base total (a missing side counts as 0)\n");
	text_runs_header(out, rep->runs);
	text_counts(out, rep->runs);
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

static char row_marker(const struct runs_row *r)
{
	return !r->present[DIFF_NEW] ? '-'
	     : !r->present[DIFF_BASE] ? '+'
	     : r->row->match == MATCH_SAME || r->row->match == MATCH_NONE ? ' ' : '~';
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

/* The interval and p of a row, where the runs allow a test. */
static void text_test(FILE *out, const struct diff *d, const struct runs_row *r)
{
	char low[48], high[48], interval[100], p[16] = "-";
	snprintf(interval, sizeof(interval), "-");
	if (!isnan(r->test.p)) {
		text_value(d, r->test.low, true, low, sizeof(low));
		text_value(d, r->test.high, true, high, sizeof(high));
		snprintf(interval, sizeof(interval), "[%s, %s]", low, high);
		snprintf(p, sizeof(p), "%.3g", r->test.p);
	}
	fprintf(out, " %25s %8s %c", interval, p, r->significant == 1 ? '!' : ' ');
}

static void text_rows(FILE *out, const struct runs_diff *rd)
{
	const struct diff *d = rd->first;
	bool tested = runs_testable(rd);
	fprintf(out, "%12s %12s %12s %12s %12s %8s", "base self", "base total",
		"new self", "new total", "delta", "delta%");
	if (tested)
		fprintf(out, " %25s %8s  ", "95% interval", "p");
	fprintf(out, "    %s\n", "name");
	for (size_t i = 0; i < rd->nrows; i++) {
		const struct runs_row *r = &rd->rows[i];
		bool base = r->present[DIFF_BASE], new_side = r->present[DIFF_NEW];
		char v[5][48], pct[16], who[2200];
		text_value_or_blank(d, r->self_stats[DIFF_BASE].mean, base, v[0], 48);
		text_value_or_blank(d, r->total_stats[DIFF_BASE].mean, base, v[1], 48);
		text_value_or_blank(d, r->self_stats[DIFF_NEW].mean, new_side, v[2], 48);
		text_value_or_blank(d, r->total_stats[DIFF_NEW].mean, new_side, v[3], 48);
		text_value(d, r->test.delta, true, v[4], 48);
		if (isnan(r->delta_pct))
			snprintf(pct, sizeof(pct), "%s", !base ? "new" : "n/a");
		else
			snprintf(pct, sizeof(pct), "%+.1f%%", r->delta_pct);
		fprintf(out, "%12s %12s %12s %12s %12s %8s", v[0], v[1], v[2], v[3], v[4], pct);
		if (tested)
			text_test(out, d, r);
		text_function(d, r->row, diff_row_side(r->row), who, sizeof(who));
		fprintf(out, "  %c %s", row_marker(r), who);
		if (r->row->match != MATCH_SAME && r->row->match != MATCH_NONE) {
			text_function(d, r->row, DIFF_NEW, who, sizeof(who));
			fprintf(out, "  (new: %s)", who);
		}
		fputc('\n', out);
	}
}

/* ---- CSV ------------------------------------------------------------------- */

/* A side's mean, empty where the function is absent there. */
static double side_mean(const struct runs_row *r, const struct sample_summary *stats,
			enum diff_side s)
{
	return r->present[s] ? stats[s].mean : NAN;
}

/* Several values in one field, `;` between them. */
static void csv_list(FILE *out, const double *values, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		if (i)
			fputc(';', out);
		csv_number(out, values[i]);
	}
}

static void csv_files(FILE *out, const struct diff_report *rep, enum diff_side s)
{
	size_t n = rep->runs->nruns[s], len = 1;
	for (size_t i = 0; i < n; i++)
		len += strlen(rep->files[s][i]) + 1;
	char *joined = xcalloc(len, 1);
	for (size_t i = 0; i < n; i++) {
		if (i)
			strcat(joined, ";");
		strcat(joined, rep->files[s][i]);
	}
	csv_field(out, joined);
	free(joined);
}

static void csv_row(FILE *out, const struct diff_report *rep, const struct runs_row *r)
{
	const struct runs_diff *rd = rep->runs;
	const struct diff *d = rd->first;
	enum diff_side s = diff_row_side(r->row);
	const struct frame *f = side_frame(d, r->row, s);
	csv_field(out, model_str(d->model[s], f->name));
	fputc(',', out);
	csv_field(out, model_str(d->model[s], f->url));
	const struct model *m = d->model[s];
	fprintf(out, ",%d,%d,%s", model_shown_place(m, f->line), model_shown_place(m, f->column),
		diff_match_name(r->row->match));
	const double values[] = {
		side_mean(r, r->self_stats, DIFF_BASE), side_mean(r, r->total_stats, DIFF_BASE),
		side_mean(r, r->self_stats, DIFF_NEW), side_mean(r, r->total_stats, DIFF_NEW),
		r->test.delta, r->delta_pct
	};
	for (size_t k = 0; k < ARRAY_LEN(values); k++) {
		fputc(',', out);
		csv_number(out, values[k]);
	}
	for (int side = 0; side < DIFF_SIDES; side++) {
		fputc(',', out);
		csv_files(out, rep, (enum diff_side)side);
	}
	for (int side = 0; side < DIFF_SIDES; side++) {
		fputc(',', out);
		csv_list(out, r->total[side], rd->nruns[side]);
	}
	const double stats[] = {
		r->total_stats[DIFF_BASE].mean, r->total_stats[DIFF_NEW].mean,
		r->total_stats[DIFF_BASE].sd, r->total_stats[DIFF_NEW].sd,
		r->test.low, r->test.high, r->test.p
	};
	for (size_t k = 0; k < ARRAY_LEN(stats); k++) {
		fputc(',', out);
		csv_number(out, stats[k]);
	}
	fprintf(out, ",%s\n", r->significant < 0 ? "" : r->significant ? "true" : "false");
}

static void csv_rows(FILE *out, const struct diff_report *rep)
{
	fprintf(out, "name,url,line,column,match,base_self,base_total,new_self,"
		     "new_total,delta,delta_pct,base_file,new_file,base_runs,new_runs,"
		     "base_mean,new_mean,base_sd,new_sd,delta_low,delta_high,p,"
		     "significant\n");
	for (size_t i = 0; i < rep->runs->nrows; i++)
		csv_row(out, rep, &rep->runs->rows[i]);
}

/* ---- JSON ------------------------------------------------------------------ */

static void json_side_header(FILE *out, const struct diff_report *rep,
			     enum diff_side s)
{
	const struct diff *d = rep->runs->first;
	const struct model *m = d->model[s];
	unsigned type = d->type[s];
	fprintf(out, "\"%s\":{\"file\":", side_names[s]);
	json_string(out, rep->files[s][0]);
	fputs(",\"files\":[", out);
	for (size_t i = 0; i < rep->runs->nruns[s]; i++) {
		if (i)
			fputc(',', out);
		json_string(out, rep->files[s][i]);
	}
	fputs("],\"format\":", out);
	json_string(out, m->format);
	json_profile_fields(out, m, type, d->totals[s]);
	fputc('}', out);
}

static void json_location(FILE *out, const struct model *m, uint32_t frame)
{
	const struct frame *f = &m->frames[frame];
	fputs("\"name\":", out);
	json_string(out, model_str(m, f->name));
	fputs(",\"url\":", out);
	json_string(out, model_str(m, f->url));
	json_place(out, m, frame);
	json_frame_origin(out, m, frame);
}

static void json_list(FILE *out, const char *key, const double *values, size_t n)
{
	fprintf(out, ",\"%s\":[", key);
	for (size_t i = 0; i < n; i++) {
		if (i)
			fputc(',', out);
		json_number(out, values[i]);
	}
	fputc(']', out);
}

static void json_field(FILE *out, const char *key, double v)
{
	fprintf(out, ",\"%s\":", key);
	json_number(out, v);
}

/* A side's object: where the function is on that side and its numbers
 * (the means, each run's values, their spread), or null where it is
 * absent from every run. */
static void json_side(FILE *out, const struct runs_diff *rd, const struct runs_row *r,
		      enum diff_side s)
{
	const struct diff *d = rd->first;
	fprintf(out, ",\"%s\":", side_names[s]);
	if (!r->present[s]) {
		fputs("null", out);
		return;
	}
	/* Found only in that side's other runs: named as on the other side. */
	enum diff_side named = r->row->frame[s] != NO_ID ? s : diff_row_side(r->row);
	fputc('{', out);
	json_location(out, d->model[named], r->row->frame[named]);
	json_field(out, "self", r->self_stats[s].mean);
	json_field(out, "total", r->total_stats[s].mean);
	json_field(out, "mean", r->total_stats[s].mean);
	json_field(out, "sd", r->total_stats[s].sd);
	json_field(out, "self_sd", r->self_stats[s].sd);
	json_list(out, "runs", r->total[s], rd->nruns[s]);
	json_list(out, "self_runs", r->self[s], rd->nruns[s]);
	fputc('}', out);
}

static void json_rows(FILE *out, const struct runs_diff *rd)
{
	const struct diff *d = rd->first;
	for (size_t i = 0; i < rd->nrows; i++) {
		const struct runs_row *r = &rd->rows[i];
		enum diff_side s = diff_row_side(r->row);
		fputs(i ? ",{" : "{", out);
		json_location(out, d->model[s], r->row->frame[s]);
		fprintf(out, ",\"match\":\"%s\"", diff_match_name(r->row->match));
		json_side(out, rd, r, DIFF_BASE);
		json_side(out, rd, r, DIFF_NEW);
		json_field(out, "delta", r->test.delta);
		json_field(out, "delta_pct", r->delta_pct);
		json_field(out, "delta_low", r->test.low);
		json_field(out, "delta_high", r->test.high);
		json_field(out, "t", r->test.t);
		json_field(out, "df", r->test.df);
		json_field(out, "p", r->test.p);
		fprintf(out, ",\"significant\":%s}",
			r->significant < 0 ? "null" : r->significant ? "true" : "false");
	}
}

static void json_report(FILE *out, const struct diff_report *rep)
{
	const struct diff *d = rep->runs->first;
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
	fprintf(out, ",\"test\":\"welch\",\"confidence\":0.95,\"rows\":[");
	json_rows(out, rep->runs);
	fputs("]}\n", out);
}

void diff_report_print(FILE *out, const struct diff_report *rep)
{
	switch (rep->format) {
	case REPORT_TEXT:
		text_header(out, rep);
		text_rows(out, rep->runs);
		break;
	case REPORT_CSV:
		csv_rows(out, rep);
		break;
	default:
		json_report(out, rep);
		break;
	}
}
