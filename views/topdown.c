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
 * the path is shown once more, marked ROW_CYCLE, and not expanded.  Under
 * gprof a row's numbers are those gprof's call graph gives the arc (see
 * struct cycle_tree for cycles), so that a row's total is its self plus
 * its children's totals. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "base/util.h"
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
		.flags = model_has_children(m, node) ? ROW_EXPANDABLE : 0,
	};
}

/* ---- expanded from the function graph ------------------------------------ */

struct graph_path {
	uint32_t parent; /* NO_ID at the top */
	uint32_t frame;
	double weight;   /* the path's share of the function (of its cycle) */
	double self, total;
	uint32_t entry;  /* gprof: where the path entered the frame's cycle */
	bool back;       /* an arc back into the cycle or to itself: no time */
};

/* Under gprof a cycle is entered as a whole: the row of the member an arc
 * enters by carries the arc's share of the whole cycle, as gprof's call
 * graph gives it to the arc.  The other members follow below it along a
 * spanning tree of the arcs inside the cycle (breadth first from the
 * entry), each once, with its own part: its self time and the time of its
 * callees outside the cycle.  Every other arc inside the cycle is shown,
 * marked, without time, as gprof shows it. */
struct cycle_tree {
	uint32_t entry;
	uint32_t *parent;  /* per member (by position in the cycle) */
	double *subtree;   /* per member: its part and its tree children's */
};

struct graph_state {
	struct graph_path *paths;
	size_t npaths, paths_cap;
	double *calls_in;  /* per frame: calls from other functions */
	double *time_in;   /* per frame: measured time from other functions */
	struct cycle_tree *trees;
	size_t ntrees, trees_cap;
	uint32_t *tree_of; /* per frame: its tree as an entry, NO_ID if none */
};

static bool on_path(const struct graph_state *s, uint32_t path, uint32_t frame)
{
	for (uint32_t q = path; q != NO_ID; q = s->paths[q].parent)
		if (s->paths[q].frame == frame)
			return true;
	return false;
}

