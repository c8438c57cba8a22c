#include "granularity.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "base/util.h"
#include "model/sample_counts.h"
#include "transform/file_nodes.h"

static const char *const granularity_names[GRANULARITY_COUNT] = {
	[GRANULARITY_FUNCTIONS] = "functions",
	[GRANULARITY_FILES] = "files",
	[GRANULARITY_LINES] = "lines",
	[GRANULARITY_ADDRESSES] = "addresses",
};

ENUM_PARSE_FN(granularity_parse, enum granularity, granularity_names)
ENUM_NAME_FN(granularity_name, enum granularity, granularity_names)

bool model_has_addresses(const struct model *m)
{
	static const char *const formats[] = { "pprof", "pprof-legacy", "gperftools" };
	return name_index(formats, (int)ARRAY_LEN(formats), m->format) >= 0;
}

bool granularity_read_again(const struct model *m, enum granularity g)
{
	return (g == GRANULARITY_LINES && !strcmp(m->format, "pprof")) ||
	       (g == GRANULARITY_ADDRESSES && model_has_addresses(m));
}

enum granularity granularity_next(enum granularity g, const struct model *m)
{
	g = (g + 1) % GRANULARITY_COUNT;
	if (g == GRANULARITY_ADDRESSES && !model_has_addresses(m))
		g = GRANULARITY_FUNCTIONS;
	return g;
}

/* A file as out's frame: the file is the name, once is enough on a
 * row; `mark` is pprof's label of a file called only inlined, or in both
 * ways. */
static uint32_t file_frame(struct model *out, const char *file, const char *mark, uint8_t kind)
{
	struct frame fr = { .url = STR_NONE, .extra = STR_NONE, .line = -1, .column = -1,
			    .kind = kind };
	size_t n = strlen(file), m = strlen(mark);
	char *name = xmalloc(n + m + 1);
	memcpy(name, file, n);
	memcpy(name + n, mark, m + 1);
	fr.name = model_string(out, name, n + m);
	free(name);
	return model_intern_frame(out, &fr);
}

/* The frame standing for src's frame f in the new model. */
static uint32_t new_frame(const struct model *src, struct model *out, uint32_t f,
			  enum granularity g, const char *mark)
{
	struct frame fr = src->frames[f];
	if (g == GRANULARITY_FILES && *model_str(src, fr.url))
		return file_frame(out, model_str(src, fr.url), mark, fr.kind);
	fr.name = model_copy_string(src, out, fr.name);
	fr.url = model_copy_string(src, out, fr.url);
	fr.extra = model_copy_string(src, out, fr.extra);
	return model_intern_frame(out, &fr);
}

enum { CALLED_INLINED = 1, CALLED_NOT_INLINED = 2 };

static int by_url(const void *a, const void *b, void *model)
{
	const struct model *m = model;
	const struct frame *x = &m->frames[*(const uint32_t *)a];
	const struct frame *y = &m->frames[*(const uint32_t *)b];
	return x->url < y->url ? -1 : x->url > y->url;
}

/* pprof labels a node by the calls into it from other nodes: "(inline)"
 * when all were inlined, "(partial-inline)" when some were. */
static uint8_t *file_calls(const struct model *src)
{
	uint8_t *called = xcalloc(src->nframes + 1, 1);
	for (uint32_t v = 0; v < src->nnodes; v++) {
		uint32_t p = src->nodes[v].parent, f = src->nodes[v].frame;
		if (p != NO_ID && src->frames[src->nodes[p].frame].url != src->frames[f].url)
			called[f] |= src->frames[f].flags & FRAME_INLINED ? CALLED_INLINED
									  : CALLED_NOT_INLINED;
	}
	uint32_t *order = xmalloc((src->nframes + 1) * sizeof(uint32_t));
	for (uint32_t f = 0; f < src->nframes; f++)
		order[f] = f;
	if (src->nframes)
		qsort_r(order, src->nframes, sizeof(uint32_t), by_url, (void *)src);
	for (size_t i = 0, j; i < src->nframes; i = j) {
		uint8_t all = 0;
		str_t url = src->frames[order[i]].url;
		for (j = i; j < src->nframes && src->frames[order[j]].url == url; j++)
			all |= called[order[j]];
		for (size_t k = i; k < j; k++)
			called[order[k]] = all;
	}
	free(order);
	return called;
}

