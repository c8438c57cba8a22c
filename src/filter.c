#include "filter.h"

#include <stdlib.h>
#include <string.h>

#include "util.h"

static str_t copy_string(const struct model *src, struct model *out, str_t s)
{
	if (s == STR_NONE)
		return STR_NONE;
	const char *text = model_str(src, s);
	return model_string(out, text, strlen(text));
}

/* Interned in the same order, the frames keep their ids. */
static void copy_frames(const struct model *src, struct model *out)
{
	for (size_t i = 0; i < src->nframes; i++) {
		struct frame f = src->frames[i];
		f.name = copy_string(src, out, f.name);
		f.url = copy_string(src, out, f.url);
		f.extra = copy_string(src, out, f.extra);
		model_intern_frame(out, &f);
	}
}

void model_copy_header(const struct model *src, struct model *out)
{
	for (unsigned t = 0; t < src->ntypes; t++)
		model_add_sample_type(out, model_str(src, src->types[t].name),
				      model_str(src, src->types[t].unit));
	out->default_type = src->default_type;
	out->start_time = src->start_time;
	out->end_time = src->end_time;
	out->duration = src->duration;
	out->period = src->period;
	out->comment = copy_string(src, out, src->comment);
	out->thread = copy_string(src, out, src->thread);
	out->other_threads = copy_string(src, out, src->other_threads);
	out->lines_zero_based = src->lines_zero_based;
}

uint32_t model_count_type(const struct model *m)
{
	/* pprof CPU profiles carry one; a heap profile's alloc_objects is a
	 * count too, but of objects, not of samples. */
	for (unsigned t = 0; t < m->ntypes; t++)
		if (!strings_cmp(&m->strings, m->types[t].unit, "count") &&
		    !strings_cmp(&m->strings, m->types[t].name, "samples"))
			return t;
	return NO_ID;
}

/* Values are stored [item * ntypes + type]: one more type means new
 * arrays with a wider stride. */
static double *widen(const double *values, size_t items, unsigned ntypes)
{
	double *out = xcalloc(items * (ntypes + 1) + 1, sizeof(double));
	for (size_t i = 0; i < items; i++)
		memcpy(out + i * (ntypes + 1), values + i * ntypes, ntypes * sizeof(double));
	return out;
}

uint32_t model_add_sample_counts(struct model *m)
{
	uint32_t existing = model_count_type(m);
	if (existing != NO_ID || !m->nsamples || m->ntypes == MAX_SAMPLE_TYPES)
		return existing;
	unsigned nt = m->ntypes;
	double *node_self = widen(m->node_self, m->nnodes, nt);
	free(m->node_self);
	m->node_self = node_self;
	m->node_self_cap = m->nnodes * (nt + 1) + 1;
	if (m->frame_self) {
		double *frame_self = widen(m->frame_self, m->nframes, nt);
		free(m->frame_self);
		m->frame_self = frame_self;
		m->frame_self_cap = m->nframes * (nt + 1) + 1;
	}
	m->types[nt].name = model_string(m, "samples", 7);
	m->types[nt].unit = model_string(m, "count", 5);
	m->ntypes = nt + 1;
	/* Counted apart first: four bytes a node stay in cache, where the
	 * node values' wide rows would not. */
	uint32_t *counts = xcalloc(m->nnodes + 1, sizeof(uint32_t));
	for (size_t s = 0; s < m->nsamples; s++)
		counts[m->sample_node[s]]++;
	for (size_t v = 0; v < m->nnodes; v++)
		m->node_self[v * m->ntypes + nt] = counts[v];
	free(counts);
	return nt;
}

/* through[v]: the focus function is on v's stack.  needed[v]: v or a
 * node below it is kept, so v is a node of the copy. */
static void mark_nodes(const struct model *src, uint32_t focus,
		       uint8_t *through, uint8_t *needed)
{
	for (size_t k = 0; k < src->nnodes; k++) {
		uint32_t v = src->node_order[k], p = src->nodes[v].parent;
		through[v] = focus == NO_ID || src->nodes[v].frame == focus ||
			     (p != NO_ID && through[p]);
		needed[v] = through[v];
	}
	for (size_t k = src->nnodes; k-- > 0;) {
		uint32_t v = src->node_order[k], p = src->nodes[v].parent;
		if (needed[v] && p != NO_ID)
			needed[p] = 1;
	}
}

/* Node values only: rules and views never read the timeline, and copying
 * millions of samples would slow every f and i key down. */
static void copy_values(const struct model *src, const uint32_t *map,
			const uint8_t *through, struct model *out)
{
	for (uint32_t v = 0; v < src->nnodes; v++) {
		if (!through[v] || map[v] == NO_ID)
			continue;
		for (unsigned t = 0; t < src->ntypes; t++)
			model_add_node_value(out, map[v], t, node_value(src, v, t));
	}
}

/* pprof's lines, for the nodes kept as they were (a node above the focus
 * has lines of stacks the focus drops, so it has none). */
static void copy_node_lines(const struct model *src, const uint32_t *map,
			    const uint8_t *through, struct model *out)
{
	for (uint32_t k = 0; k < src->nnode_lines; k++) {
		uint32_t v = src->node_lines[k].node;
		if (!through[v] || map[v] == NO_ID ||
		    out->nodes[map[v]].frame != src->nodes[v].frame)
			continue;
		uint32_t j = model_node_line(out, map[v], src->node_lines[k].line);
		for (unsigned t = 0; t < src->ntypes; t++) {
			node_line_self(out, j)[t] += node_line_self(src, k)[t];
			node_line_total(out, j)[t] += node_line_total(src, k)[t];
		}
	}
}

bool model_filter_stacks(const struct model *src, const struct stack_filter *f,
			 struct model *out, const char **why_not)
{
	if (!(src->caps & HAS_STACKS)) {
		*why_not = "this profile has no whole stacks to filter";
		return false;
	}
	model_init(out, src->format);
	model_copy_header(src, out);
	copy_frames(src, out);

	size_t n = src->nnodes;
	uint8_t *through = xcalloc(n + 1, 1), *needed = xcalloc(n + 1, 1);
	uint32_t *map = xmalloc((n + 1) * sizeof(uint32_t));
	mark_nodes(src, f->focus, through, needed);
	/* A hidden node's place is taken by its parent: its self time and
	 * its children move up one level, as with pprof -hide. */
	for (size_t k = 0; k < n; k++) {
		uint32_t v = src->node_order[k], p = src->nodes[v].parent;
		uint32_t frame = src->nodes[v].frame;
		uint32_t new_parent = p == NO_ID ? NO_ID : map[p];
		if (!needed[v])
			map[v] = NO_ID;
		else if (f->hidden && f->hidden[frame])
			map[v] = new_parent;
		else
			map[v] = model_add_child(out, new_parent, frame);
	}
	copy_values(src, map, through, out);
	for (size_t i = 0; i < src->nline_ticks; i++) {
		const struct line_ticks *lt = &src->line_ticks[i];
		uint32_t v = lt->node;
		if (through[v] && map[v] != NO_ID &&
		    out->nodes[map[v]].frame == src->nodes[v].frame)
			model_add_line_ticks(out, map[v], lt->line, lt->ticks);
	}
	copy_node_lines(src, map, through, out);
	free(map);
	free(needed);
	free(through);
	uint32_t cycle;
	model_finish(out, &cycle); /* a copy of a tree has no cycle */
	return true;
}
