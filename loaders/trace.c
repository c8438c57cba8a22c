/* Chrome / Edge / Node trace-event JSON: the files Chrome's Performance
 * panel saves and `node --trace-events-enabled` writes (docs/formats.md).
 *
 * A trace holds events of every kind; the CPU profiles in it are
 * `Profile` + `ProfileChunk` events (V8's sampler sends a profile in
 * pieces: nodes, sample node ids and time deltas per chunk) or, in older
 * traces, one `CpuProfile` event with a whole .cpuprofile.  Several
 * threads may each have a profile.  The file is read as a stream of JSON
 * tokens, keeping only the profiles' nodes, samples and deltas; the
 * thread shown is chosen once everything is read (trace_build.c), and
 * only its profile becomes the model. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/util.h"
#include "json.h"
#include "loaders.h"
#include "trace.h"

/* Times beyond these are not from a clock: reject rather than mislead. */
#define MAX_ABS_TIME 1e17
#define MAX_ABS_DELTA 1e12
#define MAX_NODE_ID 4294967294.0 /* V8's node ids are unsigned 32-bit */
#define MAX_PROCESS_ID 9007199254740992.0


/* One event as it is read: its keys come in any order (Chrome sorts
 * them, so "args" comes before "name"), so what the data is for is
 * decided only at the event's end. */
struct event {
	enum trace_event_kind kind;
	uint64_t offset;
	int64_t pid, tid;
	double ts;
	char id[TRACE_ID_MAX];
	char *arg_name; /* args.name, for metadata */
	size_t arg_name_cap;
	bool has_arg_name;
	double start, end;
	bool has_start, has_end;
	char *name; /* the event's own name, for duration events */
	size_t name_cap;
	char phase; /* ph: 'X', 'B', 'E', ... (0 when none) */
	double dur;
	struct trace_data data; /* nodes, edges, samples, ... of this event */
};

struct trace_reader {
	struct json j;
	struct v8_reader v8;
	struct input *in;
	struct trace *t;
	struct load_error *err;
	struct event ev;
	unsigned run; /* a stream's tracing run: profile ids get "/RUN" after 1 */
};

bool sniff_trace(const uint8_t *head, size_t len)
{
	size_t i = 0;
	if (len >= 3 && !memcmp(head, "\xef\xbb\xbf", 3))
		i = 3;
	while (i < len && strchr(" \n\r\t", head[i]) && head[i])
		i++;
	if (i < len && head[i] == '[') {
		for (i++; i < len && strchr(" \n\r\t", head[i]) && head[i]; i++)
			;
		return i < len && (head[i] == '{' || head[i] == ']');
	}
	if (i >= len || head[i] != '{')
		return false;
	/* DevTools' own saves open with "metadata", which can be long; a
	 * .cpuprofile has no such key. */
	static const char metadata[] = "\"metadata\"";
	for (i++; i < len && strchr(" \n\r\t", head[i]) && head[i]; i++)
		;
	if (len - i >= sizeof(metadata) - 1 && !memcmp(head + i, metadata, sizeof(metadata) - 1))
		return true;
	static const char key[] = "\"traceEvents\"";
	for (; i + sizeof(key) - 1 <= len; i++)
		if (!memcmp(head + i, key, sizeof(key) - 1))
			return true;
	return false;
}

static bool read_number(struct trace_reader *R, const char *what, double limit,
			double *out)
{
	enum json_token t;
	if (!json_sink_next(&R->v8.s, &t))
		return false;
	if (t != JSON_NUMBER)
		return json_sink_fail_here(&R->v8.s, "%s is not a number", what);
	if (fabs(R->j.num) > limit)
		return json_sink_fail_here(&R->v8.s, "%s %g is out of range", what, R->j.num);
	*out = R->j.num;
	return true;
}

static bool read_node_id(struct trace_reader *R, const char *what, uint32_t *out)
{
	double v;
	if (!read_number(R, what, MAX_NODE_ID, &v))
		return false;
	if (v < 0 || v != floor(v))
		return json_sink_fail_here(&R->v8.s, "%s %g is not a node id", what, v);
	*out = (uint32_t)v;
	return true;
}

static int32_t read_line_value(double v)
{
	return v < -1 || v != floor(v) ? -1 : v > 2147483647.0 ? 2147483647 : (int32_t)v;
}

/* pid and tid are numbers in every trace met so far; a string (some
 * converters write them so) is read as its number when it is one. */
