/* A growing trace followed for a live view (trace.h, trace_live_*): each
 * update folds only the samples that arrived since the last one into
 * per-node sums and a bounded timeline (bounded_timeline.h, as XS
 * sessions keep), so that a refresh costs what is new, not the whole
 * session, and memory is the nodes plus a fixed timeline.  The model it
 * gives has each node's time and sample count (every sample's), and the
 * newest samples in time order (for the strip and ranges; those before
 * them counted in model.live.samples_before); it takes new numbers and
 * samples in place while no node is new. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/id_table.h"
#include "base/util.h"
#include "bounded_timeline.h"
#include "trace.h"

enum { TYPE_TIME, TYPE_COUNT };

/* Samples kept unsettled: a late sample further back than this is put
 * after the last settled one (an approximation of the live view only). */
#define PENDING 256
#define RING 512 /* a power of two above PENDING */
#define AT(l, k) (((l)->first + (k)) & (RING - 1))

struct trace_live {
	const char *format; /* the models': "trace", or the feeder's */
	bool fed;           /* by trace_live_add_*, not from a stream */
	/* The profile followed, chosen again each update: a renderer's main
	 * thread first, as DevTools opens a file, its newest run (after p)
	 * rather than its busiest; else the thread with most samples. */
	size_t profile;
	bool following;
	char who[200];
	/* Its nodes as they came, and where each id is. */
	struct trace_node *nodes;
	size_t nnodes, nodes_cap;
	uint32_t *parent;  /* per node: the parent's id, NO_ID for none */
	struct id_table ids; /* node indices by their ids */
	size_t edges_done, samples_done;
	/* Per node: time (µs) and samples. */
	double *self;
	double *hits;
	size_t values_cap;
	double start, time, end; /* time: the sum of the deltas so far */
	/* The last samples, in time order, their durations not yet final: V8
	 * sends a sample a little late now and then (a negative delta), and
	 * the whole session sorts them by time, as DevTools does. */
	double pending_time[RING]; /* a ring: the k-th at (first + k) % RING */
	uint32_t pending_node[RING];
	size_t first, npending;
	double settled; /* the time of the last sample whose duration is final */
	/* The newest settled samples in time order, entries numbering nodes;
	 * the model built last holds the settled samples up to the
	 * `model_settled`-th of the session, then the pending samples. */
	struct bounded_timeline timeline;
	size_t model_settled;
	/* The settled gaps (time no sample covers, trace_live_add_gap) that
	 * come before a sample the timeline holds or will hold next: each
	 * before the session's sample of that number.  Those before the
	 * samples held are summed in one: few however long the session. */
	struct sample_gap *gaps;
	size_t ngaps, gaps_cap;
	double gaps_gone;
	size_t samples;
	struct string_table strings; /* the stream's names, as of the last new node */
	bool reshaped;               /* nodes since the last model */
	const struct model *built;
};

struct trace_live *trace_live_new(void)
{
	struct trace_live *l = xcalloc(1, sizeof(*l));
	l->format = "trace";
	l->timeline = BOUNDED_TIMELINE_INIT;
	strings_init(&l->strings);
	id_table_init(&l->ids, 512);
	return l;
}

void trace_live_free(struct trace_live *l)
{
	if (!l)
		return;
	free(l->nodes);
	free(l->parent);
	id_table_free(&l->ids);
	free(l->self);
	free(l->hits);
	bounded_timeline_free(&l->timeline);
	free(l->gaps);
	strings_free(&l->strings);
	free(l);
}

/* The node of `id`, NO_ID when none came: the probe then ends where it
 * goes. */
static uint32_t find_id(const struct trace_live *l, uint32_t id,
			struct id_probe *p)
{
	*p = id_table_probe(&l->ids, hash_mix(id));
	uint32_t k;
	while ((k = id_probe_next(&l->ids, p)) != NO_ID)
		if (l->nodes[k].id == id)
			return k;
	return NO_ID;
}

static uint32_t index_of(const struct trace_live *l, uint32_t id)
{
	struct id_probe p;
	return find_id(l, id, &p);
}

static void index_id(struct trace_live *l, uint32_t id, uint32_t index)
{
	struct id_probe p;
	if (find_id(l, id, &p) == NO_ID) /* a repeated id keeps its first node */
		id_table_add(&l->ids, &p, index);
}

