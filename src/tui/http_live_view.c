/* The explorer on --live URL (see http_live_view.h).  The fetching
 * thread owns the network; the session is shared under a lock: the
 * thread appends a window, the UI thread builds a model from all of
 * them. */
#include "http_live_view.h"

#include <curses.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "../escape.h"
#include "../export.h"
#include "../http_live.h"
#include "../util.h"

/* After a failed window: wait this long before the next try. */
#define RETRY_SECONDS 2

struct http_live_view {
	pthread_t thread;
	pthread_mutex_t lock;
	pthread_cond_t wake;
	_Atomic bool quit;
	bool paused;           /* under lock */
	size_t windows_shown;  /* windows in the model on screen (UI thread) */
	struct http_session session; /* under lock */
	char status[600];      /* the last failure or state, under lock */
	bool status_news;      /* under lock */
	struct fetch_options fetch;
	struct load_options load;
	unsigned window;
	bool started;
	struct model models[2];
	int current;
	char title[1200];
};

static void set_status(struct http_live_view *v, const char *text)
{
	escape_text(text, v->status, sizeof(v->status));
	v->status_news = true;
}

/* Sleeps `seconds`, or less when woken (quit, resume). */
static void nap(struct http_live_view *v, int seconds)
{
	struct timespec until;
	clock_gettime(CLOCK_REALTIME, &until);
	until.tv_sec += seconds;
	pthread_cond_timedwait(&v->wake, &v->lock, &until);
}

static void *fetch_windows(void *arg)
{
	struct http_live_view *v = arg;
	pthread_mutex_lock(&v->lock);
	while (!atomic_load(&v->quit)) {
		if (v->paused) {
			pthread_cond_wait(&v->wake, &v->lock);
			continue;
		}
		/* The fetch runs unlocked: windows are only appended by
		 * this thread, and a fresh session holds the new one. */
		struct http_session one;
		http_session_init(&one, v->session.url, v->window);
		pthread_mutex_unlock(&v->lock);
		char err[512];
		bool ok = http_session_fetch(&one, &v->fetch, &v->load, err, sizeof(err));
		pthread_mutex_lock(&v->lock);
		if (ok) {
			GROW(v->session.windows, v->session.windows_cap, v->session.nwindows + 1);
			v->session.windows[v->session.nwindows++] = one.windows[0];
			one.nwindows = 0;
		} else if (!atomic_load(&v->quit)) {
			set_status(v, err);
			nap(v, RETRY_SECONDS);
		}
		http_session_free(&one);
	}
	pthread_mutex_unlock(&v->lock);
	return NULL;
}

struct http_live_view *http_live_view_start(const char *url, unsigned window,
					    const struct fetch_options *fetch,
					    const struct load_options *load,
					    char *err, size_t cap)
{
	struct http_live_view *v = xcalloc(1, sizeof(*v));
	pthread_mutex_init(&v->lock, NULL);
	pthread_cond_init(&v->wake, NULL);
	http_session_init(&v->session, url, window);
	v->window = window;
	v->fetch = *fetch;
	v->fetch.cancel = &v->quit;
	v->load = *load;
	if (pthread_create(&v->thread, NULL, fetch_windows, v)) {
		snprintf(err, cap, "cannot start the fetching thread");
		http_session_free(&v->session);
		free(v);
		return NULL;
	}
	return v;
}

void http_live_view_stop(struct http_live_view *v, struct app *a)
{
	pthread_mutex_lock(&v->lock);
	atomic_store(&v->quit, true);
	pthread_cond_signal(&v->wake);
	pthread_mutex_unlock(&v->lock);
	pthread_join(v->thread, NULL);
	if (v->started) {
		app_free(a);
		model_free(&v->models[v->current]);
	}
	http_session_free(&v->session);
	pthread_mutex_destroy(&v->lock);
	pthread_cond_destroy(&v->wake);
	free(v);
}

bool http_live_view_started(const struct http_live_view *v)
{
	return v->started;
}

static void update_title(struct http_live_view *v, bool paused)
{
	char url[1024];
	escape_text(v->session.url, url, sizeof(url));
	snprintf(v->title, sizeof(v->title), "%s  [%zu window%s of %us%s]", url,
		 v->windows_shown, v->windows_shown == 1 ? "" : "s", v->window,
		 paused ? ", paused" : "");
}

static void take_snapshot(struct http_live_view *v, struct app *a)
{
	int next = v->started ? 1 - v->current : 0;
	http_session_model(&v->session, &v->models[next]);
	v->windows_shown = v->session.nwindows;
	update_title(v, v->paused);
	if (!v->started) {
		v->started = true;
		app_init(a, v->title, &v->models[next], VIEW_TOPDOWN);
		a->http_live = v;
	} else {
		app_replace_model(a, &v->models[next]);
		model_free(&v->models[v->current]);
	}
	v->current = next;
}

bool http_live_view_update(struct http_live_view *v, struct app *a)
{
	bool changed = false;
	pthread_mutex_lock(&v->lock);
	if (v->session.nwindows > v->windows_shown) {
		take_snapshot(v, a);
		changed = true;
	}
	if (v->status_news && v->started) {
		app_message(a, "%s", v->status);
		v->status_news = false;
		changed = true;
	}
	pthread_mutex_unlock(&v->lock);
	return changed;
}

void http_live_view_draw_waiting(const struct http_live_view *v)
{
	char url[1024];
	escape_text(v->session.url, url, sizeof(url));
	erase();
	mvprintw(0, 0, "wprof-tui: fetching the first window (%us) from", v->window);
	mvprintw(1, 2, "%s", url);
	if (v->status[0])
		mvprintw(3, 0, "last try: %s", v->status);
	mvprintw(5, 0, "q quits");
}

void http_live_view_toggle_pause(struct app *a)
{
	struct http_live_view *v = a->http_live;
	pthread_mutex_lock(&v->lock);
	v->paused = !v->paused;
	pthread_cond_signal(&v->wake);
	update_title(v, v->paused);
	app_message(a, v->paused ? "paused: no window after the one under way (p resumes)"
				 : "fetching windows again");
	pthread_mutex_unlock(&v->lock);
}

void http_live_view_write(struct app *a)
{
	struct http_live_view *v = a->http_live;
	char path[64], err[512];
	time_t now = time(NULL);
	struct tm tm;
	localtime_r(&now, &tm);
	strftime(path, sizeof(path), "wprof-live-%Y%m%d-%H%M%S.pb.gz", &tm);
	const struct model *m = &v->models[v->current];
	FILE *notes = fopen("/dev/null", "w"); /* the screen says what matters */
	bool ok = notes && export_model(m, m->default_type, EXPORT_PPROF, path, notes, err,
					  sizeof(err));
	if (notes)
		fclose(notes);
	if (ok)
		app_message(a, "wrote %s (%zu windows)", path, v->windows_shown);
	else
		app_message(a, "cannot write %s: %s", path, notes ? err : "no /dev/null");
}
