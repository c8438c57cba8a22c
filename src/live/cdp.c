/* Profiling over the Chrome DevTools protocol; see cdp.h. */
#include "cdp.h"

#include <cjson/cJSON.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "loaders/json.h"
#include "loaders/loaders.h"
#include "loaders/trace.h"
#include "address.h"
#include "pid_ports.h"
#include "base/complain.h"
#include "base/escape.h"
#include "base/id_table.h"
#include "output/export.h"
#include "base/util.h"
#include "ws.h"

#define DIAL_TIMEOUT_MS 5000
/* --wait: how often /json/list is asked again. */
#define WAIT_RETRY_SECONDS 0.25
/* Profiler.stop of a long window on a busy machine can take seconds. */
#define ANSWER_TIMEOUT_MS 15000
/* Distinct stacks in a session, and samples: past these the session
 * stops growing (a day at 1 ms is 86 M samples). */
#define MAX_NODES (4u << 20)
#define MAX_SAMPLES (256u << 20)

struct session_node {
	uint32_t parent; /* UINT32_MAX for a root */
	char *call_frame; /* the callFrame object as JSON text */
	uint64_t hits;
};

struct cdp {
	/* The session (nodes, samples) is folded by whoever calls cdp_stop
	 * and read by whoever takes a snapshot: under this lock. */
	pthread_mutex_t lock;
	struct ws ws;
	int next_id;
	bool released; /* Runtime.runIfWaitingForDebugger sent */
	char name[600];
	char url[1100]; /* the target's WebSocket */
	struct session_node *nodes;
	size_t n_nodes, nodes_cap;
	struct id_table node_index; /* nodes by parent and call frame */
	uint32_t *samples;
	int64_t *deltas;
	size_t n_samples, samples_cap, deltas_cap;
	double span;        /* µs profiled, all windows end to end */
	double last_sample; /* time of the last sample on that axis */
	/* When the peer streams trace events (Tracing.dataCollected while
	 * tracing runs) they are the session, in place of the windows. */
	struct trace_stream *trace;
	bool streaming; /* the session is `trace` */
	bool tracing;   /* Tracing.start answered, tracingComplete not yet */
	bool broken;    /* the connection failed: nothing more to ask */
	/* NodeRuntime.waitingForDisconnect came: the program's script is
	 * over and Node waits for us to let it go. */
	_Atomic bool program_ended;
	unsigned long batches; /* dataCollected messages taken */
	struct trace_live *live; /* the live view's fold: the refreshing thread's */
	char mode[80];  /* how samples come, short: for the status line */
	char why[400];  /* and why, for messages */
};

static double now_seconds(void)
{
	struct timespec t;
	clock_gettime(CLOCK_MONOTONIC, &t);
	return (double)t.tv_sec + t.tv_nsec / 1e9;
}

static void sleep_seconds(double s)
{
	struct timespec ts = { (time_t)s, (long)((s - (time_t)s) * 1e9) };
	while (nanosleep(&ts, &ts))
		;
}

/* The session's node for this frame under that parent, made if new;
 * UINT32_MAX past MAX_NODES. */
static uint32_t session_node(struct cdp *c, uint32_t parent, const cJSON *frame)
{
	char *text = cJSON_PrintUnformatted(frame);
	if (!text)
		return UINT32_MAX;
	struct id_probe p = id_table_probe(&c->node_index,
					   hash_bytes(text, strlen(text), parent));
	for (uint32_t k; (k = id_probe_next(&c->node_index, &p)) != NO_ID;) {
		if (c->nodes[k].parent == parent && !strcmp(c->nodes[k].call_frame, text)) {
			free(text);
			return k;
		}
	}
	if (c->n_nodes >= MAX_NODES) {
		free(text);
		return UINT32_MAX;
	}
	GROW(c->nodes, c->nodes_cap, c->n_nodes + 1);
	c->nodes[c->n_nodes] = (struct session_node){ parent, text, 0 };
	id_table_add(&c->node_index, &p, (uint32_t)c->n_nodes);
	return (uint32_t)c->n_nodes++;
}

struct id_index {
	double id;
	size_t index;
};

static int by_id(const void *a, const void *b)
{
	double x = ((const struct id_index *)a)->id, y = ((const struct id_index *)b)->id;
	return (x > y) - (x < y);
}

static long find_id(const struct id_index *ids, size_t n, double id)
{
	struct id_index key = { id, 0 };
	const struct id_index *hit = bsearch(&key, ids, n, sizeof(*ids), by_id);
	return hit ? (long)hit->index : -1;
}

/* Maps each node of the window's profile to a session node, parents
 * first (a breadth-first walk from the nodes nobody names as a child). */
