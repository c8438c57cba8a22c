/* From the profiles of a trace to one model: chunks put in order and
 * joined, sample times as DevTools computes them, the thread chosen as
 * DevTools chooses it, and that thread's profile made the model. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/stable_order.h"
#include "base/util.h"
#include "trace.h"
#include "v8_frame.h"

void trace_init(struct trace *t, struct model *m)
{
	memset(t, 0, sizeof(*t));
	t->m = m;
}

void trace_data_free(struct trace_data *d)
{
	free(d->nodes);
	free(d->edges);
	free(d->ticks);
	free(d->samples);
	free(d->deltas);
	free(d->lines);
	memset(d, 0, sizeof(*d));
}

static void free_names(struct trace_name *names, size_t n)
{
	for (size_t i = 0; i < n; i++)
		free(names[i].name);
	free(names);
}

void trace_free(struct trace *t)
{
	for (size_t i = 0; i < t->nprofiles; i++) {
		trace_data_free(&t->profiles[i].data);
		free(t->profiles[i].chunks);
	}
	free(t->profiles);
	id_table_free(&t->profile_index);
	free_names(t->threads, t->nthreads);
	free_names(t->processes, t->nprocesses);
	free(t->slices);
}

/* A copy of n entries, with room for one more (NULL stays NULL). */
#define DUP(to, cap, from, n)                                                  \
	do {                                                                   \
		(to) = (from) ? xmalloc(((n) + 1) * sizeof(*(from))) : NULL;   \
		if ((from) && (n))                                             \
			memcpy(to, from, (n) * sizeof(*(from)));               \
		(cap) = (from) ? (n) + 1 : 0;                                  \
	} while (0)

static void copy_data(struct trace_data *to, const struct trace_data *d)
{
	*to = *d;
	DUP(to->nodes, to->nodes_cap, d->nodes, d->nnodes);
	DUP(to->edges, to->edges_cap, d->edges, d->nedges);
	DUP(to->ticks, to->ticks_cap, d->ticks, d->nticks);
	DUP(to->samples, to->samples_cap, d->samples, d->nsamples);
	DUP(to->deltas, to->deltas_cap, d->deltas, d->ndeltas);
	DUP(to->lines, to->lines_cap, d->lines, d->nlines);
}

static struct trace_name *copy_names(const struct trace_name *names, size_t n)
{
	struct trace_name *to = xmalloc((n + 1) * sizeof(*to));
	for (size_t i = 0; i < n; i++)
		to[i] = (struct trace_name){ names[i].pid, names[i].tid,
					     xstrdup(names[i].name) };
	return to;
}

void trace_copy(struct trace *to, const struct trace *t, struct model *m)
{
	trace_init(to, m);
	to->nprofiles = to->profiles_cap = t->nprofiles;
	to->profiles = xmalloc((t->nprofiles + 1) * sizeof(*to->profiles));
	for (size_t i = 0; i < t->nprofiles; i++) {
		struct trace_profile *p = &to->profiles[i];
		*p = t->profiles[i];
		copy_data(&p->data, &t->profiles[i].data);
		DUP(p->chunks, p->chunks_cap, t->profiles[i].chunks, p->nchunks);
	}
	if (t->profile_index.size)
		id_table_copy(&to->profile_index, &t->profile_index);
	to->threads = copy_names(t->threads, t->nthreads);
	to->processes = copy_names(t->processes, t->nprocesses);
	to->nthreads = to->threads_cap = t->nthreads;
	to->nprocesses = to->processes_cap = t->nprocesses;
	to->end_offset = t->end_offset;
}

/* ---- collecting events ---------------------------------------------- */

static struct trace_profile *new_profile(struct trace *t,
					 const struct trace_event_facts *f)
{
	GROW(t->profiles, t->profiles_cap, t->nprofiles + 1);
	struct trace_profile *p = &t->profiles[t->nprofiles++];
	memset(p, 0, sizeof(*p));
	p->pid = f->pid;
	p->tid = f->tid;
	snprintf(p->id, sizeof(p->id), "%s", f->id);
	p->offset = f->offset;
	return p;
}

