/* The xsbug parser's store (xsbug_parser.h): the profile records, each
 * session's distinct stacks with their totals and its bounded timeline,
 * folded as the lexer hands over whole samples, and the finished models
 * made from them. */
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "base/util.h"
#include "xsbug_parser.h"

const struct xsbug_limits xsbug_default_limits = {
	.max_element = 64 * 1024,
	.max_attribute = 4096,
	.max_id = (1u << 24) - 1,
	.max_depth = 4096,
	.max_records = 1u << 20,
	.max_sessions = 10000,
	.max_timeline = LIVE_TIMELINE_ENTRIES,
};

struct xsbug_parser *xsbug_parser_new(const struct xsbug_limits *limits)
{
	struct xsbug_parser *p = xcalloc(1, sizeof(*p));
	p->limits = limits ? *limits : xsbug_default_limits;
	if (p->limits.max_timeline < 1)
		p->limits.max_timeline = 1;
	p->tag = xmalloc(p->limits.max_element + 1);
	p->frames = xmalloc((p->limits.max_depth + 1) * sizeof(uint32_t));
	id_table_init(&p->record_index, 0);
	return p;
}

static void session_free(struct session *s)
{
	free(s->ids);
	free(s->stacks);
	id_table_free(&s->index);
	bounded_timeline_free(&s->timeline);
}

void xsbug_parser_free(struct xsbug_parser *p)
{
	if (!p)
		return;
	for (size_t i = 0; i < p->nrecords; i++) {
		free(p->records[i].name);
		free(p->records[i].path);
	}
	free(p->records);
	id_table_free(&p->record_index);
	for (size_t i = 0; i < p->nsessions; i++)
		session_free(&p->sessions[i]);
	free(p->sessions);
	free(p->login_name);
	free(p->login_value);
	free(p->message.path);
	free(p->tag);
	free(p->frames);
	free(p);
}

bool xsbug_fail(struct xsbug_parser *p, struct load_error *err,
		const char *what)
{
	p->failed = true;
	return load_fail_at(err, "xsbug stream", p->offset, "%s", what);
}

/* ---- profile records -------------------------------------------------- */

/* The index of id's record, NO_ID when none came: the probe then ends
 * where it goes. */
static uint32_t find_record_index(const struct xsbug_parser *p, uint32_t id,
				  struct id_probe *probe)
{
	*probe = id_table_probe(&p->record_index, hash_mix(id));
	uint32_t r;
	while ((r = id_probe_next(&p->record_index, probe)) != NO_ID)
		if (p->records[r].id == id)
			return r;
	return NO_ID;
}

const struct record *xsbug_find_record(const struct xsbug_parser *p,
				       uint32_t id)
{
	struct id_probe probe;
	uint32_t r = find_record_index(p, id, &probe);
	return r == NO_ID ? NULL : &p->records[r];
}

void xsbug_set_record(struct xsbug_parser *p, const struct record *rec)
{
	struct id_probe probe;
	uint32_t r = find_record_index(p, rec->id, &probe);
	p->records_changed++;
	if (r != NO_ID) {
		struct record *old = &p->records[r];
		free(old->name);
		free(old->path);
		*old = *rec;
		return;
	}
	GROW(p->records, p->records_cap, p->nrecords + 1);
	id_table_add(&p->record_index, &probe, (uint32_t)p->nrecords);
	p->records[p->nrecords++] = *rec;
}

/* ---- sessions and samples --------------------------------------------- */

static struct session *current(struct xsbug_parser *p)
{
	if (!p->nsessions || p->sessions[p->nsessions - 1].stopped)
		return NULL;
	return &p->sessions[p->nsessions - 1];
}

/* A profile cannot end before it began, nor before its samples; the
 * times come from a clock of the engine's that a peer can send wrong. */
static bool stop_in_order(struct xsbug_parser *p, const struct session *s,
			  uint64_t stop, struct load_error *err)
{
	if (stop < s->start)
		return xsbug_fail(p, err, "profile stop time before its start time");
	if (stop < s->last_time)
		return xsbug_fail(p, err, "profile stop time before its last sample");
	return true;
}

static bool start_session(struct xsbug_parser *p, struct session *s,
			  uint64_t t, struct load_error *err)
{
	if (s) { /* a start without stop: the old one ends here */
		if (!stop_in_order(p, s, t, err))
			return false;
		s->stopped = true;
		s->stop = t;
	}
	if (p->nsessions >= p->limits.max_sessions)
		return xsbug_fail(p, err, "too many profile sessions");
	GROW(p->sessions, p->sessions_cap, p->nsessions + 1);
	p->sessions[p->nsessions++] = (struct session){
		.start = t, .clock = t, .stop = t,
		.timeline = BOUNDED_TIMELINE_INIT };
	return true;
}