static bool map_nodes(struct cdp *c, const cJSON *nodes, uint32_t *map,
		      const struct id_index *ids, size_t n, char *err, size_t cap)
{
	long *parent = xmalloc(n * sizeof(*parent));
	size_t *queue = xmalloc(n * sizeof(*queue)), head = 0, tail = 0;
	bool ok = true;
	for (size_t i = 0; i < n; i++)
		parent[i] = -1, map[i] = UINT32_MAX;
	for (size_t i = 0; i < n && ok; i++) {
		const cJSON *kids = cJSON_GetObjectItem(cJSON_GetArrayItem(nodes, (int)i), "children");
		const cJSON *kid;
		cJSON_ArrayForEach(kid, kids) {
			long k = cJSON_IsNumber(kid) ? find_id(ids, n, kid->valuedouble) : -1;
			if (k < 0 || parent[k] >= 0 || (size_t)k == i) {
				snprintf(err, cap, "profile: node %zu names a wrong child", i);
				ok = false;
				break;
			}
			parent[k] = (long)i;
		}
	}
	for (size_t i = 0; i < n && ok; i++)
		if (parent[i] < 0)
			queue[tail++] = i;
	while (ok && head < tail) {
		size_t i = queue[head++];
		const cJSON *node = cJSON_GetArrayItem(nodes, (int)i);
		const cJSON *frame = cJSON_GetObjectItem(node, "callFrame");
		uint32_t up = parent[i] < 0 ? UINT32_MAX : map[parent[i]];
		map[i] = cJSON_IsObject(frame) ? session_node(c, up, frame) : UINT32_MAX;
		if (map[i] == UINT32_MAX) {
			snprintf(err, cap, "profile: node %zu has no callFrame, or the session "
				 "has %u stacks", i, MAX_NODES);
			ok = false;
		}
		const cJSON *kid;
		cJSON_ArrayForEach(kid, cJSON_GetObjectItem(node, "children"))
			queue[tail++] = (size_t)find_id(ids, n, kid->valuedouble);
	}
	free(parent);
	free(queue);
	return ok;
}

static bool fold_samples(struct cdp *c, const cJSON *profile, const uint32_t *map,
			 const struct id_index *ids, size_t n, char *err, size_t cap)
{
	const cJSON *samples = cJSON_GetObjectItem(profile, "samples");
	const cJSON *deltas = cJSON_GetObjectItem(profile, "timeDeltas");
	double start = cJSON_GetNumberValue(cJSON_GetObjectItem(profile, "startTime"));
	double end = cJSON_GetNumberValue(cJSON_GetObjectItem(profile, "endTime"));
	int count = cJSON_GetArraySize(samples);
	if (start != start || end != end || end < start ||
	    count != cJSON_GetArraySize(deltas)) {
		snprintf(err, cap, "profile: startTime, endTime, samples or timeDeltas wrong");
		return false;
	}
	if (c->n_samples + (size_t)count > MAX_SAMPLES) {
		snprintf(err, cap, "the session holds %u samples: not growing it", MAX_SAMPLES);
		return false;
	}
	double t = start;
	const cJSON *s = samples ? samples->child : NULL, *d = deltas ? deltas->child : NULL;
	for (; s && d; s = s->next, d = d->next) {
		long i = find_id(ids, n, cJSON_GetNumberValue(s));
		if (i < 0 || map[i] == UINT32_MAX || !cJSON_IsNumber(d)) {
			snprintf(err, cap, "profile: a sample names no node");
			return false;
		}
		t += d->valuedouble;
		double at = c->span + (t < start ? 0 : t > end ? end - start : t - start);
		if (at < c->last_sample)
			at = c->last_sample;
		GROW(c->samples, c->samples_cap, c->n_samples + 1);
		GROW(c->deltas, c->deltas_cap, c->n_samples + 1);
		c->samples[c->n_samples] = map[i];
		c->deltas[c->n_samples++] = (int64_t)(at - c->last_sample + 0.5);
		c->last_sample = at;
		c->nodes[map[i]].hits++;
	}
	c->span += end - start;
	if (c->span < c->last_sample)
		c->span = c->last_sample;
	return true;
}

/* Folds one window's Profiler.Profile into the session. */
static bool fold_profile(struct cdp *c, const cJSON *profile, char *err, size_t cap)
{
	const cJSON *nodes = cJSON_GetObjectItem(profile, "nodes");
	size_t n = (size_t)cJSON_GetArraySize(nodes);
	if (!cJSON_IsArray(nodes) || !n) {
		snprintf(err, cap, "profile: no nodes");
		return false;
	}
	struct id_index *ids = xmalloc(n * sizeof(*ids));
	uint32_t *map = xmalloc(n * sizeof(*map));
	size_t i = 0;
	const cJSON *node;
	cJSON_ArrayForEach(node, nodes) {
		ids[i] = (struct id_index){ cJSON_GetNumberValue(cJSON_GetObjectItem(node, "id")), i };
		i++;
	}
	qsort(ids, n, sizeof(*ids), by_id);
	bool ok = true;
	for (i = 0; i < n && ok; i++)
		if (ids[i].id != ids[i].id || (i && ids[i].id == ids[i - 1].id)) {
			snprintf(err, cap, "profile: node ids missing or repeated");
			ok = false;
		}
	ok = ok && map_nodes(c, nodes, map, ids, n, err, cap) &&
	     fold_samples(c, profile, map, ids, n, err, cap);
	free(ids);
	free(map);
	return ok;
}

/* Where the `value` array of a Tracing.dataCollected event (or
 * NodeTracing's) begins in the message, found with the streaming
 * tokenizer so that a batch of a million samples is read once, by the
 * trace reader, and never made a tree.  With "method" first, as peers
 * write it, this reads a few tokens; answers ("id" first) one.  False
 * for any other message. */
