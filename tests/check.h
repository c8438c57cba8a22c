/* A very small test harness: CHECK() records a failure with its place and
 * goes on, so one run shows every broken assertion; check_done() is the
 * test's exit status. */
#ifndef WPROF_CHECK_H
#define WPROF_CHECK_H

#include <math.h>
#include <stdio.h>
#include <stdlib.h>

static int check_failures, check_count;

#define CHECK(cond)                                                         \
	do {                                                                \
		check_count++;                                              \
		if (!(cond)) {                                              \
			check_failures++;                                   \
			fprintf(stderr, "%s:%d: CHECK failed: %s\n",        \
				__FILE__, __LINE__, #cond);                 \
		}                                                           \
	} while (0)

#define CHECK_MSG(cond, ...)                                                \
	do {                                                                \
		check_count++;                                              \
		if (!(cond)) {                                              \
			check_failures++;                                   \
			fprintf(stderr, "%s:%d: ", __FILE__, __LINE__);     \
			fprintf(stderr, __VA_ARGS__);                       \
			fputc('\n', stderr);                                \
		}                                                           \
	} while (0)

/* Equal to a relative 1e-6, as time-rules.md asks of the corpus numbers;
 * two NANs (both n/a) are equal too. */
static inline int close_enough(double got, double want)
{
	if (isnan(got) || isnan(want))
		return isnan(got) && isnan(want);
	double scale = fabs(want) > fabs(got) ? fabs(want) : fabs(got);
	return fabs(got - want) <= 1e-6 * (scale > 1e-9 ? scale : 1e-9);
}

#define CHECK_CLOSE(got, want, ...)                                         \
	CHECK_MSG(close_enough((got), (want)), "got %.10g, want %.10g: %s", \
		  (double)(got), (double)(want), __VA_ARGS__)

/* A whole file, NUL-terminated (its length in *len when len is not
 * NULL); NULL when it cannot be read.  The caller frees it. */
static inline char *check_read_file(const char *path, size_t *len)
{
	FILE *f = fopen(path, "rb");
	if (!f)
		return NULL;
	fseek(f, 0, SEEK_END);
	long size = ftell(f);
	rewind(f);
	char *data = size < 0 ? NULL : malloc((size_t)size + 1);
	size_t got = data ? fread(data, 1, (size_t)size, f) : 0;
	fclose(f);
	if (data)
		data[got] = '\0';
	if (len)
		*len = got;
	return data;
}

static inline int check_done(void)
{
	fprintf(stderr, "%d checks, %d failed\n", check_count, check_failures);
	return check_failures ? 1 : 0;
}

#endif