/* Below this, the time between a session's last sample and its stop is
 * its last partial batch of samples, which the engine drops (8 samples of
 * 1.25 ms in XS 17.9), and the moment before the stop. */
#define CLOCK_SKIP_MIN_US 100000

/* A session started at a break (XS 17.9, measured: `p` twice while xst
 * runs, read at two breaks) samples nothing for as long as its clock was
 * moved: 2.01 s from start to stop held 320 ms of samples, the program's
 * stretch between the two breaks missing.  That stretch is no sample's
 * and not the profile's: the session lasts the sum of its samples, and
 * says so (xsbug_set_times). */
static void note_clock_skip(struct session *s)
{
	uint64_t beyond = s->stop > s->clock ? s->stop - s->clock : 0;
	if (s->started_at_break && beyond >= CLOCK_SKIP_MIN_US)
		s->clock_skip = beyond;
}

bool xsbug_time_event(struct xsbug_parser *p, enum time_event what,
		      uint64_t t, struct load_error *err)
{
	struct session *s = current(p);
	if (what == TIME_START) {
		if (!start_session(p, s, t, err))
			return false;
	} else if (!s) {
		return true;
	} else if (what == TIME_STOP) {
		/* Stopped while suspended (at a break): the session ended where
		 * it was suspended, the wait is no one's time. */
		if (s->suspended && t > s->suspended_at)
			t = s->suspended_at;
		if (!stop_in_order(p, s, t, err))
			return false;
		s->stop = t;
		s->stopped = true;
		note_clock_skip(s);
	} else if (what == TIME_SUSPEND) {
		/* Time suspended belongs to no sample. */
		s->suspended = true;
		s->suspended_at = t;
	} else if (what == TIME_RESUME && !s->suspended) {
		s->started_at_break = true;
	} else if (what == TIME_RESUME) {
		/* The engine leaves the suspended time out of the next delta
		 * (xsProfile.c, fxResumeProfiler): the clock skips it. */
		if (s->suspended && t > s->suspended_at) {
			uint64_t away = t - s->suspended_at;
			s->time_suspended = add_saturated(s->time_suspended, away);
			s->clock = add_saturated(s->clock, away);
		}
		s->suspended = false;
	}
	p->generation++;
	return true;
}

static uint32_t intern_stack(struct session *s, const uint32_t *ids,
			     size_t depth, uint64_t hash)
{
	if (!s->index.size)
		id_table_init(&s->index, 0);
	struct id_probe probe = id_table_probe(&s->index, hash);
	for (uint32_t k; (k = id_probe_next(&s->index, &probe)) != NO_ID;) {
		const struct stack *st = &s->stacks[k];
		if (st->depth == depth &&
		    !memcmp(s->ids + st->offset, ids, depth * sizeof(uint32_t)))
			return k;
	}
	GROW(s->ids, s->ids_cap, s->nids + depth);
	memcpy(s->ids + s->nids, ids, depth * sizeof(uint32_t));
	GROW(s->stacks, s->stacks_cap, s->nstacks + 1);
	s->stacks[s->nstacks] = (struct stack){ .offset = (uint32_t)s->nids,
						.depth = (uint32_t)depth };
	s->nids += depth;
	id_table_add(&s->index, &probe, (uint32_t)s->nstacks);
	return (uint32_t)s->nstacks++;
}

/* One whole sample: it lasts the delta it carries, the time its stack
 * just ran (time-rules.md: the engine samples at the first check after
 * its deadline). */
void xsbug_fold_sample(struct xsbug_parser *p, uint64_t delta,
		       const uint32_t *ids, size_t depth, uint64_t hash)
{
	struct session *s = current(p);
	if (!s)
		return; /* samples outside start…stop count for nothing */
	/* Saturated: a delta that wraps the clock is no time at all. */
	if (delta > UINT64_MAX - s->clock)
		delta = UINT64_MAX - s->clock;
	s->clock = s->last_time = s->clock + delta;
	uint32_t stack = intern_stack(s, ids, depth, hash);
	s->stacks[stack].count++;
	s->stacks[stack].total += (double)delta;
	bounded_timeline_add(&s->timeline, stack, (double)delta, p->limits.max_timeline);
	s->nsamples++;
	p->generation++;
}

