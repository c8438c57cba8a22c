/* A trace without a CPU profile, shown from its duration events as an
 * evented profile per thread, as speedscope and the Firefox Profiler
 * show one: each event name is a frame, events nest by time on their
 * thread, and a sample is each stretch of time in which the innermost
 * open event stays the same (so self = an event's duration less its
 * children's, total = its duration, and the timeline works).
 *
 * X events are whole slices (ts, dur); Chrome writes a finished slice
 * so, after the slices inside it, and B only for a slice still open when
 * tracing stopped.  A B is closed by the next E of its thread (the
 * innermost B open), or else at the trace's last time.  A slice that
 * runs past the one it started in is cut at that one's end, so the
 * events always nest.  Time on a thread between its slices is "(idle)",
 * so that the timeline keeps its clock. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "base/util.h"
#include "trace.h"

void trace_slices_add(struct trace *t, const struct trace_event_facts *f)
{
	if (!t->keep_slices || !strchr("XBE", f->phase) || !f->phase)
		return;
	GROW(t->slices, t->slices_cap, t->nslices + 1);
	double end = f->phase == 'X' ? f->ts + (f->dur > 0 ? f->dur : 0)
		   : f->phase == 'B' ? INFINITY : f->ts;
	t->slices[t->nslices] = (struct trace_slice){
		.pid = f->pid, .tid = f->tid, .ts = f->ts, .end = end,
		.name = model_string(t->m, f->event_name, strlen(f->event_name)),
		.seq = (uint32_t)t->nslices, .phase = f->phase,
	};
	t->nslices++;
}

void trace_slices_drop(struct trace *t)
{
	free(t->slices);
	t->slices = NULL;
	t->nslices = t->slices_cap = 0;
	t->keep_slices = false;
}

/* By thread, then time; at one time an E first (it closes what came
 * before), then the longer slice (it holds the shorter), then file
 * order. */
static int by_thread_then_time(const void *a, const void *b)
{
	const struct trace_slice *x = a, *y = b;
	if (x->pid != y->pid)
		return x->pid < y->pid ? -1 : 1;
	if (x->tid != y->tid)
		return x->tid < y->tid ? -1 : 1;
	if (x->ts != y->ts)
		return x->ts < y->ts ? -1 : 1;
	if ((x->phase == 'E') != (y->phase == 'E'))
		return x->phase == 'E' ? -1 : 1;
	if (x->end != y->end)
		return x->end > y->end ? -1 : 1;
	return x->seq < y->seq ? -1 : x->seq > y->seq;
}

/* ---- one thread's events, swept in time order ------------------------ */

struct open_slice {
	str_t name;
	double end;   /* cut to the enclosing slice's end */
	uint32_t node; /* NO_ID until a sample needs it */
	bool begun;    /* a B, which an E closes */
};

struct sweep {
	const struct trace *t;
	struct model *m; /* NULL: only measure */
	struct open_slice *open;
	size_t depth, cap;
	double time; /* where the next sample starts */
	double busy; /* time inside slices */
	uint32_t idle;
};

static uint32_t slice_frame(struct model *m, str_t name)
{
	struct frame f = { .name = name, .url = model_string(m, "", 0), .line = -1,
			   .column = -1, .kind = KIND_NATIVE };
	return model_intern_frame(m, &f);
}

static uint32_t innermost_node(struct sweep *s)
{
	for (size_t i = 0; i < s->depth; i++)
		if (s->open[i].node == NO_ID)
			s->open[i].node = model_add_child(s->m, i ? s->open[i - 1].node : NO_ID,
							  slice_frame(s->m, s->open[i].name));
	return s->open[s->depth - 1].node;
}

/* The time up to `at` as one sample of what is open (or of idle). */
static void advance(struct sweep *s, double at)
{
	if (!(at > s->time))
		return;
	double length = at - s->time;
	s->time = at;
	if (s->depth)
		s->busy += length;
	if (!s->m)
		return;
	if (s->depth) {
		model_add_sample(s->m, innermost_node(s), length);
		return;
	}
	if (s->idle == NO_ID) {
		struct frame f = { .name = model_string(s->m, "(idle)", 6),
				   .url = model_string(s->m, "", 0), .line = -1, .column = -1,
				   .kind = KIND_IDLE };
		s->idle = model_add_child(s->m, NO_ID, model_intern_frame(s->m, &f));
	}
	model_add_sample(s->m, s->idle, length);
}

static void close_innermost(struct sweep *s, double at)
{
	advance(s, at);
	s->depth--;
}

/* Closes the slices that end by `at`, innermost first. */
static void close_until(struct sweep *s, double at)
{
	while (s->depth && s->open[s->depth - 1].end <= at)
		close_innermost(s, s->open[s->depth - 1].end);
}

