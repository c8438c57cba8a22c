#include "background.h"

#include <sys/resource.h>
#include <time.h>
#include <unistd.h>

static void *trampoline(void *arg)
{
	struct background *b = arg;
	if (b->behind) /* Linux: a thread's own priority, by its id */
		setpriority(PRIO_PROCESS, (id_t)gettid(), 10);
	b->run(b->arg);
	atomic_store(&b->finished, true);
	return NULL;
}

static void start(struct background *b, void (*run)(void *arg), void *arg, bool behind)
{
	b->run = run;
	b->arg = arg;
	b->joined = false;
	b->behind = behind;
	atomic_init(&b->finished, false);
	b->threaded = pthread_create(&b->thread, NULL, trampoline, b) == 0;
	if (!b->threaded) {
		b->behind = false; /* inline: the caller's own thread */
		trampoline(b);
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