/* Chunks belong to the Profile event with the same process and id; the
 * chunks may come from the sampler's own thread, or before the Profile
 * event when events are out of order.  CpuProfile events have no id:
 * they are never looked up, nor indexed. */
static struct trace_profile *profile_for(struct trace *t,
					 const struct trace_event_facts *f)
{
	if (!*f->id)
		return new_profile(t, f);
	if (!t->profile_index.size)
		id_table_init(&t->profile_index, 0);
	uint64_t h = hash_bytes(f->id, strlen(f->id), hash_mix((uint64_t)f->pid));
	struct id_probe probe = id_table_probe(&t->profile_index, h);
	for (uint32_t i; (i = id_probe_next(&t->profile_index, &probe)) != NO_ID;)
		if (t->profiles[i].pid == f->pid && !strcmp(t->profiles[i].id, f->id))
			return &t->profiles[i];
	id_table_add(&t->profile_index, &probe, (uint32_t)t->nprofiles);
	return new_profile(t, f);
}

#define APPEND(to, n, cap, from, count)                                        \
	do {                                                                   \
		GROW(to, cap, (n) + (count));                                  \
		if (count)                                                     \
			memcpy((to) + (n), from, (count) * sizeof(*(to)));     \
		(n) += (count);                                                \
	} while (0)

static void append_chunk(struct trace_profile *p, const struct trace_event_facts *f,
			 const struct trace_data *d)
{
	/* Chrome has written chunks with more timeDeltas than samples (twice
	 * as many: Firefox Profiler issue 5429); the peers pair them from the
	 * first and ignore the rest.  Samples without a delta are left out. */
	size_t paired = d->nsamples < d->ndeltas ? d->nsamples : d->ndeltas;
	p->extra_deltas += d->ndeltas - paired;
	p->samples_undelta += d->nsamples - paired;
	struct trace_data *to = &p->data;
	size_t first_node = to->nnodes, first_sample = to->nsamples;
	APPEND(to->nodes, to->nnodes, to->nodes_cap, d->nodes, d->nnodes);
	APPEND(to->edges, to->nedges, to->edges_cap, d->edges, d->nedges);
	size_t first_tick = to->nticks;
	APPEND(to->ticks, to->nticks, to->ticks_cap, d->ticks, d->nticks);
	for (size_t i = first_tick; i < to->nticks; i++)
		to->ticks[i].node += (uint32_t)first_node;
	APPEND(to->samples, to->nsamples, to->samples_cap, d->samples, paired);
	APPEND(to->deltas, to->ndeltas, to->deltas_cap, d->deltas, paired);
	/* Lines are per sample; chunks without them count as line 0. */
	if (d->nlines || to->lines) {
		GROW(to->lines, to->lines_cap, to->nsamples + 1);
		memset(to->lines + to->nlines, 0,
		       (to->nsamples - to->nlines) * sizeof(int32_t));
		size_t n = d->nlines < paired ? d->nlines : paired;
		if (n)
			memcpy(to->lines + first_sample, d->lines, n * sizeof(int32_t));
		to->nlines = to->nsamples;
	}
	if (!d->nsamples && !d->nnodes)
		return;
	GROW(p->chunks, p->chunks_cap, p->nchunks + 1);
	p->chunks[p->nchunks++] = (struct trace_chunk){
		f->ts, f->offset, first_sample, paired
	};
}

static void add_name(struct trace_name **names, size_t *n, size_t *cap,
		     int64_t pid, int64_t tid, const char *name)
{
	GROW(*names, *cap, *n + 1);
	(*names)[(*n)++] = (struct trace_name){ pid, tid, xstrdup(name) };
}

/* By (pid, tid), stably: a thread named twice keeps its last name. */
static int by_ids(const void *a, const void *b)
{
	const struct trace_name *x = *(const struct trace_name *const *)a;
	const struct trace_name *y = *(const struct trace_name *const *)b;
	if (x->pid != y->pid)
		return x->pid < y->pid ? -1 : 1;
	if (x->tid != y->tid)
		return x->tid < y->tid ? -1 : 1;
	return x < y ? -1 : x > y;
}