/* A member's position in its cycle (members are in frame order). */
static uint32_t member_index(const struct gprof_graph *g, uint32_t f)
{
	const struct gprof_cycle *c = &g->cycles[g->cycle[f]];
	uint32_t lo = c->members_start, hi = c->members_end;
	while (lo < hi) {
		uint32_t mid = lo + (hi - lo) / 2;
		if (g->members[mid] < f)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo - c->members_start;
}

static void build_cycle_tree(const struct model *m, const struct gprof_graph *g,
			     const double *self, struct cycle_tree *t)
{
	const struct gprof_cycle *c = &g->cycles[g->cycle[t->entry]];
	uint32_t n = c->members_end - c->members_start;
	uint32_t *queue = xmalloc((n + 1) * sizeof(uint32_t));
	t->parent = xmalloc((n + 1) * sizeof(uint32_t));
	t->subtree = xcalloc(n + 1, sizeof(double));
	memset(t->parent, 0xff, (n + 1) * sizeof(uint32_t));
	size_t head = 0, tail = 0;
	queue[tail++] = t->entry;
	t->parent[member_index(g, t->entry)] = t->entry;
	while (head < tail) {
		uint32_t f = queue[head++];
		for (uint32_t k = m->callees_start[f]; k < m->callees_start[f + 1]; k++) {
			uint32_t callee = m->arcs[m->callees_arcs[k]].callee;
			uint32_t i = g->cycle[callee] == g->cycle[f] ? member_index(g, callee) : NO_ID;
			if (i == NO_ID || t->parent[i] != NO_ID)
				continue;
			t->parent[i] = f;
			queue[tail++] = callee;
		}
	}
	/* Breadth-first order has parents first: sum children into parents
	 * from the back. */
	for (size_t q = tail; q-- > 0;) {
		uint32_t f = queue[q], i = member_index(g, f);
		t->subtree[i] += self[f] + g->child[f];
		if (f != t->entry)
			t->subtree[member_index(g, t->parent[i])] += t->subtree[i];
	}
	free(queue);
}

static const struct cycle_tree *cycle_tree_of(struct view *v, uint32_t entry)
{
	struct graph_state *s = v->state;
	if (!s->tree_of) {
		size_t nf = v->ctx->model->nframes;
		s->tree_of = xmalloc((nf + 1) * sizeof(uint32_t));
		memset(s->tree_of, 0xff, (nf + 1) * sizeof(uint32_t));
	}
	if (s->tree_of[entry] != NO_ID)
		return &s->trees[s->tree_of[entry]];
	s->tree_of[entry] = (uint32_t)s->ntrees;
	GROW(s->trees, s->trees_cap, s->ntrees + 1);
	struct cycle_tree *t = &s->trees[s->ntrees++];
	t->entry = entry;
	build_cycle_tree(v->ctx->model, v->totals->gprof, v->totals->self, t);
	return t;
}

static struct row path_row(struct view *v, uint32_t id, double calls)
{
	const struct model *m = v->ctx->model;
	struct graph_state *s = v->state;
	const struct graph_path *p = &s->paths[id];
	struct row r = {
		.frame = p->frame,
		.item = id,
		.self = p->self,
		.total = p->total,
		.calls = m->caps & HAS_CALL_COUNTS ? calls : NAN,
	};
	if (p->back || (p->parent != NO_ID && on_path(s, p->parent, p->frame)))
		r.flags |= ROW_CYCLE;
	else if (m->callees_start[p->frame + 1] > m->callees_start[p->frame])
		r.flags |= ROW_EXPANDABLE;
	return r;
}

/* A path into `frame` with `weight` of it: a function's numbers scaled,
 * or under gprof, for a member of a cycle, the cycle's numbers entered
 * at `frame` (or a member's part when `entry` is the cycle's entry). */
static uint32_t add_path(struct view *v, uint32_t parent, uint32_t frame,
			 double weight, uint32_t entry)
{
	struct graph_state *s = v->state;
	const struct gprof_graph *g = v->totals->gprof;
	struct graph_path p = { parent, frame, weight, 0, 0, NO_ID, false };
	p.self = weight * v->totals->self[frame];
	if (g && g->cycle[frame] && !(v->ctx->model->caps & HAS_ARC_TIMES)) {
		p.entry = entry == NO_ID ? frame : entry;
		const struct cycle_tree *t = cycle_tree_of(v, p.entry);
		p.total = weight * t->subtree[member_index(g, frame)];
	} else {
		p.total = weight * view_total_or_nan(v->totals, frame);
	}
	GROW(s->paths, s->paths_cap, s->npaths + 1);
	s->paths[s->npaths] = p;
	return (uint32_t)s->npaths++;
}

/* An arc shown without time: back into the cycle, or to itself. */
static uint32_t add_back_path(struct view *v, uint32_t parent, uint32_t frame)
{
	struct graph_state *s = v->state;
	GROW(s->paths, s->paths_cap, s->npaths + 1);
	s->paths[s->npaths] = (struct graph_path){ parent, frame, 0, 0, 0, NO_ID, true };
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
	/* A graph that is all cycles has no top: start from every function.
	 * One with no time and no arcs (gmon.out's functions that never ran)
	 * is no top either. */
	for (uint32_t f = 0; f < m->nframes; f++) {
		if (any_root && has_other_callers(m, f))
			continue;
		if (v->totals->self[f] == 0 && m->callees_start[f] == m->callees_start[f + 1] &&
		    m->callers_start[f] == m->callers_start[f + 1])
			continue;
		struct row r = path_row(v, add_path(v, NO_ID, f, 1.0, NO_ID), s->calls_in[f]);
		view_append(&v->rows, &v->nrows, &v->rows_cap, &r);
	}
}

/* The part of callee c that one call arc stands for.  Under gprof an arc
 * into a cycle from outside stands for its share of the cycle's calls
 * from outside, as gprof gives it the cycle's time. */
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
	const struct gprof_graph *g = v->totals->gprof;
	struct graph_state *s = v->state;
	uint32_t id = v->rows[index].item;
	uint32_t f = s->paths[id].frame;
	for (uint32_t k = m->callees_start[f]; k < m->callees_start[f + 1]; k++) {
		const struct arc *arc = &m->arcs[m->callees_arcs[k]];
		double weight = s->paths[id].weight;
		uint32_t c = arc->callee, child;
		uint32_t entry = s->paths[id].entry;
		bool inside = entry != NO_ID && g->cycle[c] == g->cycle[f];
		if (c == f) {
			child = add_back_path(v, id, c);
		} else if (inside) {
			const struct cycle_tree *t = cycle_tree_of(v, entry);
			child = t->parent[member_index(g, c)] == f && c != entry
				? add_path(v, id, c, weight, entry)
				: add_back_path(v, id, c);
		} else {
			child = add_path(v, id, c, weight * arc_share(v, s, arc), NO_ID);
		}
		struct row r = path_row(v, child, weight * arc->count);
		view_append(out, n, cap, &r);
	}
}

static void graph_free(struct view *v)
{
	struct graph_state *s = v->state;
	if (!s)
		return;
	for (size_t i = 0; i < s->ntrees; i++) {
		free(s->trees[i].parent);
		free(s->trees[i].subtree);
	}
	FREE_ALL(s->trees, s->tree_of, s->paths, s->calls_in, s->time_in, s);
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
		if (m->nodes[node].nparents || node_hidden(m, node))
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
		if (node_hidden(m, m->child_ids[i]))
			continue;
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
