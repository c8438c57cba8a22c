#include "gprof.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "base/util.h"

static int later_given_first(const void *a, const void *b, void *model)
{
	const struct model *m = model;
	uint32_t x = m->arcs[*(const uint32_t *)a].given, y = m->arcs[*(const uint32_t *)b].given;
	return (x < y) - (x > y);
}

/* Each caller's arcs (callees_arcs' ranges) in the order gprof walks
 * them: it puts each arc it reads before those read already. */
static uint32_t *arcs_as_gprof_walks(const struct model *m)
{
	uint32_t *arcs = xmalloc((m->narcs + 1) * sizeof(uint32_t));
	memcpy(arcs, m->callees_arcs, m->narcs * sizeof(uint32_t));
	for (size_t f = 0; f < m->nframes; f++)
		qsort_r(arcs + m->callees_start[f], m->callees_start[f + 1] - m->callees_start[f],
			sizeof(uint32_t), later_given_first, (void *)m);
	return arcs;
}

/* Tarjan's strongly connected components, iteratively (call graphs can be
 * deep), from each function in frame order along `arcs` (as gprof numbers
 * them depth first).  Components come out callees first, which is the
 * order gprof propagates time in; `order` receives the frames in that
 * order and `component` the component of each frame, numbered in that
 * order. */
static void strong_components(const struct model *m, const uint32_t *arcs,
			      uint32_t *order, uint32_t *component)
{
	size_t nf = m->nframes;
	uint32_t *index = xmalloc((nf + 1) * sizeof(uint32_t));
	uint32_t *low = xmalloc((nf + 1) * sizeof(uint32_t));
	uint8_t *on_stack = xcalloc(nf + 1, 1);
	uint32_t *stack = xmalloc((nf + 1) * sizeof(uint32_t));
	struct { uint32_t frame, next; } *calls = xmalloc((nf + 1) * sizeof(*calls));
	memset(index, 0xff, (nf + 1) * sizeof(uint32_t));
	uint32_t counter = 0, ncomponents = 0;
	size_t sp = 0, norder = 0;

	for (uint32_t root = 0; root < nf; root++) {
		if (index[root] != NO_ID)
			continue;
		size_t depth = 0;
		calls[depth].frame = root;
		calls[depth++].next = m->callees_start[root];
		index[root] = low[root] = counter++;
		stack[sp++] = root;
		on_stack[root] = 1;
		while (depth) {
			uint32_t f = calls[depth - 1].frame;
			if (calls[depth - 1].next < m->callees_start[f + 1]) {
				uint32_t c = m->arcs[arcs[calls[depth - 1].next++]].callee;
				if (index[c] == NO_ID) {
					index[c] = low[c] = counter++;
					stack[sp++] = c;
					on_stack[c] = 1;
					calls[depth].frame = c;
					calls[depth++].next = m->callees_start[c];
				} else if (on_stack[c] && index[c] < low[f]) {
					low[f] = index[c];
				}
				continue;
			}
			depth--;
			if (depth && low[f] < low[calls[depth - 1].frame])
				low[calls[depth - 1].frame] = low[f];
			if (low[f] != index[f])
				continue;
			uint32_t v;
			do {
				v = stack[--sp];
				on_stack[v] = 0;
				component[v] = ncomponents;
				order[norder++] = v;
			} while (v != f);
			ncomponents++;
		}
	}
	free(calls);
	free(stack);
	free(on_stack);
	free(low);
	free(index);
}

/* Cycles are components of more than one function.  gprof numbers them in
 * the address order of their heads, the member its depth-first walk
 * reaches first; this takes the member first in frame order (address
 * order for gmon.out), which is the head whenever the walk enters the
 * cycle there.  Numbering can differ from gprof's otherwise; the numbers
 * of the functions and cycles do not. */
