#include "granularity.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/util.h"
#include "model/sample_counts.h"

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

enum granularity granularity_next(enum granularity g, const struct model *m)
{
	g = (g + 1) % GRANULARITY_COUNT;
	if (g == GRANULARITY_ADDRESSES && !model_has_addresses(m))
		g = GRANULARITY_FUNCTIONS;
	return g;
}

/* The frame standing for src's frame f in the new model; `mark` is
 * pprof's label of a file called only inlined, or in both ways. */
static uint32_t new_frame(const struct model *src, struct model *out, uint32_t f,
			  enum granularity g, const char *mark)
{
	struct frame fr = src->frames[f];
	fr.name = model_copy_string(src, out, fr.name);
	fr.url = model_copy_string(src, out, fr.url);
	fr.extra = model_copy_string(src, out, fr.extra);
	if (g == GRANULARITY_FILES && fr.url != STR_NONE && *model_str(out, fr.url)) {
		/* The file is the name: once is enough on a row. */
		const char *file = model_str(src, src->frames[f].url);
		size_t n = strlen(file) + strlen(mark) + 1;
		char *name = xmalloc(n);
		snprintf(name, n, "%s%s", file, mark);
		fr.name = model_string(out, name, strlen(name));
		free(name);
		fr.url = STR_NONE;
		fr.extra = STR_NONE;
		fr.line = fr.column = -1;
		fr.flags = 0;
	}
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

static uint32_t *frame_map(const struct model *src, struct model *out, enum granularity g)
{
	uint8_t *called = g == GRANULARITY_FILES ? file_calls(src) : NULL;
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

/* By node, then line: the lines of a node in a fixed order. */
static int by_node(const void *a, const void *b)
{
	const struct line_ticks *x = a, *y = b;
	if (x->node != y->node)
		return x->node < y->node ? -1 : 1;
	return (x->line > y->line) - (x->line < y->line);
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

/* Node v's values to the nodes of its lines `w` by their ticks; counts
 * of samples in whole samples. */
static void share_by_ticks(const struct model *src, struct model *out, uint32_t v,
			   const uint32_t *w, const double *ticks, size_t n, double sum)
{
	uint32_t counts = model_count_type(src);
	double *parts = xmalloc((n + 1) * sizeof(double));
	for (unsigned t = 0; t < src->ntypes; t++) {
		double value = node_value(src, v, t);
		if (t == counts)
			whole_parts(round(value), ticks, n, sum, parts);
		for (size_t k = 0; k < n; k++)
			model_add_node_value(out, w[k], t,
					     t == counts ? parts[k] : value * ticks[k] / sum);
	}
	free(parts);
}

/* Each node's values go to frames of its lines in proportion to their
 * ticks (a node's ticks count its samples); `split[v]` marks them done.
 * Its samples stay on the node standing for the function: V8 counts a
 * node's samples by line, not which sample was on which line. */
static void split_by_ticks(const struct model *src, struct model *out,
			   const uint32_t *map, uint8_t *split)
{
	size_t n = src->nline_ticks;
	struct line_ticks *ticks = xmalloc((n + 1) * sizeof(*ticks));
	uint32_t *lines = xmalloc((n + 1) * sizeof(uint32_t));
	double *weights = xmalloc((n + 1) * sizeof(double));
	if (n) {
		memcpy(ticks, src->line_ticks, n * sizeof(*ticks));
		qsort(ticks, n, sizeof(*ticks), by_node);
	}
	for (size_t i = 0, j; i < n; i = j) {
		uint32_t v = ticks[i].node;
		size_t m = 0;
		double sum = 0;
		for (j = i; j < n && ticks[j].node == v; j++) {
			if (!(ticks[j].line > 0 && ticks[j].ticks > 0))
				continue;
			lines[m] = model_add_child(out, map[v],
						   line_frame(src, out, out->nodes[map[v]].frame,
							      ticks[j].line));
			weights[m++] = ticks[j].ticks;
			sum += ticks[j].ticks;
		}
		if (!(sum > 0))
			continue;
		share_by_ticks(src, out, v, lines, weights, m, sum);
		split[v] = 1;
	}
	free(weights);
	free(lines);
	free(ticks);
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
	uint32_t *map = xmalloc((n + 1) * sizeof(uint32_t));
	for (size_t k = 0; k < n; k++) {
		uint32_t v = src->node_order[k], p = src->nodes[v].parent;
		uint32_t up = p == NO_ID ? NO_ID : map[p], fr = fmap[src->nodes[v].frame];
		/* Calls within one file are that file, once. */
		if (g == GRANULARITY_FILES && up != NO_ID && out->nodes[up].frame == fr)
			map[v] = up;
		else
			map[v] = model_add_child(out, up, fr);
	}
	uint8_t *split = xcalloc(n + 1, 1);
	if (g == GRANULARITY_LINES)
		split_by_ticks(src, out, map, split);
	for (uint32_t v = 0; v < n; v++)
		for (unsigned t = 0; !split[v] && t < src->ntypes; t++)
			model_add_node_value(out, map[v], t, node_value(src, v, t));
	copy_labels(src, map, split, out);
	model_copy_timeline(src, out, map);
	free(split);
	free(map);
	free(fmap);
	uint32_t cycle;
	model_finish(out, &cycle); /* a copy of a tree has no cycle */
	return true;
}
