/* src/base/background: a job runs once on its thread and its result is
 * the caller's once done; background_start_behind's thread runs at nice
 * 10 above the caller's (issue 29: the range sums made ahead leave the
 * two cores to the caller chains a key waits for), background_start's at
 * the caller's own. */
#include <sys/resource.h>
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

int main(void)
{
	int own = getpriority(PRIO_PROCESS, (id_t)gettid());
	check_job(false, own);
	/* Nice saturates at 19: a caller already near it gets 19. */
	check_job(true, own + 10 > 19 ? 19 : own + 10);
	return check_done();
}
