/* XS engines and WasmProf arc streams (xs.h) as a live source: which
 * engine is shown, its follower (only new numbers while no stack is new),
 * and the news worth a line on the status line (breaks, log lines, an
 * engine that streams nothing, one that left). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/escape.h"
#include "base/util.h"
#include "source.h"
#include "xs.h"

/* Breaks, log lines and an engine that streams nothing are said on the
 * status line as they come; the news of a break stays for a while,
 * however fast the logs come. */
#define BREAK_NEWS_MS 3000.0

struct xs_source {
	struct live_source base;
	struct xs *live;
	char address[256];   /* as given on the command line */
	size_t shown;        /* the engine chosen */
	size_t data_engine;  /* the engine whose snapshot was given last */
	bool given;          /* a snapshot was given */
	bool was_connected;
	size_t engines_seen; /* engines that had logged in at the last look */
	struct xsbug_follower *follower; /* of the shown engine */
	uint64_t seen_breaks, seen_logs; /* of the shown engine, told so far */
	bool told_streams_nothing;
	double break_news_until; /* ms: log lines wait to be said till then */
};

static struct xs_source *xs_of(struct live_source *s)
{
	return (struct xs_source *)s;
}

static bool xs_source_start(struct live_source *s, char *err, size_t cap)
{
	return xs_serve(xs_of(s)->live, err, cap);
}

static bool xs_source_collect(struct live_source *s, struct model *m, char *who,
			      size_t who_cap, char *err, size_t cap)
{
	return xs_wait_profile(xs_of(s)->live, m, who, who_cap, err, cap);
}

static void xs_source_finish(struct live_source *s)
{
	xs_finish(xs_of(s)->live);
}

static void xs_source_free(struct live_source *s)
{
	struct xs_source *x = xs_of(s);
	xs_free(x->live);
	xsbug_follower_free(x->follower);
	free(x);
}

static const char *engine_name(struct xs_source *x, char *buf, size_t cap)
{
	escape_text(xs_engine_name(x->live, x->shown), buf, cap);
	return buf;
}

/* What the engine does now: "profiling", "stop requested" (still
 * profiling), "suspended at FILE:LINE"… */
static void engine_state(struct xs_source *x, char *out, size_t cap)
{
	char where[300];
	enum xs_request request = xs_engine_request(x->live, x->shown);
	if (!xs_engine_connected(x->live, x->shown))
		snprintf(out, cap, "disconnected");
	else if (xs_engine_suspended_at(x->live, x->shown, where, sizeof(where)))
		snprintf(out, cap, "suspended at %s", where);
	else if (xs_engine_streams_nothing(x->live, x->shown))
		snprintf(out, cap, "sends no profile (an mxProfile build?)");
	else if (request != XS_REQUEST_NONE)
		snprintf(out, cap, "%s requested",
			 request == XS_REQUEST_STOP ? "stop" : "start");
	else
		snprintf(out, cap, "%s",
			 xs_engine_sends_arcs(x->live, x->shown) ||
				 xs_engine_profiling(x->live, x->shown)
				 ? "profiling" : "not profiling");
}

/* Before the first engine logs in, the title and the screen say where
 * one is awaited (after `before`): false then. */
static bool engine_logged_in(struct xs_source *x, const char *before,
			     char *out, size_t cap)
{
	if (xs_engine_count(x->live))
		return true;
	snprintf(out, cap, "%swaiting for an engine on %s", before, x->address);
	return false;
}

static void xs_source_title(struct live_source *s, char *out, size_t cap)
{
	struct xs_source *x = xs_of(s);
	if (!engine_logged_in(x, "live: ", out, cap))
		return;
	char state[400];
	engine_state(x, state, sizeof(state));
	size_t count = xs_engine_count(x->live);
	char which[32] = "", skip[64] = "";
	if (count > 1)
		snprintf(which, sizeof(which), " (%zu of %zu)", x->shown + 1, count);
	/* The session lasts its samples then, not its start to stop. */
	double skipped = xs_engine_clock_skip(x->live, x->shown);
	if (skipped > 0)
		snprintf(skip, sizeof(skip), ", clock skipped %.2f s at a break",
			 skipped / 1e6);
	snprintf(out, cap, "live: %s%s, %s%s%s", xs_engine_name(x->live, x->shown),
		 which, state, skip, x->given && x->data_engine != x->shown
			 ? ", no profile yet (the numbers are another engine's)" : "");
}

static void xs_source_waiting(struct live_source *s, double waited, char *out, size_t cap)
{
	struct xs_source *x = xs_of(s);
	(void)waited; /* an engine comes when it comes: nothing to count to */
	if (!engine_logged_in(x, "", out, cap))
		return;
	char name[256], state[400];
	engine_state(x, state, sizeof(state));
	snprintf(out, cap, "%s logged in (%s); waiting for its first samples",
		 engine_name(x, name, sizeof(name)), state);
}

