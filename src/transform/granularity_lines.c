#include "granularity_lines.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "base/background.h"
#include "base/id_table.h"
#include "base/util.h"
#include "model/sample_counts.h"

/* The frames of functions' lines, by the function's frame and the line:
 * each of hundreds of thousands of ticks asks for one, and a function has
 * the same few lines at each of its nodes, so each is made and interned
 * once, then found by those two numbers instead of all of a frame's
 * fields.  With each, the arc from the function to it, once a link
 * needs it (the same pair whatever node it links). */
struct line_frames {
	struct id_table index;
	struct line_frame_key {
		uint32_t of;
		int32_t line;
		uint32_t frame;
		uint32_t arc; /* NO_ID until asked for (lines_over_kept_nodes) */
	} *keys;
	size_t n, cap;
	/* Per function's frame, its line met last (NO_ID: none): the one
	 * asked for again, as a function often has one line with ticks. */
	uint32_t *last;
};

/* Frame `of` of `out` (a function's, its strings in `out` already) at a
 * line, as its index in lf->keys; V8 numbers positionTicks from 1,
 * callFrame lines from 0. */
static uint32_t line_frame(const struct model *src, struct model *out, struct line_frames *lf,
			   uint32_t of, int32_t line)
{
	uint32_t last = lf->last[of];
	if (last != NO_ID && lf->keys[last].line == line)
		return last;
	struct id_probe p = id_table_probe(&lf->index,
					   hash_mix((uint64_t)of << 32 | (uint32_t)line));
	for (uint32_t id; (id = id_probe_next(&lf->index, &p)) != NO_ID;)
		if (lf->keys[id].of == of && lf->keys[id].line == line)
			return lf->last[of] = id;
	struct frame fr = out->frames[of];
	fr.line = src->lines_zero_based ? line - 1 : line;
	fr.column = -1;
	GROW(lf->keys, lf->cap, lf->n + 1);
	lf->keys[lf->n] =
		(struct line_frame_key){ of, line, model_intern_frame(out, &fr), NO_ID };
	id_table_add(&lf->index, &p, (uint32_t)lf->n);
	return lf->last[of] = (uint32_t)lf->n++;
}

/* The line ticks that split a node (a line and a tick), as indexes into
 * src->line_ticks by node then line: counted out by node, then each
 * node's few lines sorted in place, instead of sorting them all.
 * start[v]..start[v + 1] are node v's in the order returned. */
static uint32_t *ticks_by_node(const struct model *src, uint32_t **start_out)
{
	size_t n = src->nline_ticks;
	const struct line_ticks *t = src->line_ticks;
	uint32_t *start = xzeroed(src->nnodes + 2, sizeof(uint32_t));
	for (size_t i = 0; i < n; i++)
		if (t[i].line > 0 && t[i].ticks > 0)
			start[t[i].node + 2]++;
	for (size_t v = 0; v < src->nnodes; v++)
		start[v + 2] += start[v + 1];
	uint32_t *order = xmalloc((n + 1) * sizeof(uint32_t));
	for (size_t i = 0; i < n; i++)
		if (t[i].line > 0 && t[i].ticks > 0)
			order[start[t[i].node + 1]++] = (uint32_t)i;
	for (size_t v = 0; v < src->nnodes; v++)
		for (uint32_t k = start[v] + 1; k < start[v + 1]; k++) {
			uint32_t i = order[k], j = k;
			for (; j > start[v] && t[order[j - 1]].line > t[i].line; j--)
				order[j] = order[j - 1];
			order[j] = i;
		}
	*start_out = start;
	return order;
}

/* `whole` samples shared by `weights` (summing to `sum`) in whole
 * samples: each its floor, the rest one by one to the largest remainders,
 * so that no row shows a fraction of a sample and the parts sum to it. */
static void whole_parts(double whole, const double *weights, size_t n, double sum,
			double *out)
{
	double left = whole;
	for (size_t k = 0; k < n; k++) {
		out[k] = floor(whole * weights[k] / sum);
		left -= out[k];
	}
	for (; left >= 1; left--) {
		size_t best = 0;
		double best_rest = -1;
		for (size_t k = 0; k < n; k++) {
			double rest = whole * weights[k] / sum - out[k];
			if (rest > best_rest) {
				best = k;
				best_rest = rest;
			}
		}
		out[best]++;
	}
}

