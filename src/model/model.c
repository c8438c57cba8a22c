#include "model.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/background.h"
#include "base/id_table.h"
#include "base/util.h"
#include "model_build.h"

static void open_build(struct model *m)
{
	m->build = xcalloc(1, sizeof(*m->build));
	id_table_init(&m->build->frames, 128);
	id_table_init(&m->build->stacks, 512);
	id_table_init(&m->build->node_lines, 0);
}

void model_init(struct model *m, const char *format)
{
	memset(m, 0, sizeof(*m));
	m->format = format;
	m->comment = STR_NONE;
	m->main_binary = STR_NONE;
	m->thread = STR_NONE;
	m->warning = STR_NONE;
	m->symbols = STR_NONE;
	strings_init(&m->strings);
	open_build(m);
}

static void free_build(struct model *m)
{
	if (!m->build)
		return;
	id_table_free(&m->build->frames);
	id_table_free(&m->build->stacks);
	id_table_free(&m->build->node_lines);
	free(m->build->edges);
	free(m->build);
	m->build = NULL;
}

/* A view frees what it recorded as its own (enum view_owns), never the
 * samples (a range's are read in place) nor the symbols' origins. */
static void free_view(struct model *m)
{
	unsigned owns = m->range.owns;
	free_build(m);
	if (owns & VIEW_OWNS_FRAMES) {
		strings_free(&m->strings);
		free(m->frames);
	}
	if (owns & VIEW_OWNS_NODES)
		FREE_ALL(m->nodes, m->child_ids, m->node_order, m->parents_start,
			 m->parent_ids, m->link_arcs);
	if (owns & VIEW_OWNS_GRAPH)
		FREE_ALL(m->arcs, m->callers_start, m->callees_arcs, m->callees_start,
			 m->frame_calls);
	if (owns & VIEW_OWNS_VALUES)
		free(m->node_self);
	if (owns & VIEW_OWNS_LEAVES)
		free(m->first_leaves);
	if (owns & VIEW_OWNS_LABELS)
		free(m->labels);
	if (owns & VIEW_OWNS_LINES)
		FREE_ALL(m->line_ticks, m->node_lines, m->node_line_values);
	FREE_ALL(m->range.hidden_nodes, m->range.hidden_arcs);
	memset(m, 0, sizeof(*m));
}

void model_free(struct model *m)
{
	if (m->range.of) {
		free_view(m);
		return;
	}
	free_build(m);
	strings_free(&m->strings);
	if (m->durations_borrowed)
		m->sample_duration = NULL;
	if (m->sample_nodes_borrowed)
		m->sample_node = NULL;
	FREE_ALL(m->frames, m->nodes, m->child_ids, m->node_order, m->parents_start,
		 m->parent_ids, m->link_arcs, m->node_self, m->frame_self, m->first_leaves);
	FREE_ALL(m->sample_node, m->sample_duration, m->sample_offsets, m->live.window_first,
		 m->live.gaps);
	FREE_ALL(m->arcs, m->callers_start, m->callees_arcs, m->callees_start, m->frame_calls,
		 m->frame_ticks);
	FREE_ALL(m->line_ticks, m->labels, m->label_values, m->node_lines, m->node_line_values,
		 m->other_threads, m->origins);
	memset(m, 0, sizeof(*m));
}

unsigned model_add_sample_type(struct model *m, const char *name,
			       const char *unit)
{
	if (m->ntypes == MAX_SAMPLE_TYPES || m->nnodes)
		return m->ntypes ? m->ntypes - 1 : 0;
	m->types[m->ntypes].name = model_string(m, name, strlen(name));
	m->types[m->ntypes].unit = model_string(m, unit, strlen(unit));
	return m->ntypes++;
}

str_t model_string(struct model *m, const char *s, size_t len)
{
	return strings_intern(&m->strings, s, len);
}

/* ---- frames ---------------------------------------------------------- */

