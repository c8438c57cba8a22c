/* src/base/background: a job runs once on its thread and its result is
 * the caller's once done; background_start_behind's thread runs at nice
 * 10 above the caller's (issue 29: the range sums made ahead leave the
 * two cores to the caller chains a key waits for), background_start's at
 * the caller's own; and a behind job waits at background_yield while
 * foreground work runs (a key's, a background_start job's), unless it is
 * wanted. */
#include <stdatomic.h>
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
		background_start_behind(&b, run, &j);
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

/* A behind job of two chunks: `past` says how far it got. */
struct ahead {
	struct background *self;
	atomic_int past; /* 1: its first chunk done; 2: past its yield */
};

static void go_ahead(void *arg)
{
	struct ahead *j = arg;
	atomic_store(&j->past, 1);
	background_yield(j->self);
	atomic_store(&j->past, 2);
}

/* The same, pausing where the code it runs says it may (a loop shared
 * with foreground work), not knowing its job. */
static void go_ahead_by_pause_point(void *arg)
{
	struct ahead *j = arg;
	atomic_store(&j->past, 1);
	background_pause_point();
	atomic_store(&j->past, 2);
}

/* The behind job stops at its yield while `begin`'s foreground work runs
 * (80 ms: a broken gate lets it through in microseconds), and ends by
 * itself once that work does. */
static void check_gate(const char *what, void (*job)(void *), void (*begin)(void *),
		       void (*end)(void *), void *state)
{
	struct ahead j = { 0 };
	struct background b;
	j.self = &b;
	begin(state);
	background_start_behind(&b, job, &j);
	while (atomic_load(&j.past) < 1)
		sleep_ms(1);
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
	struct ahead j = { 0 };
	struct background b;
	j.self = &b;
	background_foreground_begin();
	background_start_behind(&b, go_ahead, &j);
	background_wait(&b); /* would never return if it still yielded */
	CHECK(atomic_load(&j.past) == 2);
	background_foreground_end();
}

/* A job started outside a key's work (made ahead at the first screen)
 * holds no behind job up. */
static void check_beside(void)
{
	struct held_job beside;
	atomic_init(&beside.h.let_go, false);
	background_start(&beside.b, hold, &beside.h);
	struct ahead j = { 0 };
	struct background b;
	j.self = &b;
	background_start_behind(&b, go_ahead, &j);
	for (int ms = 0; ms < 5000 && !background_done(&b, 1); ms++)
		;
	CHECK(atomic_load(&j.past) == 2);
	job_ends(&beside);
}

int main(void)
{
	int own = getpriority(PRIO_PROCESS, (id_t)gettid());
	check_job(false, own);
	/* Nice saturates at 19: a caller already near it gets 19. */
	check_job(true, own + 10 > 19 ? 19 : own + 10);
	check_gate("a key's work", go_ahead, key_begins, key_ends, NULL);
	struct held_job job;
	check_gate("a foreground job", go_ahead, job_begins, job_ends, &job);
	check_gate("a pause point", go_ahead_by_pause_point, key_begins, key_ends, NULL);
	check_wanted();
	check_beside();
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
