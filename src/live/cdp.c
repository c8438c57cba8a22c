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
#include "output/export.h"
#include "base/util.h"
#include "cdp_windows.h"
#include "ws.h"

#define DIAL_TIMEOUT_MS 5000
/* --wait: how often /json/list is asked again. */
#define WAIT_RETRY_SECONDS 0.25
/* Profiler.stop of a long window on a busy machine can take seconds. */
#define ANSWER_TIMEOUT_MS 15000
/* A streamed session's distinct stacks and samples: past these it
 * stops growing (a day at 1 ms is 86 M samples). */
#define MAX_NODES CDP_MAX_NODES
#define MAX_SAMPLES (256u << 20)

struct cdp {
	/* The session (nodes, samples) is folded by whoever calls cdp_stop
	 * and read by whoever takes a snapshot: under this lock. */
	pthread_mutex_t lock;
	struct ws ws;
	int next_id;
	bool released; /* Runtime.runIfWaitingForDebugger sent */
	char name[600];
	char url[1100]; /* the target's WebSocket */
	struct cdp_windows *windows; /* the session, from Profiler windows */
	/* When the peer streams trace events (Tracing.dataCollected while
	 * tracing runs) they are the session, in place of the windows. */
	struct trace_stream *trace;
	bool streaming; /* the session is `trace` */
	bool tracing;   /* Tracing.start answered, tracingComplete not yet */
	/* Windows: Profiler.start/stop, bridged by console profiles where
	 * the console starts them (see cdp_next); the last bridge's number,
	 * the one being started and ended (0: none). */
	enum { CONSOLE_UNKNOWN, CONSOLE_YES, CONSOLE_NO } console_profiles;
	unsigned console_n, console_starting, console_ending;
	bool console_started;
	bool running; /* a window is being profiled */
	bool broken;    /* the connection failed: nothing more to ask */
	/* NodeRuntime.waitingForDisconnect came: the program's script is
	 * over and Node waits for us to let it go. */
	_Atomic bool program_ended;
	unsigned long batches; /* dataCollected messages taken */
	struct trace_live *live; /* the streamed session, folded as batches come */
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
	/* Folded as it comes, the stream keeping what is new only. */
	trace_live_update(c->live, c->trace);
	trace_live_drop_taken(c->live, c->trace);
	pthread_mutex_unlock(&c->lock);
	if (!ok)
		snprintf(err, cap, "Tracing.dataCollected: %.240s", why.message);
	return ok ? 1 : -1;
}

/* One window's profile into the session; the program's end, when it
 * came, is the session's. */
static bool fold_window(struct cdp *c, const cJSON *profile, char *err, size_t cap)
{
	pthread_mutex_lock(&c->lock);
	bool ok = cdp_windows_fold(c->windows, profile, cdp_program_ended(c), err, cap);
	pthread_mutex_unlock(&c->lock);
	return ok;
}

/* "wprof-tui N", the title of the console's n-th profile. */
static void console_title(unsigned n, char *out, size_t cap)
{
	snprintf(out, cap, "wprof-tui %u", n);
}

/* Is this event's title the console profile number `n`? */
static bool console_titled(const cJSON *params, unsigned n)
{
	char title[40];
	console_title(n, title, sizeof(title));
	const char *said = cJSON_GetStringValue(cJSON_GetObjectItem(params, "title"));
	return n && said && !strcmp(said, title);
}

/* The console profiles we started and ended (the program's own, by
 * other titles, are not ours). */
static void note_console_profile(struct cdp *c, const char *method, const cJSON *params)
{
	if (!strcmp(method, "Profiler.consoleProfileStarted") &&
	    console_titled(params, c->console_starting))
		c->console_started = true;
	/* A bridge that does not fold leaves a gap, as one not ended. */
	char ignored[300];
	if (!strcmp(method, "Profiler.consoleProfileFinished") &&
	    console_titled(params, c->console_ending)) {
		c->console_ending = 0;
		fold_window(c, cJSON_GetObjectItem(params, "profile"), ignored, sizeof(ignored));
	}
}

/* Events other than data: the end of tracing, console profiles, the
 * program's end. */
