#include "transform_lines.h"

#include <stdlib.h>
#include <string.h>

#include "base/util.h"

/* kept / all, exactly 1 when nothing was dropped. */
static double share(double kept, double all)
{
	if (kept == all)
		return 1;
	return all != 0 ? kept / all : 0;
}

/* Per node and type: the share of its callees' values kept (of the
 * subtree below it), exactly 1 when none was dropped; 0 for a part
 * unless `proportional`. */
static double *callee_shares(const struct model *src, const double *kept,
			     bool proportional)
{
	unsigned nt = src->ntypes;
	size_t n = (size_t)src->nnodes * nt;
	double *all = xcalloc(n + 1, sizeof(double)), *in = xcalloc(n + 1, sizeof(double));
	for (size_t k = src->nnodes; k-- > 0;) {
		uint32_t v = src->node_order[k], p = src->nodes[v].parent;
		for (unsigned t = 0; t < nt && p != NO_ID; t++) {
			size_t i = (size_t)v * nt + t, up = (size_t)p * nt + t;
			all[up] += all[i] + node_value(src, v, t);
			in[up] += in[i] + kept[i];
		}
	}
	for (size_t i = 0; i < n; i++) {
		double s = share(in[i], all[i]);
		all[i] = proportional || s == 1 ? s : 0;
	}
	free(in);
	return all;
}

static bool same_function(const struct model *src, uint32_t v, const struct model *out,
			  uint32_t to)
{
	return to != NO_ID && out->nodes[to].frame == src->nodes[v].frame;
}

static void add_line(struct model *out, uint32_t node, int32_t line, unsigned nt,
		     const double *self, const double *total)
{
	bool any = false;
	for (unsigned t = 0; t < nt; t++)
		any |= self[t] != 0 || total[t] != 0;
	if (!any)
		return;
	uint32_t j = model_node_line(out, node, line);
	for (unsigned t = 0; t < nt; t++) {
		node_line_self(out, j)[t] += self[t];
		node_line_total(out, j)[t] += total[t];
	}
}

void transform_move_node_lines(const struct line_moves *mv, struct model *out)
{
	const struct model *src = mv->src;
	unsigned nt = src->ntypes;
	if (!src->nnode_lines)
		return;
	double *callees = mv->kept ? callee_shares(src, mv->kept, mv->proportional) : NULL;
	double zero[MAX_SAMPLE_TYPES] = { 0 }, self[MAX_SAMPLE_TYPES], total[MAX_SAMPLE_TYPES];
	for (uint32_t k = 0; k < src->nnode_lines; k++) {
		uint32_t v = src->node_lines[k].node;
		int32_t line = src->node_lines[k].line;
		uint32_t self_to = mv->self_to[v], stack_to = mv->stack_to[v];
		bool self_kept = same_function(src, v, out, self_to);
		bool stack_kept = same_function(src, v, out, stack_to);
		for (unsigned t = 0; t < nt; t++) {
			size_t i = (size_t)v * nt + t;
			double own = node_line_self(src, k)[t];
			double below = node_line_total(src, k)[t] - own;
			double s = mv->kept ? share(mv->kept[i], node_value(src, v, t)) : 1;
			self[t] = self_kept ? own * s : 0;
			total[t] = stack_kept ? own * s + below * (callees ? callees[i] : 1) : 0;
		}
		if (self_kept && stack_kept && self_to == stack_to) {
			add_line(out, self_to, line, nt, self, total);
		} else {
			if (self_kept)
				add_line(out, self_to, line, nt, self, zero);
			if (stack_kept)
				add_line(out, stack_to, line, nt, zero, total);
		}
	}
	free(callees);
}