static bool read_process_id(struct trace_reader *R, int64_t *out)
{
	enum json_token t;
	if (!json_sink_next(&R->v8.s, &t))
		return false;
	double v;
	if (t == JSON_NUMBER)
		v = R->j.num;
	else if (t == JSON_STRING)
		v = strtod(R->j.str, NULL);
	else
		return json_sink_skip_rest(&R->v8.s, t);
	if (fabs(v) <= MAX_PROCESS_ID)
		*out = (int64_t)v;
	return true;
}

static void keep_text(char **buf, size_t *cap, const char *text, size_t len)
{
	GROW(*buf, *cap, len + 1);
	memcpy(*buf, text, len + 1);
}

/* A number where one is expected; anything else is skipped (0). */
static bool number_or_skip(struct trace_reader *R, double limit, double *out)
{
	enum json_token t;
	if (!json_sink_next(&R->v8.s, &t))
		return false;
	if (t != JSON_NUMBER || fabs(R->j.num) > limit)
		return json_sink_skip_rest(&R->v8.s, t);
	*out = R->j.num;
	return true;
}

/* ---- profile nodes -------------------------------------------------- */

static bool read_children(struct trace_reader *R, struct trace_data *p)
{
	static const char not_id[] = "a child is not a node id";
	if (!json_sink_expect(&R->v8.s, JSON_ARRAY, "an array for children"))
		return false;
	enum json_token t;
	while ((t = json_each_number(&R->v8.s, not_id)) == JSON_NUMBER) {
		if (R->j.num < 0 || R->j.num > MAX_NODE_ID || R->j.num != floor(R->j.num))
			return json_sink_fail_here(&R->v8.s, not_id);
		/* The parent is this node, whose id may come later. */
		GROW(p->edges, p->edges_cap, p->nedges + 1);
		p->edges[p->nedges++] = (struct trace_edge){
			0, (uint32_t)R->j.num, R->j.token_offset
		};
	}
	return t == JSON_ARRAY_END;
}

/* Ticks name their node by its index in `nodes` while the node is read;
 * trace_prepare turns it into the node's id-resolved index. */
static bool read_node(struct trace_reader *R, struct trace_data *p)
{
	uint64_t at = R->j.token_offset;
	size_t first_edge = p->nedges;
	size_t index = p->nnodes;
	GROW(p->nodes, p->nodes_cap, p->nnodes + 1);
	struct trace_node n = { .frame = v8_frame_unknown(R->t->m) };
	bool has_id = false, has_parent = false;
	uint32_t parent = 0;
	uint64_t parent_at = 0;
	enum json_token t;
	while ((t = json_each_key(&R->v8.s)) == JSON_KEY) {
		const char *key = R->j.str;
		bool ok;
		if (!strcmp(key, "id")) {
			ok = read_node_id(R, "node id", &n.id);
			has_id = true;
		} else if (!strcmp(key, "parent")) {
			ok = read_node_id(R, "parent", &parent);
			parent_at = R->j.token_offset;
			has_parent = true;
		} else if (!strcmp(key, "callFrame")) {
			ok = v8_read_call_frame(&R->v8, &n.frame);
		} else if (!strcmp(key, "children")) {
			ok = read_children(R, p);
		} else if (!strcmp(key, "positionTicks")) {
			ok = v8_read_position_ticks(&R->v8, (uint32_t)index, &p->ticks, &p->nticks,
						    &p->ticks_cap);
		} else {
			ok = json_sink_skip(&R->v8.s);
		}
		if (!ok)
			return false;
	}
	if (t == JSON_ERROR)
		return false;
	if (!has_id)
		return load_fail_at(R->err, TRACE_FORMAT, at, "a profile node without an id");
	for (size_t e = first_edge; e < p->nedges; e++)
		p->edges[e].parent = n.id;
	if (has_parent) {
		GROW(p->edges, p->edges_cap, p->nedges + 1);
		p->edges[p->nedges++] = (struct trace_edge){ parent, n.id, parent_at };
	}
	p->nodes[p->nnodes++] = n;
	return true;
}

static bool read_nodes(struct trace_reader *R, struct trace_data *p)
{
	if (!json_sink_expect(&R->v8.s, JSON_ARRAY, "an array for nodes"))
		return false;
	enum json_token t;
	while ((t = json_each_object(&R->v8.s, "a profile node is not an object")) == JSON_OBJECT)
		if (!read_node(R, p))
			return false;
	return t == JSON_ARRAY_END;
}