static uint64_t frame_hash(const struct frame *f)
{
	uint64_t h = hash_mix(((uint64_t)f->name << 32) ^ f->url);
	h = hash_mix(h ^ ((uint64_t)f->extra << 32) ^ (uint32_t)f->line);
	return hash_mix(h ^ ((uint64_t)(uint32_t)f->column << 16) ^
			((uint64_t)f->kind << 8) ^ f->flags);
}

static bool frame_equal(const struct frame *a, const struct frame *b)
{
	return a->name == b->name && a->url == b->url && a->extra == b->extra &&
	       a->line == b->line && a->column == b->column &&
	       a->kind == b->kind && a->flags == b->flags;
}

static void index_frames(struct model *m)
{
	struct id_table *index = &m->build->frames;
	for (uint32_t id = 0; id < m->nframes; id++) {
		struct id_probe p = id_table_probe(index, frame_hash(&m->frames[id]));
		while (id_probe_next(index, &p) != NO_ID)
			;
		id_table_add(index, &p, id);
	}
}

/* A finished model whose frames are looked up again is reopened: its
 * frame index is made anew from its frames. */
static struct id_table *frame_index(struct model *m)
{
	if (!m->build) {
		open_build(m);
		index_frames(m);
	}
	return &m->build->frames;
}

uint32_t model_intern_frame(struct model *m, const struct frame *f)
{
	struct id_table *index = frame_index(m);
	struct id_probe p = id_table_probe(index, frame_hash(f));
	for (uint32_t id; (id = id_probe_next(index, &p)) != NO_ID;)
		if (frame_equal(&m->frames[id], f))
			return id;
	GROW(m->frames, m->frames_cap, m->nframes + 1);
	m->frames[m->nframes] = *f;
	id_table_add(index, &p, (uint32_t)m->nframes);
	return (uint32_t)m->nframes++;
}

const char *frame_kind_name(enum frame_kind kind)
{
	static const char *const names[KIND_COUNT] = {
		[KIND_JS] = "js",	[KIND_NATIVE] = "native",
		[KIND_WASM] = "wasm",	[KIND_GC] = "gc",
		[KIND_IDLE] = "idle",	[KIND_PROGRAM] = "program",
		[KIND_ROOT] = "root",
	};
	return kind < KIND_COUNT ? names[kind] : "?";
}

const char *sample_time_text(enum sample_time reading)
{
	switch (reading) {
	case SAMPLE_TIME_NEXT:
		return "next sample (as DevTools)";
	case SAMPLE_TIME_OWN:
		return "own delta (XS file profiler)";
	case SAMPLE_TIME_FILE:
		break;
	}
	return NULL;
}

/* ---- nodes and values ----------------------------------------------- */

/* Values are summed into: the room a growth adds starts at zero. */
static void grow_zeroed(double **values, size_t *cap, size_t need)
{
	size_t old_cap = *cap;
	GROW(*values, *cap, need);
	if (*cap > old_cap)
		memset(*values + old_cap, 0, (*cap - old_cap) * sizeof(double));
}

uint32_t model_add_node(struct model *m, uint32_t frame)
{
	if (m->ntypes == 0)
		model_add_sample_type(m, "time", "us");
	GROW(m->nodes, m->nodes_cap, m->nnodes + 1);
	m->nodes[m->nnodes] = (struct node){ .frame = frame, .parent = NO_ID };
	grow_zeroed(&m->node_self, &m->node_self_cap, (m->nnodes + 1) * m->ntypes);
	return (uint32_t)m->nnodes++;
}

void model_reserve_nodes(struct model *m, size_t count)
{
	struct model_build *b = m->build;
	GROW(m->nodes, m->nodes_cap, count);
	GROW(b->edges, b->edges_cap, count);
	grow_zeroed(&m->node_self, &m->node_self_cap, count * m->ntypes);
}

