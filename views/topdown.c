/* Top-down: the call tree as recorded, each node with its own self time
 * and the time of everything below it.  A node's numbers do not depend on
 * the rule (a call path is counted once); the rules decide how nodes are
 * merged into functions, which the other panes show. */
#include <math.h>

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

static void topdown_build(struct view *v)
{
	const struct model *m = v->ctx->model;
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
	const struct node *p = &m->nodes[v->rows[index].item];
	for (uint32_t i = p->child_start; i < p->child_end; i++) {
		struct row r = node_row(v, m->child_ids[i]);
		view_append(out, n, cap, &r);
	}
}

const struct view_ops topdown_ops = {
	.name = "top-down",
	.build = topdown_build,
	.children = topdown_children,
};
