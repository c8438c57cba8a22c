/* Top-down: the call tree as recorded, each node with its own self time
 * and the time of everything below it.  A node's numbers do not depend on
 * the rule (a call path is counted once); the rules decide how nodes are
 * merged into functions, which the other panes show.
 *
 * Call-arc data (gmon.out, WasmProf) has no tree: the tree is then
 * expanded from the function graph, from the functions nobody calls.  A
 * path's share of a callee is the callee's calls along the arc over all
 * its calls from other functions (gprof's estimate; a cycle entered from
 * outside counts as a whole, as gprof counts it), or with measured
 * arcs the arc's time over all time measured into the callee; the row
 * shows that share of the callee's self and total.  A callee already on
 * the path is shown once more, marked ROW_CYCLE, and not expanded. */
#include <math.h>
#include <stdlib.h>

#include "../src/util.h"
#include "view.h"

static struct row node_row(struct view *v, uint32_t node)
{
	const struct model *m = v->ctx->model;
	const struct node *n = &m->nodes[node];
	const double *sub = rules_node_totals(v->ctx->rules, v->ctx->type);
	return (struct row){
		.frame = n->frame,
		.item = node,
		.self = node_value(m, node, v->ctx->type),
		.total = sub[node],
		.calls = NAN,
		.flags = n->child_end > n->child_start ? ROW_EXPANDABLE : 0,
	};
}

/* ---- expanded from the function graph ------------------------------------ */

struct graph_path {
	uint32_t parent; /* NO_ID at the top */
	uint32_t frame;
	double weight;   /* the path's share of the function */
};

struct graph_state {
	struct graph_path *paths;
	size_t npaths, paths_cap;
	double *calls_in;  /* per frame: calls from other functions */
	double *time_in;   /* per frame: measured time from other functions */
};

static bool on_path(const struct graph_state *s, uint32_t path, uint32_t frame)
{
	for (uint32_t q = path; q != NO_ID; q = s->paths[q].parent)
		if (s->paths[q].frame == frame)
			return true;
	return false;
}

static struct row path_row(struct view *v, uint32_t id, double calls)
{
	const struct model *m = v->ctx->model;
	struct graph_state *s = v->state;
	const struct graph_path *p = &s->paths[id];
	struct row r = {
		.frame = p->frame,
		.item = id,
		.self = p->weight * v->totals->self[p->frame],
		.total = p->weight * view_total_or_nan(v->totals, p->frame),
		.calls = m->caps & HAS_CALL_COUNTS ? calls : NAN,
	};
	if (p->parent != NO_ID && on_path(s, p->parent, p->frame))
		r.flags |= ROW_CYCLE;
	else if (m->callees_start[p->frame + 1] > m->callees_start[p->frame])
		r.flags |= ROW_EXPANDABLE;
	return r;
}

static uint32_t add_path(struct graph_state *s, uint32_t parent,
			 uint32_t frame, double weight)
{
	GROW(s->paths, s->paths_cap, s->npaths + 1);
	s->paths[s->npaths] = (struct graph_path){ parent, frame, weight };
	return (uint32_t)s->npaths++;
}

static bool has_other_callers(const struct model *m, uint32_t f)
{
	for (uint32_t a = m->callers_start[f]; a < m->callers_start[f + 1]; a++)
		if (m->arcs[a].caller != f)
			return true;
	return false;
}

static void graph_build(struct view *v)
{
	const struct model *m = v->ctx->model;
	struct graph_state *s = xcalloc(1, sizeof(*s));
	v->state = s;
	s->calls_in = xcalloc(m->nframes + 1, sizeof(double));
	s->time_in = xcalloc(m->nframes + 1, sizeof(double));
	for (size_t a = 0; a < m->narcs; a++)
		if (m->arcs[a].caller != m->arcs[a].callee) {
			s->calls_in[m->arcs[a].callee] += m->arcs[a].count;
			s->time_in[m->arcs[a].callee] += m->arcs[a].time;
		}
	bool any_root = false;
	for (uint32_t f = 0; f < m->nframes; f++)
		any_root |= !has_other_callers(m, f);
	/* A graph that is all cycles has no top: start from every function. */
	for (uint32_t f = 0; f < m->nframes; f++) {
		if (any_root && has_other_callers(m, f))
			continue;
		struct row r = path_row(v, add_path(s, NO_ID, f, 1.0), s->calls_in[f]);
		view_append(&v->rows, &v->nrows, &v->rows_cap, &r);
	}
}

