/* One piece of work on a thread of its own, for what would otherwise hold
 * a key up: the divided rule, a filtered model.  The thread only writes
 * what its job owns; the caller looks at that once background_done says
 * the thread is gone.
 *
 * The gate: each thread doing work that is not made ahead takes a core,
 * the main thread during a key's work (between background_foreground_begin
 * and _end) and every job of background_start from its start to its end
 * (a range's flame graph, the caller chains, a filter's level).
 * Work made ahead of any need (background_start_behind: the granularity
 * models, divided, the range sums) runs only on the cores they leave free of the
 * online CPUs (background_set_cores): it waits for one when it starts and
 * at the end of each of its chunks (background_yield, or
 * background_pause_point in code it shares with other work), and a free
 * core goes to the waiting behind job of the lowest rank, then the first
 * started: one of a higher rank on a core gives it up at its next
 * yield.  A behind job someone waits for (background_wait,
 * background_want) waits no more, and takes its core before every other
 * behind job.  So on two cores a key and the jobs it
 * starts have both, a key alone leaves one to the work ahead (the main
 * thread idle between keys leaves two), and a user who leaves before the
 * work ahead is done waits for none of it (background_stop). */
#ifndef WPROF_BACKGROUND_H
#define WPROF_BACKGROUND_H

#include <pthread.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stddef.h>

struct background {
	pthread_t thread;
	bool threaded; /* false: the work ran inline, no thread to join */
	bool joined;
	void (*run)(void *arg);
	void *arg;
	bool behind; /* background_start_behind's */
	/* A behind job's place at the gate, and its state there (under
	 * the gate's lock). */
	unsigned rank;
	unsigned long order;
	bool on_core, at_gate;
	struct background *next_behind;
	atomic_bool finished;
	atomic_bool wanted; /* someone waits for it: it yields no more */
	atomic_bool stop; /* background_stop's */
};

/* Runs run(arg) on a new thread, or inline when none can be had; takes a
 * core at the gate from its start to its end. */
void background_start(struct background *b, void (*run)(void *arg), void *arg);
/* The ranks of the work made ahead, the lowest first: the granularity
 * models in the order the key shows them (RANK_GRANULARITY, + 1 for the
 * one after), then divided, then the whole profile's range sums (without
 * them a range key sums its samples itself). */
enum background_rank {
	RANK_GRANULARITY = 0,
	RANK_DIVIDED = 4,
	RANK_RANGE_SUMS = 5,
};

/* The same for work made ahead of any need: its thread runs at a lower
 * priority (10 nice steps below its starter's, 19 at most) and only on a
 * core left free (above), before behind jobs of a higher rank.  Run
 * inline (no thread to be had), it is the caller's own work and waits
 * for nothing. */
void background_start_behind(struct background *b, void (*run)(void *arg), void *arg,
			     unsigned rank);
/* A behind job, from its own thread, at the end of a chunk of its work:
 * gives its core back and returns once it has one again, or at once if
 * the job is wanted.  False when the job is to stop (background_stop):
 * it returns from its work then, leaving what it made to its owner.  Any
 * other job returns at once, false too when it is to stop. */
bool background_yield(struct background *b);
/* background_yield for the job whose thread calls it, if any; elsewhere
 * true at once.  For the loops a job shares with other work (a model's
 * finishing, the rules, the caller chains, a range's sums), between
 * their phases: so that no step of a behind job runs on for long once a
 * key comes.  Where a phase can return early with all it made in the
 * caller's hands (model_finish, a round of the caller chains' sort),
 * false makes it return. */
bool background_pause_point(void);
/* How many turns of a loop of work made ahead pass between its pause
 * points: a millisecond or two on a large profile, so that a key's work,
 * and a job it waits for, has the core soon after it comes. */
#define PAUSE_EVERY_NODES ((size_t)1 << 15)
#define PAUSE_EVERY_SAMPLES ((size_t)1 << 20)
/* background_pause_point at turn 0 of a loop and at every `every`th
 * after it; true at every other turn. */
static inline bool background_pause_in_loop(size_t turn, size_t every)
{
	return turn % every != 0 || background_pause_point();
}
/* Someone waits for the job b (started): it yields no more, and comes
 * before every behind job that is not wanted. */
void background_want(struct background *b);
/* Nobody needs what the job b makes any longer (the explorer closing,
 * its model going): it waits at the gate no more and ends at its next
 * yield or pause point that can end it (a behind job before it starts,
 * too); its owner then waits for it as for any job and frees what it
 * made. */
void background_stop(struct background *b);
/* Around a key's work on the main thread: it takes a core.  Nested pairs
 * count once. */
void background_foreground_begin(void);
void background_foreground_end(void);
/* The cores the gate shares out: n, or the online CPUs when n is 0 (the
 * default); for tests, which need the gate's answer whatever the
 * machine. */
void background_set_cores(unsigned n);
/* True (and the thread joined) once the work is over; never waits,
 * except for up to grace_ms milliseconds. */
bool background_done(struct background *b, int grace_ms);
/* Waits for the work to end (wanting it). */
void background_wait(struct background *b);
/* With `wait`, background_wait and true; else background_done(b, 0):
 * for whoever takes a job's result now or at its next chance. */
bool background_over(struct background *b, bool wait);

#endif
