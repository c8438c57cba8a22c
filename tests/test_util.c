/* src/base/util.c: what happens when memory runs out.  Each case runs in
 * a child, since the program ends there. */
#include <stdint.h>
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

/* The child's exit status, and how many times the hook ran before it. */
static int exhaust_memory(void (*hook)(void), int *hook_runs)
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

int main(void)
{
	int runs;
	CHECK(exhaust_memory(mark_restored, &runs) == 3);
	CHECK(runs == 1);
	CHECK(exhaust_memory(NULL, &runs) == 3);
	CHECK(runs == 0);
	return check_done();
}
