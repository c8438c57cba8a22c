#include "filter_view.h"

#include <stdlib.h>
#include <string.h>

#include "base/util.h"
#include "transform_lines.h"

bool filter_view_applies(enum transform_kind kind)
{
	return kind != TF_TAGROOT;
}

static bool keeps_shape(enum transform_kind kind)
{
	return kind == TF_FOCUS || kind == TF_IGNORE || kind == TF_PRUNE_FROM ||
	       kind == TF_TAGFOCUS || kind == TF_TAGIGNORE;
}

static bool is_tag_filter(enum transform_kind kind)
{
	return kind == TF_TAGFOCUS || kind == TF_TAGIGNORE;
}

/* One view being made.  Per node of src: the node of out its self goes
 * to (`to`) and the node standing for its stack (`stack`), NO_ID when
 * dropped; a node lines' total goes to the latter (transform_lines.h). */
struct making {
	const struct model *src;
	const struct transform *t;
	struct model *out;
	uint8_t *hit;      /* per frame of src */
	uint32_t *into;    /* collapse: per frame of src, its file's frame */
	double *kept;      /* tag filters: per node of src and type */
	uint8_t *row_kept; /* tag filters: per label row */
	uint32_t *to;
	uint32_t *stack;
};

static double kept_value(const struct making *mk, uint32_t v, unsigned t)
{
	return mk->kept ? mk->kept[(size_t)v * mk->src->ntypes + t] : node_value(mk->src, v, t);
}

/* Per node of out (n of them), the values of the nodes of src sent to
 * it, added in src's order as the copy adds them. */
static double *sum_values(const struct making *mk, const uint32_t *to, size_t n)
{
	const struct model *src = mk->src;
	unsigned nt = src->ntypes;
	double *values = xcalloc(n * nt + 1, sizeof(double));
	for (uint32_t v = 0; v < src->nnodes; v++)
		for (unsigned t = 0; to[v] != NO_ID && t < nt; t++)
			values[(size_t)to[v] * nt + t] += kept_value(mk, v, t);
	return values;
}

static bool holds_value(const double *values, size_t node, unsigned nt)
{
	for (unsigned t = 0; t < nt; t++)
		if (values[node * nt + t] != 0)
			return true;
	return false;
}

/* ---- what goes with the values ------------------------------------------ */

static void view_labels(const struct making *mk)
{
	const struct model *src = mk->src;
	struct model *out = mk->out;
	out->labels = NULL;
	out->nlabels = out->labels_cap = 0;
	out->range.owns |= VIEW_OWNS_LABELS;
	for (size_t i = 0; i < src->nlabels; i++) {
		struct sample_label l = src->labels[i];
		if ((mk->row_kept && !mk->row_kept[l.row]) || mk->to[l.node] == NO_ID)
			continue;
		l.node = mk->to[l.node]; /* its strings are out's too */
		model_add_label(out, &l);
	}
}

/* V8's ticks stay with a node that is still its function's. */
static void view_line_ticks(const struct making *mk)
{
	const struct model *src = mk->src;
	struct model *out = mk->out;
	out->line_ticks = NULL;
	out->nline_ticks = out->line_ticks_cap = 0; /* its lines (model_view_start) */
	for (size_t i = 0; i < src->nline_ticks; i++) {
		const struct line_ticks *lt = &src->line_ticks[i];
		if (i + 16 < src->nline_ticks) { /* two nodes a tick, far apart */
			uint32_t ahead = src->line_ticks[i + 16].node;
			__builtin_prefetch(&src->nodes[ahead]);
			if (mk->to[ahead] != NO_ID)
				__builtin_prefetch(&out->nodes[mk->to[ahead]]);
		}
		uint32_t to = mk->to[lt->node];
		if (to != NO_ID && out->nodes[to].frame == src->nodes[lt->node].frame)
			model_add_line_ticks(out, to, lt->line, lt->ticks);
	}
}

/* pprof's lines: focus and ignore keep a node's lines where they keep
 * its whole subtree, the tag filters in the share of the values kept
 * (as the copy moves them). */