static void sort_names(struct trace_name *names, size_t n)
{
	struct trace_name **order = xmalloc((n + 1) * sizeof(*order));
	struct trace_name *copy = xmalloc((n + 1) * sizeof(*copy));
	for (size_t i = 0; i < n; i++)
		order[i] = &names[i];
	qsort(order, n, sizeof(*order), by_ids);
	for (size_t i = 0; i < n; i++)
		copy[i] = *order[i];
	if (n)
		memcpy(names, copy, n * sizeof(*copy));
	free(order);
	free(copy);
}

void trace_add_event_data(struct trace *t, enum trace_event_kind kind,
			  const struct trace_event_facts *f, const struct trace_data *d)
{
	struct trace_profile *p;
	if (f->phase != 'M') {
		double end = f->phase == 'X' && f->dur > 0 ? f->ts + f->dur : f->ts;
		if (end > t->last_time)
			t->last_time = end;
	}
	if (d->nsamples)
		trace_slices_drop(t);
	switch (kind) {
	case TRACE_PROFILE:
		p = profile_for(t, f);
		p->tid = f->tid;
		p->has_profile_event = true;
		p->start = f->has_start ? f->start : f->ts;
		p->has_start = true;
		if (f->offset < p->offset)
			p->offset = f->offset;
		append_chunk(p, f, d);
		return;
	case TRACE_CHUNK:
		p = profile_for(t, f);
		if (!p->has_profile_event)
			p->tid = f->tid;
		if (f->has_end) {
			p->end = f->end;
			p->has_end = true;
		}
		append_chunk(p, f, d);
		return;
	case TRACE_CPU_PROFILE:
		p = new_profile(t, &(struct trace_event_facts){
			.offset = f->offset, .pid = f->pid, .tid = f->tid, .id = "" });
		p->has_profile_event = true;
		p->start = f->has_start ? f->start : f->ts;
		p->has_start = true;
		p->end = f->end;
		p->has_end = f->has_end;
		append_chunk(p, f, d);
		return;
	case TRACE_THREAD_NAME:
		if (f->name)
			add_name(&t->threads, &t->nthreads, &t->threads_cap, f->pid,
				 f->tid, f->name);
		return;
	case TRACE_PROCESS_NAME:
		if (f->name)
			add_name(&t->processes, &t->nprocesses, &t->processes_cap,
				 f->pid, 0, f->name);
		return;
	case TRACE_OTHER:
		trace_slices_add(t, f);
		return;
	}
}

/* ---- one profile's samples in time order ---------------------------- */

static int by_chunk_time(const void *a, const void *b)
{
	const struct trace_chunk *x = a, *y = b;
	if (x->ts != y->ts)
		return x->ts < y->ts ? -1 : 1;
	return x->offset < y->offset ? -1 : x->offset > y->offset;
}

/* Puts the samples (with their deltas and lines) in `order`, which
 * lists where each comes from. */
static void permute_samples(struct trace_data *d, const size_t *order)
{
	size_t n = d->nsamples;
	double *deltas = xmalloc((n + 1) * sizeof(double));
	uint32_t *samples = xmalloc((n + 1) * sizeof(uint32_t));
	int32_t *lines = d->lines ? xmalloc((n + 1) * sizeof(int32_t)) : NULL;
	for (size_t i = 0; i < n; i++) {
		deltas[i] = d->deltas[order[i]];
		samples[i] = d->samples[order[i]];
		if (lines)
			lines[i] = d->lines[order[i]];
	}
	free(d->deltas);
	free(d->samples);
	free(d->lines);
	d->deltas = deltas;
	d->samples = samples;
	d->lines = lines;
	d->samples_cap = d->deltas_cap = d->lines_cap = n + 1;
}

/* Deltas run from one chunk into the next, in the order the sampler
 * sent them: by event time (file order among equal times), as DevTools
 * sorts a trace's events before it reads them. */