void model_adopt_tree(struct model *m, struct node *nodes, size_t n, uint32_t *child_ids,
		      double *values)
{
	FREE_ALL(m->nodes, m->child_ids, m->node_self);
	m->nodes = nodes;
	m->nnodes = m->nodes_cap = n;
	m->child_ids = child_ids;
	m->node_self = values;
	m->node_self_cap = n * m->ntypes;
	m->build->nedges = 0;
	m->build->tree_given = true;
}

void model_adopt_node_order(struct model *m, uint32_t *node_order)
{
	free(m->node_order);
	m->node_order = node_order;
}

void model_adopt_link_arcs(struct model *m, uint32_t *link_arcs)
{
	free(m->link_arcs);
	m->link_arcs = link_arcs;
	m->build->link_arcs_given = true;
}

void model_add_edge(struct model *m, uint32_t parent, uint32_t child)
{
	struct model_build *b = m->build;
	GROW(b->edges, b->edges_cap, b->nedges + 1);
	b->edges[b->nedges++] = (struct model_edge){ parent, child };
}

void model_add_node_value(struct model *m, uint32_t node, unsigned type,
			  double value)
{
	m->node_self[(size_t)node * m->ntypes + type] += value;
}

void model_set_node_value(struct model *m, uint32_t node, unsigned type,
			  double value)
{
	m->node_self[(size_t)node * m->ntypes + type] = value;
}

void model_add_frame_value(struct model *m, uint32_t frame, unsigned type,
			   double value)
{
	if (m->ntypes == 0)
		model_add_sample_type(m, "time", "us");
	grow_zeroed(&m->frame_self, &m->frame_self_cap, m->nframes * m->ntypes);
	m->frame_self[(size_t)frame * m->ntypes + type] += value;
}

static uint64_t stack_key_hash(uint32_t parent, uint32_t frame)
{
	return hash_mix(((uint64_t)parent << 32) | frame);
}

/* Finds or creates the node for `frame` under `parent` (NO_ID: a root). */
static uint32_t stack_child(struct model *m, uint32_t parent, uint32_t frame)
{
	struct id_table *index = &m->build->stacks;
	struct id_probe p = id_table_probe(index, stack_key_hash(parent, frame));
	for (uint32_t id; (id = id_probe_next(index, &p)) != NO_ID;) {
		const struct node *n = &m->nodes[id];
		if (n->parent == parent && n->frame == frame)
			return id;
	}
	uint32_t id = model_add_node(m, frame);
	m->nodes[id].parent = parent;
	if (parent != NO_ID)
		model_add_edge(m, parent, id);
	id_table_add(index, &p, id);
	return id;
}

uint32_t model_add_child(struct model *m, uint32_t parent, uint32_t frame)
{
	return stack_child(m, parent, frame);
}

uint32_t model_add_stack(struct model *m, const uint32_t *frames, size_t depth)
{
	uint32_t node = NO_ID;
	for (size_t i = depth; i-- > 0;)
		node = stack_child(m, node, frames[i]);
	return node;
}

void model_add_sample(struct model *m, uint32_t node, double duration)
{
	size_t old_cap = m->samples_cap;
	GROW(m->sample_node, m->samples_cap, m->nsamples + 1);
	if (m->samples_cap != old_cap)
		m->sample_duration = xrealloc(m->sample_duration,
					      m->samples_cap * sizeof(double));
	m->sample_node[m->nsamples] = node;
	m->sample_duration[m->nsamples] = duration;
	m->nsamples++;
	model_add_node_value(m, node, 0, duration);
}

int64_t model_wasm_place_offset(const struct model *m, uint8_t kind, str_t url,
				int32_t column)
{
	int shift = m->lines_zero_based ? 0 : 1; /* a column shown 1-based */
	if (kind != KIND_WASM || url == STR_NONE || !*model_str(m, url) || column < shift)
		return -1;
	return (int64_t)column - shift;
}

int64_t model_wasm_offset(const struct model *m, uint32_t frame)
{
	const struct frame *f = &m->frames[frame];
	return model_wasm_place_offset(m, f->kind, f->url, f->column);
}