static void forget(struct trace_live *l)
{
	l->nnodes = l->edges_done = l->samples_done = l->samples = 0;
	id_table_clear(&l->ids);
	l->npending = 0;
	bounded_timeline_clear(&l->timeline);
	l->ngaps = 0;
	l->gaps_gone = 0;
	l->reshaped = true;
}

static bool is_renderer_main(const struct trace *t, const struct trace_profile *p)
{
	for (size_t i = t->nthreads; i-- > 0;)
		if (t->threads[i].pid == p->pid && t->threads[i].tid == p->tid)
			return !strcmp(t->threads[i].name, "CrRendererMain");
	return false;
}

static size_t samples_of(const struct trace_profile *p)
{
	return p->dropped + p->data.nsamples;
}

/* A profile whose samples were dropped for another fold, or for this
 * one before it followed another, cannot be followed from its start:
 * only the one followed (`current`) keeps its place then. */
static size_t choose(const struct trace *t, size_t current)
{
	size_t best = 0;
	bool best_main = false, any = false;
	for (size_t i = 0; i < t->nprofiles; i++) {
		const struct trace_profile *p = &t->profiles[i];
		if (p->dropped && i != current)
			continue;
		bool main = is_renderer_main(t, p);
		if (!any || (main && !best_main) || (main && best_main) ||
		    (!main && !best_main && samples_of(p) > samples_of(&t->profiles[best]))) {
			best = i;
			best_main = main;
			any = true;
		}
	}
	return best;
}

static void add_node(struct trace_live *l, const struct trace_node *node, uint32_t parent)
{
	GROW(l->nodes, l->nodes_cap, l->nnodes + 1);
	if (l->values_cap < l->nodes_cap) {
		l->parent = xrealloc(l->parent, l->nodes_cap * sizeof(uint32_t));
		l->self = xrealloc(l->self, l->nodes_cap * sizeof(double));
		l->hits = xrealloc(l->hits, l->nodes_cap * sizeof(double));
		l->values_cap = l->nodes_cap;
	}
	size_t i = l->nnodes++;
	l->nodes[i] = *node;
	l->parent[i] = parent;
	l->self[i] = l->hits[i] = 0;
	index_id(l, node->id, (uint32_t)i);
	l->reshaped = true;
}

static void take_nodes(struct trace_live *l, const struct trace_data *d)
{
	while (l->nnodes < d->nnodes)
		add_node(l, &d->nodes[l->nnodes], NO_ID);
}

static void take_edges(struct trace_live *l, const struct trace_data *d)
{
	for (; l->edges_done < d->nedges; l->edges_done++) {
		uint32_t child = index_of(l, d->edges[l->edges_done].child);
		if (child != NO_ID && l->parent[child] == NO_ID) {
			l->parent[child] = d->edges[l->edges_done].parent;
			l->reshaped = true;
		}
	}
}

/* A gap settles before the next sample to settle. */
static void settle_gap(struct trace_live *l, double duration)
{
	size_t before = (size_t)bounded_timeline_total(&l->timeline);
	if (l->ngaps && l->gaps[l->ngaps - 1].before == before) {
		l->gaps[l->ngaps - 1].duration += duration;
		return;
	}
	GROW(l->gaps, l->gaps_cap, l->ngaps + 1);
	l->gaps[l->ngaps++] = (struct sample_gap){ before, duration };
}

/* A gap whose next sample has left the timeline is before the first
 * held: summed in gaps_gone. */
static void forget_gaps(struct trace_live *l)
{
	size_t gone = 0;
	while (gone < l->ngaps && l->gaps[gone].before <= l->timeline.dropped)
		l->gaps_gone += l->gaps[gone++].duration;
	if (!gone)
		return;
	l->ngaps -= gone;
	memmove(l->gaps, l->gaps + gone, l->ngaps * sizeof(*l->gaps));
}

/* A sample in its place among the pending ones (after those of the same
 * time); the earliest settles when there are too many: it lasts until
 * the next. */
static void add_pending(struct trace_live *l, double at, uint32_t node)
{
	if (at < l->settled)
		at = l->settled;
	size_t k = l->npending;
	for (; k > 0 && l->pending_time[AT(l, k - 1)] > at; k--) {
		l->pending_time[AT(l, k)] = l->pending_time[AT(l, k - 1)];
		l->pending_node[AT(l, k)] = l->pending_node[AT(l, k - 1)];
	}
	l->pending_time[AT(l, k)] = at;
	l->pending_node[AT(l, k)] = node;
	if (++l->npending <= PENDING)
		return;
	uint32_t oldest = l->pending_node[AT(l, 0)];
	l->settled = l->pending_time[AT(l, 1)];
	double duration = l->settled - l->pending_time[AT(l, 0)];
	if (oldest != NO_ID) {
		l->self[oldest] += duration;
		bounded_timeline_add(&l->timeline, oldest, duration, LIVE_TIMELINE_ENTRIES);
		forget_gaps(l);
	} else {
		settle_gap(l, duration);
	}
	l->first = AT(l, 1);
	l->npending--;
}

