/* The thread that runs an inspector target's profiler windows; see
 * cdp_live.h. */
#include "cdp_live.h"

#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/util.h"

struct cdp_live {
	struct cdp *cdp;
	pthread_t thread;
	pthread_mutex_t lock; /* the fields below */
	bool quit;
	bool profiling;
	bool failed;
	unsigned long folded, taken; /* windows folded, and seen by snapshots */
	char state[700];
	char news[600]; /* for the status line, once: why windows */
};

static void set_state(struct cdp_live *cl, const char *text)
{
	pthread_mutex_lock(&cl->lock);
	snprintf(cl->state, sizeof(cl->state), "%s", text);
	pthread_mutex_unlock(&cl->lock);
}

static bool wanted(struct cdp_live *cl, bool *profiling)
{
	pthread_mutex_lock(&cl->lock);
	bool quit = cl->quit;
	*profiling = cl->profiling;
	pthread_mutex_unlock(&cl->lock);
	return !quit;
}

static void note_result(struct cdp_live *cl, bool ok, bool news, const char *err)
{
	pthread_mutex_lock(&cl->lock);
	if (!ok) {
		cl->failed = true;
		cl->quit = true;
		snprintf(cl->state, sizeof(cl->state), "connection ended: %s", err);
	} else if (news) {
		cl->folded++;
	}
	pthread_mutex_unlock(&cl->lock);
}

/* Steps of a wait: p and q are heard within one. */
#define LISTEN_STEP_SECONDS 0.1

/* Reads what the target says (its program's end among it) for up to
 * `seconds`, cut short by p, q or that end; false with err when the
 * connection failed. */
static bool listen_while_wanted(struct cdp_live *cl, double seconds, char *err, size_t cap)
{
	bool ok = true, was, now;
	wanted(cl, &was);
	for (double left = seconds; ok && left > 0 && !cdp_program_ended(cl->cdp) &&
	     wanted(cl, &now) && now == was; left -= LISTEN_STEP_SECONDS)
		ok = cdp_listen(cl->cdp, left < LISTEN_STEP_SECONDS ? left : LISTEN_STEP_SECONDS,
				err, cap);
	return ok;
}

/* One Profiler window: started unless one runs, its time spent
 * listening; then folded, the next one running from before it ended
 * unless profiling stops or the program has ended. */
static bool poll_window(struct cdp_live *cl, char *err, size_t cap)
{
	bool now;
	bool ok = cdp_start(cl->cdp, err, cap) &&
		  listen_while_wanted(cl, CDP_WINDOW_SECONDS, err, cap);
	bool go_on = wanted(cl, &now) && now && !cdp_program_ended(cl->cdp);
	return ok && cdp_next(cl->cdp, go_on, err, cap);
}

/* Node's program is over: the session ends there, whatever was under
 * way when Node said so (a window started in the same batch as the last
 * one's stop, a bridge unanswered: cdp_finish stops and folds it), and
 * Node is let go. */
static void end_of_program(struct cdp_live *cl)
{
	char err[600];
	bool ok = cdp_finish(cl->cdp, err, sizeof(err));
	pthread_mutex_lock(&cl->lock);
	cl->folded++;
	cl->quit = true;
	cl->failed = true; /* p cannot start it again */
	snprintf(cl->state, sizeof(cl->state), "program ended%s%s", ok ? "" : "; ",
		 ok ? "" : err);
	pthread_mutex_unlock(&cl->lock);
}

/* A tenth of a second of trace batches: new data as soon as it comes,
 * and p heard within that. */
#define FOLLOW_SECONDS 0.1