void model_start_window(struct model *m)
{
	GROW(m->live.window_first, m->live.windows_cap, m->live.nwindows + 1);
	m->live.window_first[m->live.nwindows++] = m->nsamples;
}

void model_add_gap(struct model *m, size_t before, double duration)
{
	struct live_window *w = &m->live;
	if (w->ngaps && w->gaps[w->ngaps - 1].before == before) {
		w->gaps[w->ngaps - 1].duration += duration;
		return;
	}
	GROW(w->gaps, w->gaps_cap, w->ngaps + 1);
	w->gaps[w->ngaps++] = (struct sample_gap){ before, duration };
}

double model_gap_time(const struct model *m, size_t index)
{
	double time = 0;
	for (size_t g = 0; g < m->live.ngaps && m->live.gaps[g].before <= index; g++)
		time += m->live.gaps[g].duration;
	return time;
}

void model_add_line_ticks(struct model *m, uint32_t node, int32_t line,
			  double ticks)
{
	if (m->frames[m->nodes[node].frame].kind == KIND_WASM)
		return;
	GROW(m->line_ticks, m->line_ticks_cap, m->nline_ticks + 1);
	m->line_ticks[m->nline_ticks++] = (struct line_ticks){ node, line, ticks };
}

void model_adopt_samples(struct model *m, uint32_t *nodes, double *durations,
			 size_t n)
{
	free(m->sample_node);
	free(m->sample_duration);
	m->sample_node = xrealloc(nodes, (n + 1) * sizeof(uint32_t));
	m->sample_duration = xrealloc(durations, (n + 1) * sizeof(double));
	m->nsamples = m->samples_cap = n;
	/* Millions of samples on nodes all over the tree: each node's value
	 * is fetched a few samples ahead of its sum. */
	for (size_t i = 0; i < n; i++) {
		if (i + 16 < n)
			__builtin_prefetch(&m->node_self[(size_t)m->sample_node[i + 16] * m->ntypes]);
		model_add_node_value(m, m->sample_node[i], 0, m->sample_duration[i]);
	}
}

void model_add_label(struct model *m, const struct sample_label *label)
{
	GROW(m->labels, m->labels_cap, m->nlabels + 1);
	m->labels[m->nlabels++] = *label;
}

uint32_t model_add_label_row(struct model *m, const double *values)
{
	m->label_stride = m->ntypes;
	size_t at = m->nlabel_rows * m->ntypes;
	GROW(m->label_values, m->label_values_cap, at + m->ntypes);
	memcpy(m->label_values + at, values, m->ntypes * sizeof(double));
	return (uint32_t)m->nlabel_rows++;
}

void model_add_arc(struct model *m, uint32_t caller, uint32_t callee,
		   double count, double time)
{
	GROW(m->arcs, m->arcs_cap, m->narcs + 1);
	m->arcs[m->narcs] = (struct arc){ caller, callee, count, time, (uint32_t)m->narcs };
	m->narcs++;
}

/* ---- finishing -------------------------------------------------------- */

/* node_order: every node after all of its parents, breadth first
 * (Kahn's algorithm); `count` (NULL in a tree) holds each node's parents
 * still to be seen.  A node left out lies on a cycle. */
