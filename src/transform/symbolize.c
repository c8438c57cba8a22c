/* The symbolization pass (symbolize.h): a new model built from the
 * loaded one with each frame replaced by what its symbol says. */
#include "symbolize.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/escape.h"
#include "base/units.h"
#include "base/util.h"
#include "js_source_maps.h"
#include "wasm_symbols.h"
#include "transform_lines.h"

void symbols_init(struct symbols *s, const struct model *m)
{
	memset(s, 0, sizeof(*s));
	s->nframes = m->nframes;
	s->frames = xcalloc(m->nframes + 1, sizeof(*s->frames));
}

void symbols_free(struct symbols *s)
{
	free(s->frames);
	memset(s, 0, sizeof(*s));
}

static str_t text_or_none(struct model *out, const char *s)
{
	return s ? model_string(out, s, strlen(s)) : STR_NONE;
}

static const struct symbol *symbol_of(const struct symbols *s, uint32_t f)
{
	return f < s->nframes ? &s->frames[f] : NULL;
}

static bool is_mapped(const struct symbols *s, uint32_t f)
{
	const struct symbol *sym = symbol_of(s, f);
	return sym && sym->mapped;
}

static uint32_t new_frame(const struct model *src, struct model *out,
			  const struct symbol *sym, uint32_t f)
{
	struct frame fr = src->frames[f];
	if (!sym || !sym->mapped) {
		fr.name = model_copy_string(src, out, fr.name);
		fr.url = model_copy_string(src, out, fr.url);
		fr.extra = model_copy_string(src, out, fr.extra);
		return model_intern_frame(out, &fr);
	}
	fr.name = text_or_none(out, sym->name ? sym->name : model_str(src, fr.name));
	fr.url = text_or_none(out, sym->url ? sym->url : "");
	fr.extra = STR_NONE;
	fr.line = sym->line;
	fr.column = sym->column;
	if (sym->third_party)
		fr.flags |= FRAME_THIRD_PARTY;
	return model_intern_frame(out, &fr);
}

/* The origin of new frame `to`: the place an earlier pass mapped it
 * from, else the profile's place of a frame mapped now, else why it was
 * not mapped (now or before). */
static void set_origin(const struct model *src, struct model *out, uint32_t f,
		       uint32_t to, const struct symbol *sym)
{
	struct frame_origin *o = &out->origins[to];
	if (o->url != STR_NONE || o->why_not != STR_NONE)
		return;
	bool before = f < src->norigins && src->origins[f].url != STR_NONE;
	bool failed_before = f < src->norigins && src->origins[f].why_not != STR_NONE;
	if (before || (failed_before && !(sym && sym->mapped))) {
		*o = src->origins[f];
		o->name = model_copy_string(src, out, o->name);
		o->url = model_copy_string(src, out, o->url);
		o->why_not = model_copy_string(src, out, o->why_not);
	} else if (sym && sym->mapped) {
		const struct frame *fr = &src->frames[f];
		*o = (struct frame_origin){ model_copy_string(src, out, fr->name),
					    model_copy_string(src, out, fr->url), fr->line,
					    fr->column, STR_NONE };
	} else if (sym && sym->why_not) {
		o->why_not = text_or_none(out, sym->why_not);
	}
}

static uint32_t *map_frames(const struct model *src, struct model *out,
			    const struct symbols *s)
{
	uint32_t *fmap = xmalloc((src->nframes + 1) * sizeof(uint32_t));
	for (uint32_t f = 0; f < src->nframes; f++)
		fmap[f] = new_frame(src, out, symbol_of(s, f), f);
	out->norigins = out->nframes;
	out->origins = xmalloc((out->nframes + 1) * sizeof(*out->origins));
	for (size_t i = 0; i < out->nframes; i++)
		out->origins[i] = (struct frame_origin){ STR_NONE, STR_NONE, -1, -1,
							    STR_NONE };
	for (uint32_t f = 0; f < src->nframes; f++)
		set_origin(src, out, f, fmap[f], symbol_of(s, f));
	return fmap;
}

/* A call tree is built again child by child, so that siblings that are
 * now one function are one node; a node graph keeps its nodes. */