static void number_cycles(const struct model *m, const uint32_t *component,
			  struct gprof_graph *g)
{
	size_t nf = m->nframes;
	uint32_t *size = xcalloc(nf + 1, sizeof(uint32_t));
	uint32_t *number = xmalloc((nf + 1) * sizeof(uint32_t));
	memset(number, 0xff, (nf + 1) * sizeof(uint32_t));
	for (size_t f = 0; f < nf; f++)
		size[component[f]]++;
	g->ncycles = 0;
	for (size_t f = 0; f < nf; f++) {
		uint32_t c = component[f];
		if (size[c] > 1 && number[c] == NO_ID)
			number[c] = (uint32_t)++g->ncycles;
		g->cycle[f] = size[c] > 1 ? number[c] : 0;
	}
	g->cycles = xcalloc(g->ncycles + 1, sizeof(*g->cycles));
	g->members = xmalloc((nf + 1) * sizeof(uint32_t));
	uint32_t *count = xcalloc(g->ncycles + 2, sizeof(uint32_t));
	for (size_t f = 0; f < nf; f++)
		if (g->cycle[f])
			count[g->cycle[f] + 1]++;
	for (size_t c = 1; c <= g->ncycles; c++)
		count[c + 1] += count[c];
	for (size_t c = 1; c <= g->ncycles; c++)
		g->cycles[c].members_start = g->cycles[c].members_end = count[c];
	for (uint32_t f = 0; f < nf; f++)
		if (g->cycle[f])
			g->members[g->cycles[g->cycle[f]].members_end++] = f;
	free(count);
	free(number);
	free(size);
}

/* Calls per function from other functions, and per cycle from outside
 * it, as gprof counts them: a function calling itself is not a call.
 * Cycles' self is summed from `self`. */
static void count_calls(const struct model *m, const double *self,
			struct gprof_graph *g)
{
	for (size_t a = 0; a < m->narcs; a++) {
		const struct arc *arc = &m->arcs[a];
		uint32_t from = g->cycle[arc->caller], to = g->cycle[arc->callee];
		if (arc->caller == arc->callee)
			g->self_calls[arc->callee] += arc->count;
		else
			g->calls[arc->callee] += arc->count;
		if (!to)
			continue;
		if (from == to)
			g->cycles[to].self_calls += arc->count;
		else
			g->cycles[to].calls += arc->count;
	}
	for (size_t f = 0; f < m->nframes; f++)
		if (g->cycle[f])
			g->cycles[g->cycle[f]].self += self[f];
}

/* The part of the callee's time one arc gives to its caller.  The callee
 * stands for its whole cycle when it is in one. */
static void share_arc(const struct model *m, const double *self,
		      struct gprof_graph *g, uint32_t a)
{
	const struct arc *arc = &m->arcs[a];
	uint32_t c = arc->callee, cyc = g->cycle[c];
	double unit_self = cyc ? g->cycles[cyc].self : self[c];
	double unit_child = cyc ? g->cycles[cyc].child : g->child[c];
	double unit_calls = cyc ? g->cycles[cyc].calls : g->calls[c];
	double fraction = unit_calls > 0 ? arc->count / unit_calls : 0;
	double arc_self = unit_self * fraction;
	double arc_child = m->caps & HAS_ARC_TIMES ? arc->time - arc_self
						   : unit_child * fraction;
	g->arc_self[a] = arc_self;
	g->arc_child[a] = arc_child;
	g->child[arc->caller] += arc_self + arc_child;
	if (g->cycle[arc->caller])
		g->cycles[g->cycle[arc->caller]].child += arc_self + arc_child;
}

/* Where arcs carry measured time, a function's total is the time
 * measured in the calls to it from other functions (callgrind_annotate's
 * inclusive cost), which is its self plus its callees' time when its
 * calls return where they were made.  They may not: `clone` returns
 * twice and its callee, the new thread, is not part of the call that
 * made it.  Functions in a cycle and those no other function calls keep
 * self plus callees. */
static void measured_totals(const struct model *m, const double *self,
			    struct gprof_graph *g)
{
	size_t nf = m->nframes;
	double *measured = xcalloc(nf + 1, sizeof(double));
	bool *called = xcalloc(nf + 1, sizeof(bool));
	for (size_t a = 0; a < m->narcs; a++) {
		const struct arc *arc = &m->arcs[a];
		if (arc->caller == arc->callee || g->cycle[arc->callee])
			continue;
		measured[arc->callee] += arc->time;
		called[arc->callee] = true;
	}
	for (size_t f = 0; f < nf; f++)
		if (called[f])
			g->child[f] = measured[f] - self[f];
	free(measured);
	free(called);
}

/* gprof's % time, over the sum of every self taken callers first, as
 * gprof sums it (its topological order, the other way round). */
