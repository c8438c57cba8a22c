#include "live_view.h"
#include "http_live_view.h"

#include <curses.h>
#include <stdio.h>
#include <string.h>
#include <time.h>

#include "../escape.h"
#include "../xsbug.h"
#include "draw.h"

void live_view_init(struct live_view *v, struct live *l, const char *address)
{
	memset(v, 0, sizeof(*v));
	v->live = l;
	v->address = address;
	v->follower = xsbug_follower_new();
}

void live_view_free(struct live_view *v)
{
	if (v->started)
		model_free(&v->models[v->current]);
	xsbug_follower_free(v->follower);
}

static const char *engine_name(const struct live_view *v, char *buf, size_t cap)
{
	escape_text(live_engine_name(v->live, v->shown), buf, cap);
	return buf;
}

/* What the engine does now: "profiling", "stop requested" (still
 * profiling), "suspended at FILE:LINE"…; raw (the header escapes what it
 * shows). */
static void engine_state(const struct live_view *v, char *out, size_t cap)
{
	char where[300];
	enum live_request request = live_engine_request(v->live, v->shown);
	if (!live_engine_connected(v->live, v->shown))
		snprintf(out, cap, "disconnected");
	else if (live_engine_suspended_at(v->live, v->shown, where, sizeof(where)))
		snprintf(out, cap, "suspended at %s", where);
	else if (live_engine_streams_nothing(v->live, v->shown))
		snprintf(out, cap, "sends no profile (an mxProfile build?)");
	else if (request != LIVE_REQUEST_NONE)
		snprintf(out, cap, "%s requested",
			 request == LIVE_REQUEST_STOP ? "stop" : "start");
	else
		snprintf(out, cap, "%s",
			 live_engine_sends_arcs(v->live, v->shown) ||
				 live_engine_profiling(v->live, v->shown)
				 ? "profiling" : "not profiling");
}

static void update_title(struct live_view *v)
{
	char state[400];
	engine_state(v, state, sizeof(state));
	size_t count = live_engine_count(v->live);
	char which[32] = "";
	if (count > 1)
		snprintf(which, sizeof(which), " (%zu of %zu)", v->shown + 1, count);
	/* Raw: the header escapes what it shows. */
	snprintf(v->title, sizeof(v->title), "live: %s%s, %s%s%s",
		 live_engine_name(v->live, v->shown), which, state,
		 v->started && v->data_engine != v->shown
			 ? ", no profile yet (the numbers are another engine's)" : "",
		 v->frozen ? ", frozen (z)" : "");
}

/* Breaks, log lines and an engine that streams nothing are said on the
 * status line as they come; a question waiting for its answer stays, and
 * so does the news of a break for a while, however fast the logs come. */
#define BREAK_NEWS_MS 3000.0

static bool notice_news(struct live_view *v, struct app *a, double now_ms)
{
	char name[256], raw[1400], safe[1400];
	engine_name(v, name, sizeof(name));
	uint64_t breaks = live_engine_breaks(v->live, v->shown, raw, sizeof(raw));
	uint64_t logs = live_engine_log_count(v->live, v->shown);
	bool silent = !v->told_streams_nothing &&
		      live_engine_streams_nothing(v->live, v->shown);
	bool news = breaks != v->seen_breaks || logs != v->seen_logs || silent;
	bool break_shown = now_ms < v->break_news_until && a->message[0];
	if (!news || v->quit_asked ||
	    (break_shown && breaks == v->seen_breaks && !silent))
		return false;
	double when;
	if (silent) {
		app_message(a, "%s logged in but sends no profile: a stock xst "
			       "(mxProfile) streams nothing; build it with "
			       "-DmxInstrument=1", name);
	} else if (breaks != v->seen_breaks) {
		escape_text(raw, safe, sizeof(safe));
		app_message(a, "wprof-tui is not a debugger: released %s at %s",
			    name, safe);
		v->break_news_until = now_ms + BREAK_NEWS_MS;
	} else if (live_engine_log_line(v->live, v->shown, logs - 1, &when, raw,
					sizeof(raw))) {
		escape_text(raw, safe, sizeof(safe));
		app_message(a, "log: %s  (L lists them)", safe);
	}
	v->told_streams_nothing |= silent;
	v->seen_breaks = breaks;
	v->seen_logs = logs;
	return true;
}

