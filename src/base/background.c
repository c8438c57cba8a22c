#include "background.h"

#include <sys/resource.h>
#include <time.h>
#include <unistd.h>

/* The gate: the threads taking a core by their work (busy), the behind
 * jobs whose threads are alive (on a core, at the gate or on their way
 * to it), and the signal that any of that changed. */
static pthread_mutex_t gate_lock = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t gate_changed = PTHREAD_COND_INITIALIZER;
static unsigned busy, cores_set; /* cores_set: background_set_cores's */
static struct background *behind_jobs;
static unsigned long behind_started;

/* How deep this thread is in nested pairs of a key's work. */
static _Thread_local unsigned key_depth;

void background_set_cores(unsigned n)
{
	pthread_mutex_lock(&gate_lock);
	cores_set = n;
	pthread_cond_broadcast(&gate_changed);
	pthread_mutex_unlock(&gate_lock);
}

/* Under the gate's lock; the online CPUs read once, not at each yield. */
static unsigned cores(void)
{
	static unsigned online;
	if (cores_set)
		return cores_set;
	if (!online) {
		long n = sysconf(_SC_NPROCESSORS_ONLN);
		online = n > 1 ? (unsigned)n : 1;
	}
	return online;
}

static void add_busy(int threads)
{
	pthread_mutex_lock(&gate_lock);
	busy += threads;
	if (threads < 0)
		pthread_cond_broadcast(&gate_changed);
	pthread_mutex_unlock(&gate_lock);
}

void background_foreground_begin(void)
{
	if (key_depth++ == 0)
		add_busy(1);
}

void background_foreground_end(void)
{
	if (key_depth && --key_depth == 0)
		add_busy(-1);
}

static bool ranked_before(const struct background *w, const struct background *b)
{
	return w->rank < b->rank || (w->rank == b->rank && w->order < b->order);
}

/* Under the gate's lock: the cores are not all taken by busy threads
 * and the behind jobs ranked before b or wanted, on a core or waiting
 * for one.  Those ranked after it do not count: they give their core up
 * at their next yield.  A wanted job is what a key waits for: it passes
 * whatever the rest, and comes first. */
static bool may_pass(const struct background *b)
{
	if (atomic_load(&b->wanted))
		return true;
	unsigned taken = busy;
	for (const struct background *w = behind_jobs; w; w = w->next_behind)
		taken += (w->on_core || w->at_gate) &&
			 (atomic_load(&w->wanted) || ranked_before(w, b));
	return taken < cores();
}

static void leave_core(struct background *b)
{
	b->on_core = false;
	pthread_cond_broadcast(&gate_changed);
}

/* Under the gate's lock. */
static void unlink_behind(struct background *b)
{
	struct background **p = &behind_jobs;
	while (*p != b)
		p = &(*p)->next_behind;
	*p = b->next_behind;
}

bool background_yield(struct background *b)
{
	if (!b->behind)
		return !atomic_load(&b->stop);
	pthread_mutex_lock(&gate_lock);
	leave_core(b);
	b->at_gate = true;
	while (!may_pass(b))
		pthread_cond_wait(&gate_changed, &gate_lock);
	b->at_gate = false;
	b->on_core = true;
	pthread_mutex_unlock(&gate_lock);
	return !atomic_load(&b->stop);
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

void background_stop(struct background *b)
{
	atomic_store(&b->stop, true);
	background_want(b);
}

/* The job this thread runs, for background_pause_point. */
static _Thread_local struct background *job_here;

bool background_pause_point(void)
{
	return !job_here || background_yield(job_here);
}

static void *trampoline(void *arg)
{
	struct background *b = arg;
	job_here = b;
	b->run(b->arg);
	atomic_store(&b->finished, true);
	add_busy(-1);
	return NULL;
}

/* A behind job runs once it has a core, and gives it back at its end. */
static void *behind_trampoline(void *arg)
{
	struct background *b = arg;
	/* Linux: a thread's own priority, by its id.  Ten below the thread
	 * that started it, whose nice it inherits: an explorer started with
	 * `nice` keeps its work behind. */
	id_t me = (id_t)gettid();
	int behind_nice = getpriority(PRIO_PROCESS, me) + 10;
	setpriority(PRIO_PROCESS, me, behind_nice > 19 ? 19 : behind_nice);
	job_here = b;
	if (background_yield(b))
		b->run(b->arg);
	pthread_mutex_lock(&gate_lock);
	leave_core(b);
	unlink_behind(b);
	pthread_mutex_unlock(&gate_lock);
	atomic_store(&b->finished, true);
	return NULL;
}

static void start(struct background *b, void (*run)(void *arg), void *arg, bool behind)
{
	b->run = run;
	b->arg = arg;
	b->joined = false;
	b->behind = behind;
	b->on_core = b->at_gate = false;
	atomic_init(&b->finished, false);
	atomic_init(&b->wanted, false);
	atomic_init(&b->stop, false);
	/* Counted from here, before its thread runs, so that no behind job
	 * slips in between. */
	if (behind) {
		pthread_mutex_lock(&gate_lock);
		b->order = behind_started++;
		b->next_behind = behind_jobs;
		behind_jobs = b;
		pthread_mutex_unlock(&gate_lock);
	} else {
		add_busy(1);
	}
	void *(*body)(void *) = behind ? behind_trampoline : trampoline;
	b->threaded = pthread_create(&b->thread, NULL, body, b) == 0;
	if (!b->threaded) { /* inline: the caller's own work */
		if (behind) {
			pthread_mutex_lock(&gate_lock);
			unlink_behind(b);
			pthread_mutex_unlock(&gate_lock);
		}
		b->behind = false;
		run(arg);
		atomic_store(&b->finished, true);
		if (!behind)
			add_busy(-1);
	}
}

void background_start(struct background *b, void (*run)(void *arg), void *arg)
{
	start(b, run, arg, false);
}

void background_start_behind(struct background *b, void (*run)(void *arg), void *arg,
			     unsigned rank)
{
	b->rank = rank;
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