static bool data_collected(const char *msg, size_t len, size_t *from)
{
	struct input in;
	struct json j;
	input_from_memory(&in, msg, len, "message");
	json_init(&j, &in);
	bool method = false, value = false;
	enum json_token t = json_next(&j);
	while (t != JSON_ERROR && (t = json_next(&j)) == JSON_KEY && !(method && value)) {
		if (!strcmp(j.str, "method")) {
			t = json_next(&j);
			method = t == JSON_STRING && (!strcmp(j.str, "Tracing.dataCollected") ||
						      !strcmp(j.str, "NodeTracing.dataCollected"));
			if (!method)
				break;
		} else if (!strcmp(j.str, "params") && json_next(&j) == JSON_OBJECT) {
			while (!(method && value) && (t = json_next(&j)) == JSON_KEY) {
				bool is_value = !strcmp(j.str, "value");
				t = json_next(&j);
				if (is_value && t == JSON_ARRAY)
					*from = (size_t)j.token_offset, value = true;
				/* Params before the method: the array is skipped too. */
				if (!(is_value && t == JSON_ARRAY && method) && !json_skip(&j, t))
					break;
			}
		} else if (!strcmp(j.str, "id") || !json_skip(&j, json_next(&j))) {
			break;
		}
	}
	json_free(&j);
	input_close(&in);
	return method && value;
}

/* The same bounds as the windows' session, over all profiles. */
static bool trace_room(const struct trace_stream *s)
{
	const struct trace *t = trace_stream_trace(s);
	size_t nodes = 0, samples = 0;
	for (size_t i = 0; i < t->nprofiles; i++) {
		nodes += t->profiles[i].data.nnodes;
		samples += t->profiles[i].data.nsamples;
	}
	return nodes < MAX_NODES && samples < MAX_SAMPLES;
}

/* The message just received, when it is a batch of trace events: kept in
 * the trace session (1), or wrong (-1 with a message); 0 for others. */
static int take_trace_events(struct cdp *c, char *err, size_t cap)
{
	size_t from = 0;
	if (!c->trace || !data_collected(c->ws.msg, c->ws.msg_len, &from))
		return 0;
	if (!trace_room(c->trace)) {
		snprintf(err, cap, "the session holds %u samples or %u stacks: not growing it",
			 MAX_SAMPLES, MAX_NODES);
		return -1;
	}
	struct load_error why;
	pthread_mutex_lock(&c->lock);
	bool ok = trace_stream_add_prefix(c->trace, c->ws.msg + from, c->ws.msg_len - from,
					  &why);
	c->batches++;
	pthread_mutex_unlock(&c->lock);
	if (!ok)
		snprintf(err, cap, "Tracing.dataCollected: %.240s", why.message);
	return ok ? 1 : -1;
}

/* Events other than data: only the end of tracing matters. */
static void note_event(struct cdp *c, const cJSON *root)
{
	const char *method = cJSON_GetStringValue(cJSON_GetObjectItem(root, "method"));
	if (method && (!strcmp(method, "Tracing.tracingComplete") ||
		       !strcmp(method, "NodeTracing.tracingComplete")))
		c->tracing = false;
	if (method && !strcmp(method, "NodeRuntime.waitingForDisconnect"))
		atomic_store(&c->program_ended, true);
}

/* Sends a command and waits for its answer (trace batches meanwhile are
 * kept, other events skipped); the answer's "result", which the caller
 * frees with *root. */
static const cJSON *call(struct cdp *c, const char *method, const char *params,
			 cJSON **root, char *err, size_t cap)
{
	char text[512];
	int id = ++c->next_id;
	int n = snprintf(text, sizeof(text), "{\"id\":%d,\"method\":\"%s\",\"params\":%s}",
			 id, method, params ? params : "{}");
	char why[300];
	if (!ws_send_text(&c->ws, text, (size_t)n, why, sizeof(why))) {
		snprintf(err, cap, "%s: %s", method, why);
		c->broken = true;
		return NULL;
	}
	for (;;) {
		int r = ws_receive(&c->ws, ANSWER_TIMEOUT_MS, why, sizeof(why));
		if (r <= 0) {
			snprintf(err, cap, "%s: %s", method,
				 r ? why : "no answer within 15 s");
			c->broken = true;
			return NULL;
		}
		int taken = take_trace_events(c, why, sizeof(why));
		if (taken) {
			if (taken < 0) {
				snprintf(err, cap, "%s: %s", method, why);
				c->broken = true;
				return NULL;
			}
			continue;
		}
		*root = cJSON_ParseWithLength(c->ws.msg, c->ws.msg_len);
		if (!cJSON_IsObject(*root)) {
			snprintf(err, cap, "%s: the peer sent a message that is not JSON "
				 "(byte %zu)", method, (size_t)(cJSON_GetErrorPtr() ?
				 cJSON_GetErrorPtr() - c->ws.msg : 0));
			cJSON_Delete(*root);
			c->broken = true;
			return NULL;
		}
		if (cJSON_GetNumberValue(cJSON_GetObjectItem(*root, "id")) == id)
			break;
		note_event(c, *root);
		cJSON_Delete(*root);
	}
	const cJSON *result = cJSON_GetObjectItem(*root, "result");
	if (!cJSON_IsObject(result)) {
		const char *message = cJSON_GetStringValue(cJSON_GetObjectItem(
			cJSON_GetObjectItem(*root, "error"), "message"));
		snprintf(err, cap, "%s: %s", method, message ? message : "no result");
		cJSON_Delete(*root);
		return NULL;
	}
	return result;
}

