/* The samples of a stream in time order, in a fixed amount of memory
 * however long the stream runs (XS sessions, the inspector's live fold;
 * docs/live.md): one entry a sample until `max_entries` are held, then
 * neighbouring entries merge in pairs, each standing for twice as many
 * samples and charged to the stack that took most of their time, and so
 * on.  While it is exact (one entry a sample) it is the timeline a model
 * can carry; once coarsened its entries are stretches, not samples. */
#ifndef WPROF_BOUNDED_TIMELINE_H
#define WPROF_BOUNDED_TIMELINE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct timeline_entry {
	uint32_t stack;  /* whatever the caller numbers stacks (or nodes) by */
	uint32_t count;  /* samples */
	double duration; /* theirs, summed */
};

struct bounded_timeline {
	struct timeline_entry *entries;
	size_t n, cap;
	uint64_t per_entry; /* samples an entry stands for (the last: up to) */
};

/* The bound of a live stream's timeline: 65 536 entries of 16 bytes
 * (1 MiB), a minute of samples a millisecond apart kept one by one. */
#define LIVE_TIMELINE_ENTRIES 65536

#define BOUNDED_TIMELINE_INIT ((struct bounded_timeline){ .per_entry = 1 })

/* One sample; past `max_entries` (2 at least) entries merge in pairs. */
void bounded_timeline_add(struct bounded_timeline *t, uint32_t stack, double duration,
			  size_t max_entries);

/* Does it still hold every sample, one entry each? */
static inline bool bounded_timeline_exact(const struct bounded_timeline *t)
{
	return t->per_entry == 1;
}

/* Empty and exact again, its memory kept. */
void bounded_timeline_clear(struct bounded_timeline *t);
void bounded_timeline_free(struct bounded_timeline *t);

#endif