static void note_event(struct cdp *c, const cJSON *root)
{
	const char *method = cJSON_GetStringValue(cJSON_GetObjectItem(root, "method"));
	if (method)
		note_console_profile(c, method, cJSON_GetObjectItem(root, "params"));
	if (method && (!strcmp(method, "Tracing.tracingComplete") ||
		       !strcmp(method, "NodeTracing.tracingComplete")))
		c->tracing = false;
	if (method && !strcmp(method, "NodeRuntime.waitingForDisconnect"))
		atomic_store(&c->program_ended, true);
	if (method && !strcmp(method, "NodeRuntime.waitingForDebugger")) {
		pthread_mutex_lock(&c->lock);
		cdp_windows_target_waited(c->windows);
		pthread_mutex_unlock(&c->lock);
	}
}

/* Sends a command: its id, 0 with err when the connection failed. */
static int send_command(struct cdp *c, const char *method, const char *params, char *err,
			size_t cap)
{
	char text[512];
	int id = ++c->next_id;
	int n = snprintf(text, sizeof(text), "{\"id\":%d,\"method\":\"%s\",\"params\":%s}",
			 id, method, params ? params : "{}");
	char why[300];
	if (!ws_send_text(&c->ws, text, (size_t)n, why, sizeof(why))) {
		snprintf(err, cap, "%s: %s", method, why);
		c->broken = true;
		return 0;
	}
	return id;
}

/* Waits for the answer to command `id` (answers come in the order the
 * commands went; trace batches meanwhile are kept, events noted); the
 * answer's "result", which the caller frees with *root. */