static bool command(struct cdp *c, const char *method, const char *params,
		    char *err, size_t cap)
{
	cJSON *root;
	if (!call(c, method, params, &root, err, cap))
		return false;
	cJSON_Delete(root);
	return true;
}

static bool wanted(const cJSON *t, const char *target)
{
	const char *type = cJSON_GetStringValue(cJSON_GetObjectItem(t, "type"));
	if (!cJSON_GetStringValue(cJSON_GetObjectItem(t, "webSocketDebuggerUrl")))
		return false;
	if (target) {
		const char *id = cJSON_GetStringValue(cJSON_GetObjectItem(t, "id"));
		const char *title = cJSON_GetStringValue(cJSON_GetObjectItem(t, "title"));
		return (id && !strcmp(id, target)) || (title && !strcmp(title, target));
	}
	return type && (!strcmp(type, "page") || !strcmp(type, "node"));
}

/* GET /json/list on the inspector the user named (host and port filled
 * in): the parsed answer, which may be anything, or NULL with err. */
static cJSON *list_targets(const struct cdp_options *o, char *host, size_t host_cap,
			   char *port, size_t port_cap, char *err, size_t cap)
{
	char why[300];
	if (!net_split_address(o->inspect, "127.0.0.1", "9229", false, host, host_cap,
			       port, port_cap, err, cap))
		return NULL;
	char *body;
	size_t len;
	if (!http_get(host, port, "/json/list", DIAL_TIMEOUT_MS, &body, &len, why, sizeof(why))) {
		snprintf(err, cap, "%s:%s: %s", host, port, why);
		return NULL;
	}
	cJSON *list = cJSON_ParseWithLength(body, len);
	free(body);
	if (!list)
		snprintf(err, cap, "%s:%s/json/list: not a JSON list of targets", host, port);
	return list;
}

/* The WebSocket URL of the target on the inspector the user named; it
 * must be on that same host and port. */
static bool pick_target(const struct cdp_options *o, char *url, size_t url_cap,
			char *title, size_t title_cap, char *err, size_t cap)
{
	char host[256], port[8];
	cJSON *list = list_targets(o, host, sizeof(host), port, sizeof(port), err, cap);
	if (!list)
		return false;
	const cJSON *t, *found = NULL, *targets = cJSON_IsArray(list) ? list : NULL;
	cJSON_ArrayForEach(t, targets)
		if (!found && wanted(t, o->target))
			found = t;
	const char *ws = cJSON_GetStringValue(cJSON_GetObjectItem(found, "webSocketDebuggerUrl"));
	/* A page not loaded yet has no title: its URL names it. */
	const char *name = cJSON_GetStringValue(cJSON_GetObjectItem(found, "title"));
	if (!name || !*name)
		name = cJSON_GetStringValue(cJSON_GetObjectItem(found, "url"));
	char ws_host[256], ws_port[8], path[1024];
	bool ok = false;
	if (!cJSON_IsArray(list))
		snprintf(err, cap, "%s:%s/json/list: not a JSON list of targets", host, port);
	else if (!ws)
		snprintf(err, cap, "%s:%s: no target %s%s", host, port,
			 o->target ? "named " : "of type page or node",
			 o->target ? o->target : "");
	else if (!ws_split_url(ws, ws_host, sizeof(ws_host), ws_port, sizeof(ws_port),
			       path, sizeof(path)) || strcmp(ws_host, host) ||
		 strcmp(ws_port, port) || strlen(ws) >= url_cap)
		snprintf(err, cap, "%s:%s: the target's WebSocket is elsewhere (%.200s): "
			 "not connecting beyond the address given", host, port, ws);
	else
		ok = true;
	if (ok) {
		strcpy(url, ws);
		snprintf(title, title_cap, "%s", name ? name : "");
	}
	cJSON_Delete(list);
	return ok;
}

/* e: the target listed after the one whose WebSocket is `ws_url` (the
 * first after the last): any target with a WebSocket, pages, workers and
 * Node programs alike. */
bool cdp_next_target(const struct cdp_options *o, const char *ws_url, char *id,
		     size_t id_cap, char *err, size_t cap)
{
	char host[256], port[8];
	if (!o->inspect) {
		snprintf(err, cap, "--connect ws://… names one target; --inspect lists them");
		return false;
	}
	cJSON *list = list_targets(o, host, sizeof(host), port, sizeof(port), err, cap);
	if (!list)
		return false;
	const cJSON *t, *first = NULL, *next = NULL;
	const cJSON *targets = cJSON_IsArray(list) ? list : NULL;
	bool after_current = false;
	cJSON_ArrayForEach(t, targets) {
		const char *ws = cJSON_GetStringValue(cJSON_GetObjectItem(t, "webSocketDebuggerUrl"));
		if (!ws || !cJSON_GetStringValue(cJSON_GetObjectItem(t, "id")))
			continue;
		bool current = !strcmp(ws, ws_url);
		if (!first && !current)
			first = t;
		if (after_current && !current && !next)
			next = t;
		after_current |= current;
	}
	const cJSON *pick = next ? next : first;
	if (pick)
		snprintf(id, id_cap, "%s",
			 cJSON_GetStringValue(cJSON_GetObjectItem(pick, "id")));
	else
		snprintf(err, cap, "%s:%s lists no other target", host, port);
	cJSON_Delete(list);
	return pick != NULL;
}