static bool order_nodes(struct model *m, uint32_t *count, uint32_t *cycle_node)
{
	size_t n = m->nnodes, head = 0, tail = 0;
	uint32_t *order = m->node_order = xmalloc((n + 1) * sizeof(uint32_t));
	for (size_t v = 0; v < n; v++)
		if (!m->nodes[v].nparents)
			order[tail++] = (uint32_t)v;
	while (head < tail) {
		/* The queue reaches the nodes at random, but it is known
		 * ahead: each node, then its list, is fetched some turns
		 * before its own. */
		if (head + 16 < tail)
			__builtin_prefetch(&m->nodes[order[head + 16]]);
		if (head + 8 < tail)
			__builtin_prefetch(&m->child_ids[m->nodes[order[head + 8]].child_start]);
		const struct node *p = &m->nodes[order[head++]];
		/* In a tree a child's one parent is this one: counting down
		 * would only miss the cache at every node. */
		for (uint32_t i = p->child_start; i < p->child_end; i++)
			if (!count || --count[m->child_ids[i]] == 0)
				order[tail++] = m->child_ids[i];
	}
	if (tail == n)
		return true;
	for (size_t v = 0; v < n; v++)
		if (count ? count[v] : m->nodes[v].nparents) {
			*cycle_node = (uint32_t)v;
			break;
		}
	return false;
}

/* Children lists in CSR form from the edges as they came, each node's
 * parents, and node_order. */
static bool build_node_links(struct model *m, uint32_t *cycle_node)
{
	const struct model_edge *edges = m->build->edges;
	size_t n = m->nnodes, nedges = m->build->nedges;
	uint32_t *count = xzeroed(n + 1, sizeof(uint32_t));
	bool tree = true; /* no node with two parents */
	for (size_t e = 0; e < nedges; e++) {
		count[edges[e].parent]++;
		tree &= m->nodes[edges[e].child].nparents++ == 0;
	}
	uint32_t pos = 0;
	for (size_t v = 0; v < n; v++) {
		m->nodes[v].child_start = m->nodes[v].child_end = pos;
		pos += count[v];
	}
	m->child_ids = xmalloc((nedges + 1) * sizeof(uint32_t));
	m->parent_ids = xmalloc((nedges + 1) * sizeof(uint32_t));
	m->parents_start = xcalloc(n + 2, sizeof(uint32_t));
	for (size_t v = 0; v < n; v++)
		m->parents_start[v + 1] = m->parents_start[v] + m->nodes[v].nparents;
	uint32_t *parents_filled = xzeroed(n + 1, sizeof(uint32_t));
	m->parents_first = true;
	for (size_t e = 0; e < nedges; e++) {
		uint32_t child = edges[e].child;
		m->parents_first &= edges[e].parent < child;
		m->parent_ids[m->parents_start[child] + parents_filled[child]++] =
			edges[e].parent;
		struct node *p = &m->nodes[edges[e].parent];
		m->child_ids[p->child_end++] = child;
		struct node *c = &m->nodes[child];
		if (c->parent == NO_ID)
			c->parent = edges[e].parent;
	}
	free(parents_filled);
	for (size_t v = 0; !tree && v < n; v++)
		count[v] = m->nodes[v].nparents; /* the parents still to be seen */
	bool acyclic = order_nodes(m, tree ? NULL : count, cycle_node);
	free(count);
	return acyclic;
}

/* The parents' lists and node_order (unless given) of a tree given
 * whole (model_adopt_tree), from each node's parent, in turn: no pass
 * over the links at random. */
static bool link_given_tree(struct model *m, uint32_t *cycle_node)
{
	size_t n = m->nnodes;
	uint32_t links = 0;
	m->parent_ids = xmalloc((n + 1) * sizeof(uint32_t));
	m->parents_start = xcalloc(n + 2, sizeof(uint32_t));
	m->parents_first = true;
	for (size_t v = 0; v < n; v++) {
		struct node *node = &m->nodes[v];
		m->parents_start[v] = links;
		node->nparents = node->parent != NO_ID;
		if (node->parent != NO_ID) {
			m->parents_first &= node->parent < v;
			m->parent_ids[links++] = node->parent;
		}
	}
	m->parents_start[n] = links;
	return m->node_order || order_nodes(m, NULL, cycle_node);
}

/* A stable counting sort of the arcs by one end: frame ids are small
 * and dense, and a profile can have millions of arcs.  `origin` (per
 * arc, the place it was added at) moves with the arcs. */