/* What splitting the nodes by their lines needs: their ticks by node,
 * the lines' frames, and room for one node's lines (their nodes and
 * ticks, the parts of a count), as large as the node with the most. */
struct line_split {
	uint32_t *order, *start; /* ticks_by_node */
	struct line_frames frames;
	uint32_t *nodes;
	double *weights;
	double *parts;
	uint32_t counts; /* src's type that counts samples, NO_ID if none */
};

static void line_split_init(struct line_split *ls, const struct model *src)
{
	memset(ls, 0, sizeof(*ls));
	ls->order = ticks_by_node(src, &ls->start);
	size_t most = 1;
	for (size_t v = 0; v < src->nnodes; v++)
		if (ls->start[v + 1] - ls->start[v] >= most)
			most = ls->start[v + 1] - ls->start[v] + 1;
	ls->nodes = xmalloc(most * sizeof(uint32_t));
	ls->weights = xmalloc(most * sizeof(double));
	ls->parts = xmalloc(most * sizeof(double));
	ls->counts = model_count_type(src);
	id_table_init(&ls->frames.index, src->nframes);
	/* A function's frame in the copy is one of src's or fewer. */
	ls->frames.last = xmalloc((src->nframes + 1) * sizeof(uint32_t));
	memset(ls->frames.last, 0xff, (src->nframes + 1) * sizeof(uint32_t)); /* NO_ID */
}

static void line_split_free(struct line_split *ls)
{
	id_table_free(&ls->frames.index);
	FREE_ALL(ls->order, ls->start, ls->frames.keys, ls->frames.last, ls->nodes, ls->weights,
		 ls->parts);
}

/* Node v's values to the nodes of its lines (ls->nodes, ls->weights
 * their ticks, n of each, summing to `sum`), added to `values` (src's
 * types a node); counts of samples in whole samples. */
static void share_by_ticks(const struct model *src, uint32_t v, struct line_split *ls, size_t n,
			   double sum, double *values)
{
	for (unsigned t = 0; t < src->ntypes; t++) {
		double value = node_value(src, v, t);
		if (t == ls->counts)
			whole_parts(round(value), ls->weights, n, sum, ls->parts);
		for (size_t k = 0; k < n; k++)
			values[(size_t)ls->nodes[k] * src->ntypes + t] +=
				t == ls->counts ? ls->parts[k] : value * ls->weights[k] / sum;
	}
}

void lines_split_copied(const struct model *src, struct model *out, const uint32_t *map,
			uint8_t *split)
{
	struct line_split ls;
	line_split_init(&ls, src);
	for (uint32_t v = 0; v < src->nnodes; v++) {
		size_t m = 0;
		double sum = 0;
		for (uint32_t k = ls.start[v]; k < ls.start[v + 1]; k++, m++) {
			const struct line_ticks *t = &src->line_ticks[ls.order[k]];
			uint32_t key = line_frame(src, out, &ls.frames, out->nodes[map[v]].frame,
						  t->line);
			ls.nodes[m] = model_add_child(out, map[v], ls.frames.keys[key].frame);
			ls.weights[m] = t->ticks;
			sum += t->ticks;
		}
		if (m) {
			share_by_ticks(src, v, &ls, m, sum, out->node_self);
			split[v] = 1;
		}
	}
	line_split_free(&ls);
}

/* Frame f met under `parent`: false when it was met there before. */
static bool meet(uint32_t *met, uint32_t f, uint32_t parent)
{
	bool first = met[f] != parent;
	met[f] = parent;
	return first;
}

bool lines_keep_nodes(const struct model *src, const uint32_t *fmap)
{
	for (uint32_t f = 0; f < src->nframes; f++)
		if (fmap[f] != f)
			return false;
	/* met[f]: the parent (nnodes for the roots) a frame was last met
	 * under.  Siblings of one frame are the links of one arc: the
	 * links' arcs, in turn, tell without fetching each child. */
	size_t most = src->nframes > src->narcs ? src->nframes : src->narcs;
	uint32_t *met = xmalloc((most + 1) * sizeof(uint32_t));
	memset(met, 0xff, (most + 1) * sizeof(uint32_t));
	bool kept = true;
	uint32_t roots = (uint32_t)src->nnodes;
	for (uint32_t v = 0; kept && v < src->nnodes; v++)
		if (src->nodes[v].parent == NO_ID)
			kept = meet(met, src->nodes[v].frame, roots);
	memset(met, 0xff, (most + 1) * sizeof(uint32_t));
	for (uint32_t v = 0; kept && v < src->nnodes; v++) {
		const struct node *p = &src->nodes[v];
		for (uint32_t i = p->child_start; kept && i < p->child_end; i++)
			kept = meet(met, src->link_arcs[i], v);
	}
	free(met);
	return kept;
}

