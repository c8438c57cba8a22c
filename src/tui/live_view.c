#include "live_view.h"

#include <curses.h>
#include <stdio.h>
#include <string.h>
#include <time.h>

#include "base/escape.h"
#include "draw.h"

void live_view_init(struct live_view *v, struct live_source *source)
{
	memset(v, 0, sizeof(*v));
	v->source = source;
	granularity_cache_init(&v->grouped, NULL);
	v->grouped.when_asked = true;
	source->ops->waiting(source, 0, v->waiting, sizeof(v->waiting));
}

void live_view_free(struct live_view *v)
{
	live_pin_free(&v->pin);
	granularity_cache_free(&v->grouped);
	if (v->started)
		model_free(&v->models[v->current]);
}

/* Raw: the header escapes what it shows. */
static void update_title(struct live_view *v)
{
	size_t len;
	v->source->ops->title(v->source, v->title, sizeof(v->title));
	len = strlen(v->title);
	if (v->frozen)
		snprintf(v->title + len, sizeof(v->title) - len, ", frozen (z)");
}

/* Source texts are raw: escaped on their way to the status line. */
static void say(struct app *a, const char *raw)
{
	char safe[sizeof(a->message)];
	escape_text(raw, safe, sizeof(safe));
	app_message(a, "%s", safe);
}

/* The model on screen gets new numbers in place when the source can tell
 * that no stack is new; a new model replaces it otherwise. */
static bool take_snapshot(struct live_view *v, struct app *a)
{
	int next = v->started ? 1 - v->current : 0;
	struct model *shown = v->started ? &v->models[v->current] : NULL;
	enum live_refresh got = v->source->ops->snapshot(v->source, shown,
							 &v->models[next]);
	if (got == LIVE_NO_PROFILE)
		return false;
	update_title(v);
	if (got == LIVE_NEW_VALUES) {
		app_granularity_refresh(a, &v->grouped, shown, true);
		return true;
	}
	if (!v->started) {
		char said[sizeof(a->message)]; /* before the first snapshot */
		memcpy(said, a->message, sizeof(said));
		v->started = true;
		app_init(a, v->title, &v->models[next], VIEW_TOPDOWN);
		memcpy(a->message, said, sizeof(said));
		a->live = v;
		v->grouped.base = &v->models[next];
	} else {
		app_granularity_refresh(a, &v->grouped, &v->models[next], false);
		model_free(&v->models[v->current]);
	}
	v->current = next;
	return true;
}

/* The waiting screen's line, counting the time: true when it changed. */
static bool update_waiting(struct live_view *v, double now_ms)
{
	char line[sizeof(v->waiting)];
	if (!v->began_ms)
		v->began_ms = now_ms;
	v->source->ops->waiting(v->source, (now_ms - v->began_ms) / 1000, line, sizeof(line));
	if (!strcmp(line, v->waiting))
		return false;
	memcpy(v->waiting, line, sizeof(line));
	return true;
}

bool live_view_update(struct live_view *v, struct app *a, double now_ms)
{
	struct live_events ev = { .quiet = v->quit_asked,
				  .message_shown = a->message[0] != 0 };
	v->source->ops->events(v->source, now_ms, &ev);
	v->news |= ev.data;
	bool changed = ev.changed;
	if (ev.message[0])
		say(a, ev.message);
	char before[sizeof(v->title)];
	memcpy(before, v->title, sizeof(before));
	update_title(v);
	changed |= strcmp(before, v->title) != 0;
	changed |= !v->started && update_waiting(v, now_ms);
	/* The last data comes with the news that the peer left. */
	bool due = ev.at_once || now_ms - v->last_refresh_ms >= LIVE_REFRESH_MS;
	if (v->news && due && (!v->frozen || !v->started) && take_snapshot(v, a)) {
		v->news = false;
		/* On a steady beat: the next is due a period after this one was
		 * due, not after it came (up to a wake-up late, LIVE_REFRESH_MS
		 * / 5), so that they keep to 5 a second. */
		bool on_beat = now_ms - v->last_refresh_ms < 2 * LIVE_REFRESH_MS;
		v->last_refresh_ms = on_beat ? v->last_refresh_ms + LIVE_REFRESH_MS
					     : now_ms;
		live_pin_update(&v->pin, &v->models[v->current]);
		changed = true;
	}
	changed |= live_pin_poll(&v->pin, false);
	return changed;
}

