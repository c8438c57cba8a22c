/* One piece of work on a thread of its own, for what would otherwise hold
 * a key up: the divided rule, a filtered model.  The thread only writes
 * what its job owns; the caller looks at that once background_done says
 * the thread is gone. */
#ifndef WPROF_BACKGROUND_H
#define WPROF_BACKGROUND_H

#include <pthread.h>
#include <stdatomic.h>
#include <stdbool.h>

struct background {
	pthread_t thread;
	bool threaded; /* false: the work ran inline, no thread to join */
	bool joined;
	void (*run)(void *arg);
	void *arg;
	bool behind; /* background_start_behind's */
	atomic_bool finished;
};

/* Runs run(arg) on a new thread, or inline when none can be had. */
void background_start(struct background *b, void (*run)(void *arg), void *arg);
/* The same for work made ahead of any need (a range key's start): its
 * thread runs at a lower priority (nice 10), so that on two cores it
 * leaves them to the work a key may be waiting for (the caller chains
 * of the bottom-up pane, a filter's level). */
void background_start_behind(struct background *b, void (*run)(void *arg), void *arg);
/* True (and the thread joined) once the work is over; never waits,
 * except for up to grace_ms milliseconds. */
bool background_done(struct background *b, int grace_ms);
/* Waits for the work to end. */
void background_wait(struct background *b);
/* With `wait`, background_wait and true; else background_done(b, 0):
 * for whoever takes a job's result now or at its next chance. */
bool background_over(struct background *b, bool wait);

#endif