/* An engine that leaves keeps its data on screen; the status line says so. */
static bool notice_disconnect(struct live_view *v, struct app *a)
{
	bool connected = live_engine_connected(v->live, v->shown);
	bool left = v->was_connected && !connected;
	v->was_connected = connected;
	if (left && v->started) {
		char name[256], raw[400], status[512];
		live_engine_status(v->live, v->shown, raw, sizeof(raw));
		escape_text(raw, status, sizeof(status));
		app_message(a, "%s disconnected; its data stays (%s)",
			    engine_name(v, name, sizeof(name)), status);
	}
	return left;
}

/* The model on screen gets new numbers in place when the engine sent no
 * new stack; a new model replaces it otherwise. */
static bool take_snapshot(struct live_view *v, struct app *a)
{
	int next = v->started ? 1 - v->current : 0;
	struct model *shown = v->started && v->data_engine == v->shown
		? &v->models[v->current] : NULL;
	enum live_refresh got = live_engine_refresh(v->live, v->shown, v->follower,
						    shown, &v->models[next]);
	if (got == LIVE_NO_PROFILE)
		return false;
	if (got == LIVE_NEW_VALUES) {
		app_values_changed(a);
		update_title(v);
		return true;
	}
	if (!v->started) {
		char said[sizeof(a->message)]; /* before the first snapshot */
		memcpy(said, a->message, sizeof(said));
		v->started = true;
		app_init(a, v->title, &v->models[next], VIEW_TOPDOWN);
		memcpy(a->message, said, sizeof(said));
		a->live = v;
	} else {
		app_replace_model(a, &v->models[next]);
		model_free(&v->models[v->current]);
	}
	v->current = next;
	v->data_engine = v->shown;
	update_title(v);
	return true;
}

bool live_view_update(struct live_view *v, struct app *a, double now_ms)
{
	if (!live_engine_count(v->live))
		return false;
	if (live_engine_take_news(v->live, v->shown))
		v->news = true;
	bool left = notice_disconnect(v, a), changed = left;
	changed |= notice_news(v, a, now_ms);
	char before[sizeof(v->title)];
	memcpy(before, v->title, sizeof(before));
	update_title(v);
	changed |= strcmp(before, v->title) != 0;
	/* The last data comes with the news that the engine left. */
	bool due = left || now_ms - v->last_refresh_ms >= LIVE_REFRESH_MS;
	if (v->news && due && (!v->frozen || !v->started) && take_snapshot(v, a)) {
		v->news = false;
		/* On a steady beat: the next is due a period after this one was
		 * due, not after it came (up to a wake-up late, LIVE_REFRESH_MS
		 * / 5), so that they keep to 5 a second. */
		bool on_beat = now_ms - v->last_refresh_ms < 2 * LIVE_REFRESH_MS;
		v->last_refresh_ms = on_beat ? v->last_refresh_ms + LIVE_REFRESH_MS
					     : now_ms;
		changed = true;
	}
	return changed;
}

void live_view_draw_waiting(const struct live_view *v, const char *message)
{
	char address[256], line[700];
	escape_text(v->address, address, sizeof(address));
	erase();
	mvaddnstr(0, 1, "wprof-tui live", COLS - 1);
	if (live_engine_count(v->live)) {
		char name[256], state[400], safe[400];
		engine_state(v, state, sizeof(state));
		escape_text(state, safe, sizeof(safe));
		snprintf(line, sizeof(line), "%s logged in (%s); waiting for its first samples",
			 engine_name(v, name, sizeof(name)), safe);
	} else {
		snprintf(line, sizeof(line), "waiting for an engine on %s", address);
	}
	mvaddnstr(2, 1, line, COLS - 1);
	mvaddnstr(4, 1, message[0] ? message : "q quits", COLS - 1);
}

void live_view_draw_log(const struct live_view *v)
{
	int top = DRAW_FIRST_ROW_LINE - 1, rows = LINES - top - 2;
	for (int y = top; y < LINES - 1; y++) {
		move(y, 0);
		clrtoeol();
	}
	uint64_t count = live_engine_log_count(v->live, v->shown);
	char name[256], line[1600], raw[1400], safe[1400];
	snprintf(line, sizeof(line), "Log of %s: %llu line%s (the last %d kept; "
		 "any key closes this)", engine_name(v, name, sizeof(name)),
		 (unsigned long long)count, count == 1 ? "" : "s", LIVE_LOG_LINES);
	attrset(A_BOLD);
	mvaddnstr(top, 1, line, COLS - 2);
	attrset(A_NORMAL);
	uint64_t first = count > (uint64_t)rows ? count - (uint64_t)rows : 0;
	for (uint64_t n = first; rows > 0 && n < count; n++) {
		double when;
		if (!live_engine_log_line(v->live, v->shown, n, &when, raw, sizeof(raw)))
			continue;
		time_t seconds = (time_t)when;
		struct tm tm;
		localtime_r(&seconds, &tm);
		char stamp[32];
		strftime(stamp, sizeof(stamp), "%H:%M:%S", &tm);
		escape_text(raw, safe, sizeof(safe));
		snprintf(line, sizeof(line), "%s.%03d  %s", stamp,
			 (int)((when - (double)seconds) * 1000), safe);
		mvaddnstr(top + 1 + (int)(n - first), 1, line, COLS - 2);
	}
}