static void view_node_lines(const struct making *mk)
{
	const struct model *src = mk->src;
	if (!src->nnode_lines)
		return;
	unsigned nt = src->ntypes;
	double *kept = NULL;
	enum transform_kind kind = mk->t->kind;
	if (kind == TF_FOCUS || kind == TF_IGNORE) {
		kept = xmalloc(((size_t)src->nnodes * nt + 1) * sizeof(double));
		for (uint32_t v = 0; v < src->nnodes; v++)
			for (unsigned t = 0; t < nt; t++)
				kept[(size_t)v * nt + t] = mk->to[v] == NO_ID ? 0 : node_value(src, v, t);
	}
	struct line_moves mv = { src, mk->to, mk->stack, mk->kept ? mk->kept : kept,
				 mk->kept != NULL };
	transform_move_node_lines(&mv, mk->out);
	free(kept);
}

static void view_first_leaves(const struct making *mk)
{
	const struct model *src = mk->src;
	struct model *out = mk->out;
	out->first_leaves = NULL;
	out->nfirst_leaves = 0;
	out->range.owns |= VIEW_OWNS_LEAVES;
	if (!src->first_leaves)
		return;
	out->first_leaves = xmalloc((src->nfirst_leaves + 1) * sizeof(uint32_t));
	for (size_t i = 0; i < src->nfirst_leaves; i++) {
		uint32_t to = mk->to[src->first_leaves[i]];
		if (to != NO_ID)
			out->first_leaves[out->nfirst_leaves++] = to;
	}
}

/* As model_copy_header makes a filter's copy: the whole profile's
 * totals and sample count, no timeline. */
static void view_header(const struct model *src, struct model *out)
{
	for (unsigned t = 0; t < src->ntypes; t++)
		out->type_total[t] = model_type_total(src, t);
	out->has_type_totals = true;
	out->summed_samples = model_sample_count(src);
	out->sample_node = NULL;
	out->sample_duration = NULL;
	out->nsamples = out->samples_cap = 0;
	out->sample_offsets = NULL;
	out->nsample_offsets = 0;
	out->integral_samples = 0;
	out->live = (struct live_window){ 0 };
	out->frame_self = NULL;
	out->frame_self_cap = 0;
	out->caps &= HAS_NODES | HAS_STACKS;
}

/* ---- filters that keep the tree's shape ------------------------------------ */

/* Nothing left: as a copy without nodes, no node, arc or call. */
static void empty_view(struct model *out)
{
	out->caps = 0;
	out->nnodes = 0;
	out->arcs = NULL;
	out->narcs = out->arcs_cap = 0;
	out->callers_start = xcalloc(out->nframes + 2, sizeof(uint32_t));
	out->callees_start = xcalloc(out->nframes + 2, sizeof(uint32_t));
	out->callees_arcs = xcalloc(1, sizeof(uint32_t));
	out->frame_calls = xcalloc(out->nframes + 1, sizeof(double));
	out->range.owns |= VIEW_OWNS_GRAPH;
}

/* Where each node's self goes: to itself, to prune_from's deepest match
 * above it, or nowhere (focus and ignore by the matches on its stack). */
static void shape_targets(const struct making *mk, uint32_t *to)
{
	const struct model *src = mk->src;
	size_t n = src->nnodes;
	uint8_t *matched = xcalloc(n + 1, 1);
	uint32_t *cut = xmalloc((n + 1) * sizeof(uint32_t));
	for (size_t k = 0; k < n; k++) {
		uint32_t v = src->node_order[k], p = src->nodes[v].parent;
		bool hit = mk->hit[src->nodes[v].frame];
		matched[v] = hit || (p != NO_ID && matched[p]);
		cut[v] = hit ? v : p != NO_ID ? cut[p] : NO_ID;
		switch (mk->t->kind) {
		case TF_FOCUS:
			to[v] = matched[v] ? v : NO_ID;
			break;
		case TF_IGNORE:
			to[v] = matched[v] ? NO_ID : v;
			break;
		case TF_PRUNE_FROM:
			to[v] = cut[v] != NO_ID ? cut[v] : v;
			break;
		default:
			to[v] = v;
			break;
		}
	}
	free(cut);
	free(matched);
}