const char *cdp_target_url(const struct cdp *c)
{
	return c->url;
}

/* --wait: the inspector may come after wprof-tui (the program started
 * second), so /json/list is asked again until it names the target or
 * the wait is over; said once on stderr. */
static bool wait_for_target(const struct cdp_options *o, char *url, size_t url_cap,
			    char *title, size_t title_cap, char *err, size_t cap)
{
	double until = now_seconds() + o->wait_seconds;
	bool said = false;
	while (!pick_target(o, url, url_cap, title, title_cap, err, cap)) {
		if (now_seconds() >= until)
			return false;
		if (!said) {
			complain("waiting up to %.0f s for the inspector at %s (%s)",
				 o->wait_seconds, o->inspect, err);
			said = true;
		}
		sleep_seconds(WAIT_RETRY_SECONDS);
	}
	return true;
}

/* One of the process's loopback ports whose /json/list answers, into
 * `address`: 1; 0 with err when none does (yet), -1 when the process
 * cannot be looked at. */
static int inspector_of(long pid, char *address, size_t address_cap, char *err, size_t cap)
{
	struct pid_port ports[32];
	size_t n;
	if (!pid_loopback_ports(pid, ports, 32, &n, err, cap))
		return -1;
	snprintf(err, cap, "process %ld listens on no loopback port", pid);
	for (size_t i = 0; i < n; i++) {
		struct cdp_options o = { .inspect = address };
		char host[256], port[8];
		snprintf(address, address_cap, "%s:%u", ports[i].v6 ? "[::1]" : "127.0.0.1",
			 ports[i].port);
		cJSON *list = list_targets(&o, host, sizeof(host), port, sizeof(port), err, cap);
		bool found = cJSON_IsArray(list);
		cJSON_Delete(list);
		if (found)
			return 1;
	}
	return 0;
}

bool cdp_find_inspector(long pid, double wait_seconds, char *address, size_t address_cap,
			char *err, size_t cap)
{
	double until = now_seconds() + wait_seconds;
	bool said = false;
	int found;
	while ((found = inspector_of(pid, address, address_cap, err, cap)) != 1) {
		if (found < 0 || now_seconds() >= until)
			return false;
		if (!said) {
			complain("waiting up to %.0f s for process %ld's inspector (%s)",
				 wait_seconds, pid, err);
			said = true;
		}
		sleep_seconds(WAIT_RETRY_SECONDS);
	}
	return true;
}

/* Node says when its program is over and it only waits for the
 * debugger to leave (NodeRuntime.waitingForDisconnect); other engines
 * answer an error, ignored. */
static void ask_program_end(struct cdp *c)
{
	char ignored[300];
	if (!c->broken && command(c, "NodeRuntime.enable", NULL, ignored, sizeof(ignored)))
		command(c, "NodeRuntime.notifyWhenWaitingForDisconnect", "{\"enabled\":true}",
			ignored, sizeof(ignored));
}

bool cdp_program_ended(const struct cdp *c)
{
	return atomic_load(&c->program_ended);
}

/* After the program's end Node idles until the debugger leaves: the
 * session's last (idle) samples are that wait, not the program's, and
 * go; the session ends where they began. */
static void drop_wait_for_disconnect(struct cdp *c)
{
	pthread_mutex_lock(&c->lock);
	while (c->n_samples && strstr(c->nodes[c->samples[c->n_samples - 1]].call_frame,
				      "\"functionName\":\"(idle)\"")) {
		size_t last = --c->n_samples;
		c->nodes[c->samples[last]].hits--;
		c->span = c->last_sample;
		c->last_sample -= (double)c->deltas[last];
	}
	pthread_mutex_unlock(&c->lock);
}

void cdp_release(struct cdp *c)
{
	if (cdp_program_ended(c) && !c->streaming)
		drop_wait_for_disconnect(c);
	ws_close(&c->ws);
	c->broken = true;
}

bool cdp_listen(struct cdp *c, double seconds, char *err, size_t cap)
{
	double until = now_seconds() + seconds;
	char why[300];
	for (double left; !cdp_program_ended(c) && (left = until - now_seconds()) > 0;) {
		int r = ws_receive(&c->ws, (int)(left * 1000) + 1, why, sizeof(why));
		if (!r)
			break;
		int taken = r < 0 ? -1 : take_trace_events(c, why, sizeof(why));
		if (taken < 0) {
			snprintf(err, cap, "%s", why);
			c->broken = true;
			return false;
		}
		cJSON *root = taken ? NULL : cJSON_ParseWithLength(c->ws.msg, c->ws.msg_len);
		if (root)
			note_event(c, root);
		cJSON_Delete(root);
	}
	return true;
}

