/* Call graph, in gprof's layout: for each function, the callers that
 * account for its time above it, the function itself (the primary line),
 * and below it the callees with the part of their time it accounts for.
 * With a focus function only its block is shown (the TUI's pane). */
#include <math.h>
#include <stdlib.h>

#include "base/util.h"
#include "view.h"

static double arc_value(const double *values, uint32_t arc)
{
	return values ? values[arc] : NAN;
}

/* Calls a function receives, as the data counts them whatever the rule. */
static double frame_calls(const struct view *v, uint32_t f)
{
	return v->ctx->model->frame_calls[f];
}

/* Under gprof: an arc inside a cycle (or to itself) carries no time. */
static bool arc_in_cycle(const struct view *v, uint32_t arc)
{
	const struct gprof_graph *g = v->totals->gprof;
	const struct arc *a = &v->ctx->model->arcs[arc];
	return g && (a->caller == a->callee ||
		     (g->cycle[a->caller] && g->cycle[a->caller] == g->cycle[a->callee]));
}

static struct row arc_row(const struct view *v, uint32_t arc, uint32_t frame,
			  uint32_t primary, uint32_t flags)
{
	const struct model *m = v->ctx->model;
	if (arc_in_cycle(v, arc))
		flags |= ROW_CYCLE;
	return (struct row){
		.frame = frame,
		.item = primary,
		.depth = 1,
		.flags = flags,
		.self = arc_value(v->totals->arc_self, arc),
		.total = arc_value(v->totals->arc_total, arc),
		.calls = m->caps & HAS_CALL_COUNTS ? m->arcs[arc].count : NAN,
	};
}

/* A group of callers or callees goes in, sorted as the pane is. */
static void append_sorted(struct view *v, struct row *group, size_t n)
{
	view_sort_rows(v, group, n);
	for (size_t i = 0; i < n; i++)
		view_append(&v->rows, &v->nrows, &v->rows_cap, &group[i]);
}

static void append_block(struct view *v, uint32_t f)
{
	const struct model *m = v->ctx->model;
	struct row *group = NULL;
	size_t n = 0, cap = 0;

	for (uint32_t a = m->callers_start[f]; a < m->callers_start[f + 1]; a++) {
		if (arc_hidden(m, a)) /* outside a time range */
			continue;
		struct row r = arc_row(v, a, m->arcs[a].caller, f, ROW_CALLER);
		view_append(&group, &n, &cap, &r);
	}
	append_sorted(v, group, n);

	struct row primary = {
		.frame = f,
		.item = f,
		.flags = ROW_PRIMARY | (v->totals->gprof && v->totals->gprof->cycle[f]
					? ROW_CYCLE : 0),
		.self = v->totals->self[f],
		.total = view_total_or_nan(v->totals, f),
		.calls = m->caps & HAS_CALL_COUNTS ? frame_calls(v, f) : NAN,
	};
	view_append(&v->rows, &v->nrows, &v->rows_cap, &primary);

	n = 0;
	for (uint32_t i = m->callees_start[f]; i < m->callees_start[f + 1]; i++) {
		uint32_t a = m->callees_arcs[i];
		if (arc_hidden(m, a))
			continue;
		struct row r = arc_row(v, a, m->arcs[a].callee, f, ROW_CALLEE);
		view_append(&group, &n, &cap, &r);
	}
	append_sorted(v, group, n);
	free(group);
}

static void callgraph_build(struct view *v)
{
	const struct model *m = v->ctx->model;
	v->totals = rules_arc_totals(v->ctx->rules, v->totals); /* its rows are arcs */
	if (v->ctx->focus_frame != NO_ID && v->ctx->focus_frame < m->nframes) {
		append_block(v, v->ctx->focus_frame);
		return;
	}
	/* The primary functions in sort order, then a block for each. */
	struct row *primaries = NULL;
	size_t n = 0, cap = 0;
	for (uint32_t f = 0; f < m->nframes; f++) {
		double total = view_total_or_nan(v->totals, f);
		if (v->totals->self[f] == 0 && (isnan(total) || total == 0))
			continue;
		struct row r = { .frame = f, .item = f, .self = v->totals->self[f],
				 .total = total,
				 .calls = m->caps & HAS_CALL_COUNTS ? frame_calls(v, f) : NAN };
		if (!view_row_too_small(v, &r)) /* its whole block goes */
			view_append(&primaries, &n, &cap, &r);
	}
	view_sort_rows(v, primaries, n);
	for (size_t i = 0; i < n; i++)
		append_block(v, primaries[i].frame);
	free(primaries);
}

static void callgraph_sort(struct view *v)
{
	v->nrows = 0;
	callgraph_build(v);
}

const struct view_ops callgraph_ops = {
	.name = "callgraph",
	.build = callgraph_build,
	.sort = callgraph_sort,
};