static void keep_shape(struct making *mk)
{
	const struct model *src = mk->src;
	struct model *out = mk->out;
	size_t n = src->nnodes;
	unsigned nt = src->ntypes;
	uint32_t *to = xmalloc((n + 1) * sizeof(uint32_t));
	shape_targets(mk, to);
	out->node_self = sum_values(mk, to, n);
	out->node_self_cap = n * nt + 1;
	out->range.owns |= VIEW_OWNS_VALUES;
	/* A node stays where a value is left at it or under it. */
	uint8_t *shown = xcalloc(n + 1, 1);
	for (size_t k = n; k-- > 0;) {
		uint32_t v = src->node_order[k], p = src->nodes[v].parent;
		shown[v] |= holds_value(out->node_self, v, nt);
		if (shown[v] && p != NO_ID)
			shown[p] = 1;
	}
	mk->to = to;
	mk->stack = xmalloc((n + 1) * sizeof(uint32_t));
	bool any = false;
	for (uint32_t v = 0; v < n; v++) {
		if (to[v] != NO_ID && !shown[to[v]])
			to[v] = NO_ID;
		mk->stack[v] = shown[v] ? v : NO_ID;
		any |= shown[v];
	}
	out->range.hidden_arcs = model_hidden_arcs(src, shown);
	for (size_t v = 0; v < n; v++)
		shown[v] = !shown[v];
	out->range.hidden_nodes = shown;
	if (!any)
		empty_view(out);
}

/* ---- filters that merge stacks ------------------------------------------------ */

/* A node of the view while the stacks are merged, with the nodes of src
 * that went to it (`first`, then `next_member` from node to node). */
struct new_node {
	uint32_t frame, parent;
	uint32_t creator; /* the earliest in src's node order to make it */
	uint32_t first, last;
};

/* Stands above the roots: what goes to it is dropped. */
#define ABOVE_ROOTS 0

struct merging {
	struct making *mk;
	struct new_node *nodes;
	size_t n, cap;
	uint32_t *at;          /* per node of src: its new node */
	uint32_t *next_member; /* per node of src */
	uint32_t *order_pos;   /* per node of src: its place in src's node order */
	/* Per frame of out: the new node whose children are being found,
	 * and its child of that frame. */
	uint32_t *stamp, *child;
	uint32_t *pending; /* new nodes whose children are still to find */
	size_t npending, pending_cap;
};

static uint32_t add_new_node(struct merging *g, uint32_t parent, uint32_t frame)
{
	GROW(g->nodes, g->cap, g->n + 1);
	g->nodes[g->n] = (struct new_node){ frame, parent, UINT32_MAX, NO_ID, NO_ID };
	return (uint32_t)g->n++;
}

static void add_member(struct merging *g, uint32_t q, uint32_t v)
{
	struct new_node *node = &g->nodes[q];
	g->at[v] = q;
	g->next_member[v] = NO_ID;
	if (node->first == NO_ID)
		node->first = v;
	else
		g->next_member[node->last] = v;
	node->last = v;
}

static bool on_stack(const struct merging *g, uint32_t q, uint32_t frame)
{
	for (; q != ABOVE_ROOTS; q = g->nodes[q].parent)
		if (g->nodes[q].frame == frame)
			return true;
	return false;
}

/* The frame of the new node node c of src makes under q, NO_ID when c
 * goes to q itself: the heart of each transform, as the copy's. */
static uint32_t placed_frame(const struct merging *g, uint32_t q, uint32_t c)
{
	const struct making *mk = g->mk;
	uint32_t f = mk->src->nodes[c].frame;
	bool hit = mk->hit[f], top = q == ABOVE_ROOTS;
	switch (mk->t->kind) {
	case TF_HIDE:
	case TF_MERGE:
		return hit ? NO_ID : f;
	case TF_SHOW:
		return hit ? f : NO_ID;
	case TF_MINE:
		/* A frame outside with nothing of mine above it stays. */
		return hit && !top ? NO_ID : f;
	case TF_COLLAPSE_RECURSION:
		return hit && on_stack(g, q, f) ? NO_ID : f;
	case TF_COLLAPSE_FILE:
		if (!hit)
			return f;
		return !top && g->nodes[q].frame == mk->into[f] ? NO_ID : mk->into[f];
	default:
		return f;
	}
}

static void place(struct merging *g, uint32_t q, uint32_t c)
{
	if (node_hidden(g->mk->src, c))
		return;
	uint32_t f = placed_frame(g, q, c);
	if (f == NO_ID) {
		add_member(g, q, c);
		return;
	}
	uint32_t r;
	if (g->stamp[f] == q) {
		r = g->child[f];
	} else {
		r = add_new_node(g, q, f);
		g->stamp[f] = q;
		g->child[f] = r;
		GROW(g->pending, g->pending_cap, g->npending + 1);
		g->pending[g->npending++] = r;
	}
	add_member(g, r, c);
	if (g->order_pos[c] < g->nodes[r].creator)
		g->nodes[r].creator = g->order_pos[c];
}