struct cdp *cdp_attach(const struct cdp_options *o, char *err, size_t cap)
{
	char url[1100], title[300] = "";
	if (o->connect_url)
		snprintf(url, sizeof(url), "%s", o->connect_url);
	else if (!wait_for_target(o, url, sizeof(url), title, sizeof(title), err, cap))
		return NULL;
	struct cdp *c = cdp_new_session();
	snprintf(c->name, sizeof(c->name), "%s%s%s%s", title, *title ? " (" : "", url,
		 *title ? ")" : "");
	snprintf(c->url, sizeof(c->url), "%s", url);
	char why[300], params[64];
	snprintf(params, sizeof(params), "{\"interval\":%u}", o->interval_us);
	if (!ws_open(&c->ws, url, DIAL_TIMEOUT_MS, why, sizeof(why))) {
		snprintf(err, cap, "%s: %s", url, why);
	} else if (command(c, "Profiler.enable", NULL, why, sizeof(why)) &&
		   (!o->interval_us ||
		    command(c, "Profiler.setSamplingInterval", params, why, sizeof(why)))) {
		ask_program_end(c);
		return c;
	} else {
		snprintf(err, cap, "%s: %s", url, why);
	}
	cdp_free(c);
	return NULL;
}

struct cdp *cdp_new_session(void)
{
	struct cdp *c = xcalloc(1, sizeof(*c));
	pthread_mutex_init(&c->lock, NULL);
	id_table_init(&c->node_index, 512);
	c->ws.fd = -1;
	return c;
}

bool cdp_fold_json(struct cdp *c, const char *json, size_t len, char *err, size_t cap)
{
	cJSON *profile = cJSON_ParseWithLength(json, len);
	if (!profile) {
		snprintf(err, cap, "not JSON");
		return false;
	}
	pthread_mutex_lock(&c->lock);
	bool ok = fold_profile(c, profile, err, cap);
	pthread_mutex_unlock(&c->lock);
	cJSON_Delete(profile);
	return ok;
}

const char *cdp_target_name(const struct cdp *c)
{
	return c->name;
}

bool cdp_start(struct cdp *c, char *err, size_t cap)
{
	if (!command(c, "Profiler.start", NULL, err, cap))
		return false;
	/* A program started with --inspect-brk waits for this, with the
	 * profiler now on from its first line; others answer and run on.
	 * An engine without the method answers an error: ignored. */
	if (!c->released) {
		char ignored[300];
		c->released = true;
		cJSON *root;
		if (call(c, "Runtime.runIfWaitingForDebugger", NULL, &root, ignored,
			 sizeof(ignored)))
			cJSON_Delete(root);
	}
	return true;
}

bool cdp_stop(struct cdp *c, char *err, size_t cap)
{
	cJSON *root;
	const cJSON *result = call(c, "Profiler.stop", NULL, &root, err, cap);
	if (!result)
		return false;
	char why[300];
	pthread_mutex_lock(&c->lock);
	bool ok = fold_profile(c, cJSON_GetObjectItem(result, "profile"), why, sizeof(why));
	pthread_mutex_unlock(&c->lock);
	if (!ok)
		snprintf(err, cap, "Profiler.stop: %s", why);
	cJSON_Delete(root);
	return ok;
}


/* ---- streaming over Tracing ----------------------------------------- */

/* V8's sampler only; thread and process names come whatever is asked. */
#define TRACE_PARAMS "{\"transferMode\":\"ReportEvents\",\"traceConfig\":{" \
	"\"includedCategories\":[\"disabled-by-default-v8.cpu_profiler\"]," \
	"\"excludedCategories\":[\"*\"]}}"

/* Reads what the peer sends for `seconds` (trace batches kept), or until
 * tracing completes. */
static bool follow_trace(struct cdp *c, double seconds, char *err, size_t cap)
{
	double until = now_seconds() + seconds;
	char why[300];
	while (c->tracing) {
		double left = until - now_seconds();
		if (left <= 0)
			return true;
		int r = ws_receive(&c->ws, (int)(left * 1000) + 1, why, sizeof(why));
		if (!r)
			return true;
		int taken = r < 0 ? -1 : take_trace_events(c, why, sizeof(why));
		if (taken < 0) {
			snprintf(err, cap, "Tracing: %s", why);
			c->broken = true;
			return false;
		}
		if (taken)
			continue;
		cJSON *root = cJSON_ParseWithLength(c->ws.msg, c->ws.msg_len);
		if (!cJSON_IsObject(root)) {
			snprintf(err, cap, "Tracing: the peer sent a message that is not JSON");
			cJSON_Delete(root);
			c->broken = true;
			return false;
		}
		note_event(c, root);
		cJSON_Delete(root);
	}
	return true;
}

/* Tracing.end, and the batches that come before tracingComplete. */
static bool end_tracing(struct cdp *c, char *err, size_t cap)
{
	if (!command(c, "Tracing.end", NULL, err, cap))
		return false;
	double until = now_seconds() + ANSWER_TIMEOUT_MS / 1000.0;
	while (c->tracing && now_seconds() < until)
		if (!follow_trace(c, until - now_seconds(), err, cap))
			return false;
	if (c->tracing) {
		snprintf(err, cap, "Tracing.end: no tracingComplete within 15 s");
		c->broken = true;
		return false;
	}
	return true;
}

static bool start_tracing(struct cdp *c, char *err, size_t cap)
{
	if (!command(c, "Tracing.start", TRACE_PARAMS, err, cap))
		return false;
	c->tracing = true;
	return true;
}

