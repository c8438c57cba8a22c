/* Live mode: XS engines (and other programs speaking the xsbug protocol,
 * or WasmProf arc lines) stream their profiles to wprof-tui over TCP
 * while they run.
 *
 * The sockets are served either by a thread of their own (xs_serve:
 * the explorer, whose keys and refreshes then never wait on the network
 * nor hold up the reading), or by the caller's poll() loop
 * (xs_wait_profile for --report, tests): xs_poll_fds says what to
 * watch, xs_handle reads what is ready.  The engine functions below may
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

#define XS_DEFAULT_ADDRESS "127.0.0.1:5002"
#define XS_MAX_PEERS 128

struct xs;

/* Status lines ("engine 127.0.0.1:40112: disconnected …", the engine's
 * stops at a break and its log lines) go to `log` (NULL: nowhere; the
 * TUI shows them itself via xs_engine_status and the log calls). */
struct xs *xs_new(FILE *log);
/* Ends live mode.  Commands still queued (a <go/> that releases an
 * engine at a break) are written first, then every socket is closed by
 * a reset, which makes an xst detach and run on to its end, whether it
 * sits at a break or runs (a normal close would leave it spinning at a
 * break, or kill it by SIGPIPE at its next write: xs.c, peer_close). */
void xs_free(struct xs *l);
/* For --report, after the profile it reports: takes no new engine and
 * serves the engines still connected, the one reported included
 * (releasing them at breaks), until they leave, so that none is killed by
 * the socket closing under it. */
void xs_finish(struct xs *l);

/* "[HOST:]PORT" (address.h; "[::1]:PORT" for IPv6, port 0 for any
 * free one).  A bare port listens on the loopback address only.  False
 * with a message in err. */
bool xs_listen(struct xs *l, const char *address, char *err, size_t cap);
/* The port actually bound (useful after port 0). */
int xs_listen_port(const struct xs *l);
/* Dials a program that serves its stream instead of dialing out. */
bool xs_connect(struct xs *l, const char *address, char *err, size_t cap);

/* Serves the sockets on a thread of its own until xs_free; after
 * xs_listen or xs_connect.  False with a message in err. */
bool xs_serve(struct xs *l, char *err, size_t cap);

/* Without xs_serve: the descriptors to poll (at most XS_MAX_PEERS +
 * 1), and reading, accepting and writing whatever poll() said is ready;
 * never blocks. */
size_t xs_poll_fds(struct xs *l, struct pollfd *fds, size_t cap);
void xs_handle(struct xs *l, const struct pollfd *fds, size_t n);

/* Engines are peers that logged in (arc streams: that sent `print`), in
 * the order they did. */
size_t xs_engine_count(struct xs *l);
const char *xs_engine_name(struct xs *l, size_t i); /* login + peer */
bool xs_engine_connected(struct xs *l, size_t i);
/* The last thing worth telling about the engine ("" when none). */
void xs_engine_status(struct xs *l, size_t i, char *out, size_t cap);
/* An arc stream, which cannot be told to profile? */
bool xs_engine_sends_arcs(struct xs *l, size_t i);
/* Is an xsbug engine's profile running (started, not stopped)? */
bool xs_engine_profiling(struct xs *l, size_t i);
/* Engines still connected. */
size_t xs_engines_connected(struct xs *l);

/* Profiling asked of the engine (p) that it has not yet confirmed with
 * its `start` or `stop` time: a running xst reads its socket only at a
 * break or when its program ends; simulators and devices at once. */
enum xs_request { XS_REQUEST_NONE, XS_REQUEST_START, XS_REQUEST_STOP };
enum xs_request xs_engine_request(struct xs *l, size_t i);

/* Breaks (a `debugger` statement, a breakpoint) are answered <go/> at
 * once: wprof-tui is not a debugger and sets no breakpoint nor the stop
 * on exceptions.  True, with where ("FILE:LINE"), from the break until
 * the engine sends anything else (a profiling engine: its `resume` time)
 * or leaves; for an engine that does not profile, which sends nothing
 * as it resumes, until the <go/> has been written. */
bool xs_engine_suspended_at(struct xs *l, size_t i, char *where, size_t cap);
/* Breaks so far, and the last one ("FILE:LINE (Break: debugger!)"). */
uint64_t xs_engine_breaks(struct xs *l, size_t i, char *last, size_t cap);

/* `<log>` lines (the program's trace() output, the engine's warnings and
 * uncaught exceptions), numbered from 0; the last LIVE_LOG_LINES are
 * kept.  Each comes with its arrival time (seconds since the epoch) and
 * its place when the engine names one ("FILE:LINE: text").  False when
 * line n is not kept. */
uint64_t xs_engine_log_count(struct xs *l, size_t i);
bool xs_engine_log_line(struct xs *l, size_t i, uint64_t n, double *when,
			char *text, size_t cap);

/* An xsbug engine that logged in 2 s ago or more (or left) and started no
 * profile: built with the file profiler (mxProfile), which streams
 * nothing. */
bool xs_engine_streams_nothing(struct xs *l, size_t i);

/* Has anything that changes the model arrived since the last call? */
bool xs_engine_take_news(struct xs *l, size_t i);
/* The engine's last session with samples (none before its first
 * sample: LIVE_NO_PROFILE) with its newest samples (the window,
 * bounded_timeline.h), as `f` (the caller's, for this engine only)
 * follows it: only new numbers
 * for `shown`, the model it made last, when no new stack or function came
 * (see xsbug_follower_model), so that a refresh costs little however
 * long the session has run.  An arc stream: a new model of its table as
 * of its last `print`. */
enum live_refresh xs_engine_refresh(struct xs *l, size_t i,
				    struct xsbug_follower *f,
				    struct model *shown, struct model *fresh);

/* µs the shown session's samples miss because the engine's clock
 * skipped (a profile started at a break); 0 when none (xsbug.h). */
double xs_engine_clock_skip(struct xs *l, size_t i);

/* Commands to the engine; false when it is gone. */
bool xs_engine_start_profiling(struct xs *l, size_t i);
bool xs_engine_stop_profiling(struct xs *l, size_t i);

/* Writes the session xs_engine_refresh follows as BASE.xsbug and
 * BASE.cpuprofile (an arc stream: BASE.cpuprofile only).  False with a
 * message in err, also when it has no samples yet. */
bool xs_engine_write(struct xs *l, size_t i, const char *base,
		     char *err, size_t cap);

/* For --report without a terminal: waits for the first engine that logs
 * in and profiles until it stops profiling or disconnects; then *m is
 * the model of its last session with samples and `who` names the engine.  Peers that
 * never log in or send garbage do not count.  False (with err) when the
 * engine left without any profile.  It serves the sockets itself: not
 * after xs_serve. */
bool xs_wait_profile(struct xs *l, struct model *m, char *who,
		     size_t who_cap, char *err, size_t cap);

#endif