static void sort_arcs_by(struct model *m, bool by_callee, uint32_t **origin)
{
	size_t nf = m->nframes, n = m->narcs;
	uint32_t *next = xcalloc(nf + 2, sizeof(uint32_t));
	for (size_t i = 0; i < n; i++)
		next[(by_callee ? m->arcs[i].callee : m->arcs[i].caller) + 1]++;
	for (size_t f = 0; f < nf; f++)
		next[f + 1] += next[f];
	struct arc *sorted = xmalloc((n + 1) * sizeof(*sorted));
	uint32_t *moved = xmalloc((n + 1) * sizeof(uint32_t));
	for (size_t i = 0; i < n; i++) {
		uint32_t at = next[by_callee ? m->arcs[i].callee : m->arcs[i].caller]++;
		sorted[at] = m->arcs[i];
		moved[at] = (*origin)[i];
	}
	free(m->arcs);
	m->arcs = sorted;
	m->arcs_cap = n + 1;
	free(*origin);
	*origin = moved;
	free(next);
}

/* The arcs of the node links, each pair once: a big tree links the
 * same two functions at many places (a recursion, link after link),
 * and the arcs are copied twice to be sorted.  They count nothing, so
 * leaving the repeats out changes no sum the merge below makes.  Each
 * link's arc, as the place it was added at, goes in m->link_arcs: the
 * rules' sums and a range's view would otherwise search for it again
 * and again. */
static void add_link_arcs(struct model *m)
{
	struct id_table pairs;
	id_table_init(&pairs, m->nframes);
	free(m->link_arcs);
	m->link_arcs = xmalloc(((size_t)m->parents_start[m->nnodes] + 1) * sizeof(uint32_t));
	for (size_t v = 0; v < m->nnodes; v++) {
		const struct node *p = &m->nodes[v];
		for (uint32_t i = p->child_start; i < p->child_end; i++) {
			uint32_t caller = p->frame, callee = m->nodes[m->child_ids[i]].frame;
			struct id_probe probe =
				id_table_probe(&pairs, hash_mix((uint64_t)caller << 32 | callee));
			uint32_t id;
			while ((id = id_probe_next(&pairs, &probe)) != NO_ID &&
			       (m->arcs[id].caller != caller || m->arcs[id].callee != callee))
				;
			if (id == NO_ID) {
				id = (uint32_t)m->narcs;
				id_table_add(&pairs, &probe, id);
				model_add_arc(m, caller, callee, 0, 0);
			}
			m->link_arcs[i] = id;
		}
	}
	id_table_free(&pairs);
}

/* Sorts the arcs (callee, then caller) and merges the repeats of a
 * pair; returns, per place an arc was added at, the arc it is now. */
static uint32_t *merge_arcs(struct model *m)
{
	size_t n = m->narcs;
	uint32_t *origin = xmalloc((n + 1) * sizeof(uint32_t));
	for (size_t i = 0; i < n; i++)
		origin[i] = (uint32_t)i;
	sort_arcs_by(m, false, &origin);
	sort_arcs_by(m, true, &origin); /* stable: (callee, caller) order */
	uint32_t *now = xmalloc((n + 1) * sizeof(uint32_t));
	size_t out = 0;
	for (size_t i = 0; i < n; i++) {
		if (out && m->arcs[out - 1].caller == m->arcs[i].caller &&
		    m->arcs[out - 1].callee == m->arcs[i].callee) {
			m->arcs[out - 1].count += m->arcs[i].count;
			m->arcs[out - 1].time += m->arcs[i].time;
		} else {
			m->arcs[out++] = m->arcs[i];
		}
		now[origin[i]] = (uint32_t)(out - 1);
	}
	m->narcs = out;
	free(origin);
	return now;
}

/* The function graph: distinct caller -> callee pairs from the node
 * edges (their arcs found here unless `links_given`,
 * model_adopt_link_arcs) and from the arcs a loader gave, merged,
 * indexed both ways. */
