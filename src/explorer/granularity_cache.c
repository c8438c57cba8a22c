#include "granularity_cache.h"

#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "base/util.h"
#include "explorer/app.h"
#include "model/sample_counts.h"

void granularity_cache_init(struct granularity_cache *c, struct model *base)
{
	memset(c, 0, sizeof(*c));
	c->base = base;
	for (int g = 0; g < GRANULARITY_COUNT; g++)
		atomic_init(&c->ready[g], false);
	atomic_init(&c->stop, false);
}

/* The thread: each queued model in turn, ready as soon as it is made, so
 * that the first can be taken while the next is being made. */
static void make(void *arg)
{
	struct granularity_cache *c = arg;
	for (int k = 0; k < c->nqueued && !atomic_load(&c->stop); k++) {
		enum granularity g = c->order[k];
		const char *why_not;
		background_yield(&c->job); /* a key's work first */
		struct model *m = xmalloc(sizeof(*m));
		if (!model_by_granularity(c->base, g, m, &why_not)) {
			free(m);
			m = NULL;
		}
		background_yield(&c->job);
		if (m) {
			/* What the key's first screen needs (its panes' rule,
			 * and additive, which the explorer works out at once
			 * on every new model), ready before the key.  The
			 * caller chains and range sums are made after the
			 * switch, as for the first screen: made here, they
			 * slowed divided's result on the first screen. */
			rules_init(&c->rules[g], m);
			rules_totals(&c->rules[g], rule_default(m), m->default_type);
			rules_totals(&c->rules[g], RULE_ADDITIVE, m->default_type);
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
		c->has_rules[g] = c->rules[g].model == c->made[g];
	}
	c->made[g] = NULL;
}

void granularity_cache_wait(struct granularity_cache *c)
{
	if (!c->building)
		return;
	background_wait(&c->job);
	c->building = false;
	for (int g = 0; g < GRANULARITY_COUNT; g++) {
		collect(c, (enum granularity)g);
		c->queued[g] = false; /* stopped before it: made when asked */
	}
}

/* What was put aside for g's model. */
static void drop_aside(struct granularity_cache *c, enum granularity g)
{
	if (c->has_rules[g])
		rules_free(&c->rules[g]);
	c->has_rules[g] = false;
	app_range_free_sums(c->sums[g]);
	c->sums[g] = NULL;
}

static void drop(struct granularity_cache *c, enum granularity g)
{
	drop_aside(c, g);
	if (c->models[g]) {
		model_free(c->models[g]);
		free(c->models[g]);
	}
	c->models[g] = NULL;
}

/* A model made before base had sample counts, when it has them now. */
static void drop_if_stale(struct granularity_cache *c, enum granularity g)
{
	if (g != GRANULARITY_FUNCTIONS && !c->counted[g] &&
	    model_count_type(c->base) != NO_ID)
		drop(c, g);
}

void granularity_cache_prepare(struct granularity_cache *c, enum granularity g)
{
	if (c->building && background_done(&c->job, 0))
		granularity_cache_wait(c);
	/* Counting samples later would change base under the thread. */
	if (c->when_asked || c->building || (c->base->nsamples && model_count_type(c->base) == NO_ID))
		return;
	c->nqueued = 0;
	for (int k = 0; k < GRANULARITY_COUNT; k++, g = (g + 1) % GRANULARITY_COUNT) {
		drop_if_stale(c, g);
		/* By addresses is only ever read by the loader. */
		if (g == GRANULARITY_FUNCTIONS || g == GRANULARITY_ADDRESSES || c->models[g] ||
		    granularity_read_again(c->base, g))
			continue;
		c->order[c->nqueued++] = g;
		c->queued[g] = true;
		atomic_store(&c->ready[g], false);
	}
	if (!c->nqueued)
		return;
	c->counted_at_start = model_count_type(c->base) != NO_ID;
	atomic_store(&c->stop, false);
	c->building = true;
	background_start_behind(&c->job, make, c);
}

bool granularity_cache_ready(struct granularity_cache *c, enum granularity g)
{
	if (c->building && background_done(&c->job, 0))
		granularity_cache_wait(c);
	collect(c, g);
	if (c->queued[g])
		background_want(&c->job); /* asked for: no longer ahead of need */
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

void granularity_cache_quiet(struct granularity_cache *c)
{
	atomic_store(&c->stop, true);
	granularity_cache_wait(c);
	for (int g = 0; g < GRANULARITY_COUNT; g++)
		drop_aside(c, (enum granularity)g);
}

struct model *granularity_cache_model(const struct granularity_cache *c, enum granularity g)
{
	return g == GRANULARITY_FUNCTIONS ? c->base : c->models[g];
}

void granularity_cache_put_aside(struct granularity_cache *c, enum granularity g,
				 struct rules *r, struct whole_sums *sums)
{
	drop_aside(c, g);
	c->rules[g] = *r;
	c->has_rules[g] = true;
	c->sums[g] = sums;
}

bool granularity_cache_take_aside(struct granularity_cache *c, enum granularity g,
				  struct rules *r, struct whole_sums **sums)
{
	*sums = c->sums[g];
	c->sums[g] = NULL;
	if (!c->has_rules[g])
		return false;
	*r = c->rules[g];
	memset(&c->rules[g], 0, sizeof(c->rules[g])); /* the caller's now */
	c->has_rules[g] = false;
	return true;
}

void granularity_cache_keep(struct granularity_cache *c, enum granularity g, struct model *m)
{
	c->models[g] = m;
	c->counted[g] = model_count_type(c->base) != NO_ID;
}

void granularity_cache_free(struct granularity_cache *c)
{
	atomic_store(&c->stop, true);
	granularity_cache_wait(c);
	for (int g = 0; g < GRANULARITY_COUNT; g++)
		drop(c, (enum granularity)g);
}
