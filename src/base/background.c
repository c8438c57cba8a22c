#include "background.h"

#include <sys/resource.h>
#include <time.h>
#include <unistd.h>

/* The gate behind jobs wait at: how much foreground work runs now, and
 * the signal that it went down to none or that a job became wanted. */
static pthread_mutex_t gate_lock = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t gate_changed = PTHREAD_COND_INITIALIZER;
static unsigned foreground_running;

void background_foreground_begin(void)
{
	pthread_mutex_lock(&gate_lock);
	foreground_running++;
	pthread_mutex_unlock(&gate_lock);
}

void background_foreground_end(void)
{
	pthread_mutex_lock(&gate_lock);
	if (foreground_running && --foreground_running == 0)
		pthread_cond_broadcast(&gate_changed);
	pthread_mutex_unlock(&gate_lock);
}

void background_yield(struct background *b)
{
	if (!b->behind)
		return;
	pthread_mutex_lock(&gate_lock);
	while (foreground_running && !atomic_load(&b->wanted))
		pthread_cond_wait(&gate_changed, &gate_lock);
	pthread_mutex_unlock(&gate_lock);
}

void background_want(struct background *b)
{
	if (atomic_exchange(&b->wanted, true))
		return;
	/* Under the lock: a job between its test and its wait hears it. */
	pthread_mutex_lock(&gate_lock);
	pthread_cond_broadcast(&gate_changed);
	pthread_mutex_unlock(&gate_lock);
}

/* The behind job this thread runs, for background_pause_point. */
static _Thread_local struct background *behind_here;

void background_pause_point(void)
{
	if (behind_here)
		background_yield(behind_here);
}

/* A job started now is foreground work when some runs: it joins it. */
static bool join_foreground(void)
{
	pthread_mutex_lock(&gate_lock);
	bool joins = foreground_running > 0;
	foreground_running += joins;
	pthread_mutex_unlock(&gate_lock);
	return joins;
}

static void *trampoline(void *arg)
{
	struct background *b = arg;
	if (b->behind) { /* Linux: a thread's own priority, by its id */
		/* Ten below the thread that started it, whose nice it inherits:
		 * an explorer started with `nice` keeps its work behind. */
		id_t me = (id_t)gettid();
		int behind_nice = getpriority(PRIO_PROCESS, me) + 10;
		setpriority(PRIO_PROCESS, me, behind_nice > 19 ? 19 : behind_nice);
		behind_here = b;
	}
	b->run(b->arg);
	atomic_store(&b->finished, true);
	return NULL;
}

/* A foreground job counts from its start (join_foreground), before its
 * thread runs, so that no behind job slips in between. */
static void *foreground_trampoline(void *arg)
{
	struct background *b = arg;
	trampoline(b);
	background_foreground_end();
	return NULL;
}

static void start(struct background *b, void (*run)(void *arg), void *arg, bool behind)
{
	b->run = run;
	b->arg = arg;
	b->joined = false;
	b->behind = behind;
	atomic_init(&b->finished, false);
	atomic_init(&b->wanted, false);
	b->foreground = !behind && join_foreground();
	void *(*body)(void *) = b->foreground ? foreground_trampoline : trampoline;
	b->threaded = pthread_create(&b->thread, NULL, body, b) == 0;
	if (!b->threaded) {
		b->behind = false; /* inline: the caller's own thread */
		body(b);
	}
}

void background_start(struct background *b, void (*run)(void *arg), void *arg)
{
	start(b, run, arg, false);
}

void background_start_behind(struct background *b, void (*run)(void *arg), void *arg)
{
	start(b, run, arg, true);
}

void background_wait(struct background *b)
{
	background_want(b);
	if (b->threaded && !b->joined)
		pthread_join(b->thread, NULL);
	b->joined = true;
}

bool background_done(struct background *b, int grace_ms)
{
	struct timespec ms = { 0, 1000000 };
	for (int i = 0; i < grace_ms && !atomic_load(&b->finished); i++)
		nanosleep(&ms, NULL);
	if (!atomic_load(&b->finished))
		return false;
	background_wait(b);
	return true;
}

bool background_over(struct background *b, bool wait)
{
	if (!wait)
		return background_done(b, 0);
	background_wait(b);
	return true;
}
