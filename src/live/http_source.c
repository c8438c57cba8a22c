/* --live URL as a live source: a thread fetches windows of a Go
 * service's CPU profile one after the other into a session (http.h);
 * the explorer takes a finished model of the whole session after each
 * window.  The session is shared under a lock: the thread appends a
 * window, the explorer builds a model from all of them. */
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "base/complain.h"
#include "output/export.h"
#include "base/util.h"
#include "http.h"
#include "source.h"

/* After a failed window: wait this long before the next try. */
#define RETRY_SECONDS 2

struct http_source {
	struct live_source base;
	pthread_t thread;
	bool running;
	pthread_mutex_t lock;
	pthread_cond_t wake;
	_Atomic bool quit;
	bool paused;           /* under lock */
	size_t windows_given;  /* windows in the last snapshot (explorer) */
	struct http_session session; /* under lock */
	char status[600];      /* the last failure, under lock */
	bool status_news;      /* under lock */
	bool failing;          /* the last window failed: under lock */
	struct fetch_options fetch;
	struct load_options load;
	unsigned window, windows;
	FILE *log;
};

static struct http_source *http_of(struct live_source *s)
{
	return (struct http_source *)s;
}

/* Sleeps `seconds`, or less when woken (quit, resume). */
static void nap(struct http_source *h, int seconds)
{
	struct timespec until;
	clock_gettime(CLOCK_REALTIME, &until);
	until.tv_sec += seconds;
	pthread_cond_timedwait(&h->wake, &h->lock, &until);
}

static void *fetch_windows(void *arg)
{
	struct http_source *h = arg;
	pthread_mutex_lock(&h->lock);
	while (!atomic_load(&h->quit)) {
		if (h->paused) {
			pthread_cond_wait(&h->wake, &h->lock);
			continue;
		}
		/* The fetch runs unlocked: windows are only appended by
		 * this thread, and a fresh session holds the new one. */
		struct http_session one;
		http_session_init(&one, h->session.url, h->window);
		pthread_mutex_unlock(&h->lock);
		char err[512];
		bool ok = http_session_fetch(&one, &h->fetch, &h->load, err, sizeof(err));
		pthread_mutex_lock(&h->lock);
		if (ok) {
			GROW(h->session.windows, h->session.windows_cap, h->session.nwindows + 1);
			h->session.windows[h->session.nwindows++] = one.windows[0];
			one.nwindows = 0;
			if (h->failing) { /* the old error goes from the status line */
				snprintf(h->status, sizeof(h->status),
					 "the service answers again (window %zu)",
					 h->session.nwindows);
				h->status_news = true;
				h->failing = false;
			}
		} else if (!atomic_load(&h->quit)) {
			snprintf(h->status, sizeof(h->status), "%s", err);
			h->status_news = true;
			h->failing = true;
			nap(h, RETRY_SECONDS);
		}
		http_session_free(&one);
	}
	pthread_mutex_unlock(&h->lock);
	return NULL;
}

static bool http_start(struct live_source *s, char *err, size_t cap)
{
	struct http_source *h = http_of(s);
	h->fetch.cancel = &h->quit;
	if (pthread_create(&h->thread, NULL, fetch_windows, h)) {
		snprintf(err, cap, "cannot start the fetching thread");
		return false;
	}
	h->running = true;
	return true;
}

/* --windows windows one after the other, each said on the log. */
static bool http_collect(struct live_source *s, struct model *m, char *who,
			 size_t who_cap, char *err, size_t cap)
{
	struct http_source *h = http_of(s);
	struct http_session *session = &h->session;
	snprintf(who, who_cap, "%s", session->url);
	while (session->nwindows < h->windows) {
		char why[512];
		if (!http_session_fetch(session, &h->fetch, &h->load, why, sizeof(why))) {
			snprintf(err, cap, "%s: %s", session->url, why);
			if (!session->nwindows)
				return false;
			/* The windows that came are kept: the service died. */
			if (h->log)
				complain_to(h->log, "warning: %s; the report has the %zu "
					    "window%s that arrived before", err, session->nwindows,
					    session->nwindows == 1 ? "" : "s");
			break;
		}
		if (h->log)
			complain_to(h->log, "%s: window %zu of %u", session->url,
				    session->nwindows, h->windows);
	}
	http_session_model(session, m);
	return true;
}