static bool notice_news(struct xs_source *x, double now_ms, struct live_events *ev)
{
	char name[256], raw[1200];
	engine_name(x, name, sizeof(name));
	uint64_t breaks = xs_engine_breaks(x->live, x->shown, raw, sizeof(raw));
	uint64_t logs = xs_engine_log_count(x->live, x->shown);
	bool silent = !x->told_streams_nothing &&
		      xs_engine_streams_nothing(x->live, x->shown);
	bool news = breaks != x->seen_breaks || logs != x->seen_logs || silent;
	bool break_shown = now_ms < x->break_news_until && ev->message_shown;
	if (!news || ev->quiet || (break_shown && breaks == x->seen_breaks && !silent))
		return false;
	double when;
	if (silent) {
		snprintf(ev->message, sizeof(ev->message),
			 "%s logged in but sends no profile: a stock xst (mxProfile) "
			 "streams nothing; build it with -DmxInstrument=1", name);
	} else if (breaks != x->seen_breaks) {
		snprintf(ev->message, sizeof(ev->message),
			 "wprof-tui is not a debugger: released %s at %s", name, raw);
		x->break_news_until = now_ms + BREAK_NEWS_MS;
	} else if (xs_engine_log_line(x->live, x->shown, logs - 1, &when, raw,
				      sizeof(raw))) {
		snprintf(ev->message, sizeof(ev->message), "log: %s  (L lists them)", raw);
	}
	x->told_streams_nothing |= silent;
	x->seen_breaks = breaks;
	x->seen_logs = logs;
	return true;
}

/* An engine that leaves keeps its data on screen; the status line says so. */
static bool notice_disconnect(struct xs_source *x, struct live_events *ev)
{
	bool connected = xs_engine_connected(x->live, x->shown);
	bool left = x->was_connected && !connected;
	x->was_connected = connected;
	if (left && x->given) {
		char name[256], status[400];
		xs_engine_status(x->live, x->shown, status, sizeof(status));
		snprintf(ev->message, sizeof(ev->message), "%s disconnected; its data "
			 "stays (%s)", engine_name(x, name, sizeof(name)), status);
	}
	return left;
}

/* The engine shown from now on: its own follower, and only its news
 * from now on. */
static void show_engine(struct xs_source *x, size_t i)
{
	x->shown = i;
	xsbug_follower_free(x->follower); /* it follows one engine only */
	x->follower = xsbug_follower_new();
	x->was_connected = xs_engine_connected(x->live, x->shown);
	x->seen_breaks = xs_engine_breaks(x->live, x->shown, NULL, 0);
	x->seen_logs = xs_engine_log_count(x->live, x->shown);
	x->told_streams_nothing = false;
}

/* An engine that logs in while the one shown has left is shown at once
 * (a program run again): the data on screen is done with.  While the
 * one shown is connected, the newcomer is only named, e shows it.  True
 * when the engine shown changed. */
static bool notice_newcomer(struct xs_source *x, struct live_events *ev)
{
	size_t count = xs_engine_count(x->live);
	bool first = !x->engines_seen;
	bool newcomer = x->engines_seen && count > x->engines_seen;
	x->engines_seen = count;
	if (first || !newcomer)
		return false;
	char name[256], old[256];
	bool stay = xs_engine_connected(x->live, x->shown);
	engine_name(x, old, sizeof(old));
	if (!stay)
		show_engine(x, count - 1);
	escape_text(xs_engine_name(x->live, count - 1), name, sizeof(name));
	if (ev->quiet) /* the question on the status line stays */
		return !stay;
	if (stay)
		snprintf(ev->message, sizeof(ev->message), "%s logged in (e shows it)",
			 name);
	else
		snprintf(ev->message, sizeof(ev->message), "%s logged in: showing it "
			 "(%s has left; e goes back)", name, old);
	return !stay;
}

static void xs_source_events(struct live_source *s, double now_ms, struct live_events *ev)
{
	struct xs_source *x = xs_of(s);
	if (!xs_engine_count(x->live))
		return;
	bool switched = notice_newcomer(x, ev);
	ev->data = xs_engine_take_news(x->live, x->shown) || switched;
	ev->at_once = notice_disconnect(x, ev) || switched;
	ev->changed = ev->at_once || ev->message[0];
	if (!ev->message[0])
		ev->changed |= notice_news(x, now_ms, ev);
}