/* ---- the long arrays ------------------------------------------------ */

enum array_kind { SAMPLES, DELTAS, LINES };

static bool keep_number(struct trace_reader *R, struct trace_data *p,
			enum array_kind kind)
{
	double v = R->j.num;
	switch (kind) {
	case SAMPLES:
		if (v < 0 || v > MAX_NODE_ID || v != floor(v))
			return json_sink_fail_here(&R->v8.s, "a sample is not a node id");
		GROW(p->samples, p->samples_cap, p->nsamples + 1);
		p->samples[p->nsamples++] = (uint32_t)v;
		return true;
	case DELTAS:
		if (fabs(v) > MAX_ABS_DELTA)
			return json_sink_fail_here(&R->v8.s, "a time delta is out of range");
		GROW(p->deltas, p->deltas_cap, p->ndeltas + 1);
		p->deltas[p->ndeltas++] = v;
		return true;
	case LINES:
		GROW(p->lines, p->lines_cap, p->nlines + 1);
		p->lines[p->nlines++] = read_line_value(v);
		return true;
	}
	return true;
}

/* samples, timeDeltas or lines: millions of numbers, read without a tree. */
static bool read_numbers(struct trace_reader *R, struct trace_data *p,
			 enum array_kind kind)
{
	static const char *const names[] = { "samples", "timeDeltas", "lines" };
	char what[48], not_number[48];
	snprintf(what, sizeof(what), "an array of numbers for %s", names[kind]);
	snprintf(not_number, sizeof(not_number), "%s holds a non-number", names[kind]);
	if (!json_sink_expect(&R->v8.s, JSON_ARRAY, what))
		return false;
	enum json_token t;
	while ((t = json_each_number(&R->v8.s, not_number)) == JSON_NUMBER)
		if (!keep_number(R, p, kind))
			return false;
	return t == JSON_ARRAY_END;
}

/* ---- args ----------------------------------------------------------- */

static bool read_time(struct trace_reader *R, const char *what, double *out,
		      bool *has)
{
	*has = true;
	return read_number(R, what, MAX_ABS_TIME, out);
}

/* args.data, or args.data.cpuProfile within it (`inner`): a chunk's
 * nodes, samples, deltas and lines, or a whole .cpuprofile in a
 * CpuProfile event.  Anything else in them is skipped. */
static bool read_profile_fields(struct trace_reader *R, bool inner)
{
	struct event *ev = &R->ev;
	enum json_token t;
	if (!json_sink_next(&R->v8.s, &t))
		return false;
	if (t != JSON_OBJECT) {
		if (inner)
			return json_sink_fail_here(&R->v8.s, "expected an object for cpuProfile");
		return json_sink_skip_rest(&R->v8.s, t);
	}
	while ((t = json_each_key(&R->v8.s)) == JSON_KEY) {
		const char *key = R->j.str;
		bool ok;
		if (!strcmp(key, "cpuProfile") && !inner)
			ok = read_profile_fields(R, true);
		else if (!strcmp(key, "nodes") && inner)
			ok = read_nodes(R, &ev->data);
		else if (!strcmp(key, "samples") && inner)
			ok = read_numbers(R, &ev->data, SAMPLES);
		else if (!strcmp(key, "timeDeltas"))
			ok = read_numbers(R, &ev->data, DELTAS);
		else if (!strcmp(key, "lines"))
			ok = read_numbers(R, &ev->data, LINES);
		else if (!strcmp(key, "startTime"))
			ok = read_time(R, "startTime", &ev->start, &ev->has_start);
		else if (!strcmp(key, "endTime"))
			ok = read_time(R, "endTime", &ev->end, &ev->has_end);
		else
			ok = json_sink_skip(&R->v8.s);
		if (!ok)
			return false;
	}
	return t != JSON_ERROR;
}

/* The next value when it is a string (*got true); anything else is
 * skipped. */
static bool string_or_skip(struct trace_reader *R, bool *got)
{
	enum json_token t;
	if (!json_sink_next(&R->v8.s, &t))
		return false;
	*got = t == JSON_STRING;
	return *got || json_sink_skip_rest(&R->v8.s, t);
}

