/* The explorer on --live URL: a thread fetches windows of a Go
 * service's CPU profile one after the other into a session
 * (src/http_live.h); after each window the UI thread takes a finished
 * model of the whole session and puts it on screen, as the XS live view
 * does with its snapshots.  p pauses and resumes the fetching, w writes
 * the session as pprof. */
#ifndef WPROF_TUI_HTTP_LIVE_VIEW_H
#define WPROF_TUI_HTTP_LIVE_VIEW_H

#include <stdbool.h>

#include "../../loaders/loaders.h"
#include "../fetch.h"
#include "app.h"

struct http_live_view;

/* Starts the fetching thread; NULL with a message in err. */
struct http_live_view *http_live_view_start(const char *url, unsigned window,
					    const struct fetch_options *fetch,
					    const struct load_options *load,
					    char *err, size_t cap);
/* Stops the thread (a transfer under way is cancelled) and frees. */
void http_live_view_stop(struct http_live_view *v, struct app *a);

/* After a new window: the session's model replaces the one on screen
 * (the first one starts the app).  True when the screen changed. */
bool http_live_view_update(struct http_live_view *v, struct app *a);
bool http_live_view_started(const struct http_live_view *v);
/* The screen before the first window has come. */
void http_live_view_draw_waiting(const struct http_live_view *v);

void http_live_view_toggle_pause(struct app *a);
void http_live_view_write(struct app *a);

#endif
