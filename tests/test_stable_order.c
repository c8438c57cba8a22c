/* src/base/stable_order: the in-place sort of sample times carries its
 * arrays to the same places as the permutation does, on keys nearly in
 * order (V8's rare negative deltas) and on keys shuffled far enough to
 * make it give up half way. */
#include <stdint.h>
#include <string.h>

#include "base/stable_order.h"
#include "base/util.h"
#include "check.h"

static uint64_t rng = 0x2545f4914f6cdd1dULL;

static uint32_t below(uint32_t n)
{
	rng ^= rng << 13;
	rng ^= rng >> 7;
	rng ^= rng << 17;
	return (uint32_t)(rng % n);
}

/* The answer by definition: for each place, the smallest key left, the
 * first of equals. */
static void reference_sort(const double *keys, size_t n, size_t *order)
{
	bool *taken = xcalloc(n + 1, sizeof(bool));
	for (size_t k = 0; k < n; k++) {
		size_t best = SIZE_MAX;
		for (size_t i = 0; i < n; i++)
			if (!taken[i] && (best == SIZE_MAX || keys[i] < keys[best]))
				best = i;
		taken[best] = true;
		order[k] = best;
	}
	free(taken);
}

/* Times from deltas, some negative (every `negative_every`, -span),
 * with repeated values so that stability shows. */
static void make_times(double *t, size_t n, unsigned negative_every, uint32_t span)
{
	double at = 0;
	for (size_t i = 0; i < n; i++) {
		at += i % negative_every == negative_every - 1 ? -(double)below(span) : below(3);
		t[i] = at;
	}
}

static void check_against_reference(const double *times, size_t n, const char *what)
{
	double *keys = xmalloc(n * sizeof(double));
	uint32_t *tags = xmalloc(n * sizeof(uint32_t));
	double *own = xmalloc(n * sizeof(double));
	size_t *order = xmalloc(n * sizeof(size_t));
	memcpy(keys, times, n * sizeof(double));
	for (size_t i = 0; i < n; i++) {
		tags[i] = (uint32_t)i;
		own[i] = 1000.0 + (double)i;
	}
	struct carried with[] = { { tags, sizeof(*tags) }, { own, sizeof(*own) } };
	stable_sort_carrying(keys, n, with, 2);
	reference_sort(times, n, order);
	size_t wrong = 0;
	for (size_t k = 0; k < n; k++)
		wrong += keys[k] != times[order[k]] || tags[k] != order[k] ||
			 own[k] != 1000.0 + (double)order[k];
	CHECK_MSG(wrong == 0, "%s: %zu of %zu places differ from the stable order", what,
		  wrong, n);
	FREE_ALL(keys, tags, own, order);
}

int main(void)
{
	enum { N = 3000 };
	double times[N];
	make_times(times, N, 500, 4);
	check_against_reference(times, N, "a few out of place");
	make_times(times, N, 3, 40);
	check_against_reference(times, N, "many far out of place (falls back)");
	for (size_t i = 0; i < N; i++)
		times[i] = below(7);
	check_against_reference(times, N, "shuffled, with equal keys");
	for (size_t i = 0; i < N; i++)
		times[i] = (double)i;
	check_against_reference(times, N, "in order already");
	check_against_reference(times, 0, "empty");
	return check_done();
}