static void add_sample(struct trace_live *l, double at, uint32_t node_id)
{
	uint32_t node = index_of(l, node_id);
	if (node != NO_ID) {
		l->hits[node]++;
		l->samples++;
	}
	add_pending(l, at, node);
}

static void take_samples(struct trace_live *l, const struct trace_profile *p)
{
	const struct trace_data *d = &p->data;
	if (!l->samples_done)
		l->time = l->start = l->settled = p->start;
	for (; l->samples_done < samples_of(p); l->samples_done++) {
		size_t k = l->samples_done - p->dropped;
		l->time += d->deltas[k];
		add_sample(l, l->time, d->samples[k]);
	}
	l->end = p->has_end ? p->end : l->time;
}

struct trace_live *trace_live_fed(const char *format)
{
	struct trace_live *l = trace_live_new();
	l->format = format;
	l->fed = true;
	return l;
}

struct string_table *trace_live_strings(struct trace_live *l)
{
	return &l->strings;
}

void trace_live_add_node(struct trace_live *l, const struct trace_node *node,
			 uint32_t parent_id)
{
	add_node(l, node, parent_id);
}

void trace_live_add_sample(struct trace_live *l, double at, uint32_t node_id)
{
	if (!l->samples && !l->npending)
		l->start = l->settled = at;
	add_sample(l, at, node_id);
	if (l->end < at)
		l->end = at;
}

void trace_live_add_gap(struct trace_live *l, double from)
{
	if (l->samples || l->npending)
		add_pending(l, from, NO_ID);
}

void trace_live_set_end(struct trace_live *l, double end)
{
	l->end = end;
}

size_t trace_live_samples(const struct trace_live *l)
{
	return l->samples;
}

double trace_live_span(const struct trace_live *l)
{
	return l->samples ? l->end - l->start : 0;
}

void trace_live_update(struct trace_live *l, const struct trace_stream *s)
{
	const struct trace *t = trace_stream_trace(s);
	if (!t->nprofiles)
		return;
	size_t which = choose(t, l->following ? l->profile : t->nprofiles);
	if (!l->following || which != l->profile) {
		forget(l);
		l->profile = which;
		l->following = true;
	}
	const struct trace_profile *p = &t->profiles[which];
	take_nodes(l, &p->data);
	take_edges(l, &p->data);
	take_samples(l, p);
	if (l->reshaped) {
		strings_free(&l->strings);
		strings_copy(&l->strings, trace_stream_strings(s));
		const char *thread = NULL;
		for (size_t i = t->nthreads; i-- > 0 && !thread;)
			if (t->threads[i].pid == p->pid && t->threads[i].tid == p->tid)
				thread = t->threads[i].name;
		snprintf(l->who, sizeof(l->who), "%s (pid %lld, tid %lld)",
			 thread ? thread : "thread", (long long)p->pid, (long long)p->tid);
	}
}

void trace_live_drop_taken(struct trace_live *l, struct trace_stream *s)
{
	if (l->following)
		trace_stream_drop_samples(s, l->profile, l->samples_done);
}

/* A pending sample's duration so far: until the next, the last until
 * the end. */
static double pending_duration(const struct trace_live *l, size_t k)
{
	double at = l->pending_time[AT(l, k)];
	double next = k + 1 < l->npending ? l->pending_time[AT(l, k + 1)] : l->end;
	return next > at ? next - at : 0;
}

/* The settled samples the model lacks (those that left the window leave
 * it), then the pending ones again (their durations may have changed: a
 * late sample came between, or the last one's successor); the gaps
 * among them all made again.  The values are set after, from the nodes'
 * sums of every sample. */
