/* Flat: one row per function, like `go tool pprof -top` and gprof's flat
 * profile. */
#include <math.h>

#include "view.h"

/* A function with calls but no time is a row too, as in gprof's flat
 * profile (`add`, called a billion times between two clock ticks). */
static bool worth_a_row(const struct totals *t, uint32_t f, double calls)
{
	double total = view_total_or_nan(t, f);
	return t->self[f] != 0 || (!isnan(total) && total != 0) ||
	       (!isnan(calls) && calls != 0);
}

static void flat_build(struct view *v)
{
	const struct model *m = v->ctx->model;
	bool counted = m->caps & HAS_CALL_COUNTS;
	/* The data's calls, whatever the rule: a row does not change its
	 * count when only the way time is totalled does. */
	for (uint32_t f = 0; f < m->nframes; f++) {
		double calls_f = counted ? m->frame_calls[f] : NAN;
		if (!worth_a_row(v->totals, f, calls_f))
			continue;
		struct row r = {
			.frame = f,
			.item = f,
			.self = v->totals->self[f],
			.total = view_total_or_nan(v->totals, f),
			.calls = calls_f,
		};
		view_append(&v->rows, &v->nrows, &v->rows_cap, &r);
	}
}

const struct view_ops flat_ops = {
	.name = "flat",
	.build = flat_build,
};
