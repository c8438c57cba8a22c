/* The samples of a stream in time order, in a fixed amount of memory
 * however long the stream runs (XS sessions, the inspector's live fold;
 * docs/live.md): a sliding window of the newest `max_entries` samples,
 * one entry each.  An older sample leaves the window as a new one comes;
 * how many have left, and their summed durations, are kept, so that a
 * model of the window says where its first sample stands in the session
 * (model.live.samples_before, model.live.time_before).  The streams' totals never
 * come from here: they keep exact per-stack sums of every sample. */
#ifndef WPROF_BOUNDED_TIMELINE_H
#define WPROF_BOUNDED_TIMELINE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "model/model.h"

struct timeline_entry {
	uint32_t stack;  /* whatever the caller numbers stacks (or nodes) by */
	double duration;
};

struct bounded_timeline {
	struct timeline_entry *entries; /* a ring: the oldest held at `first` */
	size_t first, n, cap;
	uint64_t dropped;        /* samples that have left the window */
	double dropped_duration; /* theirs, summed */
};

/* The window of a live stream: 262 144 entries of 16 bytes (4 MiB), so
 * that the strip's 200 cells of 0.1 s (20 s) hold every sample even at
 * Chrome's 100 µs interval; at V8's and XS's 1 ms, the last 4.4 minutes. */
#define LIVE_TIMELINE_ENTRIES 262144

#define BOUNDED_TIMELINE_INIT ((struct bounded_timeline){ 0 })

/* One sample; with `max_entries` (1 at least) held, the oldest leaves. */
void bounded_timeline_add(struct bounded_timeline *t, uint32_t stack, double duration,
			  size_t max_entries);

/* The i-th oldest sample held (i < t->n). */
static inline const struct timeline_entry *
bounded_timeline_at(const struct bounded_timeline *t, size_t i)
{
	size_t k = t->first + i;
	return &t->entries[k < t->cap ? k : k - t->cap];
}

/* Every sample ever added, held or gone. */
static inline uint64_t bounded_timeline_total(const struct bounded_timeline *t)
{
	return t->dropped + t->n;
}

/* Does it still hold every sample? */
static inline bool bounded_timeline_exact(const struct bounded_timeline *t)
{
	return t->dropped == 0;
}

/* Brings `dst`, a copy of `src` made earlier, up to it with only the
 * samples added since (all of them held when dst fell further behind). */
void bounded_timeline_follow(struct bounded_timeline *dst,
			     const struct bounded_timeline *src, size_t max_entries);

/* Makes m's samples the window's, moving rather than rebuilding: m holds
 * `held` of the stream's samples from m->live.samples_before on (any samples
 * after those are dropped first); those that have left the window leave
 * m, those m lacks are appended, each entry's stack mapped to a node by
 * `node_of` (NULL: stacks are nodes).  Sets m->live.samples_before and
 * m->live.time_before and HAS_TIMELINE; the node values are the caller's to
 * set (from exact sums: model_add_sample's additions are not them). */
void bounded_timeline_to_model(const struct bounded_timeline *t, const uint32_t *node_of,
			       struct model *m, size_t held);

/* Empty, its memory kept. */
void bounded_timeline_clear(struct bounded_timeline *t);
void bounded_timeline_free(struct bounded_timeline *t);

#endif