static void set_timeline(struct trace_live *l, struct model *m)
{
	const struct bounded_timeline *t = &l->timeline;
	size_t held = l->model_settled > m->live.samples_before
			      ? l->model_settled - m->live.samples_before : 0;
	bounded_timeline_to_model(t, NULL, m, held);
	l->model_settled = (size_t)bounded_timeline_total(t);
	m->live.ngaps = 0;
	if (l->gaps_gone > 0)
		model_add_gap(m, 0, l->gaps_gone);
	for (size_t g = 0; g < l->ngaps; g++)
		model_add_gap(m, l->gaps[g].before - (size_t)t->dropped, l->gaps[g].duration);
	for (size_t k = 0; k < l->npending; k++) {
		uint32_t node = l->pending_node[AT(l, k)];
		if (node != NO_ID)
			model_add_sample(m, node, pending_duration(l, k));
		else
			model_add_gap(m, m->nsamples, pending_duration(l, k));
	}
	if (m->nsamples)
		m->caps |= HAS_TIMELINE;
}

/* The settled times, and the pending samples' on top. */
static void set_values(const struct trace_live *l, struct model *m)
{
	for (size_t i = 0; i < l->nnodes; i++) {
		model_set_node_value(m, (uint32_t)i, TYPE_TIME, l->self[i]);
		model_set_node_value(m, (uint32_t)i, TYPE_COUNT, l->hits[i]);
	}
	for (size_t k = 0; k < l->npending; k++) {
		uint32_t node = l->pending_node[AT(l, k)];
		if (node != NO_ID)
			model_set_node_value(m, node, TYPE_TIME,
					     node_value(m, node, TYPE_TIME) +
						     pending_duration(l, k));
	}
	m->start_time = l->start;
	m->end_time = l->end;
	m->duration = l->end - l->start;
	m->summed_samples = l->samples;
}

/* A model of the nodes with their values, and with the timeline unless
 * `timeline` is false. */
static bool build(struct trace_live *l, struct model *m, bool timeline, char *err,
		  size_t cap)
{
	model_init(m, l->format);
	m->lines_zero_based = true;
	strings_free(&m->strings);
	strings_copy(&m->strings, &l->strings);
	model_add_sample_type(m, "time", "us");
	model_add_sample_type(m, "samples", "count");
	trace_add_nodes(m, l->nodes, l->nnodes);
	for (size_t i = 0; i < l->nnodes; i++) {
		uint32_t parent = l->parent[i] == NO_ID ? NO_ID : index_of(l, l->parent[i]);
		if (parent != NO_ID && parent != i)
			model_add_edge(m, parent, (uint32_t)i);
	}
	for (size_t i = 0; i < l->nnodes; i++) {
		model_add_node_value(m, (uint32_t)i, TYPE_TIME, 0);
		model_add_node_value(m, (uint32_t)i, TYPE_COUNT, 0);
	}
	if (*l->who)
		m->thread = model_string(m, l->who, strlen(l->who));
	uint32_t cycle;
	if (!model_finish(m, &cycle)) {
		snprintf(err, cap, "%s: node %u is on a cycle of children",
			 l->fed ? l->format : "trace-event JSON", l->nodes[cycle].id);
		model_free(m);
		return false;
	}
	if (timeline) {
		l->model_settled = 0;
		set_timeline(l, m);
	}
	set_values(l, m);
	return true;
}

enum trace_live_change trace_live_model(struct trace_live *l, struct model *shown,
					struct model *fresh, char *err, size_t cap)
{
	if (!l->samples) {
		snprintf(err, cap, "no samples yet");
		return TRACE_LIVE_NONE;
	}
	if (shown && shown == l->built && !l->reshaped) {
		set_timeline(l, shown);
		set_values(l, shown);
		return TRACE_LIVE_VALUES;
	}
	if (!build(l, fresh, true, err, cap))
		return TRACE_LIVE_NONE;
	l->built = fresh;
	l->reshaped = false;
	return TRACE_LIVE_MODEL;
}

bool trace_live_session_model(struct trace_live *l, struct model *m, char *err, size_t cap)
{
	if (!l->samples) {
		snprintf(err, cap, "no samples yet");
		return false;
	}
	/* The live view's model keeps its count of settled samples. */
	size_t settled = l->model_settled;
	bool exact = bounded_timeline_exact(&l->timeline);
	bool ok = build(l, m, exact, err, cap);
	l->model_settled = settled;
	if (ok && !exact) {
		char text[300];
		snprintf(text, sizeof(text), "the session's %zu samples are summed per stack "
			 "(every sample's time and count): the live timeline kept only the "
			 "newest %d, so their order in time is left out", l->samples,
			 LIVE_TIMELINE_ENTRIES);
		m->warning = model_string(m, text, strlen(text));
	}
	return ok;
}