static bool read_args_key(void *ctx, const char *key)
{
	struct trace_reader *R = ctx;
	struct event *ev = &R->ev;
	bool got;
	if (!strcmp(key, "data"))
		return read_profile_fields(R, false);
	if (strcmp(key, "name"))
		return json_sink_skip(&R->v8.s);
	if (!string_or_skip(R, &got))
		return false;
	if (got) {
		keep_text(&ev->arg_name, &ev->arg_name_cap, R->j.str, R->j.str_len);
		ev->has_arg_name = true;
	}
	return true;
}

static bool read_args(struct trace_reader *R)
{
	enum json_token t;
	if (!json_sink_next(&R->v8.s, &t))
		return false;
	if (t != JSON_OBJECT)
		return json_sink_skip_rest(&R->v8.s, t);
	return json_read_object(&R->v8.s, read_args_key, R);
}

/* ---- events --------------------------------------------------------- */

static enum trace_event_kind kind_of_event(const char *name)
{
	static const struct {
		const char *name;
		enum trace_event_kind kind;
	} kinds[] = {
		{ "Profile", TRACE_PROFILE },
		{ "ProfileChunk", TRACE_CHUNK },
		{ "CpuProfile", TRACE_CPU_PROFILE },
		{ "thread_name", TRACE_THREAD_NAME },
		{ "process_name", TRACE_PROCESS_NAME },
	};
	for (size_t i = 0; i < ARRAY_LEN(kinds); i++)
		if (!strcmp(name, kinds[i].name))
			return kinds[i].kind;
	return TRACE_OTHER;
}

/* Profile ids are strings ("0x2") in Chrome and Node; a number is
 * written out so that both forms compare alike. */
static bool read_event_id(struct trace_reader *R)
{
	enum json_token t;
	if (!json_sink_next(&R->v8.s, &t))
		return false;
	if (t == JSON_STRING)
		snprintf(R->ev.id, sizeof(R->ev.id), "%s", R->j.str);
	else if (t == JSON_NUMBER)
		snprintf(R->ev.id, sizeof(R->ev.id), "0x%llx",
			 (unsigned long long)(R->j.num >= 0 && R->j.num < 1.8e19 ? R->j.num : 0));
	else
		return json_sink_skip_rest(&R->v8.s, t);
	return true;
}

static void reset_event(struct event *ev, uint64_t offset)
{
	struct trace_data keep = ev->data;
	char *arg_name = ev->arg_name, *name = ev->name;
	size_t arg_name_cap = ev->arg_name_cap, name_cap = ev->name_cap;
	memset(ev, 0, sizeof(*ev));
	ev->offset = offset;
	ev->data = keep;
	ev->data.nnodes = ev->data.nedges = ev->data.nticks = 0;
	ev->data.nsamples = ev->data.ndeltas = ev->data.nlines = 0;
	ev->arg_name = arg_name;
	ev->arg_name_cap = arg_name_cap;
	ev->name = name;
	ev->name_cap = name_cap;
	if (name)
		*name = 0;
}


static bool read_event_key(void *ctx, const char *key)
{
	struct trace_reader *R = ctx;
	struct event *ev = &R->ev;
	bool got;
	if (!strcmp(key, "name")) {
		if (!string_or_skip(R, &got))
			return false;
		if (got) {
			ev->kind = kind_of_event(R->j.str);
			keep_text(&ev->name, &ev->name_cap, R->j.str, R->j.str_len);
		}
		return true;
	}
	if (!strcmp(key, "ph")) {
		if (!string_or_skip(R, &got))
			return false;
		if (got)
			ev->phase = R->j.str_len == 1 ? R->j.str[0] : '?';
		return true;
	}
	if (!strcmp(key, "dur"))
		return number_or_skip(R, MAX_ABS_TIME, &ev->dur);
	if (!strcmp(key, "pid"))
		return read_process_id(R, &ev->pid);
	if (!strcmp(key, "tid"))
		return read_process_id(R, &ev->tid);
	if (!strcmp(key, "ts"))
		return number_or_skip(R, MAX_ABS_TIME, &ev->ts);
	if (!strcmp(key, "id"))
		return read_event_id(R);
	if (!strcmp(key, "args"))
		return read_args(R);
	return json_sink_skip(&R->v8.s);
}