static void order_chunks(struct trace_profile *p)
{
	bool sorted = true;
	for (size_t c = 1; c < p->nchunks && sorted; c++)
		sorted = by_chunk_time(&p->chunks[c - 1], &p->chunks[c]) <= 0;
	if (sorted)
		return;
	qsort(p->chunks, p->nchunks, sizeof(*p->chunks), by_chunk_time);
	size_t *order = xmalloc((p->data.nsamples + 1) * sizeof(size_t));
	size_t k = 0;
	for (size_t c = 0; c < p->nchunks; c++) {
		struct trace_chunk *ch = &p->chunks[c];
		for (size_t i = 0; i < ch->count; i++)
			order[k + i] = ch->first + i;
		ch->first = k;
		k += ch->count;
	}
	permute_samples(&p->data, order);
	free(order);
}

/* Node id -> index.  V8 numbers nodes 1..N, so a table indexed by id
 * does; scattered ids go through a sorted list. */
struct id_index {
	uint32_t *dense; /* dense[id], NO_ID where none */
	size_t dense_size;
	uint64_t *sorted; /* id << 32 | index */
	size_t n;
};

static uint32_t find_node(const struct id_index *x, uint32_t id)
{
	if (x->dense)
		return id < x->dense_size ? x->dense[id] : NO_ID;
	size_t lo = 0, hi = x->n;
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		uint32_t at = (uint32_t)(x->sorted[mid] >> 32);
		if (at == id)
			return (uint32_t)x->sorted[mid];
		if (at < id)
			lo = mid + 1;
		else
			hi = mid;
	}
	return NO_ID;
}

static int by_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
	return x < y ? -1 : x > y;
}

static void describe(const struct trace *t, const struct trace_profile *p,
		     char *out, size_t size);

static bool index_ids(const struct trace *t, const struct trace_profile *p,
		      struct id_index *x, struct load_error *err)
{
	const struct trace_data *d = &p->data;
	uint32_t highest = 0;
	for (size_t i = 0; i < d->nnodes; i++)
		if (d->nodes[i].id > highest)
			highest = d->nodes[i].id;
	memset(x, 0, sizeof(*x));
	uint32_t twice = NO_ID;
	if (highest < 4 * d->nnodes + 1024) {
		x->dense_size = (size_t)highest + 1;
		x->dense = xmalloc(x->dense_size * sizeof(uint32_t));
		memset(x->dense, 0xff, x->dense_size * sizeof(uint32_t));
		for (size_t i = 0; i < d->nnodes; i++) {
			uint32_t *slot = &x->dense[d->nodes[i].id];
			if (*slot != NO_ID)
				twice = d->nodes[i].id;
			*slot = (uint32_t)i;
		}
	} else {
		x->n = d->nnodes;
		x->sorted = xmalloc((x->n + 1) * sizeof(uint64_t));
		for (size_t i = 0; i < d->nnodes; i++)
			x->sorted[i] = (uint64_t)d->nodes[i].id << 32 | i;
		qsort(x->sorted, x->n, sizeof(uint64_t), by_u64);
		for (size_t i = 1; i < x->n; i++)
			if (x->sorted[i] >> 32 == x->sorted[i - 1] >> 32)
				twice = (uint32_t)(x->sorted[i] >> 32);
	}
	if (twice == NO_ID)
		return true;
	char who[160];
	describe(t, p, who, sizeof(who));
	return load_fail(err, TRACE_FORMAT ": %s: node id %u appears twice", who, twice);
}

/* Sample node ids to node indexes; a sample naming a node no chunk has
 * becomes NO_ID, to be left out once times are known. */
static void resolve_samples(struct trace_profile *p, const struct id_index *x)
{
	struct trace_data *d = &p->data;
	for (size_t i = 0; i < d->nsamples; i++) {
		d->samples[i] = find_node(x, d->samples[i]);
		p->samples_nameless += d->samples[i] == NO_ID;
	}
}

/* The samples left out (NO_ID), with the time they lasted: the nodes'
 * time is what the samples that name them measured, no more. */
static void drop_nameless(struct trace_profile *p)
{
	struct trace_data *d = &p->data;
	if (!p->samples_nameless)
		return;
	size_t k = 0;
	for (size_t i = 0; i < d->nsamples; i++) {
		if (d->samples[i] == NO_ID)
			continue;
		d->samples[k] = d->samples[i];
		d->deltas[k] = d->deltas[i];
		if (d->lines)
			d->lines[k] = d->lines[i];
		k++;
	}
	d->nsamples = d->ndeltas = k;
	if (d->lines)
		d->nlines = k;
}