bool cdp_begin(struct cdp *c, char *err, size_t cap)
{
	char why[300];
	c->trace = trace_stream_new();
	if (!start_tracing(c, why, sizeof(why))) {
		if (c->broken) {
			snprintf(err, cap, "%s", why);
			return false;
		}
		snprintf(c->mode, sizeof(c->mode), "polling Profiler windows (tracing not "
			 "available)");
		snprintf(c->why, sizeof(c->why), "%s", why);
	} else if (!follow_trace(c, CDP_PROBE_SECONDS, err, cap)) {
		return false;
	} else if (c->batches) {
		c->streaming = true;
		snprintf(c->mode, sizeof(c->mode), "streaming samples over Tracing");
		return true;
	} else if (!end_tracing(c, err, cap)) {
		return false;
	} else {
		snprintf(c->mode, sizeof(c->mode), "polling Profiler windows (tracing not "
			 "streamed)");
		snprintf(c->why, sizeof(c->why), "Tracing sends its events only when it ends");
	}
	pthread_mutex_lock(&c->lock);
	trace_stream_free(c->trace);
	c->trace = NULL;
	pthread_mutex_unlock(&c->lock);
	return true;
}

bool cdp_streaming(const struct cdp *c)
{
	return c->streaming;
}

const char *cdp_mode(const struct cdp *c)
{
	return c->mode;
}

const char *cdp_mode_why(const struct cdp *c)
{
	return c->why;
}

bool cdp_follow(struct cdp *c, bool on, double seconds, char *err, size_t cap)
{
	if (!on)
		return !c->tracing || end_tracing(c, err, cap);
	if (!c->tracing) {
		pthread_mutex_lock(&c->lock);
		trace_stream_next_run(c->trace);
		pthread_mutex_unlock(&c->lock);
		if (!start_tracing(c, err, cap))
			return false;
	}
	return follow_trace(c, seconds, err, cap);
}

unsigned long cdp_batches(struct cdp *c)
{
	pthread_mutex_lock(&c->lock);
	unsigned long n = c->batches;
	pthread_mutex_unlock(&c->lock);
	return n;
}

size_t cdp_sample_count(struct cdp *c)
{
	pthread_mutex_lock(&c->lock);
	size_t n = c->streaming ? trace_stream_samples(c->trace) : c->n_samples;
	pthread_mutex_unlock(&c->lock);
	return n;
}

static char *session_json(const struct cdp *c);

char *cdp_session_json(struct cdp *c)
{
	pthread_mutex_lock(&c->lock);
	char *text = session_json(c);
	pthread_mutex_unlock(&c->lock);
	return text;
}

static char *session_json(const struct cdp *c)
{
	char *text;
	size_t len;
	FILE *f = open_memstream(&text, &len);
	uint32_t *first_child = xmalloc((c->n_nodes + 1) * sizeof(*first_child));
	uint32_t *next = xmalloc((c->n_nodes + 1) * sizeof(*next));
	for (size_t i = 0; i < c->n_nodes; i++)
		first_child[i] = next[i] = UINT32_MAX;
	for (size_t i = c->n_nodes; i-- > 0;) {
		uint32_t p = c->nodes[i].parent;
		if (p != UINT32_MAX)
			next[i] = first_child[p], first_child[p] = (uint32_t)i;
	}
	fputs("{\"nodes\":[", f);
	for (size_t i = 0; i < c->n_nodes; i++) {
		fprintf(f, "%s{\"id\":%zu,\"callFrame\":%s,\"hitCount\":%llu,\"children\":[",
			i ? "," : "", i + 1, c->nodes[i].call_frame,
			(unsigned long long)c->nodes[i].hits);
		for (uint32_t k = first_child[i]; k != UINT32_MAX; k = next[k])
			fprintf(f, "%s%u", k == first_child[i] ? "" : ",", k + 1);
		fputs("]}", f);
	}
	fprintf(f, "],\"startTime\":0,\"endTime\":%.0f,\"samples\":[", c->span);
	for (size_t i = 0; i < c->n_samples; i++)
		fprintf(f, "%s%u", i ? "," : "", c->samples[i] + 1);
	fputs("],\"timeDeltas\":[", f);
	for (size_t i = 0; i < c->n_samples; i++)
		fprintf(f, "%s%lld", i ? "," : "", (long long)c->deltas[i]);
	fputs("]}\n", f);
	fclose(f);
	free(first_child);
	free(next);
	return text;
}

/* The trace is copied under the lock and built outside it, so that the
 * thread taking batches waits only for the copy. */
static bool trace_model(struct cdp *c, struct model *m, char *err, size_t cap)
{
	pthread_mutex_lock(&c->lock);
	struct trace_stream *copy = trace_stream_copy(c->trace);
	pthread_mutex_unlock(&c->lock);
	struct load_error why;
	if (trace_stream_finish(copy, NULL, m, &why))
		return true;
	snprintf(err, cap, "%s: %s", c->name, why.message);
	return false;
}

bool cdp_session_model(struct cdp *c, struct model *m, char *err, size_t cap)
{
	if (!cdp_sample_count(c)) {
		snprintf(err, cap, "%s: no samples yet", c->name);
		return false;
	}
	if (c->streaming)
		return trace_model(c, m, err, cap);
	char *text = cdp_session_json(c);
	struct load_options opt = { .session = -1 };
	struct load_error why;
	bool ok = load_memory(text, strlen(text), c->name, &opt, m, &why);
	if (!ok)
		snprintf(err, cap, "%s: %s", c->name, why.message);
	free(text);
	return ok;
}

