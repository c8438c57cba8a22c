/* Node, Chrome, Deno, Electron over the Chrome DevTools protocol (the
 * inspector): a target picked from /json/list on the address the user
 * named, profiled in windows (Profiler.start … Profiler.stop, bridged by
 * console profiles) whose profiles are folded into one growing session
 * as they come (cdp_windows.h), or streamed over Tracing.
 *
 * Calls block, each with a deadline: the caller is --report's loop or a
 * thread of its own.  Only the host and port the user named are ever
 * dialed: a webSocketDebuggerUrl elsewhere is refused. */
#ifndef WPROF_LIVE_CDP_H
#define WPROF_LIVE_CDP_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#include "model/model.h"

#define CDP_DEFAULT_ADDRESS "127.0.0.1:9229"

struct cdp_options {
	const char *inspect;     /* [HOST:]PORT of the inspector, or NULL */
	const char *connect_url; /* ws://HOST:PORT/PATH given directly, or NULL */
	const char *target;      /* id or title; NULL: the first page or node */
	unsigned interval_us;    /* Profiler.setSamplingInterval; 0: the engine's */
	double wait_seconds;     /* --wait: for the inspector and its target */
	long pid;                /* --pid: the process whose inspector, or 0 */
};

struct cdp;

/* --pid: the inspector of that process ("127.0.0.1:PORT", one of its
 * loopback ports whose /json/list answers: node --inspect=0), waiting
 * up to `wait_seconds` for it (said once on stderr).  False with err. */
bool cdp_find_inspector(long pid, double wait_seconds, char *address, size_t address_cap,
			char *err, size_t cap);

/* Picks the target, opens its WebSocket and readies the profiler. */
struct cdp *cdp_attach(const struct cdp_options *o, char *err, size_t cap);
/* "TITLE (ws://…)" for messages. */
const char *cdp_target_name(const struct cdp *c);
/* The target's WebSocket URL. */
const char *cdp_target_url(const struct cdp *c);
/* e: the id of the target /json/list names after the one at `ws_url`
 * (the first after the last; any target with a WebSocket).  False with
 * err when there is no other, or no list (--connect ws://…). */
bool cdp_next_target(const struct cdp_options *o, const char *ws_url, char *id,
		     size_t id_cap, char *err, size_t cap);
/* How the samples are to come, asked once after attaching: Tracing.start
 * (V8's sampler as trace events); when the peer sends its events while
 * tracing runs (within CDP_PROBE_SECONDS), the session is those events,
 * read by the trace-event reader of files (loaders/trace.h) as they come.
 * When it knows no Tracing (Node: -32601) or sends its events only when
 * tracing ends (Chrome 156: the probe's are dropped), the session is
 * folded from Profiler windows (cdp_start/cdp_stop).  False only when the
 * connection failed. */
#define CDP_PROBE_SECONDS 1.0
bool cdp_begin(struct cdp *c, char *err, size_t cap);
bool cdp_streaming(const struct cdp *c);
/* "streaming samples over Tracing", "polling Profiler windows (tracing
 * not available)" or "(… not streamed)"; and for windows, why ("Tracing.start:
 * 'Tracing.start' wasn't found"; "" when streaming). */
const char *cdp_mode(const struct cdp *c);
const char *cdp_mode_why(const struct cdp *c);
/* Streaming: takes batches for up to `seconds` (on), or ends tracing
 * (off, its last batches kept); a new start after an end is a new run of
 * the profile (trace_stream_next_run). */
bool cdp_follow(struct cdp *c, bool on, double seconds, char *err, size_t cap);
/* Batches taken so far. */
unsigned long cdp_batches(struct cdp *c);
/* Windows (Profiler.start … stop): one starts unless one runs. */
bool cdp_start(struct cdp *c, char *err, size_t cap);
/* Reads what the peer sends for up to `seconds` (a window's time),
 * ending early when the program ends; false with err when the
 * connection failed. */
bool cdp_listen(struct cdp *c, double seconds, char *err, size_t cap);
/* Node said its program is over (NodeRuntime.waitingForDisconnect,
 * asked for on attaching): the session ends, and closing the
 * connection lets Node exit.  Any thread may ask. */
bool cdp_program_ended(const struct cdp *c);
/* Closes the connection (the target goes on, or exits if it waited for
 * that); the session stays to be read.  After the program's end, the
 * session's trailing (idle) samples (Node waiting for us) are dropped. */
void cdp_release(struct cdp *c);
/* The window under way ends and is folded into the session; with
 * `go_on` the next one runs, the moments between profiled by a console
 * profile where the target has one (cdp.c): no time is lost between
 * them.  Without a window under way it starts one (go_on) or does
 * nothing. */
bool cdp_next(struct cdp *c, bool go_on, char *err, size_t cap);
/* cdp_next without a next window. */
bool cdp_stop(struct cdp *c, char *err, size_t cap);
/* Ends the session, whatever it was waiting for: the window under way
 * is stopped and folded (Profiler.stop still answers once Node's
 * program is over, though no JavaScript runs), or tracing ends with its
 * last batches kept; then cdp_release.  False with err when the target
 * did not answer: the session keeps what came. */
bool cdp_finish(struct cdp *c, char *err, size_t cap);
/* Samples in the session so far. */
size_t cdp_sample_count(struct cdp *c);
/* The session as a finished model (cdp_windows.h, trace_live_session_model;
 * a stream's as its trace would load); these may be called from another
 * thread than the one taking windows or batches. */
bool cdp_session_model(struct cdp *c, struct model *m, char *err, size_t cap);
/* For a live view, from one thread: the session's model as `shown` (the
 * model this gave last, or NULL) shows it: new numbers in `shown` in
 * place while no stack is new (a cost of the samples that are new,
 * trace_live), else a new model in `fresh`; with the newest samples
 * (trace.h, trace_live_model). */
enum cdp_refresh { CDP_NOTHING, CDP_NEW_VALUES, CDP_NEW_MODEL };
enum cdp_refresh cdp_refresh(struct cdp *c, struct model *shown, struct model *fresh,
			     char *err, size_t cap);
bool cdp_session_write(struct cdp *c, const char *path, char *err, size_t cap);
void cdp_free(struct cdp *c);

/* A session with no connection, and one window's Profiler.Profile (the
 * JSON of Profiler.stop's result.profile) folded into it (cdp_windows.h):
 * how tests and the fuzzer reach the folding without a peer. */
struct cdp *cdp_new_session(void);
bool cdp_fold_json(struct cdp *c, const char *json, size_t len, char *err, size_t cap);

/* Profiler windows of at most CDP_WINDOW_SECONDS, folded one after the
 * other: short windows keep each Profiler.stop answer small and the
 * session current. */
#define CDP_WINDOW_SECONDS 1.0
/* For --report: attaches, profiles for `seconds` and leaves *m the
 * session's model; `who` names the target, and `log` (NULL: nowhere) is
 * told how the samples come (cdp_mode).  */
bool cdp_profile_for(const struct cdp_options *o, double seconds, struct model *m,
		     char *who, size_t who_cap, FILE *log, char *err, size_t cap);

#endif
