/* src/base/background: a job runs once on its thread and its result is
 * the caller's once done; background_start_behind's thread runs at nice
 * 10 above the caller's (issue 29: the range sums made ahead leave the
 * two cores to the caller chains a key waits for), background_start's at
 * the caller's own; and a behind job waits at background_yield while
 * the threads of other work (a key's, a background_start job's) take
 * every core, a free core going to the lowest rank first, unless it is
 * wanted; stopped, it ends at its next yield. */
#include <stdatomic.h>
#include <stdlib.h>
#include <sys/resource.h>
#include <time.h>
#include <unistd.h>

#include "base/background.h"
#include "check.h"

struct job {
	int runs;
	int nice; /* the thread's own, as it ran */
};

static void run(void *arg)
{
	struct job *j = arg;
	j->runs++;
	j->nice = getpriority(PRIO_PROCESS, (id_t)gettid());
}

static void check_job(bool behind, int want_nice)
{
	struct job j = { 0, -100 };
	struct background b;
	if (behind)
		background_start_behind(&b, run, &j, 0);
	else
		background_start(&b, run, &j);
	while (!background_done(&b, 1))
		;
	CHECK(b.joined);
	CHECK(j.runs == 1);
	CHECK_MSG(j.nice == want_nice, "%s: nice %d, want %d", behind ? "behind" : "beside",
		  j.nice, want_nice);
	CHECK(background_over(&b, true)); /* once joined, nothing to wait for */
	CHECK(j.runs == 1);
}

/* ---- the gate ------------------------------------------------------------ */

static void sleep_ms(int ms)
{
	struct timespec t = { 0, ms * 1000000L };
	nanosleep(&t, NULL);
}

/* A foreground job that runs until it is let go. */
struct holding {
	atomic_bool let_go;
};

static void hold(void *arg)
{
	struct holding *h = arg;
	while (!atomic_load(&h->let_go))
		sleep_ms(1);
}

/* A behind job of two chunks: `past` says how far it got.  Its first
 * chunk ends once `go` says so. */
struct ahead {
	struct background *self;
	atomic_int past; /* 1: in its first chunk; 2: past its yield */
	atomic_bool go;
};

static void first_chunk(struct ahead *j)
{
	atomic_store(&j->past, 1);
	while (!atomic_load(&j->go))
		sleep_ms(1);
}

static void go_ahead(void *arg)
{
	struct ahead *j = arg;
	first_chunk(j);
	background_yield(j->self);
	atomic_store(&j->past, 2);
}

/* The same, pausing where the code it runs says it may (a loop shared
 * with foreground work), not knowing its job. */
static void go_ahead_by_pause_point(void *arg)
{
	struct ahead *j = arg;
	first_chunk(j);
	background_pause_point();
	atomic_store(&j->past, 2);
}

/* The same in a loop over nodes: turns 1 to 32 767 pass on, turn
 * 32 768 pauses. */
static void go_ahead_by_loop(void *arg)
{
	struct ahead *j = arg;
	first_chunk(j);
	for (size_t turn = 1; turn <= 32768; turn++) {
		if (turn == 32768)
			atomic_store(&j->past, 1); /* did not pause before */
		background_pause_in_loop(turn, PAUSE_EVERY_NODES);
	}
	atomic_store(&j->past, 2);
}

/* A behind job begun while the cores are free stops at its yield while
 * `begin`'s work runs (80 ms: a broken gate lets it through in
 * microseconds), and ends by itself once that work does. */
static void check_gate(const char *what, void (*job)(void *), void (*begin)(void *),
		       void (*end)(void *), void *state)
{
	struct ahead j = { 0 };
	struct background b;
	j.self = &b;
	background_start_behind(&b, job, &j, 0);
	while (atomic_load(&j.past) < 1)
		sleep_ms(1);
	begin(state);
	atomic_store(&j.go, true);
	sleep_ms(80);
	CHECK_MSG(atomic_load(&j.past) == 1, "%s: the behind job went past its yield", what);
	CHECK_MSG(!background_done(&b, 0), "%s: the behind job ended", what);
	end(state);
	for (int ms = 0; ms < 5000 && !background_done(&b, 1); ms++)
		; /* not background_wait, which would let it through */
	CHECK_MSG(atomic_load(&j.past) == 2, "%s: the behind job did not end", what);
}

static void key_begins(void *state)
{
	(void)state;
	background_foreground_begin();
}

static void key_ends(void *state)
{
	(void)state;
	background_foreground_end();
}

struct held_job {
	struct holding h;
	struct background b;
};

/* A job a key starts (a range's flame graph) outlasts the key's work. */
static void job_begins(void *state)
{
	struct held_job *f = state;
	atomic_init(&f->h.let_go, false);
	background_foreground_begin();
	background_start(&f->b, hold, &f->h);
	background_foreground_end();
}