static void *run(void *arg)
{
	struct cdp_live *cl = arg;
	char err[600];
	bool profiling;
	set_state(cl, "asking for Tracing");
	bool begun = cdp_begin(cl->cdp, err, sizeof(err));
	note_result(cl, begun, false, err);
	if (begun && *cdp_mode_why(cl->cdp)) {
		pthread_mutex_lock(&cl->lock);
		snprintf(cl->news, sizeof(cl->news), "%s because %s", cdp_mode(cl->cdp),
			 cdp_mode_why(cl->cdp));
		pthread_mutex_unlock(&cl->lock);
	}
	while (wanted(cl, &profiling)) {
		bool streaming = cdp_streaming(cl->cdp);
		if (!profiling) {
			unsigned long before = cdp_batches(cl->cdp);
			bool ok = !streaming || cdp_follow(cl->cdp, false, 0, err, sizeof(err));
			note_result(cl, ok, cdp_batches(cl->cdp) != before, err);
			if (ok)
				set_state(cl, "not profiling (p starts)");
			/* Still listening: the program may end meanwhile. */
			if (ok)
				note_result(cl, listen_while_wanted(cl, 3600, err, sizeof(err)),
					    false, err);
		} else if (streaming) {
			set_state(cl, cdp_mode(cl->cdp));
			unsigned long before = cdp_batches(cl->cdp);
			bool ok = cdp_follow(cl->cdp, true, FOLLOW_SECONDS, err, sizeof(err));
			note_result(cl, ok, cdp_batches(cl->cdp) != before, err);
		} else {
			set_state(cl, cdp_mode(cl->cdp));
			note_result(cl, poll_window(cl, err, sizeof(err)), true, err);
		}
		if (cdp_program_ended(cl->cdp))
			end_of_program(cl);
	}
	return NULL;
}

struct cdp_live *cdp_live_start(const struct cdp_options *o, char *err, size_t cap)
{
	struct cdp *c = cdp_attach(o, err, cap);
	if (!c)
		return NULL;
	struct cdp_live *cl = xcalloc(1, sizeof(*cl));
	cl->cdp = c;
	cl->profiling = true;
	pthread_mutex_init(&cl->lock, NULL);
	if (pthread_create(&cl->thread, NULL, run, cl)) {
		snprintf(err, cap, "cannot start a thread");
		cdp_free(c);
		free(cl);
		return NULL;
	}
	return cl;
}

void cdp_live_free(struct cdp_live *cl)
{
	pthread_mutex_lock(&cl->lock);
	cl->quit = true;
	pthread_mutex_unlock(&cl->lock);
	pthread_join(cl->thread, NULL);
	cdp_free(cl->cdp);
	pthread_mutex_destroy(&cl->lock);
	free(cl);
}

const char *cdp_live_name(const struct cdp_live *cl)
{
	return cdp_target_name(cl->cdp);
}

const char *cdp_live_url(const struct cdp_live *cl)
{
	return cdp_target_url(cl->cdp);
}

void cdp_live_set_profiling(struct cdp_live *cl, bool on)
{
	pthread_mutex_lock(&cl->lock);
	cl->profiling = on;
	pthread_mutex_unlock(&cl->lock);
}

bool cdp_live_profiling(struct cdp_live *cl)
{
	pthread_mutex_lock(&cl->lock);
	bool on = cl->profiling && !cl->failed;
	pthread_mutex_unlock(&cl->lock);
	return on;
}

bool cdp_live_news(struct cdp_live *cl, char *out, size_t cap)
{
	pthread_mutex_lock(&cl->lock);
	bool any = cl->news[0] != 0;
	snprintf(out, cap, "%s", cl->news);
	cl->news[0] = 0;
	pthread_mutex_unlock(&cl->lock);
	return any;
}

void cdp_live_state(struct cdp_live *cl, char *out, size_t cap)
{
	pthread_mutex_lock(&cl->lock);
	snprintf(out, cap, "%s", cl->state);
	pthread_mutex_unlock(&cl->lock);
}

enum cdp_refresh cdp_live_refresh(struct cdp_live *cl, struct model *shown,
				  struct model *fresh)
{
	pthread_mutex_lock(&cl->lock);
	unsigned long folded = cl->folded;
	bool news = folded != cl->taken;
	pthread_mutex_unlock(&cl->lock);
	char err[600];
	enum cdp_refresh r = news ? cdp_refresh(cl->cdp, shown, fresh, err, sizeof(err))
				  : CDP_NOTHING;
	if (r != CDP_NOTHING)
		cl->taken = folded; /* only the explorer's thread reads and writes it */
	return r;
}

bool cdp_live_write(struct cdp_live *cl, const char *path, char *err, size_t cap)
{
	return cdp_session_write(cl->cdp, path, err, cap);
}