static bool read_event(struct trace_reader *R)
{
	struct event *ev = &R->ev;
	reset_event(ev, R->j.token_offset);
	if (!json_read_object(&R->v8.s, read_event_key, R))
		return false;
	if (R->run && *ev->id) {
		size_t n = strlen(ev->id);
		snprintf(ev->id + n, sizeof(ev->id) - n, "/%u", R->run);
	}
	trace_add_event_data(R->t, ev->kind, &(struct trace_event_facts){
					    .offset = ev->offset, .pid = ev->pid, .tid = ev->tid,
					    .ts = ev->ts, .id = ev->id,
					    .name = ev->has_arg_name ? ev->arg_name : NULL,
					    .event_name = ev->name ? ev->name : "",
					    .phase = ev->phase, .dur = ev->dur,
					    .start = ev->start, .has_start = ev->has_start,
					    .end = ev->end, .has_end = ev->has_end,
				    },
				    &ev->data);
	return true;
}

/* Chrome's JSON array form may end without its "]" (a trace cut off
 * while being written is still a trace): nothing but white space, or
 * one comma and white space, after the last event. */
static bool only_blank_left(struct input *in)
{
	size_t k = 0;
	bool comma = false;
	for (;;) {
		if (input_fill(in, k + 1) < k + 1)
			return true;
		uint8_t c = in->buf[in->pos + k];
		if (c == ',' && !comma)
			comma = true;
		else if (c != ' ' && c != '\n' && c != '\r' && c != '\t')
			return false;
		k++;
	}
}

static bool read_events(struct trace_reader *R, bool *ended_open)
{
	for (;;) {
		if (ended_open && only_blank_left(R->in)) {
			*ended_open = true;
			return true;
		}
		enum json_token t;
		if (!json_sink_next(&R->v8.s, &t))
			return false;
		if (t == JSON_ARRAY_END)
			return true;
		if (t != JSON_OBJECT)
			return json_sink_fail_here(&R->v8.s, "an event is not an object");
		if (!read_event(R))
			return false;
	}
}

static bool read_document(struct trace_reader *R)
{
	enum json_token t;
	if (!json_sink_next(&R->v8.s, &t))
		return false;
	if (t == JSON_ARRAY) {
		bool ended_open = false;
		if (!read_events(R, &ended_open))
			return false;
		if (ended_open)
			return true;
	} else if (t == JSON_OBJECT) {
		bool seen = false;
		while ((t = json_each_key(&R->v8.s)) == JSON_KEY) {
			if (!strcmp(R->j.str, "traceEvents")) {
				seen = true;
				if (!json_sink_expect(&R->v8.s, JSON_ARRAY, "an array for traceEvents") ||
				    !read_events(R, NULL))
					return false;
			} else if (!json_sink_skip(&R->v8.s)) {
				return false;
			}
		}
		if (t == JSON_ERROR)
			return false;
		if (!seen)
			return load_fail(R->err, TRACE_FORMAT ": no \"traceEvents\" in the object");
	} else {
		return json_sink_fail_here(&R->v8.s, "expected an array of events or {\"traceEvents\": ...}");
	}
	return json_sink_end(&R->v8.s);
}

bool load_trace(struct input *in, struct model *m, const struct load_options *opt,
		struct load_error *err)
{
	struct trace t;
	struct trace_reader R = { .in = in, .err = err, .t = &t };
	model_init(m, "trace");
	m->lines_zero_based = true;
	trace_init(&t, m);
	t.keep_slices = true;
	v8_reader_start(&R.v8, &R.j, in, m, err, TRACE_FORMAT);
	bool ok = read_document(&R);
	if (ok)
		t.end_offset = input_offset(in);
	ok = ok && trace_build(&t, opt ? opt->thread : NULL, err);
	json_free(&R.j);
	trace_data_free(&R.ev.data);
	free(R.ev.arg_name);
	free(R.ev.name);
	trace_free(&t);
	if (!ok)
		model_free(m);
	return ok;
}

/* ---- a trace that grows --------------------------------------------- */

struct trace_stream {
	struct model names; /* only its strings: the events' names */
	struct trace t;
	struct event ev;    /* the reader's buffers, kept from batch to batch */
	uint64_t offset;    /* bytes of the batches so far */
	unsigned run;
};

struct trace_stream *trace_stream_new(void)
{
	struct trace_stream *s = xcalloc(1, sizeof(*s));
	model_init(&s->names, "trace");
	trace_init(&s->t, &s->names);
	return s;
}