static void build_function_graph(struct model *m, bool links_given)
{
	if (!links_given)
		add_link_arcs(m);
	uint32_t *now = merge_arcs(m);
	for (size_t i = 0; i < m->parents_start[m->nnodes]; i++)
		m->link_arcs[i] = now[m->link_arcs[i]];
	free(now);
	size_t nf = m->nframes, out = m->narcs;
	m->callers_start = xcalloc(nf + 1, sizeof(uint32_t));
	m->callees_start = xcalloc(nf + 1, sizeof(uint32_t));
	m->callees_arcs = xmalloc((out + 1) * sizeof(uint32_t));
	m->frame_calls = xcalloc(nf + 1, sizeof(double));
	for (size_t i = 0; i < out; i++) {
		m->callers_start[m->arcs[i].callee + 1]++;
		m->callees_start[m->arcs[i].caller + 1]++;
		m->frame_calls[m->arcs[i].callee] += m->arcs[i].count;
	}
	for (size_t f = 0; f < nf; f++) {
		m->callers_start[f + 1] += m->callers_start[f];
		m->callees_start[f + 1] += m->callees_start[f];
	}
	/* Arcs come in callee order, so each caller's list does too. */
	uint32_t *next = xmalloc((nf + 1) * sizeof(uint32_t));
	memcpy(next, m->callees_start, (nf + 1) * sizeof(uint32_t));
	for (size_t i = 0; i < out; i++)
		m->callees_arcs[next[m->arcs[i].caller]++] = (uint32_t)i;
	free(next);
}

static void index_sample_offsets(struct model *m)
{
	free(m->sample_offsets);
	m->nsample_offsets = m->nsamples / SAMPLE_OFFSET_STEP + 1;
	m->sample_offsets = xmalloc(m->nsample_offsets * sizeof(double));
	double t = 0, magnitude = 0;
	m->integral_samples = m->nsamples;
	for (size_t i = 0; i < m->nsamples; i++) {
		if (i % SAMPLE_OFFSET_STEP == 0)
			m->sample_offsets[i / SAMPLE_OFFSET_STEP] = t;
		double d = m->sample_duration[i];
		t += d;
		magnitude += fabs(d);
		if (m->integral_samples == m->nsamples &&
		    (d != floor(d) || !(magnitude < 0x1p53)))
			m->integral_samples = i;
	}
	if (m->nsamples % SAMPLE_OFFSET_STEP == 0)
		m->sample_offsets[m->nsamples / SAMPLE_OFFSET_STEP] = t;
}

