#include "granularity.h"

#include <stdlib.h>
#include <string.h>

#include "base/background.h"
#include "base/util.h"
#include "transform/file_nodes.h"
#include "transform/granularity_lines.h"

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

/* A label stays with its sample's leaf, now the node standing for it
 * (map[v], or v itself where map is NULL).  A node split by its lines has no one node for its samples: no format
 * gives both labels and line ticks, so none are lost there. */
static void copy_labels(const struct model *src, const uint32_t *map, const uint8_t *split,
			struct model *out)
{
	for (size_t i = 0; i < src->nlabels; i++) {
		struct sample_label l = src->labels[i];
		if (split[l.node])
			continue;
		l.node = map ? map[l.node] : l.node;
		l.key = model_copy_string(src, out, l.key);
		l.str = model_copy_string(src, out, l.str);
		l.num_unit = model_copy_string(src, out, l.num_unit);
		model_add_label(out, &l);
	}
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
	uint8_t *split = xcalloc(n + 1, 1);
	uint32_t *map = NULL; /* NULL: node v is node v */
	if (g == GRANULARITY_LINES && lines_keep_nodes(src, fmap)) {
		lines_over_kept_nodes(src, out, split);
	} else {
		model_reserve_nodes(out, n + (g == GRANULARITY_LINES ? src->nline_ticks : 0));
		map = g == GRANULARITY_FILES ? file_nodes(src, out, fmap)
						 : copy_nodes(src, out, fmap);
		/* Stopped, file_nodes leaves the rest of map unset. */
		if (background_pause_point()) {
			if (g == GRANULARITY_LINES)
				lines_split_copied(src, out, map, split);
			for (uint32_t v = 0; v < n; v++)
				for (unsigned t = 0; !split[v] && t < src->ntypes; t++)
					model_add_node_value(out, map[v], t,
							     node_value(src, v, t));
		}
	}
	/* Made ahead and stopped (granularity_cache.c): the walks ended
	 * early, and the rest is not made. */
	bool stopped = !background_pause_point();
	if (!stopped) {
		copy_labels(src, map, split, out);
		/* Kept nodes keep their samples as they are. */
		model_copy_timeline(src, out, map);
	}
	free(split);
	free(map);
	free(fmap);
	if (stopped) {
		model_free(out);
		*why_not = "stopped";
		return false;
	}
	uint32_t cycle;
	model_finish(out, &cycle); /* a copy of a tree has no cycle */
	return true;
}