/* The part of callee c that one call arc stands for.  Under gprof an arc
 * into a cycle from outside stands for its share of the cycle's calls
 * from outside, as gprof gives it the cycle's time; the cycle's members
 * then follow along the arcs inside it. */
static double arc_share(const struct view *v, const struct graph_state *s,
			const struct arc *arc)
{
	const struct model *m = v->ctx->model;
	const struct gprof_graph *g = v->totals->gprof;
	uint32_t c = arc->callee;
	if ((m->caps & HAS_ARC_TIMES) && s->time_in[c] > 0)
		return arc->time / s->time_in[c];
	if (g && g->cycle[c] && g->cycle[c] != g->cycle[arc->caller]) {
		double outside = g->cycles[g->cycle[c]].calls;
		return outside > 0 ? arc->count / outside : 0;
	}
	return s->calls_in[c] > 0 ? arc->count / s->calls_in[c] : 0;
}

static void graph_children(struct view *v, size_t index, struct row **out,
			   size_t *n, size_t *cap)
{
	const struct model *m = v->ctx->model;
	struct graph_state *s = v->state;
	uint32_t id = v->rows[index].item;
	uint32_t f = s->paths[id].frame;
	for (uint32_t k = m->callees_start[f]; k < m->callees_start[f + 1]; k++) {
		const struct arc *arc = &m->arcs[m->callees_arcs[k]];
		double weight = s->paths[id].weight;
		double share = arc->callee == f ? 0 : arc_share(v, s, arc);
		uint32_t child = add_path(s, id, arc->callee, weight * share);
		struct row r = path_row(v, child, weight * arc->count);
		view_append(out, n, cap, &r);
	}
}

static void graph_free(struct view *v)
{
	struct graph_state *s = v->state;
	if (!s)
		return;
	free(s->paths);
	free(s->calls_in);
	free(s->time_in);
	free(s);
	v->state = NULL;
}

/* ---- the pane ------------------------------------------------------------ */

static bool from_graph(const struct view *v)
{
	return !(v->ctx->model->caps & HAS_NODES);
}

static void topdown_build(struct view *v)
{
	const struct model *m = v->ctx->model;
	if (from_graph(v)) {
		graph_build(v);
		return;
	}
	for (uint32_t node = 0; node < m->nnodes; node++) {
		if (m->nodes[node].nparents)
			continue;
		struct row r = node_row(v, node);
		view_append(&v->rows, &v->nrows, &v->rows_cap, &r);
	}
}

static void topdown_children(struct view *v, size_t index, struct row **out,
			     size_t *n, size_t *cap)
{
	const struct model *m = v->ctx->model;
	if (from_graph(v)) {
		graph_children(v, index, out, n, cap);
		return;
	}
	const struct node *p = &m->nodes[v->rows[index].item];
	for (uint32_t i = p->child_start; i < p->child_end; i++) {
		struct row r = node_row(v, m->child_ids[i]);
		view_append(out, n, cap, &r);
	}
}

/* A node row's numbers depend on the sample type only; a path row's on
 * the rule as well, through the shares of its arcs. */
static bool topdown_revalue(struct view *v)
{
	if (from_graph(v))
		return false;
	for (size_t i = 0; i < v->nrows; i++) {
		struct row *r = &v->rows[i];
		struct row fresh = node_row(v, r->item);
		fresh.depth = r->depth;
		fresh.flags |= r->flags & ROW_EXPANDED;
		*r = fresh;
	}
	return true;
}

const struct view_ops topdown_ops = {
	.name = "top-down",
	.build = topdown_build,
	.children = topdown_children,
	.free_state = graph_free,
	.revalue = topdown_revalue,
};