static uint32_t *map_nodes(const struct model *src, struct model *out,
			   const uint32_t *fmap)
{
	size_t n = src->nnodes;
	uint32_t *map = xmalloc((n + 1) * sizeof(uint32_t));
	if (src->caps & HAS_NODE_GRAPH) {
		for (uint32_t v = 0; v < n; v++)
			map[v] = model_add_node(out, fmap[src->nodes[v].frame]);
		for (uint32_t v = 0; v < n; v++)
			for (uint32_t i = src->parents_start[v]; i < src->parents_start[v + 1]; i++)
				model_add_edge(out, src->parent_ids[i], v);
	} else {
		for (size_t k = 0; k < n; k++) {
			uint32_t v = src->node_order[k], p = src->nodes[v].parent;
			map[v] = model_add_child(out, p == NO_ID ? NO_ID : map[p],
						 fmap[src->nodes[v].frame]);
		}
	}
	for (uint32_t v = 0; v < n; v++)
		for (unsigned t = 0; t < src->ntypes; t++)
			model_add_node_value(out, map[v], t, node_value(src, v, t));
	return map;
}

/* Samples keep their order and durations; their values are in the node
 * values already. */
static void copy_samples(const struct model *src, const uint32_t *map, struct model *out)
{
	size_t n = src->nsamples;
	out->sample_node = xmalloc((n + 1) * sizeof(uint32_t));
	out->sample_duration = xmalloc((n + 1) * sizeof(double));
	for (size_t i = 0; i < n; i++)
		out->sample_node[i] = map[src->sample_node[i]];
	if (n)
		memcpy(out->sample_duration, src->sample_duration, n * sizeof(double));
	out->nsamples = out->samples_cap = n;
	out->live.samples_before = src->live.samples_before;
	out->live.time_before = src->live.time_before;
	if (src->live.nwindows) {
		size_t w = src->live.nwindows;
		out->live.window_first = xmalloc(w * sizeof(size_t));
		memcpy(out->live.window_first, src->live.window_first, w * sizeof(size_t));
		out->live.nwindows = out->live.windows_cap = w;
	}
	model_copy_gaps(src, out);
	if (src->first_leaves) {
		out->first_leaves = xmalloc((src->nfirst_leaves + 1) * sizeof(uint32_t));
		for (size_t i = 0; i < src->nfirst_leaves; i++)
			out->first_leaves[i] = map[src->first_leaves[i]];
		out->nfirst_leaves = src->nfirst_leaves;
	}
}

static void copy_ticks(const struct model *src, const uint32_t *map,
		       const struct symbols *s, struct model *out)
{
	for (size_t i = 0; i < src->nline_ticks; i++) {
		struct line_ticks lt = src->line_ticks[i];
		uint32_t f = src->nodes[lt.node].frame;
		if (is_mapped(s, f))
			lt.line = s->tick_line ? s->tick_line(s->ctx, f, lt.line) : -1;
		if (lt.line >= 0)
			model_add_line_ticks(out, map[lt.node], lt.line, lt.ticks);
	}
}

static void copy_node_lines(const struct model *src, const uint32_t *map,
			    const struct symbols *s, struct model *out)
{
	if (!src->nnode_lines)
		return;
	uint32_t *to = xmalloc((src->nnodes + 1) * sizeof(uint32_t));
	for (uint32_t v = 0; v < src->nnodes; v++)
		to[v] = is_mapped(s, src->nodes[v].frame) ? NO_ID : map[v];
	struct line_moves mv = { src, to, to, NULL, false };
	transform_move_node_lines(&mv, out);
	free(to);
}

static void copy_labels(const struct model *src, const uint32_t *map, struct model *out)
{
	for (size_t i = 0; i < src->nlabels; i++) {
		struct sample_label l = src->labels[i];
		l.node = map[l.node];
		l.key = model_copy_string(src, out, l.key);
		l.str = model_copy_string(src, out, l.str);
		l.num_unit = model_copy_string(src, out, l.num_unit);
		model_add_label(out, &l);
	}
}

static void copy_frame_values(const struct model *src, const uint32_t *fmap,
			      struct model *out)
{
	for (uint32_t f = 0; src->frame_self && f < src->nframes; f++)
		for (unsigned t = 0; t < src->ntypes; t++)
			model_add_frame_value(out, fmap[f], t,
					      src->frame_self[(size_t)f * src->ntypes + t]);
	for (size_t i = 0; i < src->narcs; i++) {
		const struct arc *a = &src->arcs[i];
		model_add_arc(out, fmap[a->caller], fmap[a->callee], a->count, a->time);
	}
}