uint32_t model_find_arc(const struct model *m, uint32_t caller, uint32_t callee)
{
	uint32_t lo = m->callers_start[callee], hi = m->callers_start[callee + 1];
	while (lo < hi) { /* among the callee's callers, sorted */
		uint32_t mid = lo + (hi - lo) / 2;
		if (m->arcs[mid].caller < caller)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo < m->callers_start[callee + 1] && m->arcs[lo].caller == caller
		       ? lo : NO_ID;
}

bool model_finish(struct model *m, uint32_t *cycle_node)
{
	/* Made ahead (a key's work first) and maybe no longer wanted. */
	if (!background_pause_point())
		return false;
	if (m->ntypes == 0)
		model_add_sample_type(m, "time", "us");
	bool acyclic = m->build->tree_given ? link_given_tree(m, cycle_node)
					    : build_node_links(m, cycle_node);
	bool links_given = m->build->link_arcs_given;
	free_build(m);
	if (!acyclic || !background_pause_point())
		return false;
	build_function_graph(m, links_given);
	if (!background_pause_point())
		return false;
	/* Frame values are read for every frame: give them all a slot. */
	if (m->frame_self)
		grow_zeroed(&m->frame_self, &m->frame_self_cap, m->nframes * m->ntypes);

	if (m->nnodes) {
		m->caps |= HAS_NODES;
		for (size_t v = 0; v < m->nnodes; v++)
			if (m->nodes[v].nparents > 1)
				m->caps |= HAS_NODE_GRAPH;
		if (!(m->caps & HAS_NODE_GRAPH))
			m->caps |= HAS_STACKS;
	}
	if (m->nsamples)
		m->caps |= HAS_TIMELINE;
	if (!m->durations_borrowed) /* else they came with the durations */
		index_sample_offsets(m);
	if (m->duration <= 0 && m->end_time > m->start_time)
		m->duration = m->end_time - m->start_time;
	m->finished = true;
	return true;
}

void model_add_other_thread(struct model *m, const char *name)
{
	GROW(m->other_threads, m->other_threads_cap, m->nother_threads + 1);
	m->other_threads[m->nother_threads++] = model_string(m, name, strlen(name));
}

void model_join_other_threads(const struct model *m, char *out, size_t size)
{
	size_t used = 0;
	out[0] = '\0';
	for (size_t i = 0; i < m->nother_threads && used + 1 < size; i++) {
		int n = snprintf(out + used, size - used, "%s%s", used ? "; " : "",
				 model_str(m, m->other_threads[i]));
		if (n > 0)
			used += (size_t)n;
	}
}

/* ---- views of another model ------------------------------------------- */

void model_view_start(struct model *out, const struct model *of)
{
	*out = *of;
	out->range = (struct range_overlay){ .of = of };
	out->build = NULL;
	open_build(out);
	out->node_lines = NULL;
	out->node_line_values = NULL;
	out->nnode_lines = out->node_lines_cap = 0;
	out->range.owns = VIEW_OWNS_LINES; /* its node lines, from none */
}

void model_view_own_frames(struct model *out)
{
	const struct model *of = out->range.of;
	strings_copy(&out->strings, &of->strings);
	out->frames = xmalloc((of->nframes + 1) * sizeof(*out->frames));
	if (of->nframes)
		memcpy(out->frames, of->frames, of->nframes * sizeof(*out->frames));
	out->frames_cap = of->nframes + 1;
	out->range.owns |= VIEW_OWNS_FRAMES;
	index_frames(out);
}

void model_view_nodes(struct model *out, struct node *nodes, size_t n, double *values)
{
	struct model_build *b = out->build;
	out->nodes = nodes;
	out->nnodes = out->nodes_cap = n;
	out->node_self = values;
	out->node_self_cap = n * out->ntypes;
	b->nedges = 0;
	GROW(b->edges, b->edges_cap, n + 1);
	for (size_t v = 0; v < n; v++) {
		struct node *node = &nodes[v];
		node->nparents = 0;
		if (node->parent != NO_ID)
			b->edges[b->nedges++] = (struct model_edge){ node->parent, (uint32_t)v };
	}
	uint32_t cycle;
	build_node_links(out, &cycle); /* parents come first: no cycle */
	out->arcs = NULL; /* of's, which the graph's making would free */
	out->narcs = out->arcs_cap = 0;
	out->link_arcs = NULL;
	out->range.owns |= VIEW_OWNS_NODES | VIEW_OWNS_GRAPH | VIEW_OWNS_VALUES;
	build_function_graph(out, false);
}

void model_view_finish(struct model *out)
{
	free_build(out);
}

uint8_t *model_hidden_arcs(const struct model *m, const uint8_t *shown)
{
	uint8_t *hidden = xmalloc(m->narcs + 1);
	memset(hidden, 1, m->narcs + 1);
	for (uint32_t v = 0; v < m->nnodes; v++) {
		const struct node *n = &m->nodes[v];
		for (uint32_t i = n->child_start; shown[v] && i < n->child_end; i++)
			if (shown[m->child_ids[i]])
				hidden[m->link_arcs[i]] = 0;
	}
	return hidden;
}

bool model_has_children(const struct model *m, uint32_t node)
{
	const struct node *n = &m->nodes[node];
	for (uint32_t i = n->child_start; i < n->child_end; i++)
		if (!node_hidden(m, m->child_ids[i]))
			return true;
	return false;
}
