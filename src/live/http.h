/* --live URL: a Go service's CPU profile (net/http/pprof) fetched in
 * consecutive windows of `seconds=N`, folded into one growing session.
 *
 * Each window is a finished model; a snapshot merges them all into a new
 * model whose timeline is the sequence of windows: one pseudo-sample per
 * stack per window, in window order, whose duration is that stack's value
 * in the window (the session's first sample type is the window's default
 * type, cpu for CPU profiles, so the timeline is in microseconds). */
#ifndef WPROF_LIVE_HTTP_H
#define WPROF_LIVE_HTTP_H

#include <stdbool.h>
#include <stddef.h>

#include "loaders/loaders.h"
#include "input/fetch.h"
#include "model/model.h"

#define HTTP_LIVE_DEFAULT_WINDOW 5

struct http_session {
	const char *url;   /* as the user gave it */
	char *window_url;  /* with seconds=N */
	struct model *windows;
	size_t nwindows, windows_cap;
};

/* The URL with its seconds=N set to `seconds` (added when absent). */
char *http_live_window_url(const char *url, unsigned seconds);

void http_session_init(struct http_session *s, const char *url, unsigned seconds);
void http_session_free(struct http_session *s);

/* Fetches the next window and keeps it.  False with a message in err
 * (the session is unchanged). */
bool http_session_fetch(struct http_session *s, const struct fetch_options *fetch,
			const struct load_options *load, char *err, size_t cap);

/* A finished model of every window so far (at least one), for reports,
 * export and the explorer. */
void http_session_model(const struct http_session *s, struct model *out);

#endif