/* A stable sort of the samples by time (V8 can send negative deltas),
 * through a permutation so the three arrays move together. */
static void sort_samples(struct trace_data *d)
{
	size_t *order = stable_order(d->deltas, d->nsamples);
	if (!order)
		return;
	permute_samples(d, order);
	free(order);
}

/* Samples in time order with their durations (next time - this, as
 * DevTools; the last lasts until the profile's endTime, which is its
 * own time when the trace gives none), and how busy the thread was. */
static bool prepare(const struct trace *t, struct trace_profile *p,
		    struct load_error *err)
{
	struct trace_data *d = &p->data;
	order_chunks(p);
	struct id_index x;
	bool ok = index_ids(t, p, &x, err);
	if (ok)
		resolve_samples(p, &x);
	free(x.dense);
	free(x.sorted);
	if (!ok)
		return false;
	double time = p->start;
	for (size_t i = 0; i < d->nsamples; i++)
		d->deltas[i] = time += d->deltas[i];
	if (!p->has_end)
		p->end = time;
	sort_samples(d);
	str_t idle = model_string(t->m, "(idle)", 6);
	p->busy = 0;
	for (size_t i = 0; i < d->nsamples; i++) {
		double next = i + 1 < d->nsamples ? d->deltas[i + 1] : p->end;
		d->deltas[i] = next > d->deltas[i] ? next - d->deltas[i] : 0;
	}
	drop_nameless(p);
	for (size_t i = 0; i < d->nsamples; i++)
		if (d->nodes[d->samples[i]].frame.name != idle)
			p->busy += d->deltas[i];
	return true;
}

/* ---- which thread --------------------------------------------------- */

/* The last name given to (pid, tid), in names sorted by sort_names. */
static const char *name_of(const struct trace_name *names, size_t n, int64_t pid,
			   int64_t tid)
{
	size_t lo = 0, hi = n;
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		const struct trace_name *x = &names[mid];
		if (x->pid < pid || (x->pid == pid && x->tid <= tid))
			lo = mid + 1;
		else
			hi = mid;
	}
	if (lo && names[lo - 1].pid == pid && names[lo - 1].tid == tid)
		return names[lo - 1].name;
	return NULL;
}

const char *trace_thread_name(const struct trace *t, int64_t pid, int64_t tid)
{
	return name_of(t->threads, t->nthreads, pid, tid);
}

static const char *thread_name(const struct trace *t, const struct trace_profile *p)
{
	return trace_thread_name(t, p->pid, p->tid);
}

static bool thread_has_several(const struct trace *t, const struct trace_profile *p)
{
	size_t n = 0;
	for (size_t i = 0; i < t->nprofiles; i++)
		n += t->profiles[i].pid == p->pid && t->profiles[i].tid == p->tid;
	return n > 1;
}

void trace_describe_thread(const struct trace *t, int64_t pid, int64_t tid,
			   const char *profile, char *out, size_t size)
{
	const char *thread = trace_thread_name(t, pid, tid);
	const char *process = name_of(t->processes, t->nprocesses, pid, 0);
	snprintf(out, size, "%s (%s%spid %lld, tid %lld%s%s)",
		 thread ? thread : "thread", process ? process : "",
		 process ? " " : "", (long long)pid, (long long)tid,
		 profile ? ", profile " : "", profile ? profile : "");
}

/* "CrRendererMain (Renderer pid 6543, tid 259)", with the profile id
 * when the thread has more than one. */
static void describe(const struct trace *t, const struct trace_profile *p,
		     char *out, size_t size)
{
	bool several = thread_has_several(t, p);
	trace_describe_thread(t, p->pid, p->tid, several && *p->id ? p->id : NULL, out, size);
}

bool trace_thread_matches(const struct trace *t, int64_t pid, int64_t tid,
			  const char *wanted)
{
	const char *name = trace_thread_name(t, pid, tid);
	char text[200];
	snprintf(text, sizeof(text), "%lld", (long long)tid);
	if ((name && !strcmp(name, wanted)) || !strcmp(text, wanted))
		return true;
	trace_describe_thread(t, pid, tid, NULL, text, sizeof(text));
	return !strcmp(text, wanted);
}

