/* Live mode: XS engines (and other programs speaking the xsbug protocol,
 * or WasmProf arc lines) stream their profiles to wprof-tui over TCP
 * while they run.
 *
 * The sockets are served either by a thread of their own (live_serve:
 * the explorer, whose keys and refreshes then never wait on the network
 * nor hold up the reading), or by the caller's poll() loop
 * (live_wait_profile for --report, tests): live_poll_fds says what to
 * watch, live_handle reads what is ready.  The engine functions below may
 * be called from another thread than the server's; they take its lock,
 * which the server lets go between two chunks of at most 64 KiB.
 *
 * Each peer has its own stream parser, so memory per peer is
 * bounded by the parser's limits plus its distinct stacks; a peer that
 * breaks a limit is dropped with a message, the others go on.  An engine
 * that logs in is answered at once so that it runs, with profiling on. */
#ifndef WPROF_LIVE_XS_H
#define WPROF_LIVE_XS_H

#include <poll.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#include "model/model.h"
#include "source.h"
#include "loaders/xsbug.h"

#define LIVE_DEFAULT_ADDRESS "127.0.0.1:5002"
#define LIVE_MAX_PEERS 128

struct live;

/* Status lines ("engine 127.0.0.1:40112: disconnected …", the engine's
 * stops at a break and its log lines) go to `log` (NULL: nowhere; the
 * TUI shows them itself via live_engine_status and the log calls). */
struct live *live_new(FILE *log);
/* Ends live mode.  Commands still queued (a <go/> that releases an
 * engine at a break) are written first; an xsbug engine whose socket
 * closes while it runs then dies of SIGPIPE at its next write (xst
 * ignores SIGPIPE only while it connects), so ask before. */
void live_free(struct live *l);
/* For --report, after the profile it reports: takes no new engine and
 * serves the engines still connected, the one reported included
 * (releasing them at breaks), until they leave, so that none is killed by
 * the socket closing under it. */
void live_finish(struct live *l);

/* "[HOST:]PORT" ("[::1]:PORT" for IPv6).  A bare port listens on the
 * loopback address only.  False with a message in err. */
bool live_listen(struct live *l, const char *address, char *err, size_t cap);
/* The port actually bound (useful after port 0). */
int live_listen_port(const struct live *l);
/* Dials a program that serves its stream instead of dialing out. */
bool live_connect(struct live *l, const char *address, char *err, size_t cap);

/* Serves the sockets on a thread of its own until live_free; after
 * live_listen or live_connect.  False with a message in err. */
bool live_serve(struct live *l, char *err, size_t cap);

/* Without live_serve: the descriptors to poll (at most LIVE_MAX_PEERS +
 * 1), and reading, accepting and writing whatever poll() said is ready;
 * never blocks. */
size_t live_poll_fds(struct live *l, struct pollfd *fds, size_t cap);
void live_handle(struct live *l, const struct pollfd *fds, size_t n);

/* Engines are peers that logged in (arc streams: that sent `print`), in
 * the order they did. */
size_t live_engine_count(struct live *l);
const char *live_engine_name(struct live *l, size_t i); /* login + peer */
bool live_engine_connected(struct live *l, size_t i);
/* The last thing worth telling about the engine ("" when none). */
void live_engine_status(struct live *l, size_t i, char *out, size_t cap);
/* An arc stream, which cannot be told to profile? */
bool live_engine_sends_arcs(struct live *l, size_t i);
/* Is an xsbug engine's profile running (started, not stopped)? */
bool live_engine_profiling(struct live *l, size_t i);
/* Engines still connected. */
size_t live_engines_connected(struct live *l);

/* Profiling asked of the engine (p) that it has not yet confirmed with
 * its `start` or `stop` time: a running xst reads its socket only at a
 * break or when its program ends; simulators and devices at once. */
enum live_request { LIVE_REQUEST_NONE, LIVE_REQUEST_START, LIVE_REQUEST_STOP };
enum live_request live_engine_request(struct live *l, size_t i);

/* Breaks (a `debugger` statement, a breakpoint) are answered <go/> at
 * once: wprof-tui is not a debugger and sets no breakpoint nor the stop
 * on exceptions.  True, with where ("FILE:LINE"), from the break until
 * the engine sends anything else or leaves. */
bool live_engine_suspended_at(struct live *l, size_t i, char *where, size_t cap);
/* Breaks so far, and the last one ("FILE:LINE (Break: debugger!)"). */
uint64_t live_engine_breaks(struct live *l, size_t i, char *last, size_t cap);

/* `<log>` lines (the program's trace() output, the engine's warnings and
 * uncaught exceptions), numbered from 0; the last LIVE_LOG_LINES are
 * kept.  Each comes with its arrival time (seconds since the epoch) and
 * its place when the engine names one ("FILE:LINE: text").  False when
 * line n is not kept. */
struct live_log_line {
	double when;
	char *text;
};
uint64_t live_engine_log_count(struct live *l, size_t i);
bool live_engine_log_line(struct live *l, size_t i, uint64_t n, double *when,
			  char *text, size_t cap);

/* An xsbug engine that logged in 2 s ago or more (or left) and started no
 * profile: built with the file profiler (mxProfile), which streams
 * nothing. */
bool live_engine_streams_nothing(struct live *l, size_t i);

/* Has anything that changes the model arrived since the last call? */
bool live_engine_take_news(struct live *l, size_t i);
/* The engine's last session with samples (none before its first
 * sample: LIVE_NO_PROFILE) with its newest samples (the window,
 * bounded_timeline.h), as `f` (the caller's, for this engine only)
 * follows it: only new numbers
 * for `shown`, the model it made last, when no new stack or function came
 * (see xsbug_follower_model), so that a refresh costs little however
 * long the session has run.  An arc stream: a new model of its table as
 * of its last `print`. */
enum live_refresh live_engine_refresh(struct live *l, size_t i,
				      struct xsbug_follower *f,
				      struct model *shown, struct model *fresh);

/* Commands to the engine; false when it is gone. */
bool live_engine_start_profiling(struct live *l, size_t i);
bool live_engine_stop_profiling(struct live *l, size_t i);

/* Writes the session live_engine_refresh follows as BASE.xsbug and
 * BASE.cpuprofile (an arc stream: BASE.cpuprofile only).  False with a
 * message in err, also when it has no samples yet. */
bool live_engine_write(struct live *l, size_t i, const char *base,
		       char *err, size_t cap);

/* For --report without a terminal: waits for the first engine that logs
 * in and profiles until it stops profiling or disconnects; then *m is
 * the model of its last session with samples and `who` names the engine.  Peers that
 * never log in or send garbage do not count.  False (with err) when the
 * engine left without any profile.  It serves the sockets itself: not
 * after live_serve. */
bool live_wait_profile(struct live *l, struct model *m, char *who,
		       size_t who_cap, char *err, size_t cap);

#endif