/* The children of new node q: those of the nodes of src in it, where a
 * child that goes to q itself brings its own.  Every child of q is
 * found here, so a stamp per frame tells them apart. */
static void place_below(struct merging *g, uint32_t q)
{
	const struct model *src = g->mk->src;
	if (q == ABOVE_ROOTS)
		for (size_t k = 0; k < src->nnodes && src->nodes[src->node_order[k]].parent == NO_ID; k++)
			place(g, q, src->node_order[k]);
	for (uint32_t m = g->nodes[q].first; m != NO_ID; m = g->next_member[m])
		for (uint32_t i = src->nodes[m].child_start; i < src->nodes[m].child_end; i++)
			place(g, q, src->child_ids[i]);
}

/* The new nodes in the order the copy makes them (each when the first
 * node of src in src's node order makes it): their rank, 0 first. */
static uint32_t *creation_ranks(const struct merging *g, size_t nsrc)
{
	uint32_t *by_pos = xmalloc((nsrc + 1) * sizeof(uint32_t));
	memset(by_pos, 0xff, (nsrc + 1) * sizeof(uint32_t));
	for (uint32_t r = 1; r < g->n; r++)
		by_pos[g->nodes[r].creator] = r;
	uint32_t *rank = xmalloc((g->n + 1) * sizeof(uint32_t));
	rank[ABOVE_ROOTS] = NO_ID;
	uint32_t next = 0;
	for (size_t pos = 0; pos < nsrc; pos++)
		if (by_pos[pos] != NO_ID)
			rank[by_pos[pos]] = next++;
	free(by_pos);
	return rank;
}

static void find_new_nodes(struct merging *g)
{
	const struct model *src = g->mk->src;
	size_t n = src->nnodes, nf = g->mk->out->nframes;
	g->at = xmalloc((n + 1) * sizeof(uint32_t));
	memset(g->at, 0xff, (n + 1) * sizeof(uint32_t));
	g->next_member = xmalloc((n + 1) * sizeof(uint32_t));
	g->order_pos = xmalloc((n + 1) * sizeof(uint32_t));
	for (size_t k = 0; k < n; k++)
		g->order_pos[src->node_order[k]] = (uint32_t)k;
	g->stamp = xmalloc((nf + 1) * sizeof(uint32_t));
	memset(g->stamp, 0xff, (nf + 1) * sizeof(uint32_t));
	g->child = xmalloc((nf + 1) * sizeof(uint32_t));
	/* A new node is made with a node of src in it: n + 1 at most, above
	 * the roots included, so neither array is copied as it grows. */
	g->cap = g->pending_cap = n + 1;
	g->nodes = xmalloc(g->cap * sizeof(*g->nodes));
	g->pending = xmalloc(g->pending_cap * sizeof(uint32_t));
	add_new_node(g, NO_ID, NO_ID);
	place_below(g, ABOVE_ROOTS);
	while (g->npending)
		place_below(g, g->pending[--g->npending]);
}

/* Node v's stack for its lines, collapsing a recursion: the outer
 * call's node (the new node above it of its function).  (Any other
 * filter's is v's own node.) */
static uint32_t recursion_stack_of(const struct merging *g, uint32_t v)
{
	uint32_t q = g->at[v], f = g->mk->src->nodes[v].frame;
	while (q != ABOVE_ROOTS && g->nodes[q].frame != f)
		q = g->nodes[q].parent;
	return q;
}

/* A new node in rank order: its frame and its parent's rank. */
struct ranked {
	uint32_t frame, parent;
};

/* The new nodes in rank order, read in that order by the passes after:
 * one pass of random reads here instead of one in each of them. */
static struct ranked *rank_nodes(const struct merging *g, const uint32_t *rank)
{
	size_t count = g->n - 1;
	struct ranked *ranked = xmalloc((count + 1) * sizeof(*ranked));
	for (uint32_t r = 1; r < g->n; r++)
		ranked[rank[r]] = (struct ranked){ g->nodes[r].frame, rank[g->nodes[r].parent] };
	return ranked;
}

/* The new nodes with a value at them or under them become out's, in
 * the copy's order; `to` and `stack` in out's numbering. */
