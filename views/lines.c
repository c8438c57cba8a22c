#include "lines.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "base/util.h"

/* Frames listed together with `frame`, as pprof -list merges them. */
static void lines_members(const struct model *m, uint32_t frame, bool *member)
{
	for (uint32_t g = 0; g < m->nframes; g++)
		member[g] = lines_same_function(m, frame, g);
}

static void add_row(struct lines_view *v, struct source_row row)
{
	GROW(v->rows, v->rows_cap, v->nrows + 1);
	v->rows[v->nrows++] = row;
}

static void rows_with_source(struct lines_view *v)
{
	int32_t first, last;
	lines_window(&v->prof, &first, &last);
	size_t k = 0;
	for (int32_t line = first; line <= last; line++) {
		struct source_row row = { .line = line, .total = v->prof.has_total ? 0 : NAN };
		row.text = source_line(&v->source, line, &row.text_len);
		if (!row.text)
			break;
		while (k < v->prof.nrows && v->prof.rows[k].line < line)
			k++;
		if (k < v->prof.nrows && v->prof.rows[k].line == line) {
			row.self = v->prof.rows[k].self;
			row.total = v->prof.rows[k].total;
			row.has_value = true;
		}
		row.in_function = v->prof.start_line > 0 && line >= v->prof.start_line;
		add_row(v, row);
	}
}

static void rows_alone(struct lines_view *v)
{
	for (size_t k = 0; k < v->prof.nrows; k++) {
		const struct line_row *r = &v->prof.rows[k];
		add_row(v, (struct source_row){ .line = r->line, .self = r->self,
						.total = r->total, .has_value = true,
						.in_function = v->prof.start_line > 0 &&
							       r->line >= v->prof.start_line });
	}
}

void lines_view_open(struct lines_view *v, const struct model *m, uint32_t frame,
		     unsigned type, const struct source_options *src,
		     const double *function_totals)
{
	memset(v, 0, sizeof(*v));
	v->model = m;
	v->type = type;
	v->frame = frame;
	bool *member = xcalloc(m->nframes + 1, sizeof(bool));
	lines_members(m, frame, member);
	lines_of_frames(m, member, type, &v->prof);
	free(member);
	const char *url = model_str(m, m->frames[frame].url);
	if (*url && v->prof.nrows)
		source_find(src, url, &v->source);
	if (v->source.path)
		rows_with_source(v);
	if (!v->nrows)
		rows_alone(v);
	v->total_sum = v->prof.has_total ? 0 : function_totals ? function_totals[frame] : NAN;
	for (size_t k = 0; k < v->prof.nrows; k++) {
		v->self_sum += v->prof.rows[k].self;
		if (v->prof.has_total)
			v->total_sum += v->prof.rows[k].total;
	}
	/* Shaded by self where lines have self time, else by total. */
	v->heat_by_self = v->self_sum > 0;
	for (size_t k = 0; k < v->prof.nrows; k++)
		v->heat_max = fmax(v->heat_max, v->heat_by_self ? v->prof.rows[k].self
							       : v->prof.rows[k].total);
}

void lines_view_close(struct lines_view *v)
{
	line_profile_free(&v->prof);
	source_file_free(&v->source);
	free(v->rows);
	memset(v, 0, sizeof(*v));
}

static double heat_value(const struct lines_view *v, size_t row)
{
	return v->heat_by_self ? v->rows[row].self : v->rows[row].total;
}

int lines_view_heat(const struct lines_view *v, size_t row)
{
	if (row >= v->nrows || !v->rows[row].has_value)
		return 0;
	double x = heat_value(v, row);
	if (!(v->heat_max > 0) || !(x > 0))
		return 0;
	return x >= 0.5 * v->heat_max ? 3 : x >= 0.1 * v->heat_max ? 2 : 1;
}

/* A hot line: shaded at the two upper levels. */
static bool is_hot(const struct lines_view *v, size_t row)
{
	return lines_view_heat(v, row) >= 2;
}

size_t lines_view_next_hot(const struct lines_view *v, size_t from, int dir)
{
	size_t row = from;
	for (size_t step = 0; step < v->nrows; step++) {
		row = dir > 0 ? (row + 1) % v->nrows : (row + v->nrows - 1) % v->nrows;
		if (is_hot(v, row))
			return row;
	}
	return from;
}

size_t lines_view_hottest(const struct lines_view *v)
{
	size_t best = 0;
	for (size_t row = 1; row < v->nrows; row++)
		if (v->rows[row].has_value && heat_value(v, row) > heat_value(v, best))
			best = row;
	return best;
}
