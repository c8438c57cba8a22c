/* Several runs a side compared with their noise (runs.h). */
#include "runs.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "base/util.h"

void runs_diff_init(struct runs_diff *rd, struct diff *first,
		    struct rules **rules[DIFF_SIDES], const size_t nruns[DIFF_SIDES])
{
	*rd = (struct runs_diff){ .first = first };
	for (int s = 0; s < DIFF_SIDES; s++) {
		rd->nruns[s] = nruns[s];
		rd->pairing[s] = xcalloc(nruns[s], sizeof(struct diff));
		rd->cross[s] = xcalloc(nruns[s], sizeof(struct diff));
		for (size_t i = 1; i < nruns[s]; i++) {
			diff_init(&rd->pairing[s][i - 1], rules[s][0], rules[s][i]);
			diff_init(&rd->cross[s][i - 1], rules[!s][0], rules[s][i]);
		}
	}
}

void runs_diff_free(struct runs_diff *rd)
{
	for (int s = 0; s < DIFF_SIDES; s++) {
		for (size_t i = 1; i < rd->nruns[s]; i++) {
			diff_free(&rd->pairing[s][i - 1]);
			diff_free(&rd->cross[s][i - 1]);
		}
		FREE_ALL(rd->pairing[s], rd->cross[s]);
	}
	FREE_ALL(rd->rows, rd->values);
	*rd = (struct runs_diff){ 0 };
}

bool runs_testable(const struct runs_diff *rd)
{
	return rd->nruns[DIFF_BASE] >= 2 && rd->nruns[DIFF_NEW] >= 2;
}

/* Run `run` of side `s`: the values of the row's function, found
 * through the first run of that side, else of the other side.  Absent
 * counts 0; n/a stays NAN. */
static void run_values(const struct runs_diff *rd, enum diff_side s, size_t run,
		       const struct diff_row *row, double *self, double *total,
		       bool *present)
{
	const struct diff *d = rd->first;
	uint32_t frame = row->frame[s];
	if (run) {
		bool own = frame != NO_ID;
		d = own ? &rd->pairing[s][run - 1] : &rd->cross[s][run - 1];
		frame = diff_match(d, DIFF_BASE, own ? frame : row->frame[!s]);
		s = DIFF_NEW;
	}
	diff_frame_values(d, s, frame, self, total);
	if (isnan(*self)) {
		*self = *total = 0;
		return;
	}
	*present = true;
}

static void fill_row(struct runs_diff *rd, struct runs_row *r, double *values)
{
	for (int s = 0; s < DIFF_SIDES; s++) {
		size_t n = rd->nruns[s];
		r->total[s] = values;
		r->self[s] = values + n;
		values += 2 * n;
		for (size_t i = 0; i < n; i++)
			run_values(rd, (enum diff_side)s, i, r->row, &r->self[s][i],
				   &r->total[s][i], &r->present[s]);
		r->total_stats[s] = summarize(r->total[s], n);
		r->self_stats[s] = summarize(r->self[s], n);
	}
	r->test = welch_test(r->total_stats[DIFF_BASE], r->total_stats[DIFF_NEW]);
	double was = r->total_stats[DIFF_BASE].mean;
	r->delta_pct = was != 0 && !isnan(was) ? 100 * r->test.delta / was : NAN;
	r->significant = runs_significance(&r->test);
}

int runs_significance(const struct welch *test)
{
	return isnan(test->p) ? -1 : welch_significant(test);
}

bool runs_colours_change(int significant, double delta, double change)
{
	if (!(change != 0) || (significant != -1 && significant != 1))
		return false;
	return significant == -1 || (change > 0) == (delta > 0);
}

static double larger_mean(const struct sample_summary *stats)
{
	return fmax(stats[DIFF_BASE].mean, stats[DIFF_NEW].mean);
}

/* The diff's sort keys (diff.h), on the means. */
static double sort_value(const struct runs_row *r, enum diff_sort key)
{
	double x = key == DIFF_SORT_DELTA ? fabs(r->test.delta)
		 : key == DIFF_SORT_REGRESSION ? r->test.delta
		 : key == DIFF_SORT_SELF ? larger_mean(r->self_stats)
		 : key == DIFF_SORT_TOTAL ? larger_mean(r->total_stats)
		 : 0; /* by name (compare_runs_rows) */
	return isnan(x) ? -INFINITY : x;
}

/* As the diff sorts its rows (diff.c): ties and DIFF_SORT_NAME by name. */
static int compare_runs_rows(const void *pa, const void *pb, void *runs)
{
	const struct runs_row *a = pa, *b = pb;
	const struct runs_diff *rd = runs;
	const struct diff *d = rd->first;
	int order = (b->significant == 1) - (a->significant == 1);
	if (order)
		return order;
	double x = sort_value(a, d->sort), y = sort_value(b, d->sort);
	order = (x < y) - (x > y);
	if (!order)
		order = strcmp(runs_row_name(rd, a), runs_row_name(rd, b));
	if (d->reversed)
		order = -order;
	return order ? order : (a->row > b->row) - (a->row < b->row);
}

static void build_like(struct diff *d, const struct diff *first)
{
	d->rule = first->rule;
	d->normalize = first->normalize;
	diff_build(d);
}

void runs_diff_build(struct runs_diff *rd)
{
	struct diff *first = rd->first;
	diff_build(first);
	for (int s = 0; s < DIFF_SIDES; s++)
		for (size_t i = 1; i < rd->nruns[s]; i++) {
			build_like(&rd->pairing[s][i - 1], first);
			build_like(&rd->cross[s][i - 1], first);
		}
	size_t per_row = 2 * (rd->nruns[DIFF_BASE] + rd->nruns[DIFF_NEW]);
	free(rd->rows);
	free(rd->values);
	rd->nrows = first->nrows;
	rd->rows = xcalloc(rd->nrows ? rd->nrows : 1, sizeof(*rd->rows));
	rd->values = xcalloc(rd->nrows * per_row + 1, sizeof(double));
	for (size_t i = 0; i < rd->nrows; i++) {
		rd->rows[i].row = &first->rows[i];
		fill_row(rd, &rd->rows[i], rd->values + i * per_row);
	}
	runs_diff_sort(rd);
}

void runs_diff_sort(struct runs_diff *rd)
{
	if (rd->nrows > 1)
		qsort_r(rd->rows, rd->nrows, sizeof(*rd->rows), compare_runs_rows, rd);
}

const char *runs_row_name(const struct runs_diff *rd, const struct runs_row *r)
{
	enum diff_side s = diff_row_side(r->row);
	const struct model *m = rd->first->model[s];
	return model_str(m, m->frames[r->row->frame[s]].name);
}