static void merged_nodes(struct merging *g, const uint32_t *rank)
{
	struct making *mk = g->mk;
	const struct model *src = mk->src;
	size_t n = src->nnodes, count = g->n - 1;
	unsigned nt = src->ntypes;
	uint32_t *to = xmalloc((n + 1) * sizeof(uint32_t));
	for (uint32_t v = 0; v < n; v++)
		to[v] = g->at[v] == NO_ID ? NO_ID : rank[g->at[v]];
	double *values = sum_values(mk, to, count);
	struct ranked *ranked = rank_nodes(g, rank);
	/* Parents are made before their children: from the last, a node
	 * kept keeps its parent. */
	uint8_t *shown = xcalloc(count + 1, 1);
	for (size_t k = count; k-- > 0;) {
		uint32_t parent = ranked[k].parent;
		shown[k] |= holds_value(values, k, nt);
		if (shown[k] && parent != NO_ID)
			shown[parent] = 1;
	}
	uint32_t *final = xmalloc((count + 1) * sizeof(uint32_t));
	struct node *nodes = xmalloc((count + 1) * sizeof(*nodes));
	size_t kept = 0;
	for (size_t k = 0; k < count; k++) {
		final[k] = NO_ID;
		if (!shown[k])
			continue;
		uint32_t parent = ranked[k].parent;
		nodes[kept] = (struct node){ .frame = ranked[k].frame,
					     .parent = parent == NO_ID ? NO_ID : final[parent] };
		memmove(values + kept * nt, values + k * nt, nt * sizeof(double));
		final[k] = (uint32_t)kept++;
	}
	mk->to = to;
	mk->stack = xmalloc((n + 1) * sizeof(uint32_t));
	bool recursion = mk->t->kind == TF_COLLAPSE_RECURSION;
	for (uint32_t v = 0; v < n; v++) {
		to[v] = to[v] == NO_ID ? NO_ID : final[to[v]];
		if (!recursion) { /* its stack is its node */
			mk->stack[v] = to[v];
			continue;
		}
		uint32_t s = g->at[v] == NO_ID ? ABOVE_ROOTS : recursion_stack_of(g, v);
		mk->stack[v] = s == ABOVE_ROOTS ? NO_ID : final[rank[s]];
	}
	model_view_nodes(mk->out, nodes, kept, values);
	if (!kept) /* as a copy without nodes */
		mk->out->caps = 0;
	free(final);
	free(shown);
	free(ranked);
}

static void merge_stacks(struct making *mk)
{
	struct merging g = { .mk = mk };
	find_new_nodes(&g);
	/* What went above the roots is dropped (show, hide of a root). */
	for (uint32_t v = 0; v < mk->src->nnodes; v++)
		if (g.at[v] == ABOVE_ROOTS)
			g.at[v] = NO_ID;
	uint32_t *rank = creation_ranks(&g, mk->src->nnodes);
	merged_nodes(&g, rank);
	free(rank);
	FREE_ALL(g.nodes, g.at, g.next_member, g.order_pos, g.stamp, g.child, g.pending);
}

/* ---- the view ------------------------------------------------------------------- */

static void pick(struct making *mk)
{
	const struct model *src = mk->src;
	const struct transform *t = mk->t;
	if (t->kind == TF_COLLAPSE_FILE) {
		model_view_own_frames(mk->out); /* for the frames it adds */
		mk->hit = xcalloc(src->nframes + 1, 1);
		mk->into = transform_collapse_frames(src, t, mk->out, mk->hit);
	} else if (is_tag_filter(t->kind)) {
		mk->hit = xcalloc(src->nframes + 1, 1);
		mk->kept = transform_tag_values(src, t, &mk->row_kept);
	} else {
		mk->hit = transform_frame_hits(src, t);
	}
}

bool filter_view_make(const struct model *src, const struct transform *t,
		      struct model *out, const char **why_not)
{
	if (!(src->caps & HAS_STACKS) || (src->caps & HAS_NODE_GRAPH)) {
		*why_not = "this profile has no whole stacks to filter";
		return false;
	}
	if (!filter_view_applies(t->kind)) {
		*why_not = "this filter makes new stacks: it is copied, not viewed";
		return false;
	}
	struct making mk = { .src = src, .t = t, .out = out };
	model_view_start(out, src);
	view_header(src, out);
	pick(&mk);
	if (keeps_shape(t->kind))
		keep_shape(&mk);
	else
		merge_stacks(&mk);
	view_labels(&mk);
	view_line_ticks(&mk);
	view_node_lines(&mk);
	view_first_leaves(&mk);
	model_view_finish(out);
	FREE_ALL(mk.hit, mk.into, mk.kept, mk.row_kept, mk.to, mk.stack);
	return true;
}