static bool has_inlined_frames(const struct model *m)
{
	for (size_t f = 0; f < m->nframes; f++)
		if (m->frames[f].flags & FRAME_INLINED)
			return true;
	return false;
}

static uint32_t *frame_map(const struct model *src, struct model *out, enum granularity g)
{
	/* Without an inlined frame no file is called inlined: no walk of
	 * every node for the marks (a V8 profile has none). */
	uint8_t *called = g == GRANULARITY_FILES && has_inlined_frames(src) ? file_calls(src)
									      : NULL;
	uint32_t *fmap = xmalloc((src->nframes + 1) * sizeof(uint32_t));
	for (uint32_t f = 0; f < src->nframes; f++) {
		uint8_t c = called ? called[f] : 0;
		fmap[f] = new_frame(src, out, f, g,
				    c == (CALLED_INLINED | CALLED_NOT_INLINED) ? " (partial-inline)"
				    : c == CALLED_INLINED ? " (inline)" : "");
	}
	free(called);
	return fmap;
}

/* Frame `of` of `out` (a function's, its strings in `out` already) at a
 * line; V8 numbers positionTicks from 1, callFrame lines from 0. */
static uint32_t line_frame(const struct model *src, struct model *out, uint32_t of,
			   int32_t line)
{
	struct frame fr = out->frames[of];
	fr.line = src->lines_zero_based ? line - 1 : line;
	fr.column = -1;
	return model_intern_frame(out, &fr);
}

/* The line ticks that split a node (a line and a tick), as indexes into
 * src->line_ticks by node then line: counted out by node, then each
 * node's few lines sorted in place, instead of sorting them all.
 * start[v]..start[v + 1] are node v's in the order returned. */
