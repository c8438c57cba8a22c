/* The explorer in live mode, for every live source (src/live/source.h):
 * when the next snapshot refreshes the model on screen, the header, and
 * the keys that talk to the source (p, z, w, e, L).  The source has a
 * thread of its own; the input loop (tui.c) waits for keys and calls
 * live_view_update after each wake. */
#ifndef WPROF_TUI_LIVE_VIEW_H
#define WPROF_TUI_LIVE_VIEW_H

#include <stdbool.h>
#include <stddef.h>

#include "live/source.h"
#include "explorer/app.h"
#include "explorer/granularity_cache.h"
#include "explorer/live_pin.h"

/* A new snapshot this often while samples come, however fast. */
#define LIVE_REFRESH_MS 200

struct live_view {
	struct live_source *source;
	bool started;        /* the app holds a snapshot */
	bool frozen;         /* z: snapshots wait */
	bool news;           /* the source has data the screen does not show */
	double last_refresh_ms;
	bool show_log;   /* L: the log lines over the panes */
	bool quit_asked; /* q with peers connected: the next q quits */
	/* The snapshot in the app and the one replacing it. */
	struct model models[2];
	int current;
	/* a: the snapshot shown by files or lines, made when asked and made
	 * again from each new snapshot (app_granularity_refresh). */
	struct granularity_cache grouped;
	char title[1200]; /* the app's header names this */
	/* B: the windows so far as the base, the later ones compared with
	 * them; its comparison, once built, is what the screen shows. */
	struct live_pin pin;
	/* Before the first snapshot: since when, and the line shown. */
	double began_ms;
	char waiting[1600];
};

/* For a source started already. */
void live_view_init(struct live_view *v, struct live_source *source);
void live_view_free(struct live_view *v);

/* Takes a new snapshot when one is due; starts the app (app_init) with the
 * first.  True when the screen needs drawing again. */
bool live_view_update(struct live_view *v, struct app *a, double now_ms);

/* Before the first snapshot: what is awaited, and where; `message`, the
 * last thing said (or ""). */
void live_view_draw_waiting(const struct live_view *v, const char *message);
/* L: the log lines, the newest last, over the panes. */
void live_view_draw_log(const struct live_view *v);

/* q: true when it may quit now; with peers still connected, the first q
 * only says what quitting does (closing the socket under a running xst
 * kills it), any other key forgets it. */
bool live_view_may_quit(struct live_view *v, struct app *a);

/* Key actions (keys.c); each says on the status line what it did. */
void live_view_toggle_profiling(struct app *a);
void live_view_toggle_freeze(struct app *a);
void live_view_write(struct app *a);
void live_view_next_target(struct app *a);
void live_view_toggle_log(struct app *a);
void live_view_toggle_pin(struct app *a);

#endif
