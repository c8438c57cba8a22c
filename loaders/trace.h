/* The CPU profiles of a trace-event file, between reading (trace.c: JSON
 * events in) and the model (trace_build.c: one thread's profile out);
 * in a trace without one, its duration events (trace_slices.c). */
#ifndef WPROF_TRACE_H
#define WPROF_TRACE_H

#include <stdbool.h>
#include <stdint.h>

#include "base/id_table.h"
#include "model/model.h"
#include "loaders.h"
#include "v8_frame.h"

#define TRACE_ID_MAX 40

/* The format its messages name: "trace-event JSON, byte N: what". */
#define TRACE_FORMAT "trace-event JSON"

enum trace_event_kind {
	TRACE_OTHER,
	TRACE_PROFILE,	   /* a chunked profile begins: its thread, startTime */
	TRACE_CHUNK,	   /* nodes, samples, deltas and lines of one */
	TRACE_CPU_PROFILE, /* older Chrome: a whole .cpuprofile */
	TRACE_THREAD_NAME, /* metadata (ph "M") */
	TRACE_PROCESS_NAME,
};

struct trace_node {
	uint32_t id;
	struct v8_frame frame; /* lines 0-based as written */
};

/* A parent -> child edge as the file states it (by node ids): from a
 * "parent" field, a "children" list, or both. */
struct trace_edge {
	uint32_t parent, child;
	uint64_t offset;
};

/* What one event carries, or all events of one profile together. */
struct trace_data {
	struct trace_node *nodes;
	size_t nnodes, nodes_cap;
	struct trace_edge *edges;
	size_t nedges, edges_cap;
	struct v8_ticks *ticks; /* by node index */
	size_t nticks, ticks_cap;
	uint32_t *samples; /* node ids, then node indexes once prepared */
	size_t nsamples, samples_cap;
	double *deltas; /* µs, then times, then durations once prepared */
	size_t ndeltas, deltas_cap;
	int32_t *lines; /* per sample, 0 when unknown; NULL when none */
	size_t nlines, lines_cap;
};

struct trace_chunk {
	double ts;
	uint64_t offset;
	size_t first, count; /* its samples in the profile's arrays */
};

/* One CPU profile: V8 profiles one thread at a time, so this is also
 * one thread's profile (a thread can have several). */
struct trace_profile {
	int64_t pid, tid;
	char id[TRACE_ID_MAX];
	bool has_profile_event; /* the tid is the Profile event's */
	double start, end;
	bool has_start, has_end;
	uint64_t offset; /* the first event that named it */
	struct trace_data data;
	struct trace_chunk *chunks;
	size_t nchunks, chunks_cap;
	double busy; /* µs of samples not (idle), once prepared */
	/* What could not be placed, left out and said in the warning: */
	size_t extra_deltas;       /* timeDeltas past a chunk's samples */
	size_t samples_undelta;    /* samples past a chunk's timeDeltas */
	size_t samples_nameless;   /* samples naming a node no chunk has */
	size_t edges_dangling;     /* edges naming a node no chunk has */
	/* Samples gone from `data` before its first (and their chunks):
	 * folded by a live session, trace_stream_drop_samples. */
	size_t dropped;
};

struct trace_name {
	int64_t pid, tid; /* tid unused for process names */
	char *name;
};

/* A duration event as read: X (ts, end = ts + dur), B (end infinite
 * until its E) or E (end = ts), with its place in the file. */
struct trace_slice {
	int64_t pid, tid;
	double ts, end;
	str_t name; /* in the trace's model */
	uint32_t seq;
	char phase;
};

struct trace {
	struct model *m;
	struct trace_profile *profiles;
	size_t nprofiles, profiles_cap;
	struct id_table profile_index; /* (pid, id) -> profile; size 0 until the first */
	struct trace_name *threads, *processes; /* sorted once read */
	size_t nthreads, threads_cap, nprocesses, processes_cap;
	uint64_t end_offset;
	/* Duration events, kept (a file's, keep_slices) until a chunk with
	 * samples shows the trace has a CPU profile: a trace without one is
	 * shown as an evented profile of them (trace_slices.c). */
	struct trace_slice *slices;
	size_t nslices, slices_cap;
	bool keep_slices;
	double last_time; /* the latest ts (or ts + dur) of any event */
};