static bool add_array(struct trace_stream *s, const void *json, size_t len,
		      bool whole, struct load_error *err)
{
	struct input in;
	input_from_memory(&in, json, len, "trace events");
	in.base = s->offset;
	struct trace_reader R = { .in = &in, .err = err, .t = &s->t, .ev = s->ev,
				  .run = s->run };
	v8_reader_start(&R.v8, &R.j, &in, &s->names, err, TRACE_FORMAT);
	bool ok = json_sink_expect(&R.v8.s, JSON_ARRAY, "an array of events") &&
		  read_events(&R, NULL) && (!whole || json_sink_end(&R.v8.s));
	s->ev = R.ev;
	json_free(&R.j);
	input_close(&in);
	s->offset += len;
	s->t.end_offset = s->offset;
	return ok;
}

void trace_stream_next_run(struct trace_stream *s)
{
	s->run++;
}

bool trace_stream_add(struct trace_stream *s, const void *json, size_t len,
		      struct load_error *err)
{
	return add_array(s, json, len, true, err);
}

bool trace_stream_add_prefix(struct trace_stream *s, const void *json, size_t len,
			     struct load_error *err)
{
	return add_array(s, json, len, false, err);
}

size_t trace_stream_samples(const struct trace_stream *s)
{
	size_t n = 0;
	for (size_t i = 0; i < s->t.nprofiles; i++)
		n += s->t.profiles[i].dropped + s->t.profiles[i].data.nsamples;
	return n;
}

/* The chunks of the samples kept, numbered from the first kept. */
static void drop_chunks(struct trace_profile *p, size_t n)
{
	size_t kept = 0;
	for (size_t i = 0; i < p->nchunks; i++) {
		struct trace_chunk c = p->chunks[i];
		if (c.first + c.count <= n && (c.count || c.first < n))
			continue;
		size_t gone = c.first < n ? n - c.first : 0;
		c.count -= gone;
		c.first = c.first + gone - n;
		p->chunks[kept++] = c;
	}
	p->nchunks = kept;
}

void trace_stream_drop_samples(struct trace_stream *s, size_t profile, size_t upto)
{
	struct trace_profile *p = &s->t.profiles[profile];
	struct trace_data *d = &p->data;
	size_t n = upto > p->dropped ? upto - p->dropped : 0;
	if (n > d->nsamples)
		n = d->nsamples;
	if (!n)
		return;
	size_t left = d->nsamples - n;
	memmove(d->samples, d->samples + n, left * sizeof(*d->samples));
	memmove(d->deltas, d->deltas + n, left * sizeof(*d->deltas));
	if (d->lines) {
		memmove(d->lines, d->lines + n, left * sizeof(*d->lines));
		d->nlines = left;
	}
	d->nsamples = d->ndeltas = left;
	drop_chunks(p, n);
	p->dropped += n;
}

struct trace_stream *trace_stream_copy(const struct trace_stream *s)
{
	struct trace_stream *c = xcalloc(1, sizeof(*c));
	model_init(&c->names, "trace");
	strings_free(&c->names.strings);
	strings_copy(&c->names.strings, &s->names.strings);
	trace_copy(&c->t, &s->t, &c->names);
	c->offset = s->offset;
	c->run = s->run;
	return c;
}

bool trace_stream_model(const struct trace_stream *s, const char *wanted,
			struct model *m, struct load_error *err)
{
	return trace_stream_finish(trace_stream_copy(s), wanted, m, err);
}

/* The model takes the stream's strings, so that the names' numbers in
 * the profiles hold in it. */
bool trace_stream_finish(struct trace_stream *s, const char *wanted,
			 struct model *m, struct load_error *err)
{
	model_init(m, "trace");
	m->lines_zero_based = true;
	strings_free(&m->strings);
	m->strings = s->names.strings;
	strings_init(&s->names.strings);
	s->t.m = m;
	bool ok = trace_build(&s->t, wanted, err);
	if (!ok)
		model_free(m);
	trace_stream_free(s);
	return ok;
}

const struct trace *trace_stream_trace(const struct trace_stream *s)
{
	return &s->t;
}

const struct string_table *trace_stream_strings(const struct trace_stream *s)
{
	return &s->names.strings;
}

void trace_stream_free(struct trace_stream *s)
{
	if (!s)
		return;
	trace_free(&s->t);
	trace_data_free(&s->ev.data);
	free(s->ev.arg_name);
	free(s->ev.name);
	model_free(&s->names);
	free(s);
}