static void job_ends(void *state)
{
	struct held_job *f = state;
	atomic_store(&f->h.let_go, true);
	background_wait(&f->b);
}

/* Waiting for a behind job lets it through the gate: a key that needs
 * its result (a granularity's model) does not wait for itself. */
static void check_wanted(void)
{
	struct ahead j = { .go = true };
	struct background b;
	j.self = &b;
	background_foreground_begin();
	background_start_behind(&b, go_ahead, &j, 0);
	background_wait(&b); /* would never return if it still yielded */
	CHECK(atomic_load(&j.past) == 2);
	background_foreground_end();
}

/* Does a behind job started now run through, unwanted (a free core)? */
static bool behind_runs_through(void)
{
	struct ahead j = { .go = true };
	struct background b;
	j.self = &b;
	background_start_behind(&b, go_ahead, &j, 0);
	for (int ms = 0; ms < 5000 && !background_done(&b, 1); ms++)
		; /* not background_wait, which would let it through */
	return atomic_load(&j.past) == 2;
}

/* A job started outside a key's work (made ahead at the first screen)
 * takes one core: on two, the behind job has the other. */
static void check_beside(void)
{
	struct held_job beside;
	atomic_init(&beside.h.let_go, false);
	background_start(&beside.b, hold, &beside.h);
	CHECK(behind_runs_through());
	job_ends(&beside);
}

/* ---- the cores ----------------------------------------------------------- */

/* On two cores a key's work takes one: the behind job has the other. */
static void check_key_leaves_a_core(void)
{
	background_foreground_begin();
	CHECK_MSG(behind_runs_through(), "a key's work alone held the behind job up");
	background_foreground_end();
}

/* A key's work and a job it started: two cores taken. */
static void key_and_job_begin(void *state)
{
	background_foreground_begin();
	job_begins(state);
}

static void key_and_job_end(void *state)
{
	job_ends(state);
	background_foreground_end();
}

/* A behind job holding its core until let go. */
struct held_behind {
	struct background b;
	struct holding h;
	atomic_bool began;
};

static void hold_behind(void *arg)
{
	struct held_behind *j = arg;
	atomic_store(&j->began, true);
	hold(&j->h);
}

static void start_held_behind(struct held_behind *j, unsigned rank)
{
	atomic_init(&j->began, false);
	atomic_init(&j->h.let_go, false);
	background_start_behind(&j->b, hold_behind, j, rank);
}

static void wait_began(struct held_behind *j)
{
	for (int ms = 0; ms < 5000 && !atomic_load(&j->began); ms++)
		sleep_ms(1);
}

/* `done` let go and ended: `next`, at the gate meanwhile, begins then,
 * and is let go too. */
static void let_go_in_turn(struct held_behind *done, struct held_behind *next)
{
	atomic_store(&done->h.let_go, true);
	background_wait(&done->b);
	wait_began(next);
	CHECK(atomic_load(&next->began));
	atomic_store(&next->h.let_go, true);
	background_wait(&next->b);
}

/* Two behind jobs waiting for one free core: the lower rank has it,
 * though started second (the model the key shows next before the range
 * sums); the other waits until it ends. */
static void check_ranks(void)
{
	struct held_job side;
	key_and_job_begin(&side); /* both cores taken */
	struct held_behind later, first;
	start_held_behind(&later, 1);
	start_held_behind(&first, 0);
	sleep_ms(200); /* both at the gate */
	CHECK(!atomic_load(&later.began) && !atomic_load(&first.began));
	job_ends(&side); /* one core free */
	wait_began(&first);
	sleep_ms(80);
	CHECK_MSG(atomic_load(&first.began) && !atomic_load(&later.began),
		  "a free core went to the higher rank");
	let_go_in_turn(&first, &later);
	background_foreground_end();
}

/* A behind job holding its core until let go, then yielding once. */
struct yielding_behind {
	struct held_behind held;
	atomic_bool past;
};

static void hold_then_yield(void *arg)
{
	struct yielding_behind *j = arg;
	hold_behind(&j->held);
	background_yield(&j->held.b);
	atomic_store(&j->past, true);
}

/* A behind job of a lower rank that comes to the gate while one of a
 * higher rank holds the free core runs at once, and the other gives the
 * core up at its next yield (the range sums under way when a model is
 * started, the model by lines when the one by files comes back from a
 * pause). */
