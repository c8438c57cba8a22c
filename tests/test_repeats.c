/* src/base/repeats.c: a run of identical lines of a log said twice, the
 * second time with the run's count; everything else line for line. */
#include <stdlib.h>
#include <string.h>

#include "base/repeats.h"
#include "check.h"

/* What the lines give on the log, the run ended at the end. */
static void check_log(const char *const *lines, size_t n, const char *want)
{
	char *got = NULL;
	size_t len = 0;
	FILE *out = open_memstream(&got, &len);
	struct repeats r = { 0 };
	for (size_t i = 0; i < n; i++)
		repeats_say(&r, out, lines[i]);
	repeats_end(&r, out);
	fclose(out);
	CHECK_MSG(!strcmp(got, want), "got:\n%s\nwanted:\n%s", got, want);
	free(got);
}

int main(void)
{
	/* 600 caught exceptions, then the program's last word. */
	const char *lines[603];
	for (int i = 0; i < 600; i++)
		lines[i] = "xst: log: Exception: t.js:3: boom";
	lines[600] = "xst: log: done";
	check_log(lines, 601, "wprof-tui: xst: log: Exception: t.js:3: boom\n"
			      "wprof-tui: xst: log: Exception: t.js:3: boom (×600)\n"
			      "wprof-tui: xst: log: done\n");
	/* A run at the very end is counted when the log ends. */
	lines[601] = lines[602] = lines[600];
	check_log(lines + 599, 4, "wprof-tui: xst: log: Exception: t.js:3: boom\n"
				  "wprof-tui: xst: log: done\n"
				  "wprof-tui: xst: log: done (×3)\n");
	/* Lines that alternate are no run: each is said. */
	const char *alternate[] = { "a", "b", "a", "b" };
	check_log(alternate, 4, "wprof-tui: a\nwprof-tui: b\nwprof-tui: a\nwprof-tui: b\n");
	/* A line said once is said once; nothing said, nothing written. */
	check_log(alternate, 1, "wprof-tui: a\n");
	check_log(alternate, 0, "");
	/* The control characters of an engine's text are escaped as ever. */
	const char *hostile[] = { "x\x1b[2Jy", "x\x1b[2Jy" };
	check_log(hostile, 2, "wprof-tui: x\\e[2Jy\nwprof-tui: x\\e[2Jy (×2)\n");
	return check_done();
}