static void open_slice(struct sweep *s, const struct trace_slice *e)
{
	double end = e->end;
	if (s->depth && end > s->open[s->depth - 1].end)
		end = s->open[s->depth - 1].end;
	advance(s, e->ts);
	GROW(s->open, s->cap, s->depth + 1);
	s->open[s->depth++] = (struct open_slice){ e->name, end, NO_ID, e->phase == 'B' };
}

/* An E closes the innermost B still open, and whatever opened inside it;
 * an E without one is ignored. */
static void end_slice(struct sweep *s, double at)
{
	size_t b = s->depth;
	while (b && !s->open[b - 1].begun)
		b--;
	while (b && s->depth >= b)
		close_innermost(s, at);
}

/* Sweeps events[0..n) of one thread, sorted by by_thread_then_time;
 * a B never closed ends at the trace's last time. */
static void sweep_thread(struct sweep *s, const struct trace_slice *events, size_t n)
{
	s->time = events[0].ts;
	for (size_t i = 0; i < n; i++) {
		close_until(s, events[i].ts);
		if (events[i].phase == 'E')
			end_slice(s, events[i].ts);
		else
			open_slice(s, &events[i]);
	}
	close_until(s, s->t->last_time);
	while (s->depth)
		close_innermost(s, s->t->last_time);
	free(s->open);
	s->open = NULL;
	s->depth = s->cap = 0;
}

/* ---- which thread, and its model ------------------------------------ */

struct slice_thread {
	size_t first, count; /* its events in t->slices, sorted */
	double busy;
};

static bool is_renderer_main(const struct trace *t, const struct trace_slice *e)
{
	const char *name = trace_thread_name(t, e->pid, e->tid);
	return name && !strcmp(name, "CrRendererMain");
}

/* The threads with slice time, each measured. */
static struct slice_thread *list_threads(struct trace *t, size_t *count)
{
	if (t->nslices)
		qsort(t->slices, t->nslices, sizeof(*t->slices), by_thread_then_time);
	struct slice_thread *threads = NULL;
	size_t n = 0, cap = 0;
	for (size_t i = 0, run; i < t->nslices; i += run) {
		const struct trace_slice *e = &t->slices[i];
		for (run = 1; i + run < t->nslices && e[run].pid == e->pid && e[run].tid == e->tid;
		     run++)
			;
		struct sweep s = { .t = t, .idle = NO_ID };
		sweep_thread(&s, e, run);
		if (!(s.busy > 0))
			continue;
		GROW(threads, cap, n + 1);
		threads[n++] = (struct slice_thread){ i, run, s.busy };
	}
	*count = n;
	return threads;
}

/* The busiest thread `wanted` names; without a name, the busiest
 * renderer main thread (the page's, which DevTools opens), else the
 * busiest thread. */
static const struct slice_thread *choose(const struct trace *t, const struct slice_thread *threads,
					 size_t n, const char *wanted)
{
	const struct slice_thread *best = NULL;
	bool best_main = false;
	for (size_t i = 0; i < n; i++) {
		const struct trace_slice *e = &t->slices[threads[i].first];
		if (wanted && !trace_thread_matches(t, e->pid, e->tid, wanted))
			continue;
		bool main = !wanted && is_renderer_main(t, e);
		if (!best || (main && !best_main) ||
		    (main == best_main && threads[i].busy > best->busy)) {
			best = &threads[i];
			best_main = main;
		}
	}
	return best;
}

/* The threads other than `shown` (all when NULL), from the one after it
 * round, so that T goes to the first. */
static void list_others(struct trace *t, const struct slice_thread *threads, size_t n,
			const struct slice_thread *shown)
{
	size_t first = shown ? (size_t)(shown - threads) + 1 : 0;
	for (size_t k = 0; k < n; k++) {
		const struct slice_thread *th = &threads[(first + k) % n];
		if (th == shown)
			continue;
		const struct trace_slice *e = &t->slices[th->first];
		char who[200];
		trace_describe_thread(t, e->pid, e->tid, NULL, who, sizeof(who));
		model_add_other_thread(t->m, who);
	}
}

static void make_model(struct trace *t, const struct slice_thread *th)
{
	struct model *m = t->m;
	const struct trace_slice *e = &t->slices[th->first];
	m->format = "trace-event JSON (duration events)";
	model_add_sample_type(m, "time", "us");
	struct sweep s = { .t = t, .m = m, .idle = NO_ID };
	sweep_thread(&s, e, th->count);
	m->start_time = e->ts;
	m->end_time = s.time;
	char who[200];
	trace_describe_thread(t, e->pid, e->tid, NULL, who, sizeof(who));
	m->thread = model_string(m, who, strlen(who));
}

bool trace_slices_build(struct trace *t, const char *wanted)
{
	size_t n;
	struct slice_thread *threads = list_threads(t, &n);
	const struct slice_thread *shown = choose(t, threads, n, wanted);
	list_others(t, threads, n, shown);
	if (shown)
		make_model(t, shown);
	free(threads);
	uint32_t cycle_node; /* none: the stacks are made as a tree */
	return shown && model_finish(t->m, &cycle_node);
}
