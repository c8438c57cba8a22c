/* One piece of work on a thread of its own, for what would otherwise hold
 * a key up: the divided rule, a filtered model.  The thread only writes
 * what its job owns; the caller looks at that once background_done says
 * the thread is gone.
 *
 * Foreground work is what a user waits for: a key's own work on the main
 * thread (between background_foreground_begin and _end) and every job of
 * background_start started during it, from its start to its end (a
 * range's flame graph, divided asked for by the screen, a filter's
 * level).  A job of background_start started outside a key's work (at
 * the first screen: the caller chains, divided made ahead) runs beside,
 * at the caller's priority, holding nothing up.  Work made ahead of any
 * need (background_start_behind: the granularity models, the range sums)
 * gives way to foreground work: at the end of each of its chunks it
 * calls background_yield, which waits while any foreground work runs,
 * unless someone waits for that job itself (background_wait,
 * background_want).  So on two cores a key and the jobs it starts have
 * both, and the work ahead goes on while the user reads the screen. */
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
	bool foreground; /* started during foreground work: part of it */
	atomic_bool finished;
	atomic_bool wanted; /* someone waits for it: it yields no more */
};

/* Runs run(arg) on a new thread, or inline when none can be had; part
 * of the foreground work when started during some (above). */
void background_start(struct background *b, void (*run)(void *arg), void *arg);
/* The same for work made ahead of any need (a range key's start): its
 * thread runs at a lower priority (10 nice steps below its starter's,
 * 19 at most) and yields to foreground work (background_yield), so that
 * on two cores it leaves them to the work a key may be waiting for (the
 * caller chains of the bottom-up pane, a filter's level).  Run inline
 * (no thread to be had), it is the caller's own work and yields to
 * nothing. */
void background_start_behind(struct background *b, void (*run)(void *arg), void *arg);
/* A behind job, from its own thread, at the end of a chunk of its work:
 * returns once no foreground work runs, or at once if the job is wanted.
 * Any other job returns at once. */
void background_yield(struct background *b);
/* background_yield for the behind job whose thread calls it, if any;
 * elsewhere nothing.  For the loops such a job shares with foreground
 * work (a model's finishing, the rules, the caller chains, a range's
 * sums), between their phases: so that no step of the job runs on for
 * long once a key comes. */
void background_pause_point(void);
/* Someone waits for the job b (started): it yields no more. */
void background_want(struct background *b);
/* Around a key's work on the main thread: behind jobs wait meanwhile.
 * Nested pairs count. */
void background_foreground_begin(void);
void background_foreground_end(void);
/* True (and the thread joined) once the work is over; never waits,
 * except for up to grace_ms milliseconds. */
bool background_done(struct background *b, int grace_ms);
/* Waits for the work to end (wanting it). */
void background_wait(struct background *b);
/* With `wait`, background_wait and true; else background_done(b, 0):
 * for whoever takes a job's result now or at its next chance. */
bool background_over(struct background *b, bool wait);

#endif
