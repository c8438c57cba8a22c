/* Sandwich: one function (ctx->focus_frame) with its callers above and
 * its callees below, as speedscope's sandwich and pprof's -peek show it.
 *
 * The callers are a tree rooted at the function: the bottom-up pane's
 * row for it, opened by that pane's own code (an inner bottom-up view).
 * The callees are a top-down tree merged over every node of the function:
 * the root stands for its outermost nodes (so that a recursion is
 * counted once), and a row's children are the children of all its nodes
 * grouped by function, with the sums of their self and total.  Call-arc
 * data has no nodes: its callees are the arcs out of the function, one
 * level, as the call graph pane shows them. */
#include <math.h>
#include <stdlib.h>

#include "base/util.h"
#include "view.h"

struct callee_path {
	uint32_t first, count; /* nodes[first .. first+count) */
};

struct sandwich {
	struct view callers;  /* bottom-up; its row 0 is the scratch row */
	/* Its context: the pane's with every row kept, so that the function
	 * shows under any min_share (its callers are left out as usual). */
	struct view_context callers_ctx;
	struct callee_path *paths;
	size_t npaths, paths_cap;
	uint32_t *nodes;
	size_t nnodes, nodes_cap;
};

static struct sandwich *state(struct view *v)
{
	return v->state;
}

static uint32_t add_callee_path(struct sandwich *s, const uint32_t *nodes, size_t n)
{
	GROW(s->nodes, s->nodes_cap, s->nnodes + n);
	for (size_t i = 0; i < n; i++)
		s->nodes[s->nnodes + i] = nodes[i];
	GROW(s->paths, s->paths_cap, s->npaths + 1);
	s->paths[s->npaths] = (struct callee_path){ (uint32_t)s->nnodes, (uint32_t)n };
	s->nnodes += n;
	return (uint32_t)s->npaths++;
}

static bool has_children(const struct model *m, const uint32_t *nodes, size_t n)
{
	for (size_t i = 0; i < n; i++)
		if (m->nodes[nodes[i]].child_end > m->nodes[nodes[i]].child_start)
			return true;
	return false;
}

/* The row of a set of nodes of one function. */
static struct row callee_row(struct view *v, const uint32_t *nodes, size_t n)
{
	const struct model *m = v->ctx->model;
	const double *sub = rules_node_totals(v->ctx->rules, v->ctx->type);
	struct row r = { .frame = m->nodes[nodes[0]].frame, .calls = NAN,
			 .flags = ROW_CALLEE };
	for (size_t i = 0; i < n; i++) {
		r.self += node_value(m, nodes[i], v->ctx->type);
		r.total += sub[nodes[i]];
	}
	if (has_children(m, nodes, n))
		r.flags |= ROW_EXPANDABLE;
	r.item = add_callee_path(state(v), nodes, n);
	return r;
}

static int by_frame_then_id(const void *a, const void *b, void *model)
{
	const struct model *m = model;
	uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;
	uint32_t fx = m->nodes[x].frame, fy = m->nodes[y].frame;
	if (fx != fy)
		return fx < fy ? -1 : 1;
	return (x > y) - (x < y);
}

/* The children of every node on the path, one row per function; a node
 * reached twice (a node graph) counts once. */
static void callee_children(struct view *v, uint32_t id, struct row **out,
			    size_t *n, size_t *cap)
{
	const struct model *m = v->ctx->model;
	struct sandwich *s = state(v);
	uint32_t *kids = NULL;
	size_t nkids = 0, kids_cap = 0;
	for (uint32_t i = 0; i < s->paths[id].count; i++) {
		const struct node *p = &m->nodes[s->nodes[s->paths[id].first + i]];
		for (uint32_t k = p->child_start; k < p->child_end; k++) {
			if (node_hidden(m, m->child_ids[k]))
				continue;
			GROW(kids, kids_cap, nkids + 1);
			kids[nkids++] = m->child_ids[k];
		}
	}
	if (nkids > 1)
		qsort_r(kids, nkids, sizeof(*kids), by_frame_then_id, (void *)m);
	size_t unique = 0;
	for (size_t i = 0; i < nkids; i++)
		if (!unique || kids[unique - 1] != kids[i])
			kids[unique++] = kids[i];
	for (size_t i = 0; i < unique;) {
		size_t j = i;
		while (j < unique && m->nodes[kids[j]].frame == m->nodes[kids[i]].frame)
			j++;
		struct row r = callee_row(v, &kids[i], j - i);
		view_append(out, n, cap, &r);
		i = j;
	}
	free(kids);
}