/* By name, tid, profile id, or as described (the explorer's T names the
 * next thread by what the header lists). */
static bool matches(const struct trace *t, const struct trace_profile *p,
		    const char *wanted)
{
	if (trace_thread_matches(t, p->pid, p->tid, wanted) ||
	    (*p->id && !strcmp(p->id, wanted)))
		return true;
	char text[200];
	describe(t, p, text, sizeof(text));
	return !strcmp(text, wanted);
}

static bool is_renderer_main(const struct trace *t, const struct trace_profile *p)
{
	const char *name = thread_name(t, p);
	return name && !strcmp(name, "CrRendererMain");
}

/* The busiest profile among those `wanted` names; without a name, the
 * busiest renderer main thread (DevTools opens that one), else the
 * busiest thread. */
static struct trace_profile *choose(struct trace *t, const char *wanted)
{
	struct trace_profile *best = NULL;
	bool best_main = false;
	for (size_t i = 0; i < t->nprofiles; i++) {
		struct trace_profile *p = &t->profiles[i];
		if (!p->data.nsamples || (wanted && !matches(t, p, wanted)))
			continue;
		bool main = is_renderer_main(t, p);
		if (!best || (main && !best_main) ||
		    (main == best_main && p->busy > best->busy)) {
			best = p;
			best_main = main;
		}
	}
	return best;
}

/* The profiles other than `shown` (all when NULL) into m's other
 * threads, from the one after it round to the one before, so that the
 * first is the next. */
static void list_others(const struct trace *t, const struct trace_profile *shown,
			struct model *m)
{
	size_t first = shown ? (size_t)(shown - t->profiles) + 1 : 0;
	for (size_t k = 0; k < t->nprofiles; k++) {
		const struct trace_profile *p = &t->profiles[(first + k) % t->nprofiles];
		if (p == shown || !p->data.nsamples)
			continue;
		char who[200];
		describe(t, p, who, sizeof(who));
		model_add_other_thread(m, who);
	}
}

/* ---- the model ------------------------------------------------------ */

void trace_add_nodes(struct model *m, const struct trace_node *nodes, size_t n)
{
	for (size_t i = 0; i < n; i++) /* node == index */
		model_add_node(m, v8_intern_frame(m, &nodes[i].frame));
}

static int by_child_then_parent(const void *a, const void *b)
{
	const struct trace_edge *x = a, *y = b;
	if (x->child != y->child)
		return x->child < y->child ? -1 : 1;
	return x->parent < y->parent ? -1 : x->parent > y->parent;
}

/* Each edge once, whether the file states it by "parent", by
 * "children" or by both; a node under two parents is not a tree.  An
 * edge naming a node no chunk has is left out (its child, when there is
 * one, becomes a root). */
static bool add_edges(struct model *m, struct trace_profile *p, const struct id_index *x,
		      const char *who, struct load_error *err)
{
	struct trace_data *d = &p->data;
	size_t kept = 0;
	for (size_t e = 0; e < d->nedges; e++) {
		struct trace_edge edge = d->edges[e];
		edge.parent = find_node(x, edge.parent);
		edge.child = find_node(x, edge.child);
		if (edge.parent == NO_ID || edge.child == NO_ID)
			p->edges_dangling++;
		else
			d->edges[kept++] = edge;
	}
	d->nedges = kept;
	if (kept) /* edges may be NULL then, which qsort must not be given */
		qsort(d->edges, d->nedges, sizeof(*d->edges), by_child_then_parent);
	for (size_t e = 0; e < d->nedges; e++) {
		const struct trace_edge *edge = &d->edges[e];
		if (e && edge->child == d->edges[e - 1].child) {
			if (edge->parent == d->edges[e - 1].parent)
				continue;
			return load_fail_at(err, TRACE_FORMAT, edge->offset,
					    "%s: node %u has two parents, %u and %u", who,
					    d->nodes[edge->child].id,
					    d->nodes[d->edges[e - 1].parent].id,
					    d->nodes[edge->parent].id);
		}
		model_add_edge(m, edge->parent, edge->child);
	}
	return true;
}