struct trace_event_facts {
	uint64_t offset;
	int64_t pid, tid;
	double ts;
	const char *id;
	const char *name; /* args.name, NULL when none */
	const char *event_name; /* the event's "name", "" when none */
	char phase;		/* "ph", 0 when none */
	double dur;
	double start, end;
	bool has_start, has_end;
};

void trace_init(struct trace *t, struct model *m);
void trace_free(struct trace *t);
void trace_data_free(struct trace_data *d);

/* Keeps what an event says about the profiles (the data's arrays are
 * copied; the caller reuses them).  What cannot be placed (timeDeltas
 * past a chunk's samples, or samples past its deltas) is counted in the
 * profile and left out. */
void trace_add_event_data(struct trace *t, enum trace_event_kind kind,
			  const struct trace_event_facts *facts, const struct trace_data *data);

/* After the last event: picks the thread (`wanted`, a name, tid or
 * profile id, or NULL for DevTools' choice) and fills the model. */
bool trace_build(struct trace *t, const char *wanted, struct load_error *err);

/* "CrRendererMain (Renderer pid 6543, tid 259)": a thread as headers
 * and --thread name it (`profile`: an id to add, or NULL). */
void trace_describe_thread(const struct trace *t, int64_t pid, int64_t tid,
			   const char *profile, char *out, size_t size);
/* Whether `wanted` names the thread: its name, tid or description. */
bool trace_thread_matches(const struct trace *t, int64_t pid, int64_t tid,
			  const char *wanted);
/* The thread's name from thread_name metadata, or NULL. */
const char *trace_thread_name(const struct trace *t, int64_t pid, int64_t tid);

/* Keeps a duration event (X, B, E) while t keeps them. */
void trace_slices_add(struct trace *t, const struct trace_event_facts *f);
/* Forgets the duration events: the trace has a CPU profile. */
void trace_slices_drop(struct trace *t);
/* The model of the thread `wanted` names (NULL: the renderer main thread
 * with the most slice time, else the thread with the most) as an evented
 * profile: each event name a frame, nested by time; false, with nothing
 * said, when no thread has slice time. */
bool trace_slices_build(struct trace *t, const char *wanted);

/* A node in m for each of these, node i for nodes[i], its frame interned
 * ("(anonymous)" for a function without a name). */
void trace_add_nodes(struct model *m, const struct trace_node *nodes, size_t n);

/* Every profile and name of `t` into `to`, whose model is `m` (holding
 * the same strings as t's): a snapshot to build while t keeps growing. */
void trace_copy(struct trace *to, const struct trace *t, struct model *m);

/* A trace that grows: batches of events, each a JSON array of event
 * objects (the `value` of the inspector's Tracing.dataCollected, or a
 * file's events cut anywhere between two of them), are read by the same
 * code as a file and kept; a model of what has arrived is built on
 * demand, as often as wanted.  Byte offsets in messages count from the
 * first batch.  A batch that fails may have added its first events. */
struct trace_stream;

struct trace_stream *trace_stream_new(void);
bool trace_stream_add(struct trace_stream *s, const void *json, size_t len,
		      struct load_error *err);
/* The same for the array at the start of `json`, whatever follows it
 * (the rest of the message that carries it), unread. */
bool trace_stream_add_prefix(struct trace_stream *s, const void *json, size_t len,
			     struct load_error *err);
/* The events that follow come from a new tracing run of the same
 * program, whose profile ids start again: its profiles are new ones
 * (their ids get "/1", "/2" ... after them). */
void trace_stream_next_run(struct trace_stream *s);
/* Samples that came so far, all profiles together (dropped ones too). */
size_t trace_stream_samples(const struct trace_stream *s);
/* Forgets profile `profile`'s samples before its `upto`-th (counted from
 * its first ever), which a live fold has taken (trace_live_drop_taken),
 * so that a long session keeps what is new only.  A stream that has
 * dropped samples is a live fold's only: its model would lack them. */