/* The callees' root: the function's outermost nodes. */
static void add_callee_root(struct view *v, uint32_t f)
{
	const struct model *m = v->ctx->model;
	const uint8_t *outermost = rules_outermost(v->ctx->rules);
	uint32_t *nodes = NULL;
	size_t n = 0, cap = 0;
	for (uint32_t node = 0; node < m->nnodes; node++) {
		if (m->nodes[node].frame != f || node_hidden(m, node) ||
		    (outermost && !outermost[node]))
			continue;
		GROW(nodes, cap, n + 1);
		nodes[n++] = node;
	}
	if (n) {
		struct row r = callee_row(v, nodes, n);
		r.flags |= ROW_PRIMARY;
		view_append(&v->rows, &v->nrows, &v->rows_cap, &r);
	}
	free(nodes);
}

/* Call arcs: the function's own row, then its callees, one level. */
static void add_callee_arcs(struct view *v, const struct row *caller_root)
{
	const struct model *m = v->ctx->model;
	uint32_t f = caller_root->frame;
	struct row root = *caller_root;
	root.flags = ROW_PRIMARY | ROW_CALLEE;
	view_append(&v->rows, &v->nrows, &v->rows_cap, &root);
	size_t first = v->nrows;
	for (uint32_t i = m->callees_start[f]; i < m->callees_start[f + 1]; i++) {
		uint32_t a = m->callees_arcs[i];
		if (arc_hidden(m, a))
			continue;
		struct row r = {
			.frame = m->arcs[a].callee, .item = a, .depth = 1, .flags = ROW_CALLEE,
			.self = v->totals->arc_self ? v->totals->arc_self[a] : NAN,
			.total = v->totals->arc_total ? v->totals->arc_total[a] : NAN,
			.calls = m->caps & HAS_CALL_COUNTS ? m->arcs[a].count : NAN,
		};
		view_append(&v->rows, &v->nrows, &v->rows_cap, &r);
	}
	view_sort_rows(v, &v->rows[first], v->nrows - first);
	if (v->nrows > first)
		v->rows[first - 1].flags |= ROW_EXPANDED;
}

static void sandwich_build(struct view *v)
{
	const struct model *m = v->ctx->model;
	v->totals = rules_arc_totals(v->ctx->rules, v->totals); /* its callees are arcs */
	struct sandwich *s = xcalloc(1, sizeof(*s));
	v->state = s;
	uint32_t f = v->ctx->focus_frame;
	if (f == NO_ID || f >= m->nframes)
		return;
	s->callers_ctx = *v->ctx;
	s->callers_ctx.min_share = 0;
	view_open(&s->callers, VIEW_BOTTOMUP, &s->callers_ctx);
	for (size_t i = 0; i < s->callers.nrows; i++) {
		struct row r = s->callers.rows[i];
		if (r.frame != f)
			continue;
		r.flags |= ROW_PRIMARY | ROW_CALLER;
		view_append(&v->rows, &v->nrows, &v->rows_cap, &r);
		view_expand(v, 0); /* the callers one level up, at once */
		if (m->caps & HAS_NODES) {
			add_callee_root(v, f);
			view_expand(v, v->nrows - 1);
		} else {
			add_callee_arcs(v, &r);
		}
		return;
	}
}

static void sandwich_children(struct view *v, size_t index, struct row **out,
			      size_t *n, size_t *cap)
{
	struct sandwich *s = state(v);
	const struct row *r = &v->rows[index];
	if (r->flags & ROW_CALLEE) {
		if (v->ctx->model->caps & HAS_NODES)
			callee_children(v, r->item, out, n, cap);
		return;
	}
	s->callers.rows[0] = *r;
	size_t first = *n;
	bottomup_ops.children(&s->callers, 0, out, n, cap);
	for (size_t i = first; i < *n; i++)
		(*out)[i].flags |= ROW_CALLER;
}

static void sandwich_free(struct view *v)
{
	struct sandwich *s = state(v);
	if (!s)
		return;
	view_close(&s->callers);
	free(s->paths);
	free(s->nodes);
	free(s);
	v->state = NULL;
}

/* The two trees keep their places, each sorted on its own: built again,
 * as the call graph pane does. */
static void sandwich_sort(struct view *v)
{
	sandwich_free(v);
	v->nrows = 0;
	sandwich_build(v);
}

const struct view_ops sandwich_ops = {
	.name = "sandwich",
	.build = sandwich_build,
	.children = sandwich_children,
	.free_state = sandwich_free,
	.sort = sandwich_sort,
};