static void add_summary(const struct model *src, struct model *out, const char *summary)
{
	if (!summary)
		return;
	if (src->symbols == STR_NONE) {
		out->symbols = text_or_none(out, summary);
		return;
	}
	const char *before = model_str(src, src->symbols);
	size_t n = strlen(before) + strlen(summary) + 3;
	char *both = xmalloc(n);
	snprintf(both, n, "%s; %s", before, summary);
	out->symbols = model_string(out, both, strlen(both));
	free(both);
}

/* `out`: m with each frame as `s` says. */
static void rebuild(const struct model *m, const struct symbols *s, struct model *out_)
{
	struct model out;
	model_init(&out, m->format);
	model_copy_header(m, &out);
	out.symbols = STR_NONE;
	add_summary(m, &out, s->summary);
	out.caps = m->caps; /* what model_finish does not derive */
	out.type_chosen_at_load = m->type_chosen_at_load;
	uint32_t *fmap = map_frames(m, &out, s);
	uint32_t *map = map_nodes(m, &out, fmap);
	copy_samples(m, map, &out);
	copy_ticks(m, map, s, &out);
	copy_node_lines(m, map, s, &out);
	copy_labels(m, map, &out);
	copy_frame_values(m, fmap, &out);
	free(map);
	free(fmap);
	uint32_t cycle;
	model_finish(&out, &cycle); /* the same links: no cycle */
	/* Frames interned later (a granularity's) have no origin. */
	*out_ = out;
}

void symbolize_model(struct model *m, const struct symbols *s)
{
	struct model out;
	rebuild(m, s, &out);
	model_free(m);
	*m = out;
}

void symbolize_copy(const struct model *src, struct model *out)
{
	struct symbols none;
	symbols_init(&none, src);
	rebuild(src, &none, out);
	symbols_free(&none);
}

void symbol_origin_text(const struct model *m, uint32_t f, char *buf, size_t cap)
{
	const struct frame_origin *o = symbol_origin(m, f);
	const struct model *of = m->range.of ? m->range.of : m;
	char safe[512];
	if (!o) {
		snprintf(buf, cap, "%s", "");
	} else if (o->url == STR_NONE) {
		escape_text(model_str(of, o->why_not), safe, sizeof(safe));
		snprintf(buf, cap, "not mapped: %s", safe);
	} else if (model_wasm_place_offset(m, m->frames[f].kind, o->url, o->column) >= 0) {
		format_wasm_offset(model_str(m, o->url),
				   model_wasm_place_offset(m, KIND_WASM, o->url, o->column),
				   safe, sizeof(safe));
		snprintf(buf, cap, "generated %s", safe);
	} else {
		escape_text(model_str(of, o->url), safe, sizeof(safe));
		int32_t line = symbol_place_shown(m, o->line), column = symbol_place_shown(m, o->column);
		if (line < 0)
			snprintf(buf, cap, "generated %s", safe);
		else if (column < 0)
			snprintf(buf, cap, "generated %s:%d", safe, line);
		else
			snprintf(buf, cap, "generated %s:%d:%d", safe, line, column);
	}
}

struct symbolizer {
	struct js_source_maps *js;
	struct wasm_symbols *wasm; /* NULL without --symbols */
};

struct symbolizer *symbolizer_new(const struct symbolize_options *o, char *why, size_t cap)
{
	struct wasm_symbols *wasm = NULL;
	if (o->nsymbols && !(wasm = wasm_symbols_open(o->symbols, o->nsymbols, why, cap)))
		return NULL;
	struct symbolizer *z = xmalloc(sizeof(*z));
	*z = (struct symbolizer){ js_source_maps_new(o), wasm };
	return z;
}

bool symbolizer_apply(struct symbolizer *z, struct model *m, char *why, size_t cap)
{
	js_source_maps_map(z->js, m);
	return !z->wasm || wasm_symbols_map(z->wasm, m, why, cap);
}

void symbolizer_free(struct symbolizer *z)
{
	js_source_maps_free(z->js);
	if (z->wasm)
		wasm_symbols_free(z->wasm);
	free(z);
}

bool symbolize_loaded(struct model *m, const struct symbolize_options *o, char *why,
		      size_t cap)
{
	struct symbolizer *z = symbolizer_new(o, why, cap);
	bool ok = z && symbolizer_apply(z, m, why, cap);
	if (z)
		symbolizer_free(z);
	return ok;
}