void live_view_draw_waiting(const struct live_view *v, const char *message)
{
	char line[1600];
	escape_text(v->waiting, line, sizeof(line));
	erase();
	mvaddnstr(0, 1, "wprof-tui live", COLS - 1);
	mvaddnstr(2, 1, line, COLS - 1);
	mvaddnstr(4, 1, message[0] ? message : "q quits", COLS - 1);
}

void live_view_draw_log(const struct live_view *v)
{
	const struct live_source_ops *ops = v->source->ops;
	int top = DRAW_FIRST_ROW_LINE - 1, rows = LINES - top - 2;
	for (int y = top; y < LINES - 1; y++) {
		move(y, 0);
		clrtoeol();
	}
	uint64_t count = ops->log_count(v->source);
	char name[256], line[1600], raw[1400], safe[1400];
	escape_text(ops->log_name(v->source), name, sizeof(name));
	snprintf(line, sizeof(line), "Log of %s: %llu line%s (the last %d kept; "
		 "any key closes this)", name, (unsigned long long)count,
		 count == 1 ? "" : "s", LIVE_LOG_LINES);
	attrset(A_BOLD);
	mvaddnstr(top, 1, line, COLS - 2);
	attrset(A_NORMAL);
	uint64_t first = count > (uint64_t)rows ? count - (uint64_t)rows : 0;
	for (uint64_t n = first; rows > 0 && n < count; n++) {
		double when;
		if (!ops->log_line(v->source, n, &when, raw, sizeof(raw)))
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
	const struct live_source_ops *ops = v->source->ops;
	size_t connected = ops->peers_connected ? ops->peers_connected(v->source) : 0;
	if (!connected || v->quit_asked)
		return true;
	v->quit_asked = true;
	app_message(a, "%zu engine%s still connected: quitting lets %s run on "
		       "unprofiled; q again to quit", connected,
		    connected == 1 ? "" : "s", connected == 1 ? "it" : "them");
	return false;
}

/* ---- keys ------------------------------------------------------------------ */

static struct live_view *live_of(struct app *a)
{
	if (!a->live)
		app_message(a, "only in live mode (--listen, --connect, --inspect or --live URL)");
	return a->live;
}

void live_view_toggle_profiling(struct app *a)
{
	struct live_view *v = live_of(a);
	if (!v)
		return;
	char said[sizeof(a->message)];
	v->source->ops->toggle_profiling(v->source, said, sizeof(said));
	update_title(v);
	say(a, said);
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
	char stamp[32], said[sizeof(a->message)];
	time_t now = time(NULL);
	struct tm tm;
	localtime_r(&now, &tm);
	strftime(stamp, sizeof(stamp), "%Y%m%d-%H%M%S", &tm);
	v->source->ops->write(v->source, &v->models[v->current], stamp, said,
			      sizeof(said));
	say(a, said);
}

void live_view_toggle_log(struct app *a)
{
	struct live_view *v = live_of(a);
	if (!v)
		return;
	if (v->source->ops->log_count)
		v->show_log = !v->show_log;
	else
		app_message(a, "this source has no log (L is for XS engines)");
}

void live_view_next_target(struct app *a)
{
	struct live_view *v = live_of(a);
	if (!v)
		return;
	char said[sizeof(a->message)];
	if (v->source->ops->next_target(v->source, said, sizeof(said))) {
		v->news = true;
		v->last_refresh_ms = 0; /* the new one at once */
		update_title(v);
	}
	say(a, said);
}

void live_view_toggle_pin(struct app *a)
{
	struct live_view *v = live_of(a);
	if (!v)
		return;
	if (v->pin.pinned) {
		live_pin_free(&v->pin);
		app_message(a, "unpinned: the whole session again (B pins)");
		return;
	}
	char why[128];
	if (!live_pin_start(&v->pin, &v->models[v->current], why, sizeof(why))) {
		app_message(a, "%s", why);
		return;
	}
	app_message(a, "pinned %zu window%s as the base: each window from now on is a new "
		    "run (B unpins)", v->pin.n[DIFF_BASE], v->pin.n[DIFF_BASE] == 1 ? "" : "s");
}