const char *xsbug_login_name(const struct xsbug_parser *p)
{
	return p->login_name;
}

size_t xsbug_session_count(const struct xsbug_parser *p)
{
	return p->nsessions;
}

bool xsbug_session_stopped(const struct xsbug_parser *p, size_t n)
{
	return n >= 1 && n <= p->nsessions && p->sessions[n - 1].stopped;
}

size_t xsbug_session_samples(const struct xsbug_parser *p, size_t n)
{
	return n >= 1 && n <= p->nsessions ? p->sessions[n - 1].nsamples : 0;
}

bool xsbug_profiling(const struct xsbug_parser *p)
{
	return p->nsessions && !p->sessions[p->nsessions - 1].stopped;
}

uint64_t xsbug_generation(const struct xsbug_parser *p)
{
	return p->generation;
}

size_t xsbug_pick_session(const struct xsbug_parser *p, int session,
			  struct load_error *err)
{
	if (!p->nsessions) {
		load_fail(err, "no profile in the stream (no <pt name=\"start\">)");
		return 0;
	}
	if (session >= 1) {
		if ((size_t)session > p->nsessions) {
			load_fail(err, "no session %d: the stream has %zu", session,
				  p->nsessions);
			return 0;
		}
		return (size_t)session;
	}
	/* The last that stopped with samples: an engine told to start at a
	 * break (XS 17.9) opens a session that never gets one. */
	for (size_t n = p->nsessions; n >= 1; n--)
		if (p->sessions[n - 1].stopped && p->sessions[n - 1].nsamples)
			return n;
	for (size_t n = p->nsessions; n >= 1; n--)
		if (p->sessions[n - 1].nsamples)
			return n;
	return p->nsessions;
}

/* ---- models ----------------------------------------------------------- */

static enum frame_kind record_kind(uint32_t id, const struct record *rec)
{
	if (id == HOST_ID)
		return KIND_ROOT;
	if (id == GC_ID)
		return KIND_GC;
	return rec && rec->path ? KIND_JS : KIND_NATIVE;
}

static uint32_t frame_of(const struct xsbug_parser *p, struct model *m,
			 uint32_t id)
{
	const struct record *rec = xsbug_find_record(p, id);
	char unknown[48];
	const char *name = rec ? rec->name : unknown;
	if (!rec)
		snprintf(unknown, sizeof(unknown), "(unknown %" PRIu32 ")", id);
	const char *path = rec && rec->path ? rec->path : "";
	struct frame f = {
		.name = model_string(m, name, strlen(name)),
		.url = model_string(m, path, strlen(path)),
		.extra = STR_NONE,
		.line = rec ? rec->line : -1,
		.column = -1,
		.kind = (uint8_t)record_kind(id, rec),
	};
	return model_intern_frame(m, &f);
}

/* The timeline: every sample with its duration, on its stack's leaf. */
static void adopt_timeline(const struct session *s, const uint32_t *leaf,
			   struct model *m)
{
	size_t n = s->timeline.n;
	uint32_t *nodes = xmalloc((n + 1) * sizeof(uint32_t));
	double *durations = xmalloc((n + 1) * sizeof(double));
	for (size_t i = 0; i < n; i++) {
		const struct timeline_entry *e = bounded_timeline_at(&s->timeline, i);
		nodes[i] = leaf[e->stack];
		durations[i] = e->duration;
	}
	model_adopt_samples(m, nodes, durations, n);
}

/* The first value type of every xsbug model; totals models (live
 * snapshots, without a timeline to count from) carry sample counts as the
 * second, so that `u` can show them. */
enum { TYPE_TIME, TYPE_COUNT };

static double summed_durations(const struct session *s)
{
	double sum = 0;
	for (size_t k = 0; k < s->nstacks; k++)
		sum += s->stacks[k].total;
	return sum;
}

/* A stopped session lasts from start to stop, less the time it was
 * suspended (time-rules.md); a running one until its last sample: the
 * sum of its samples.  stop_in_order keeps both from going negative. */
double xsbug_session_duration(const struct session *s)
{
	if (!s->stopped)
		return summed_durations(s);
	uint64_t span = s->stop - s->start;
	uint64_t away = add_saturated(s->time_suspended, s->clock_skip);
	return (double)(span > away ? span - away : 0);
}

double xsbug_session_clock_skip(const struct xsbug_parser *p, size_t n)
{
	return n >= 1 && n <= p->nsessions ? (double)p->sessions[n - 1].clock_skip
					   : 0;
}