/* Node v's child of frame f in src, NO_ID if none. */
static uint32_t child_of_frame(const struct model *src, uint32_t v, uint32_t f)
{
	const struct node *p = &src->nodes[v];
	for (uint32_t i = p->child_start; i < p->child_end; i++)
		if (src->nodes[src->child_ids[i]].frame == f)
			return src->child_ids[i];
	return NO_ID;
}

/* The tree by lines being made: src's nodes, then its lines' nodes, and
 * its links' arcs (model_adopt_link_arcs): src's arcs as they come
 * (`arc_of`: out's arc for each of src's, NO_ID until met) and a line's
 * by its frame. */
struct kept_tree {
	struct node *nodes;
	uint32_t *child_ids, *link_arcs;
	size_t nnodes, nlinks, nroots;
	uint32_t *arc_of;
};

/* out's arc standing for src's arc a, added when first met (the frames
 * are src's, id for id). */
static uint32_t kept_arc(const struct model *src, struct model *out, struct kept_tree *tree,
			 uint32_t a)
{
	if (tree->arc_of[a] == NO_ID) {
		tree->arc_of[a] = (uint32_t)out->narcs;
		model_add_arc(out, src->arcs[a].caller, src->arcs[a].callee, 0, 0);
	}
	return tree->arc_of[a];
}

/* The arc from a function to its line's frame (lf->keys[key]): src's
 * where src has that pair (a line's frame can be one of src's), else
 * one of its own, added when first met. */
static uint32_t line_arc(const struct model *src, struct model *out, struct kept_tree *tree,
			 struct line_frame_key *k)
{
	if (k->arc != NO_ID)
		return k->arc;
	uint32_t a = k->frame < src->nframes ? model_find_arc(src, k->of, k->frame) : NO_ID;
	if (a != NO_ID) {
		k->arc = kept_arc(src, out, tree, a);
	} else {
		k->arc = (uint32_t)out->narcs;
		model_add_arc(out, k->of, k->frame, 0, 0);
	}
	return k->arc;
}

/* Node v's children as src has them, linked in turn. */
static void kept_children(const struct model *src, struct model *out, struct kept_tree *tree,
			  uint32_t v)
{
	const struct node *s = &src->nodes[v];
	for (uint32_t i = s->child_start; i < s->child_end; i++) {
		tree->child_ids[tree->nlinks] = src->child_ids[i];
		tree->link_arcs[tree->nlinks++] = kept_arc(src, out, tree, src->link_arcs[i]);
	}
}

/* Node v's lines, each the node of its frame under v: src's child of
 * that frame where v has one (a line's frame can be a child's), else a
 * new node of the tree, linked after v's children; ls->nodes and
 * ls->weights get them; returns how many and their ticks' sum. */
static size_t line_nodes(const struct model *src, struct model *out, struct line_split *ls,
			 struct kept_tree *tree, uint32_t v, double *sum)
{
	size_t m = 0;
	uint32_t last_frame = NO_ID;
	for (uint32_t k = ls->start[v]; k < ls->start[v + 1]; k++, m++) {
		const struct line_ticks *t = &src->line_ticks[ls->order[k]];
		uint32_t key = line_frame(src, out, &ls->frames, src->nodes[v].frame, t->line);
		uint32_t fr = ls->frames.keys[key].frame;
		/* A line met again comes next (they are sorted); a new frame
		 * is no child's. */
		uint32_t node = fr == last_frame ? ls->nodes[m - 1]
				: fr < src->nframes ? child_of_frame(src, v, fr) : NO_ID;
		if (node == NO_ID) {
			node = (uint32_t)tree->nnodes++;
			tree->nodes[node] = (struct node){ .frame = fr, .parent = v };
			tree->child_ids[tree->nlinks] = node;
			tree->link_arcs[tree->nlinks++] =
				line_arc(src, out, tree, &ls->frames.keys[key]);
		}
		last_frame = fr;
		ls->nodes[m] = node;
		ls->weights[m] = t->ticks;
		*sum += t->ticks;
	}
	return m;
}

