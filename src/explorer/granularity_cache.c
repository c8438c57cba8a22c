#include "granularity_cache.h"

#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "base/util.h"
#include "model/sample_counts.h"

void granularity_cache_init(struct granularity_cache *c, struct model *base)
{
	memset(c, 0, sizeof(*c));
	c->base = base;
	for (int g = 0; g < GRANULARITY_COUNT; g++)
		atomic_init(&c->ready[g], false);
}

/* The thread: each queued model in turn, ready as soon as it is made, so
 * that the first can be taken while the next is being made. */
static void make(void *arg)
{
	struct granularity_cache *c = arg;
	for (int k = 0; k < c->nqueued; k++) {
		enum granularity g = c->order[k];
		const char *why_not;
		struct model *m = xmalloc(sizeof(*m));
		if (!model_by_granularity(c->base, g, m, &why_not)) {
			free(m);
			m = NULL;
		}
		c->made[g] = m;
		atomic_store(&c->ready[g], true);
	}
}

/* Keeps g's model from the thread, once it is ready. */
static void collect(struct granularity_cache *c, enum granularity g)
{
	if (!c->queued[g] || !atomic_load(&c->ready[g]))
		return;
	c->queued[g] = false;
	if (c->made[g]) {
		c->models[g] = c->made[g];
		/* base has not changed since the thread began (prepare). */
		c->counted[g] = c->counted_at_start;
	}
	c->made[g] = NULL;
}

void granularity_cache_wait(struct granularity_cache *c)
{
	if (!c->building)
		return;
	background_wait(&c->job);
	c->building = false;
	for (int g = 0; g < GRANULARITY_COUNT; g++)
		collect(c, (enum granularity)g);
}

static bool made_by_loader(const struct model *base, enum granularity g)
{
	return g == GRANULARITY_ADDRESSES ||
	       (g == GRANULARITY_LINES && !strcmp(base->format, "pprof"));
}

static void drop(struct granularity_cache *c, enum granularity g)
{
	if (c->models[g]) {
		model_free(c->models[g]);
		free(c->models[g]);
	}
	c->models[g] = NULL;
}

/* A model made before base had sample counts, when it has them now. */
static void drop_if_stale(struct granularity_cache *c, enum granularity g)
{
	if (!c->counted[g] && model_count_type(c->base) != NO_ID)
		drop(c, g);
}

void granularity_cache_prepare(struct granularity_cache *c, enum granularity g)
{
	if (c->building && background_done(&c->job, 0))
		granularity_cache_wait(c);
	/* Counting samples later would change base under the thread. */
	if (c->building || (c->base->nsamples && model_count_type(c->base) == NO_ID))
		return;
	c->nqueued = 0;
	for (int k = 0; k < GRANULARITY_COUNT; k++, g = (g + 1) % GRANULARITY_COUNT) {
		drop_if_stale(c, g);
		if (g == GRANULARITY_FUNCTIONS || c->models[g] || made_by_loader(c->base, g))
			continue;
		c->order[c->nqueued++] = g;
		c->queued[g] = true;
		atomic_store(&c->ready[g], false);
	}
	if (!c->nqueued)
		return;
	c->counted_at_start = model_count_type(c->base) != NO_ID;
	c->building = true;
	background_start(&c->job, make, c);
}

bool granularity_cache_ready(struct granularity_cache *c, enum granularity g)
{
	if (c->building && background_done(&c->job, 0))
		granularity_cache_wait(c);
	collect(c, g);
	return !c->queued[g];
}

struct model *granularity_cache_take(struct granularity_cache *c, enum granularity g)
{
	if (g == GRANULARITY_FUNCTIONS)
		return c->base;
	struct timespec ms = { 0, 1000000 };
	while (!granularity_cache_ready(c, g))
		nanosleep(&ms, NULL);
	drop_if_stale(c, g);
	return c->models[g];
}

void granularity_cache_keep(struct granularity_cache *c, enum granularity g, struct model *m)
{
	c->models[g] = m;
	c->counted[g] = model_count_type(c->base) != NO_ID;
}

void granularity_cache_free(struct granularity_cache *c)
{
	granularity_cache_wait(c);
	for (int g = 0; g < GRANULARITY_COUNT; g++)
		drop(c, (enum granularity)g);
}
