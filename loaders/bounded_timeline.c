#include "bounded_timeline.h"

#include <stdlib.h>

#include "../src/util.h"

/* b's samples follow a's: one entry, charged to the larger part. */
static void merge_entries(struct timeline_entry *a, struct timeline_entry b)
{
	if (b.duration > a->duration)
		a->stack = b.stack;
	a->count += b.count;
	a->duration += b.duration;
}

/* Neighbours merge in pairs: half as many entries, each for twice as
 * many samples. */
static void coarsen(struct bounded_timeline *t)
{
	size_t n = t->n;
	for (size_t i = 0; i < n / 2; i++) {
		struct timeline_entry merged = t->entries[2 * i];
		merge_entries(&merged, t->entries[2 * i + 1]);
		t->entries[i] = merged;
	}
	if (n % 2) /* an odd one out stays, half full at the new size */
		t->entries[n / 2] = t->entries[n - 1];
	t->n = (n + 1) / 2;
	t->per_entry *= 2;
}

static struct timeline_entry *last_entry(struct bounded_timeline *t)
{
	return t->n ? &t->entries[t->n - 1] : NULL;
}

void bounded_timeline_add(struct bounded_timeline *t, uint32_t stack, double duration,
			  size_t max_entries)
{
	struct timeline_entry sample = { stack, 1, duration };
	struct timeline_entry *last = last_entry(t);
	if ((!last || last->count >= t->per_entry) && t->n >= max_entries) {
		coarsen(t);
		last = last_entry(t);
	}
	if (last && last->count < t->per_entry) {
		merge_entries(last, sample);
		return;
	}
	if (t->n == t->cap) {
		size_t cap = t->cap ? t->cap * 2 : 256;
		t->cap = cap < max_entries ? cap : max_entries;
		t->entries = xrealloc(t->entries, t->cap * sizeof(*t->entries));
	}
	t->entries[t->n++] = sample;
}

void bounded_timeline_clear(struct bounded_timeline *t)
{
	t->n = 0;
	t->per_entry = 1;
}

void bounded_timeline_free(struct bounded_timeline *t)
{
	free(t->entries);
	*t = BOUNDED_TIMELINE_INIT;
}
