#include "live_view.h"

#include <curses.h>
#include <stdio.h>
#include <string.h>
#include <time.h>

#include "../escape.h"
#include "../xsbug.h"

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

static void update_title(struct live_view *v)
{
	const char *state;
	if (!live_engine_connected(v->live, v->shown))
		state = "disconnected";
	else if (!live_engine_sends_arcs(v->live, v->shown) &&
		 !live_engine_profiling(v->live, v->shown))
		state = "not profiling";
	else
		state = "profiling";
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
		v->started = true;
		app_init(a, v->title, &v->models[next], VIEW_TOPDOWN);
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

void live_view_draw_waiting(const struct live_view *v)
{
	char address[256], line[512];
	escape_text(v->address, address, sizeof(address));
	erase();
	mvaddnstr(0, 1, "wprof-tui live", COLS - 1);
	if (live_engine_count(v->live)) {
		char name[256];
		snprintf(line, sizeof(line), "%s logged in; waiting for its first samples",
			 engine_name(v, name, sizeof(name)));
	} else {
		snprintf(line, sizeof(line), "waiting for an engine on %s", address);
	}
	mvaddnstr(2, 1, line, COLS - 1);
	mvaddnstr(4, 1, "q quits", COLS - 1);
}

/* ---- keys ------------------------------------------------------------------ */

static struct live_view *live_of(struct app *a)
{
	if (!a->live)
		app_message(a, "only in live mode (--listen or --connect)");
	return a->live;
}

void live_view_toggle_profiling(struct app *a)
{
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
	bool sent = start ? live_engine_start_profiling(v->live, v->shown)
			  : live_engine_stop_profiling(v->live, v->shown);
	if (!sent)
		app_message(a, "%s is gone", name);
	else
		app_message(a, "asked %s to %s profiling", name, start ? "start" : "stop");
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
	v->news = true;
	v->last_refresh_ms = 0; /* the new engine at once */
	update_title(v);
	char name[256];
	app_message(a, "showing %s", engine_name(v, name, sizeof(name)));
}