void xsbug_set_times(const struct session *s, struct model *m)
{
	m->start_time = (double)s->start;
	m->end_time = s->stopped ? (double)s->stop : (double)s->last_time;
	m->duration = xsbug_session_duration(s);
	/* Every sample, whether the timeline holds it or not. */
	m->summed_samples = s->nsamples;
	if (s->clock_skip && m->warning == STR_NONE) {
		char said[200];
		snprintf(said, sizeof(said), "clock skipped %.2f s at a break: the "
			 "profile was started at a break, and the engine then "
			 "sampled nothing that long; it lasts its samples' %.2f s, "
			 "not %.2f s from start to stop", (double)s->clock_skip / 1e6,
			 m->duration / 1e6, (double)(s->stop - s->start) / 1e6);
		m->warning = model_string(m, said, strlen(said));
	}
}

/* Each distinct stack's summed duration and count on its leaf node; two
 * stacks whose functions look alike (the same name and place under
 * different ids) share one, so the values are summed. */
void xsbug_set_stack_values(const struct session *s, const uint32_t *leaf,
			    struct model *m)
{
	for (size_t k = 0; k < s->nstacks; k++) {
		model_set_node_value(m, leaf[k], TYPE_TIME, 0);
		model_set_node_value(m, leaf[k], TYPE_COUNT, 0);
	}
	for (size_t k = 0; k < s->nstacks; k++) {
		model_add_node_value(m, leaf[k], TYPE_TIME, s->stacks[k].total);
		model_add_node_value(m, leaf[k], TYPE_COUNT,
				     (double)s->stacks[k].count);
	}
}

/* With the timeline (while it holds every sample, when `timeline` is
 * asked for), or with each stack's totals; `leaf` (nstacks entries, or
 * NULL) receives each stack's leaf node.  A finished model (a file,
 * --report, --export) is the whole session: once samples have left the
 * window, a timeline of the last ones would make --range, time-order
 * graphs and exports of samples silently cover only those, so it has
 * none.  The live follower adds the window itself, saying so. */
void xsbug_build_model(const struct xsbug_parser *p, size_t n,
		       struct model *m, bool timeline, uint32_t *leaf)
{
	const struct session *s = &p->sessions[n - 1];
	timeline = timeline && bounded_timeline_exact(&s->timeline);
	model_init(m, "xsbug");
	model_add_sample_type(m, "time", "us");
	if (!timeline)
		model_add_sample_type(m, "samples", "count");
	/* Every record becomes a function, sampled or not, as in xsbug. */
	for (size_t r = 0; r < p->nrecords; r++)
		frame_of(p, m, p->records[r].id);
	uint32_t *leaves = leaf ? leaf : xmalloc((s->nstacks + 1) * sizeof(uint32_t));
	uint32_t *frames = xmalloc((p->limits.max_depth + 1) * sizeof(uint32_t));
	for (size_t k = 0; k < s->nstacks; k++) {
		const struct stack *st = &s->stacks[k];
		for (uint32_t d = 0; d < st->depth; d++)
			frames[d] = frame_of(p, m, s->ids[st->offset + d]);
		leaves[k] = model_add_stack(m, frames, st->depth);
	}
	free(frames);
	/* The order the divided rule walks callees in: the samples'. */
	m->first_leaves = xmalloc((s->nstacks + 1) * sizeof(uint32_t));
	memcpy(m->first_leaves, leaves, s->nstacks * sizeof(uint32_t));
	m->nfirst_leaves = s->nstacks;
	if (timeline)
		adopt_timeline(s, leaves, m);
	else
		xsbug_set_stack_values(s, leaves, m);
	if (leaves != leaf)
		free(leaves);
	xsbug_set_times(s, m);
	uint32_t cycle;
	model_finish(m, &cycle); /* merged stacks form a tree: no cycle */
}

void xsbug_session_model(const struct xsbug_parser *p, size_t n,
			 struct model *m)
{
	xsbug_build_model(p, n, m, true, NULL);
}

size_t xsbug_session_bytes(const struct xsbug_parser *p, size_t n)
{
	const struct session *s = &p->sessions[n - 1];
	return s->ids_cap * sizeof(*s->ids) + s->stacks_cap * sizeof(*s->stacks) +
	       s->index.size * (sizeof(*s->index.ids) + sizeof(*s->index.tags)) +
	       s->timeline.cap * sizeof(*s->timeline.entries);
}