static enum live_refresh xs_source_snapshot(struct live_source *s, struct model *shown,
					    struct model *fresh)
{
	struct xs_source *x = xs_of(s);
	if (!xs_engine_count(x->live))
		return LIVE_NO_PROFILE;
	enum live_refresh got = xs_engine_refresh(
		x->live, x->shown, x->follower,
		x->given && x->data_engine == x->shown ? shown : NULL, fresh);
	if (got != LIVE_NO_PROFILE) {
		x->given = true;
		x->data_engine = x->shown;
	}
	return got;
}

static void xs_source_toggle_profiling(struct live_source *s, char *said, size_t cap)
{
	struct xs_source *x = xs_of(s);
	char name[256];
	engine_name(x, name, sizeof(name));
	if (!xs_engine_count(x->live)) {
		snprintf(said, cap, "no engine has logged in");
		return;
	}
	if (xs_engine_sends_arcs(x->live, x->shown)) {
		snprintf(said, cap, "%s sends arcs; it cannot be told to profile", name);
		return;
	}
	bool start = !xs_engine_profiling(x->live, x->shown);
	bool again = xs_engine_request(x->live, x->shown) ==
		     (start ? XS_REQUEST_START : XS_REQUEST_STOP);
	bool sent = start ? xs_engine_start_profiling(x->live, x->shown)
			  : xs_engine_stop_profiling(x->live, x->shown);
	if (!sent)
		snprintf(said, cap, "%s is gone", name);
	else
		snprintf(said, cap, "%s %s to %s profiling: shown when it does (a "
			 "running xst reads it only at a break or its end)",
			 again ? "still waiting for" : "asked", name,
			 start ? "start" : "stop");
}

static bool xs_source_write(struct live_source *s, const struct model *shown,
			    const char *stamp, char *said, size_t cap)
{
	(void)shown; /* the session itself is written, capture and all */
	struct xs_source *x = xs_of(s);
	char base[64], err[512];
	snprintf(base, sizeof(base), "wprof-live-%zu-%s", x->shown + 1, stamp);
	if (!xs_engine_write(x->live, x->shown, base, err, sizeof(err))) {
		snprintf(said, cap, "cannot write %s: %s", base, err);
		return false;
	}
	if (!xs_engine_sends_arcs(x->live, x->shown))
		snprintf(said, cap, "wrote %s.xsbug and %s.cpuprofile", base, base);
	else
		snprintf(said, cap, "wrote %s.cpuprofile", base);
	return true;
}

static bool xs_source_next_target(struct live_source *s, char *said, size_t cap)
{
	struct xs_source *x = xs_of(s);
	size_t count = xs_engine_count(x->live);
	if (count < 2) {
		snprintf(said, cap, "only one engine has logged in");
		return false;
	}
	show_engine(x, (x->shown + 1) % count);
	char name[256];
	snprintf(said, cap, "showing %s", engine_name(x, name, sizeof(name)));
	return true;
}

static size_t xs_source_peers_connected(struct live_source *s)
{
	return xs_engines_connected(xs_of(s)->live);
}

static uint64_t xs_source_log_count(struct live_source *s)
{
	struct xs_source *x = xs_of(s);
	return xs_engine_count(x->live) ? xs_engine_log_count(x->live, x->shown) : 0;
}

static bool xs_source_log_line(struct live_source *s, uint64_t n, double *when,
			       char *text, size_t cap)
{
	struct xs_source *x = xs_of(s);
	return xs_engine_count(x->live) &&
	       xs_engine_log_line(x->live, x->shown, n, when, text, cap);
}

static const char *xs_source_log_name(struct live_source *s)
{
	struct xs_source *x = xs_of(s);
	return xs_engine_count(x->live) ? xs_engine_name(x->live, x->shown)
					: x->address;
}

static const struct live_source_ops xs_source_ops = {
	.start = xs_source_start,
	.collect = xs_source_collect,
	.finish = xs_source_finish,
	.free = xs_source_free,
	.events = xs_source_events,
	.snapshot = xs_source_snapshot,
	.title = xs_source_title,
	.waiting = xs_source_waiting,
	.toggle_profiling = xs_source_toggle_profiling,
	.write = xs_source_write,
	.next_target = xs_source_next_target,
	.peers_connected = xs_source_peers_connected,
	.log_count = xs_source_log_count,
	.log_line = xs_source_log_line,
	.log_name = xs_source_log_name,
};

struct live_source *xs_source_open(const char *address, bool listen, FILE *log,
				   char *err, size_t cap)
{
	struct xs_source *x = xcalloc(1, sizeof(*x));
	x->base.ops = &xs_source_ops;
	x->live = xs_new(log);
	snprintf(x->address, sizeof(x->address), "%s", address);
	x->follower = xsbug_follower_new();
	bool ok = listen ? xs_listen(x->live, address, err, cap)
			 : xs_connect(x->live, address, err, cap);
	if (!ok) {
		xs_source_free(&x->base);
		return NULL;
	}
	return &x->base;
}