/* positionTicks as written, and the chunks' per-sample lines counted
 * into ticks by (node, line). */
static void add_line_ticks(struct model *m, const struct trace_data *d)
{
	for (size_t i = 0; i < d->nticks; i++)
		model_add_line_ticks(m, d->ticks[i].node, d->ticks[i].line,
				     d->ticks[i].ticks);
	if (!d->lines)
		return;
	uint64_t *keys = xmalloc((d->nsamples + 1) * sizeof(uint64_t));
	size_t n = 0;
	for (size_t i = 0; i < d->nsamples; i++)
		if (d->lines[i] > 0)
			keys[n++] = (uint64_t)d->samples[i] << 32 | (uint32_t)d->lines[i];
	qsort(keys, n, sizeof(uint64_t), by_u64);
	for (size_t i = 0, run; i < n; i += run) {
		for (run = 1; i + run < n && keys[i + run] == keys[i]; run++)
			;
		model_add_line_ticks(m, (uint32_t)(keys[i] >> 32), (int32_t)(uint32_t)keys[i],
				     (double)run);
	}
	free(keys);
}

/* "12 samples named no node: left out; ..." for what the profile's
 * chunks could not place (the peers drop it without a word). */
static void warn_unplaced(struct model *m, const struct trace_profile *p)
{
	const struct {
		size_t count;
		const char *what;
	} parts[] = {
		{ p->samples_nameless, "samples named no node: left out" },
		{ p->edges_dangling, "edges named a node no chunk has: left out" },
		{ p->samples_undelta, "samples had no timeDelta: left out" },
		{ p->extra_deltas, "timeDeltas had no sample: ignored" },
	};
	char text[400];
	size_t len = 0;
	for (size_t i = 0; i < ARRAY_LEN(parts); i++)
		if (parts[i].count && len < sizeof(text))
			len += (size_t)snprintf(text + len, sizeof(text) - len, "%s%zu %s",
						len ? "; " : "", parts[i].count, parts[i].what);
	if (len)
		m->warning = model_string(m, text, strlen(text));
}

static bool make_model(struct trace *t, struct trace_profile *p, struct load_error *err)
{
	struct model *m = t->m;
	struct trace_data *d = &p->data;
	char who[200];
	describe(t, p, who, sizeof(who));
	model_add_sample_type(m, "time", "us");
	trace_add_nodes(m, d->nodes, d->nnodes);
	struct id_index x;
	bool ok = index_ids(t, p, &x, err) && add_edges(m, p, &x, who, err);
	free(x.dense);
	free(x.sorted);
	if (!ok)
		return false;
	warn_unplaced(m, p);
	add_line_ticks(m, d);
	model_adopt_samples(m, d->samples, d->deltas, d->nsamples);
	d->samples = NULL;
	d->deltas = NULL;
	m->start_time = p->start;
	m->end_time = p->end;
	m->thread = model_string(m, who, strlen(who));
	list_others(t, p, m);
	uint32_t cycle_node;
	if (!model_finish(m, &cycle_node))
		return load_fail(err, TRACE_FORMAT ": %s: node %u is on a cycle of children "
				 "(a tree is required)", who, d->nodes[cycle_node].id);
	return true;
}

bool trace_build(struct trace *t, const char *wanted, struct load_error *err)
{
	sort_names(t->threads, t->nthreads);
	sort_names(t->processes, t->nprocesses);
	for (size_t i = 0; i < t->nprofiles; i++)
		if (!prepare(t, &t->profiles[i], err))
			return false;
	struct trace_profile *p = choose(t, wanted);
	if (p)
		return make_model(t, p, err);
	if (trace_slices_build(t, wanted))
		return true;
	char all[260];
	list_others(t, NULL, t->m);
	model_join_other_threads(t->m, all, sizeof(all));
	if (!*all)
		return load_fail(err, TRACE_FORMAT ": no CPU profile in the trace (no "
				 "ProfileChunk or CpuProfile event with samples; read to byte %llu)",
				 (unsigned long long)t->end_offset);
	return load_fail(err, TRACE_FORMAT ": no thread \"%.40s\" with a CPU profile; "
			 "the trace has: %s", wanted, all);
}