static void http_free(struct live_source *s)
{
	struct http_source *h = http_of(s);
	if (h->running) {
		pthread_mutex_lock(&h->lock);
		atomic_store(&h->quit, true);
		pthread_cond_signal(&h->wake);
		pthread_mutex_unlock(&h->lock);
		pthread_join(h->thread, NULL);
	}
	http_session_free(&h->session);
	pthread_mutex_destroy(&h->lock);
	pthread_cond_destroy(&h->wake);
	free(h);
}

static void http_events(struct live_source *s, double now_ms, struct live_events *ev)
{
	(void)now_ms;
	struct http_source *h = http_of(s);
	pthread_mutex_lock(&h->lock);
	ev->data = h->session.nwindows > h->windows_given;
	if (h->status_news && !ev->quiet) {
		snprintf(ev->message, sizeof(ev->message), "%s", h->status);
		h->status_news = false;
		ev->changed = true;
	}
	pthread_mutex_unlock(&h->lock);
}

static enum live_refresh http_snapshot(struct live_source *s, struct model *shown,
				       struct model *fresh)
{
	(void)shown; /* every window can bring new stacks */
	struct http_source *h = http_of(s);
	pthread_mutex_lock(&h->lock);
	bool news = h->session.nwindows > h->windows_given;
	if (news) {
		http_session_model(&h->session, fresh);
		h->windows_given = h->session.nwindows;
	}
	pthread_mutex_unlock(&h->lock);
	return news ? LIVE_NEW_MODEL : LIVE_NO_PROFILE;
}

static void http_title(struct live_source *s, char *out, size_t cap)
{
	struct http_source *h = http_of(s);
	pthread_mutex_lock(&h->lock);
	bool paused = h->paused;
	pthread_mutex_unlock(&h->lock);
	snprintf(out, cap, "%s  [%zu window%s of %us%s]", h->session.url,
		 h->windows_given, h->windows_given == 1 ? "" : "s", h->window,
		 paused ? ", paused" : "");
}

/* As --report says it while the service takes the profile. */
static void http_waiting(struct live_source *s, double waited, char *out, size_t cap)
{
	struct http_source *h = http_of(s);
	snprintf(out, cap, "fetching the first window, a %u s profile, from %s… %.0f s",
		 h->window, h->session.url, waited);
}

static void http_toggle_pause(struct live_source *s, char *said, size_t cap)
{
	struct http_source *h = http_of(s);
	pthread_mutex_lock(&h->lock);
	h->paused = !h->paused;
	pthread_cond_signal(&h->wake);
	snprintf(said, cap, "%s", h->paused
		 ? "paused: no window after the one under way (p resumes)"
		 : "fetching windows again");
	pthread_mutex_unlock(&h->lock);
}

/* The model on screen as gzipped pprof, which go tool pprof reads as the
 * merge of the windows. */
static bool http_write(struct live_source *s, const struct model *shown,
		       const char *stamp, char *said, size_t cap)
{
	struct http_source *h = http_of(s);
	char path[64], err[512];
	snprintf(path, sizeof(path), "wprof-live-%s.pb.gz", stamp);
	FILE *notes = fopen("/dev/null", "w"); /* the screen says what matters */
	bool ok = notes && export_model(shown, shown->default_type, EXPORT_PPROF, path,
					notes, err, sizeof(err));
	if (notes)
		fclose(notes);
	if (ok)
		snprintf(said, cap, "wrote %s (%zu windows)", path, h->windows_given);
	else
		snprintf(said, cap, "cannot write %s: %s", path, notes ? err : "no /dev/null");
	return ok;
}

static bool http_next_target(struct live_source *s, char *said, size_t cap)
{
	(void)s;
	snprintf(said, cap, "one URL per run (--live URL names it)");
	return false;
}

static const struct live_source_ops http_ops = {
	.start = http_start,
	.collect = http_collect,
	.free = http_free,
	.events = http_events,
	.snapshot = http_snapshot,
	.title = http_title,
	.waiting = http_waiting,
	.toggle_profiling = http_toggle_pause,
	.write = http_write,
	.next_target = http_next_target,
};

struct live_source *http_source_open(const char *url, unsigned window,
				     unsigned windows,
				     const struct fetch_options *fetch,
				     const struct load_options *load, FILE *log)
{
	struct http_source *h = xcalloc(1, sizeof(*h));
	h->base.ops = &http_ops;
	pthread_mutex_init(&h->lock, NULL);
	pthread_cond_init(&h->wake, NULL);
	http_session_init(&h->session, url, window);
	h->window = window;
	h->windows = windows;
	h->fetch = *fetch;
	h->load = *load;
	h->log = log;
	return &h->base;
}