/* The tree's node_order from src's: breadth first, src's nodes come in
 * src's order (a line's node has no children), so each of them in turn
 * puts its children, src's and its lines', after those so far; src's
 * roots, the first in its order, are the tree's. */
static uint32_t *kept_order(const struct model *src, const struct kept_tree *tree)
{
	uint32_t *order = xmalloc((tree->nnodes + 1) * sizeof(uint32_t));
	memcpy(order, src->node_order, tree->nroots * sizeof(uint32_t));
	size_t tail = tree->nroots, n = src->nnodes;
	const uint32_t *by = src->node_order;
	for (size_t k = 0; k < n; k++) {
		/* That order reaches the nodes at random, but it is known
		 * ahead: each node, then its list, is fetched some turns
		 * before its own. */
		if (k + 16 < n)
			__builtin_prefetch(&tree->nodes[by[k + 16]]);
		if (k + 8 < n)
			__builtin_prefetch(&tree->child_ids[tree->nodes[by[k + 8]].child_start]);
		const struct node *p = &tree->nodes[by[k]];
		for (uint32_t i = p->child_start; i < p->child_end; i++)
			order[tail++] = tree->child_ids[i];
	}
	return order;
}

void lines_over_kept_nodes(const struct model *src, struct model *out, uint8_t *split)
{
	size_t n = src->nnodes;
	struct line_split ls;
	line_split_init(&ls, src);
	/* Room for every tick a node of its own. */
	size_t most = n + ls.start[n], most_links = src->parents_start[n] + ls.start[n];
	struct kept_tree tree = {
		.nodes = xmalloc((most + 1) * sizeof(struct node)),
		.child_ids = xmalloc((most_links + 1) * sizeof(uint32_t)),
		.link_arcs = xmalloc((most_links + 1) * sizeof(uint32_t)),
		.arc_of = xmalloc((src->narcs + 1) * sizeof(uint32_t)),
	};
	memset(tree.arc_of, 0xff, (src->narcs + 1) * sizeof(uint32_t)); /* NO_ID */
	double *values = xzeroed((most + 1) * src->ntypes, sizeof(double));
	/* In turn: each node, its children as src has them, then its
	 * lines' new nodes, whose ids follow src's. */
	tree.nnodes = n;
	uint32_t v = 0;
	for (; v < n; v++) {
		if (!background_pause_in_loop(v, PAUSE_EVERY_NODES))
			break; /* stopped: so is model_by_granularity */
		const struct node *s = &src->nodes[v];
		tree.nodes[v] = (struct node){ .frame = s->frame, .parent = s->parent,
					       .child_start = (uint32_t)tree.nlinks };
		tree.nroots += s->parent == NO_ID;
		kept_children(src, out, &tree, v);
		double sum = 0;
		size_t m = line_nodes(src, out, &ls, &tree, v, &sum);
		if (m) {
			share_by_ticks(src, v, &ls, m, sum, values);
			split[v] = 1;
		}
		tree.nodes[v].child_end = (uint32_t)tree.nlinks;
	}
	line_split_free(&ls);
	free(tree.arc_of);
	if (v < n) { /* stopped: nothing of it is handed over */
		FREE_ALL(tree.nodes, tree.child_ids, tree.link_arcs, values);
		return;
	}
	for (size_t w = n; w < tree.nnodes; w++)
		tree.nodes[w].child_start = tree.nodes[w].child_end = (uint32_t)tree.nlinks;
	uint32_t *order = kept_order(src, &tree);
	model_adopt_tree(out, tree.nodes, tree.nnodes, tree.child_ids, values);
	model_adopt_link_arcs(out, tree.link_arcs);
	model_adopt_node_order(out, order);
	/* After the lines' shares, as a copy node by node adds them. */
	for (v = 0; v < n; v++)
		for (unsigned t = 0; !split[v] && t < src->ntypes; t++)
			model_add_node_value(out, v, t, node_value(src, v, t));
}