bool live_view_may_quit(struct live_view *v, struct app *a)
{
	size_t connected = live_engines_connected(v->live);
	if (!connected || v->quit_asked)
		return true;
	v->quit_asked = true;
	app_message(a, "%zu engine%s still connected: quitting ends %s; q again "
		       "to quit", connected, connected == 1 ? "" : "s",
		    connected == 1 ? "it" : "them");
	return false;
}

/* ---- keys ------------------------------------------------------------------ */

static struct live_view *live_of(struct app *a)
{
	if (!a->live)
		app_message(a, "only in live mode (--listen or --connect%s)",
			    a->http_live ? "; --live URL has p and w" : "");
	return a->live;
}

void live_view_toggle_profiling(struct app *a)
{
	if (a->http_live) {
		http_live_view_toggle_pause(a);
		return;
	}
	struct live_view *v = live_of(a);
	if (!v)
		return;
	char name[256];
	engine_name(v, name, sizeof(name));
	if (live_engine_sends_arcs(v->live, v->shown)) {
		app_message(a, "%s sends arcs; it cannot be told to profile", name);
		return;
	}
	bool start = !live_engine_profiling(v->live, v->shown);
	bool again = live_engine_request(v->live, v->shown) ==
		     (start ? LIVE_REQUEST_START : LIVE_REQUEST_STOP);
	bool sent = start ? live_engine_start_profiling(v->live, v->shown)
			  : live_engine_stop_profiling(v->live, v->shown);
	update_title(v);
	if (!sent)
		app_message(a, "%s is gone", name);
	else
		app_message(a, "%s %s to %s profiling: shown when it does (a "
			       "running xst reads it only at a break or its end)",
			    again ? "still waiting for" : "asked", name,
			    start ? "start" : "stop");
}

void live_view_toggle_freeze(struct app *a)
{
	struct live_view *v = live_of(a);
	if (!v)
		return;
	v->frozen = !v->frozen;
	update_title(v);
	app_message(a, v->frozen ? "frozen: the numbers wait (z resumes)"
				 : "following the engine again");
}

void live_view_write(struct app *a)
{
	if (a->http_live) {
		http_live_view_write(a);
		return;
	}
	struct live_view *v = live_of(a);
	if (!v)
		return;
	char base[64], err[512];
	time_t now = time(NULL);
	struct tm tm;
	localtime_r(&now, &tm);
	int n = snprintf(base, sizeof(base), "wprof-live-%zu-", v->shown + 1);
	strftime(base + n, sizeof(base) - (size_t)n, "%Y%m%d-%H%M%S", &tm);
	if (!live_engine_write(v->live, v->shown, base, err, sizeof(err))) {
		char safe[512];
		escape_text(err, safe, sizeof(safe));
		app_message(a, "cannot write %s: %s", base, safe);
	} else if (!live_engine_sends_arcs(v->live, v->shown)) {
		app_message(a, "wrote %s.xsbug and %s.cpuprofile", base, base);
	} else {
		app_message(a, "wrote %s.cpuprofile", base);
	}
}

void live_view_toggle_log(struct app *a)
{
	struct live_view *v = live_of(a);
	if (v)
		v->show_log = !v->show_log;
}

void live_view_next_engine(struct app *a)
{
	struct live_view *v = live_of(a);
	if (!v)
		return;
	size_t count = live_engine_count(v->live);
	if (count < 2) {
		app_message(a, "only one engine has logged in");
		return;
	}
	v->shown = (v->shown + 1) % count;
	xsbug_follower_free(v->follower); /* it follows one engine only */
	v->follower = xsbug_follower_new();
	v->was_connected = live_engine_connected(v->live, v->shown);
	v->seen_breaks = live_engine_breaks(v->live, v->shown, NULL, 0);
	v->seen_logs = live_engine_log_count(v->live, v->shown);
	v->told_streams_nothing = false;
	v->news = true;
	v->last_refresh_ms = 0; /* the new engine at once */
	update_title(v);
	char name[256];
	app_message(a, "showing %s", engine_name(v, name, sizeof(name)));
}