static void check_higher_rank_gives_way(void)
{
	background_foreground_begin(); /* one core of two taken */
	struct yielding_behind later;
	atomic_init(&later.past, false);
	atomic_init(&later.held.began, false);
	atomic_init(&later.held.h.let_go, false);
	background_start_behind(&later.held.b, hold_then_yield, &later, 1);
	wait_began(&later.held);
	struct held_behind first;
	start_held_behind(&first, 0);
	wait_began(&first);
	CHECK_MSG(atomic_load(&first.began), "the lower rank waited for the higher");
	atomic_store(&later.held.h.let_go, true);
	sleep_ms(80);
	CHECK_MSG(!atomic_load(&later.past), "the higher rank kept its core at its yield");
	atomic_store(&first.h.let_go, true);
	background_wait(&first.b);
	for (int ms = 0; ms < 5000 && !background_done(&later.held.b, 1); ms++)
		;
	CHECK(atomic_load(&later.past));
	background_foreground_end();
}

/* A wanted behind job comes before every other, whatever its rank:
 * with a key's work on one core of two and a wanted job of rank 5 on the
 * other, a job of rank 0 waits until the wanted one ends (divided, asked
 * for by `r`, before the granularity models made ahead). */
static void check_wanted_comes_first(void)
{
	background_foreground_begin();
	struct held_behind wanted, first;
	start_held_behind(&wanted, 5);
	wait_began(&wanted);
	background_want(&wanted.b);
	start_held_behind(&first, 0);
	sleep_ms(200);
	CHECK_MSG(atomic_load(&wanted.began) && !atomic_load(&first.began),
		  "a lower rank took the core of a wanted job");
	let_go_in_turn(&wanted, &first);
	background_foreground_end();
}

/* ---- stopping ------------------------------------------------------------ */

/* Stopped at the gate, a behind job never runs. */
static void check_stopped_before_start(void)
{
	struct job j = { 0, -100 };
	struct background b;
	background_foreground_begin(); /* the one core taken */
	background_start_behind(&b, run, &j, 0);
	sleep_ms(20);
	background_stop(&b);
	background_wait(&b);
	CHECK(j.runs == 0);
	background_foreground_end();
}

/* Two seconds of work in 1 ms steps, with a pause point after each and
 * an array of its own, freed however it ends (ASan would say). */
enum { LONG_STEPS = 2000 };

struct long_job {
	atomic_int steps;
};

static void run_long(void *arg)
{
	struct long_job *j = arg;
	char *mine = malloc(4096);
	for (int i = 0; i < LONG_STEPS; i++) {
		mine[i % 4096] = (char)i;
		sleep_ms(1);
		atomic_fetch_add(&j->steps, 1);
		if (!background_pause_point())
			break;
	}
	free(mine);
}

/* Stopped halfway, a job ends at its next pause point: quitting waits
 * for a step, not the whole job. */
static void check_stopped_halfway(bool behind)
{
	struct long_job j;
	atomic_init(&j.steps, 0);
	struct background b;
	if (behind)
		background_start_behind(&b, run_long, &j, 0);
	else
		background_start(&b, run_long, &j);
	while (atomic_load(&j.steps) < 5)
		sleep_ms(1);
	background_stop(&b);
	background_wait(&b);
	CHECK_MSG(atomic_load(&j.steps) < LONG_STEPS / 2,
		  "stopped, the %s job went on for %d steps of %d", behind ? "behind" : "beside",
		  atomic_load(&j.steps), LONG_STEPS);
}

int main(void)
{
	int own = getpriority(PRIO_PROCESS, (id_t)gettid());
	check_job(false, own);
	/* Nice saturates at 19: a caller already near it gets 19. */
	check_job(true, own + 10 > 19 ? 19 : own + 10);
	/* On one core, one thread of a key's or a job's work holds the
	 * work ahead. */
	background_set_cores(1);
	check_gate("a key's work", go_ahead, key_begins, key_ends, NULL);
	struct held_job job;
	check_gate("a foreground job", go_ahead, job_begins, job_ends, &job);
	check_gate("a pause point", go_ahead_by_pause_point, key_begins, key_ends, NULL);
	check_gate("a loop's pause point", go_ahead_by_loop, key_begins, key_ends, NULL);
	check_wanted();
	check_stopped_before_start();
	background_set_cores(2);
	check_beside();
	check_key_leaves_a_core();
	check_gate("a key's work and its job, on two cores", go_ahead, key_and_job_begin,
		   key_and_job_end, &job);
	check_ranks();
	check_higher_rank_gives_way();
	check_wanted_comes_first();
	check_stopped_halfway(true);
	check_stopped_halfway(false);
	/* Foreground work passes its pause points: the key's own here. */
	background_foreground_begin();
	background_pause_point();
	background_foreground_end();
	/* A foreground job yields to nothing. */
	struct job plain = { 0, -100 };
	struct background b;
	background_foreground_begin();
	background_start(&b, run, &plain);
	background_yield(&b);
	background_wait(&b);
	background_foreground_end();
	CHECK(plain.runs == 1);
	return check_done();
}