static void percentages(const struct model *m, const double *own,
			const uint32_t *order, struct gprof_graph *g)
{
	double all = 0;
	for (size_t i = m->nframes; i-- > 0;)
		all += own[order[i]];
	for (size_t f = 0; f < m->nframes; f++)
		g->percent[f] = all > 0 ? 100 * (own[f] + g->child[f]) / all : 0;
	for (size_t c = 1; c <= g->ncycles; c++) {
		struct gprof_cycle *cyc = &g->cycles[c];
		cyc->percent = all > 0 ? 100 * (cyc->self + cyc->child) / all : 0;
	}
}

/* Time propagated in `unit`s (histogram ticks) back into the rules'
 * microseconds. */
static void scale_times(const struct model *m, const double *self, double unit,
			struct gprof_graph *g)
{
	for (size_t f = 0; f < m->nframes; f++)
		g->child[f] *= unit;
	for (size_t a = 0; a < m->narcs; a++) {
		g->arc_self[a] *= unit;
		g->arc_child[a] *= unit;
	}
	for (size_t c = 1; c <= g->ncycles; c++) {
		struct gprof_cycle *cyc = &g->cycles[c];
		cyc->child *= unit;
		cyc->self = 0;
		for (uint32_t k = cyc->members_start; k < cyc->members_end; k++)
			cyc->self += self[g->members[k]];
	}
}

static int by_component(const void *a, const void *b, void *component)
{
	const uint32_t *c = component;
	uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;
	if (c[x] != c[y])
		return c[x] < c[y] ? -1 : 1;
	return (x > y) - (x < y);
}

void gprof_compute(const struct model *m, const double *self,
		   struct gprof_graph *g)
{
	size_t nf = m->nframes;
	memset(g, 0, sizeof(*g));
	/* gprof propagates histogram ticks: in microseconds the same sums
	 * can round the other way (81.25 % printed 81.3, gprof's 81.2), so
	 * where the loader kept the ticks time goes in them and is scaled
	 * after. */
	bool ticks = m->frame_ticks && m->period > 0 && !(m->caps & HAS_ARC_TIMES);
	const double *own = ticks ? m->frame_ticks : self;
	g->calls = xcalloc(nf + 1, sizeof(double));
	g->self_calls = xcalloc(nf + 1, sizeof(double));
	g->child = xcalloc(nf + 1, sizeof(double));
	g->percent = xcalloc(nf + 1, sizeof(double));
	g->cycle = xcalloc(nf + 1, sizeof(uint32_t));
	g->arc_self = xmalloc((m->narcs + 1) * sizeof(double));
	g->arc_child = xmalloc((m->narcs + 1) * sizeof(double));
	uint32_t *order = xmalloc((nf + 1) * sizeof(uint32_t));
	uint32_t *component = xmalloc((nf + 1) * sizeof(uint32_t));
	uint32_t *arcs = arcs_as_gprof_walks(m);
	strong_components(m, arcs, order, component);
	/* gprof sorts a cycle's members by address (frame order) */
	qsort_r(order, nf, sizeof(uint32_t), by_component, component);
	number_cycles(m, component, g);
	count_calls(m, own, g);

	/* Callees come first in `order`, so a callee's (or its cycle's)
	 * time is complete before any caller outside it takes a share;
	 * each caller's sums in gprof's order of its arcs. */
	for (size_t i = 0; i < nf; i++) {
		uint32_t f = order[i];
		for (uint32_t k = m->callees_start[f]; k < m->callees_start[f + 1]; k++) {
			uint32_t a = arcs[k];
			uint32_t c = m->arcs[a].callee;
			if (c == f || (g->cycle[f] && g->cycle[f] == g->cycle[c])) {
				g->arc_self[a] = g->arc_child[a] = NAN;
				continue;
			}
			share_arc(m, own, g, a);
		}
	}
	if (m->caps & HAS_ARC_TIMES)
		measured_totals(m, self, g);
	percentages(m, own, order, g);
	if (ticks)
		scale_times(m, self, m->period, g);
	free(arcs);
	free(component);
	free(order);
}

void gprof_free(struct gprof_graph *g)
{
	FREE_ALL(g->calls, g->self_calls, g->child, g->percent, g->cycle, g->cycles,
		 g->members, g->arc_self, g->arc_child);
	memset(g, 0, sizeof(*g));
}