static uint32_t *ticks_by_node(const struct model *src, uint32_t **start_out)
{
	size_t n = src->nline_ticks;
	const struct line_ticks *t = src->line_ticks;
	uint32_t *start = xcalloc(src->nnodes + 2, sizeof(uint32_t));
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

/* Room to split one node by its lines: its lines' nodes and ticks, and
 * the parts of a count, as large as the node with the most lines. */
struct line_split {
	uint32_t *nodes;
	double *weights;
	double *parts;
	/* Where the copy keeps src's nodes (nodes_kept): for each frame of
	 * `out`, the node last met with it among the children of `parent_of`
	 * (NO_ID: none), so that a node's lines find their nodes without the
	 * copy's index of stacks, which that copy does not fill. */
	bool kept;
	uint32_t *parent_of, *child;
	uint32_t counts; /* src's type that counts samples, NO_ID if none */
};

/* Node v's values to the nodes of its lines by their ticks; counts of
 * samples in whole samples. */
static void share_by_ticks(const struct model *src, struct model *out, uint32_t v,
			   const struct line_split *ls, size_t n, double sum)
{
	for (unsigned t = 0; t < src->ntypes; t++) {
		double value = node_value(src, v, t);
		if (t == ls->counts)
			whole_parts(round(value), ls->weights, n, sum, ls->parts);
		for (size_t k = 0; k < n; k++)
			model_add_node_value(out, ls->nodes[k], t,
					     t == ls->counts ? ls->parts[k]
							     : value * ls->weights[k] / sum);
	}
}

/* The node of frame `frame` under `parent` in `out`, made when there is
 * none. */
static uint32_t line_child(struct model *out, struct line_split *ls, uint32_t parent,
			   uint32_t frame)
{
	if (!ls->kept)
		return model_add_child(out, parent, frame);
	if (ls->parent_of[frame] == parent)
		return ls->child[frame];
	uint32_t id = model_add_node(out, frame);
	model_add_edge(out, parent, id);
	ls->parent_of[frame] = parent;
	ls->child[frame] = id;
	return id;
}

/* Node v's children, kept as they are, met under v (a line's frame can
 * be a child's). */
static void meet_children(const struct model *src, struct line_split *ls, uint32_t v)
{
	const struct node *n = &src->nodes[v];
	for (uint32_t i = n->child_start; i < n->child_end; i++) {
		uint32_t c = src->child_ids[i];
		ls->parent_of[src->nodes[c].frame] = v;
		ls->child[src->nodes[c].frame] = c;
	}
}

static size_t most_lines(const uint32_t *start, size_t nnodes)
{
	size_t most = 0;
	for (size_t v = 0; v < nnodes; v++)
		if (start[v + 1] - start[v] > most)
			most = start[v + 1] - start[v];
	return most;
}

/* Each node's values go to frames of its lines in proportion to their
 * ticks (a node's ticks count its samples); `split[v]` marks them done.
 * Its samples stay on the node standing for the function: V8 counts a
 * node's samples by line, not which sample was on which line.  `kept`:
 * the copy's nodes are src's (nodes_kept). */
static void split_by_ticks(const struct model *src, struct model *out, const uint32_t *map,
			   bool kept, uint8_t *split)
{
	uint32_t *start;
	uint32_t *order = ticks_by_node(src, &start);
	size_t most = most_lines(start, src->nnodes) + 1;
	/* Every line's frame may be new. */
	size_t nframes = out->nframes + start[src->nnodes] + 1;
	struct line_split ls = {
		.nodes = xmalloc(most * sizeof(uint32_t)),
		.weights = xmalloc(most * sizeof(double)),
		.parts = xmalloc(most * sizeof(double)),
		.kept = kept,
		.parent_of = kept ? xmalloc(nframes * sizeof(uint32_t)) : NULL,
		.child = kept ? xmalloc(nframes * sizeof(uint32_t)) : NULL,
		.counts = model_count_type(src),
	};
	if (kept)
		memset(ls.parent_of, 0xff, nframes * sizeof(uint32_t)); /* NO_ID */
	for (uint32_t v = 0; v < src->nnodes; v++) {
		if (start[v] == start[v + 1])
			continue;
		if (kept)
			meet_children(src, &ls, v);
		size_t m = 0;
		double sum = 0;
		for (uint32_t k = start[v]; k < start[v + 1]; k++, m++) {
			const struct line_ticks *t = &src->line_ticks[order[k]];
			uint32_t fr = line_frame(src, out, out->nodes[map[v]].frame, t->line);
			ls.nodes[m] = line_child(out, &ls, map[v], fr);
			ls.weights[m] = t->ticks;
			sum += t->ticks;
		}
		share_by_ticks(src, out, v, &ls, m, sum);
		split[v] = 1;
	}
	FREE_ALL(ls.nodes, ls.weights, ls.parts, ls.parent_of, ls.child, order, start);
}

/* A label stays with its sample's leaf, now the node standing for it.  A
 * node split by its lines has no one node for its samples: no format
 * gives both labels and line ticks, so none are lost there. */
static void copy_labels(const struct model *src, const uint32_t *map, const uint8_t *split,
			struct model *out)
{
	for (size_t i = 0; i < src->nlabels; i++) {
		struct sample_label l = src->labels[i];
		if (split[l.node])
			continue;
		l.node = map[l.node];
		l.key = model_copy_string(src, out, l.key);
		l.str = model_copy_string(src, out, l.str);
		l.num_unit = model_copy_string(src, out, l.num_unit);
		model_add_label(out, &l);
	}
}

/* Frame f met under `parent`: false when it was met there before. */
static bool meet(uint32_t *met, uint32_t f, uint32_t parent)
{
	bool first = met[f] != parent;
	met[f] = parent;
	return first;
}

/* Does the copy by lines keep src's nodes as they are, node v as node v?
 * Its frames start with src's in the same order, so it does unless two
 * siblings (or roots) have one frame, which a copy made by
 * model_add_child would merge. */
static bool nodes_kept(const struct model *src, const uint32_t *fmap)
{
	for (uint32_t f = 0; f < src->nframes; f++)
		if (fmap[f] != f)
			return false;
	/* met[f]: the parent (nnodes for the roots) a frame was last met
	 * under; each node's children are met together. */
	uint32_t *met = xmalloc((src->nframes + 1) * sizeof(uint32_t));
	memset(met, 0xff, (src->nframes + 1) * sizeof(uint32_t));
	bool kept = true;
	uint32_t roots = (uint32_t)src->nnodes;
	for (uint32_t v = 0; kept && v < src->nnodes; v++)
		if (src->nodes[v].parent == NO_ID)
			kept = meet(met, src->nodes[v].frame, roots);
	for (uint32_t v = 0; kept && v < src->nnodes; v++) {
		const struct node *p = &src->nodes[v];
		for (uint32_t i = p->child_start; kept && i < p->child_end; i++)
			kept = meet(met, src->nodes[src->child_ids[i]].frame, v);
	}
	free(met);
	return kept;
}

/* src's nodes into `out` as they are, each child under its parent in
 * src's order; returns the map from src's nodes to out's (the same). */
static uint32_t *keep_nodes(const struct model *src, struct model *out)
{
	size_t n = src->nnodes;
	uint32_t *map = xmalloc((n + 1) * sizeof(uint32_t));
	for (uint32_t v = 0; v < n; v++)
		map[v] = model_add_node(out, src->nodes[v].frame);
	for (uint32_t v = 0; v < n; v++) {
		const struct node *p = &src->nodes[v];
		for (uint32_t i = p->child_start; i < p->child_end; i++)
			model_add_edge(out, v, src->child_ids[i]);
	}
	return map;
}

/* src's nodes into `out` with the frames fmap gives them, those that
 * come to be siblings of one frame merged; returns the map from src's
 * nodes to out's. */
static uint32_t *copy_nodes(const struct model *src, struct model *out, const uint32_t *fmap)
{
	size_t n = src->nnodes;
	uint32_t *map = xmalloc((n + 1) * sizeof(uint32_t));
	/* The ids in turn when they are such an order (a loader's usually
	 * are): node_order's walk misses the cache at every node. */
	for (size_t k = 0; k < n; k++) {
		uint32_t v = node_parents_first(src, k), p = src->nodes[v].parent;
		uint32_t up = p == NO_ID ? NO_ID : map[p];
		map[v] = model_add_child(out, up, fmap[src->nodes[v].frame]);
	}
	return map;
}

bool model_by_granularity(const struct model *src, enum granularity g,
			  struct model *out, const char **why_not)
{
	if (g == GRANULARITY_ADDRESSES) {
		*why_not = model_has_addresses(src)
			? "addresses are read by the loader (load_options.by_address)"
			: "this profile has no code addresses (pprof, legacy pprof and "
			  "gperftools profiles have)";
		return false;
	}
	if (!(src->caps & HAS_NODES) || (src->caps & HAS_NODE_GRAPH)) {
		*why_not = "files and lines need a call tree, which this profile has not";
		return false;
	}
	model_init(out, src->format);
	model_copy_header(src, out);
	out->frames_are_files = g == GRANULARITY_FILES;
	uint32_t *fmap = frame_map(src, out, g);
	size_t n = src->nnodes;
	bool kept = g == GRANULARITY_LINES && nodes_kept(src, fmap);
	model_reserve_nodes(out, n + (g == GRANULARITY_LINES ? src->nline_ticks : 0));
	uint32_t *map = g == GRANULARITY_FILES ? file_nodes(src, out, fmap)
			: kept ? keep_nodes(src, out) : copy_nodes(src, out, fmap);
	uint8_t *split = xcalloc(n + 1, 1);
	if (g == GRANULARITY_LINES)
		split_by_ticks(src, out, map, kept, split);
	for (uint32_t v = 0; v < n; v++)
		for (unsigned t = 0; !split[v] && t < src->ntypes; t++)
			model_add_node_value(out, map[v], t, node_value(src, v, t));
	copy_labels(src, map, split, out);
	/* Kept nodes keep their samples as they are. */
	model_copy_timeline(src, out, kept ? NULL : map);
	free(split);
	free(map);
	free(fmap);
	uint32_t cycle;
	model_finish(out, &cycle); /* a copy of a tree has no cycle */
	return true;
}