void trace_stream_drop_samples(struct trace_stream *s, size_t profile, size_t upto);
/* A new, independent stream holding what s holds (taken under a lock,
 * built outside it). */
struct trace_stream *trace_stream_copy(const struct trace_stream *s);
/* The model of what has arrived, as load_trace would make it of a file
 * of these events (`wanted` as opt->thread); s is unchanged. */
bool trace_stream_model(const struct trace_stream *s, const char *wanted,
			struct model *m, struct load_error *err);
/* The same, using up s (no copy): s is freed. */
bool trace_stream_finish(struct trace_stream *s, const char *wanted,
			 struct model *m, struct load_error *err);
void trace_stream_free(struct trace_stream *s);
/* What the stream holds so far, for trace_live. */
const struct trace *trace_stream_trace(const struct trace_stream *s);
const struct string_table *trace_stream_strings(const struct trace_stream *s);

/* A stream followed for a live view (trace_live.c): trace_live_update
 * folds the samples that arrived since the last update into each node's
 * time and sample count (a cost of what is new; the caller holds the
 * stream still meanwhile), and trace_live_model gives the profile followed (a
 * renderer's main thread, its newest run; else the busiest thread) as a
 * model of per-node values (every sample's), with its newest
 * LIVE_TIMELINE_ENTRIES samples in time order (bounded_timeline.h; the
 * older ones counted in model.live.samples_before and time_before): new
 * numbers and samples in `shown` when it is the model given last and no
 * node is new since, else a new model in `fresh`.  Samples are folded in the order they
 * come: a delta that runs backwards counts nothing, where the whole
 * session (trace_stream_model) sorts them by time as DevTools does. */
struct trace_live;
enum trace_live_change { TRACE_LIVE_NONE, TRACE_LIVE_VALUES, TRACE_LIVE_MODEL };

struct trace_live *trace_live_new(void);
void trace_live_update(struct trace_live *l, const struct trace_stream *s);
/* Has the stream drop the samples of the profile followed that the fold
 * has taken (trace_stream_drop_samples): the session is then the fold's,
 * its memory the nodes plus the bounded timeline however long it runs.
 * A fold whose stream drops samples stays with its profile while others
 * grow busier (their samples are all kept), and follows a new run. */
void trace_live_drop_taken(struct trace_live *l, struct trace_stream *s);
enum trace_live_change trace_live_model(struct trace_live *l, struct model *shown,
					struct model *fresh, char *err, size_t cap);
void trace_live_free(struct trace_live *l);

/* The same fold fed directly, one node and one sample at a time, rather
 * than from a stream (the inspector's Profiler windows, src/live/cdp.c):
 * its models say `format` (a static string).  Node ids are the
 * feeder's; a node's frame names are interned in trace_live_strings
 * before it is added, its parent (NO_ID: a root) added before it.  The
 * session starts at its first sample; a sample lasts until the next one,
 * the last until the end set.  A gap (the target not profiled from
 * `from` until the next sample) is counted in no node; the models'
 * timeline has it as a gap (model.live.gaps), time in no sample. */
struct trace_live *trace_live_fed(const char *format);
struct string_table *trace_live_strings(struct trace_live *l);
void trace_live_add_node(struct trace_live *l, const struct trace_node *node,
			 uint32_t parent_id);
void trace_live_add_sample(struct trace_live *l, double at, uint32_t node_id);
void trace_live_add_gap(struct trace_live *l, double from);
void trace_live_set_end(struct trace_live *l, double end);
/* Samples folded, and the time from the first to the end. */
size_t trace_live_samples(const struct trace_live *l);
double trace_live_span(const struct trace_live *l);
/* The whole session as a finished model (--report, --export, a file
 * written): the timeline while it holds every sample, none once some
 * have left it (a timeline of the last ones would make ranges and
 * exports silently cover only those); the live view's state untouched. */
bool trace_live_session_model(struct trace_live *l, struct model *m, char *err,
			      size_t cap);

#endif
