/* src/base/util.c: what happens when memory runs out (each case runs in
 * a child, since the program ends there), and xzeroed's zeros. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "base/util.h"
#include "check.h"

/* Under AddressSanitizer an allocation that fails must return NULL, as
 * malloc's does, or the path under test is never reached. */
const char *__asan_default_options(void);
const char *__asan_default_options(void)
{
	return "allocator_may_return_null=1";
}

static int hook_pipe = -1;

static void mark_restored(void)
{
	if (write(hook_pipe, "r", 1) != 1)
		_exit(99);
}

/* The child's exit status, and how many times the hook ran before it;
 * `zeroed`: asking xzeroed for more elements than size_t can count. */
static int exhaust_memory(void (*hook)(void), int *hook_runs, bool zeroed)
{
	int fds[2];
	if (pipe(fds) != 0)
		return -1;
	fflush(NULL);
	pid_t pid = fork();
	if (pid == 0) {
		close(fds[0]);
		hook_pipe = fds[1];
		if (!freopen("/dev/null", "w", stderr))
			_exit(98);
		on_out_of_memory(hook);
		volatile size_t too_much = SIZE_MAX - 64;
		if (zeroed)
			xzeroed(too_much / 2, 4);
		else
			xmalloc(too_much);
		_exit(0);
	}
	close(fds[1]);
	char buf[8];
	ssize_t n = read(fds[0], buf, sizeof(buf));
	close(fds[0]);
	*hook_runs = n > 0 ? (int)n : 0;
	int status;
	if (pid < 0 || waitpid(pid, &status, 0) != pid || !WIFEXITED(status))
		return -1;
	return WEXITSTATUS(status);
}

/* Memory used and freed first, so that xzeroed is likely handed it back
 * with its old bytes: every one must read 0. */
static void zeroed_again(void)
{
	enum { N = 100000 };
	unsigned char *dirty = xmalloc(N * sizeof(double));
	memset(dirty, 0xa5, N * sizeof(double));
	free(dirty);
	double *d = xzeroed(N, sizeof(double));
	size_t nonzero = 0;
	for (size_t i = 0; i < N; i++)
		nonzero += d[i] != 0;
	CHECK(nonzero == 0);
	free(d);
}

int main(void)
{
	int runs;
	CHECK(exhaust_memory(mark_restored, &runs, false) == 3);
	CHECK(runs == 1);
	CHECK(exhaust_memory(NULL, &runs, false) == 3);
	CHECK(runs == 0);
	CHECK(exhaust_memory(mark_restored, &runs, true) == 3);
	CHECK(runs == 1);
	zeroed_again();
	return check_done();
}