static const cJSON *await_result(struct cdp *c, int id, const char *method, cJSON **root,
				 char *err, size_t cap)
{
	char why[300];
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

/* Sends a command and waits for its answer. */
static const cJSON *call(struct cdp *c, const char *method, const char *params,
			 cJSON **root, char *err, size_t cap)
{
	int id = send_command(c, method, params, err, cap);
	return id ? await_result(c, id, method, root, err, cap) : NULL;
}

/* await_result for an answer whose result does not matter. */
static bool await_answer(struct cdp *c, int id, const char *method, char *err, size_t cap)
{
	cJSON *root;
	if (!await_result(c, id, method, &root, err, cap))
		return false;
	cJSON_Delete(root);
	return true;
}

static bool command(struct cdp *c, const char *method, const char *params,
		    char *err, size_t cap)
{
	int id = send_command(c, method, params, err, cap);
	return id && await_answer(c, id, method, err, cap);
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

void cdp_release(struct cdp *c)
{
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
	c->windows = cdp_windows_new();
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
	bool ok = fold_window(c, profile, err, cap);
	cJSON_Delete(profile);
	return ok;
}

const char *cdp_target_name(const struct cdp *c)
{
	return c->name;
}

/* ---- Profiler windows, bridged without a gap -------------------------
 *
 * Profiler.start does nothing while the profile it started runs, so the
 * next window cannot begin before Profiler.stop has ended the last: the
 * round trip between them (35-38 ms a window with Node 20, up to 194 ms
 * with Chromium) would not be profiled.  Profiles started by the
 * console (console.profile(TITLE)) run beside it, V8 recording each tick
 * in every profile running, and console.profileEnd(TITLE) sends the
 * profile in Profiler.consoleProfileFinished.  So each window ends with
 * a bridge: a console profile started before Profiler.stop and ended
 * after the next Profiler.start, covering the moments between; the fold
 * keeps each sample once by its time (measured with Node 20.20 and
 * Chromium 156: the samples of the three follow each other one interval
 * apart).  The windows themselves stay Profiler.start/stop because a
 * Node program that has ended runs no JavaScript ("illegal access"), so
 * only Profiler.stop can still end its last window.  An engine where the
 * console starts no profile gets windows with their gaps. */

/* The evaluated code names itself: its own moment in the profile reads
 * "(anonymous) wprof-tui". */
#define CONSOLE_SOURCE "\\n//# sourceURL=" CDP_BRIDGE_URL

/* Sends Runtime.evaluate of a console call on the profile numbered `n`
 * ("profile" or "profileEnd"): its id, 0 when the connection failed. */
static int send_console(struct cdp *c, const char *call_name, unsigned n, char *err,
			size_t cap)
{
	char title[40], params[300];
	console_title(n, title, sizeof(title));
	snprintf(params, sizeof(params), "{\"expression\":\"console.%s('%s')" CONSOLE_SOURCE
		 "\",\"silent\":true}", call_name, title);
	return send_command(c, "Runtime.evaluate", params, err, cap);
}

/* A program started with --inspect-brk waits for this, with the
 * profiler now on from its first line; others answer and run on.  An
 * engine without the method answers an error: ignored. */
static void release_once(struct cdp *c)
{
	if (c->released)
		return;
	char ignored[300];
	c->released = true;
	cJSON *root;
	if (call(c, "Runtime.runIfWaitingForDebugger", NULL, &root, ignored, sizeof(ignored)))
		cJSON_Delete(root);
}

bool cdp_start(struct cdp *c, char *err, size_t cap)
{
	if (c->running)
		return true;
	if (!command(c, "Profiler.start", NULL, err, cap))
		return false;
	c->running = true;
	release_once(c);
	return true;
}

/* The answer to Profiler.stop: the window's profile, folded. */
static bool await_window(struct cdp *c, int id, char *err, size_t cap)
{
	cJSON *root;
	const cJSON *result = await_result(c, id, "Profiler.stop", &root, err, cap);
	if (!result)
		return false;
	char why[300];
	bool ok = fold_window(c, cJSON_GetObjectItem(result, "profile"), why, sizeof(why));
	if (!ok)
		snprintf(err, cap, "Profiler.stop: %s", why);
	cJSON_Delete(root);
	return ok;
}

/* The commands of a window's end go together, without waiting for the
 * answers in between: the bridge's start, Profiler.stop, the next
 * Profiler.start, the bridge's end.  The target then runs them one after
 * the other, so that even where the bridge is lost (the program ended
 * before its end: JavaScript no longer runs) only the moment between
 * stop and start is. */
struct window_end {
	int bridge_start, stop, start, bridge_end; /* ids, 0: not sent */
};

static bool send_window_end(struct cdp *c, bool go_on, struct window_end *e, char *err,
			    size_t cap)
{
	unsigned bridge = go_on && c->console_profiles != CONSOLE_NO ? ++c->console_n : 0;
	*e = (struct window_end){ 0 };
	c->console_starting = c->console_ending = bridge;
	c->console_started = false;
	return (!bridge || (e->bridge_start = send_console(c, "profile", bridge, err, cap))) &&
	       (e->stop = send_command(c, "Profiler.stop", NULL, err, cap)) &&
	       (!go_on || (e->start = send_command(c, "Profiler.start", NULL, err, cap))) &&
	       (!bridge || (e->bridge_end = send_console(c, "profileEnd", bridge, err, cap)));
}

bool cdp_next(struct cdp *c, bool go_on, char *err, size_t cap)
{
	if (!c->running)
		return !go_on || cdp_start(c, err, cap);
	struct window_end e;
	bool ok = send_window_end(c, go_on, &e, err, cap);
	/* The bridge's start and end answer as the engine can (an error
	 * where JavaScript no longer runs); its profile comes as an event,
	 * and an engine whose console starts none gets no more bridges. */
	if (ok && e.bridge_start)
		ok = await_answer(c, e.bridge_start, "Runtime.evaluate", err, cap) || !c->broken;
	if (e.bridge_start && c->console_profiles == CONSOLE_UNKNOWN)
		c->console_profiles = c->console_started ? CONSOLE_YES : CONSOLE_NO;
	c->running = false;
	ok = ok && await_window(c, e.stop, err, cap);
	if (ok && e.start)
		c->running = ok = await_answer(c, e.start, "Profiler.start", err, cap);
	if (ok && e.bridge_end)
		ok = await_answer(c, e.bridge_end, "Runtime.evaluate", err, cap) || !c->broken;
	c->console_starting = c->console_ending = 0;
	return ok;
}

bool cdp_stop(struct cdp *c, char *err, size_t cap)
{
	return cdp_next(c, false, err, cap);
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
	c->live = trace_live_new();
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
	trace_live_free(c->live);
	c->live = NULL;
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

bool cdp_finish(struct cdp *c, char *err, size_t cap)
{
	bool ok = c->streaming ? cdp_follow(c, false, 0, err, cap) : cdp_stop(c, err, cap);
	cdp_release(c);
	return ok;
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
	size_t n = c->streaming ? trace_stream_samples(c->trace) : cdp_windows_samples(c->windows);
	pthread_mutex_unlock(&c->lock);
	return n;
}

bool cdp_session_model(struct cdp *c, struct model *m, char *err, size_t cap)
{
	if (!cdp_sample_count(c)) {
		snprintf(err, cap, "%s: no samples yet", c->name);
		return false;
	}
	char why[300];
	pthread_mutex_lock(&c->lock);
	struct trace_live *fold = c->streaming ? c->live : cdp_windows_fold_of(c->windows);
	bool ok = trace_live_session_model(fold, m, why, sizeof(why));
	pthread_mutex_unlock(&c->lock);
	if (!ok)
		snprintf(err, cap, "%s: %s", c->name, why);
	return ok;
}

/* The live view's model of the session: new values in `shown` while no
 * stack is new.  The fold is the network thread's too (the windows', or
 * the batches'): under the lock. */
enum cdp_refresh cdp_refresh(struct cdp *c, struct model *shown, struct model *fresh,
			     char *err, size_t cap)
{
	pthread_mutex_lock(&c->lock);
	struct trace_live *fold = c->streaming ? c->live : cdp_windows_fold_of(c->windows);
	enum trace_live_change r = trace_live_model(fold, shown, fresh, err, cap);
	pthread_mutex_unlock(&c->lock);
	switch (r) {
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
	struct model m;
	if (!cdp_session_model(c, &m, err, cap))
		return false;
	/* Its second type, the sample counts, is what the file's samples
	 * say anyway: the note that only the first is written says nothing. */
	FILE *notes = fopen("/dev/null", "w");
	bool ok = notes && export_model(&m, 0, EXPORT_CPUPROFILE, path, notes, err, cap);
	if (!notes)
		snprintf(err, cap, "no /dev/null");
	else
		fclose(notes);
	model_free(&m);
	return ok;
}

void cdp_free(struct cdp *c)
{
	if (!c)
		return;
	ws_close(&c->ws);
	cdp_windows_free(c->windows);
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

/* How long the session still has to run.  Console profiles follow
 * each other without a gap, so the session holds the target's time: it
 * runs until that is `seconds` (the fold cuts it there), or, should the
 * target's clock not keep ours, until two windows past.  Windows with
 * gaps run for `seconds` of ours. */
static double time_left(struct cdp *c, double seconds, double began)
{
	double ours = now_seconds() - began;
	if (c->console_profiles != CONSOLE_YES)
		return seconds - ours;
	if (ours > seconds + 2 * CDP_WINDOW_SECONDS)
		return 0;
	pthread_mutex_lock(&c->lock);
	double theirs = cdp_windows_span(c->windows) / 1e6;
	bool full = cdp_windows_full(c->windows);
	pthread_mutex_unlock(&c->lock);
	return full ? 0 : seconds - theirs;
}

/* Profiler windows for `seconds`; false with err when the target broke
 * before a window came. */
static bool windows_for(struct cdp *c, double seconds, FILE *log, char *err, size_t cap)
{
	pthread_mutex_lock(&c->lock);
	cdp_windows_set_length(c->windows, seconds * 1e6);
	pthread_mutex_unlock(&c->lock);
	double began = now_seconds(), left;
	bool ok = cdp_start(c, err, cap);
	while (ok && (left = time_left(c, seconds, began)) > 0) {
		ok = cdp_listen(c, left < CDP_WINDOW_SECONDS ? left : CDP_WINDOW_SECONDS, err,
				cap);
		if (!ok || cdp_program_ended(c) || time_left(c, seconds, began) <= 0)
			break;
		ok = cdp_next(c, true, err, cap);
	}
	if (!ok || !cdp_stop(c, err, cap))
		return keep_what_arrived(c, log, err);
	if (cdp_program_ended(c)) {
		cdp_release(c);
		if (log) {
			fputs("wprof-tui: ", log);
			escape_text_to(log, c->name);
			fputs(": program ended\n", log);
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
	if (ok && c->streaming) {
		/* The probe's batches are the session's first. */
		seconds -= now_seconds() - began;
		ok = stream_for(c, seconds, log, err, cap) && cdp_session_model(c, m, err, cap);
		cdp_free(c);
		return ok;
	}
	/* The probe's events are dropped: the windows give all `seconds`. */
	ok = ok && windows_for(c, seconds, log, err, cap) && cdp_session_model(c, m, err, cap);
	cdp_free(c);
	return ok;
}