enum cdp_refresh cdp_refresh(struct cdp *c, struct model *shown, struct model *fresh,
			     char *err, size_t cap)
{
	if (!c->streaming)
		return cdp_session_model(c, fresh, err, cap) ? CDP_NEW_MODEL : CDP_NOTHING;
	if (!c->live)
		c->live = trace_live_new();
	pthread_mutex_lock(&c->lock);
	trace_live_update(c->live, c->trace);
	pthread_mutex_unlock(&c->lock);
	switch (trace_live_model(c->live, shown, fresh, err, cap)) {
	case TRACE_LIVE_VALUES:
		return CDP_NEW_VALUES;
	case TRACE_LIVE_MODEL:
		return CDP_NEW_MODEL;
	case TRACE_LIVE_NONE:
		break;
	}
	return CDP_NOTHING;
}

bool cdp_session_write(struct cdp *c, const char *path, char *err, size_t cap)
{
	if (!cdp_sample_count(c)) {
		snprintf(err, cap, "no samples yet: nothing written");
		return false;
	}
	if (c->streaming) {
		struct model m;
		if (!trace_model(c, &m, err, cap))
			return false;
		bool ok = export_model(&m, 0, EXPORT_CPUPROFILE, path, NULL, err, cap);
		model_free(&m);
		return ok;
	}
	char *text = cdp_session_json(c);
	FILE *f = fopen(path, "w");
	bool ok = f && fputs(text, f) >= 0;
	if (f && fclose(f))
		ok = false;
	if (!ok)
		snprintf(err, cap, "%s: cannot write", path);
	free(text);
	return ok;
}

void cdp_free(struct cdp *c)
{
	if (!c)
		return;
	ws_close(&c->ws);
	for (size_t i = 0; i < c->n_nodes; i++)
		free(c->nodes[i].call_frame);
	free(c->nodes);
	id_table_free(&c->node_index);
	free(c->samples);
	free(c->deltas);
	trace_stream_free(c->trace);
	trace_live_free(c->live);
	pthread_mutex_destroy(&c->lock);
	free(c);
}

/* A session that broke after samples came: they are the report, and
 * the break a warning on `log`. */
static bool keep_what_arrived(struct cdp *c, FILE *log, const char *why)
{
	size_t n = cdp_sample_count(c);
	if (!n)
		return false;
	if (log) { /* the name and the message are the peer's */
		fputs("wprof-tui: warning: ", log);
		escape_text_to(log, c->name);
		fputs(": ", log);
		escape_text_to(log, why);
		fprintf(log, "; the report has the %zu samples that arrived before\n", n);
	}
	return true;
}

/* Reads the trace stream for `seconds`; false with err when it broke
 * before anything came. */
static bool stream_for(struct cdp *c, double seconds, FILE *log, char *err, size_t cap)
{
	if (follow_trace(c, seconds, err, cap) && end_tracing(c, err, cap))
		return true;
	return keep_what_arrived(c, log, err);
}

/* Profiler windows for `seconds`; false with err when the target broke
 * before a window came. */
static bool windows_for(struct cdp *c, double seconds, FILE *log, char *err, size_t cap)
{
	for (double left = seconds; left > 0; left -= CDP_WINDOW_SECONDS) {
		bool ok = cdp_start(c, err, cap) &&
			  cdp_listen(c, left < CDP_WINDOW_SECONDS ? left : CDP_WINDOW_SECONDS,
				     err, cap);
		if (!ok || !cdp_stop(c, err, cap))
			return keep_what_arrived(c, log, err);
		if (cdp_program_ended(c)) {
			cdp_release(c);
			if (log) {
				fputs("wprof-tui: ", log);
				escape_text_to(log, c->name);
				fputs(": program ended\n", log);
			}
			break;
		}
	}
	return true;
}

bool cdp_profile_for(const struct cdp_options *o, double seconds, struct model *m,
		     char *who, size_t who_cap, FILE *log, char *err, size_t cap)
{
	struct cdp *c = cdp_attach(o, err, cap);
	if (!c)
		return false;
	snprintf(who, who_cap, "%s", c->name);
	double began = now_seconds();
	bool ok = cdp_begin(c, err, cap);
	if (ok && log) { /* the name and an error message are the peer's */
		fputs("wprof-tui: ", log);
		escape_text_to(log, c->name);
		fputs(": ", log);
		escape_text_to(log, c->mode);
		if (*c->why) {
			fputs(" because ", log);
			escape_text_to(log, c->why);
		}
		fputc('\n', log);
	}
	seconds -= now_seconds() - began;
	if (ok && c->streaming) {
		/* The session as a file of these events would open: built
		 * from the stream itself, without a copy. */
		struct load_error why;
		if (stream_for(c, seconds, log, err, cap)) {
			ok = trace_stream_finish(c->trace, NULL, m, &why);
			c->trace = NULL; /* used up */
			if (!ok)
				snprintf(err, cap, "%s: %s", c->name, why.message);
		} else {
			ok = false;
		}
		cdp_free(c);
		return ok;
	}
	ok = ok && windows_for(c, seconds, log, err, cap) && cdp_session_model(c, m, err, cap);
	cdp_free(c);
	return ok;
}
