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
}

/* A thread: its model, then what the key's first screen needs of it
 * (its panes' rule, and additive, which the explorer works out at once
 * on every new model), ready before the key.  The caller chains and
 * range sums are made after the switch, as for the first screen: made
 * here, they slowed divided's result on the first screen. */
static void make(void *arg)
{
	struct granularity_job *j = arg;
	struct granularity_cache *c = j->cache;
	const char *why_not;
	struct model *m = xmalloc(sizeof(*m));
	if (!model_by_granularity(c->base, j->g, m, &why_not)) {
		free(m);
		return;
	}
	/* Stopped, maybe halfway through model_finish. */
	if (!background_yield(&j->work)) {
		model_free(m);
		free(m);
		return;
	}
	rules_init(&c->rules[j->g], m);
	rules_extend_shape(&c->rules[j->g], c->base, c->base_shape);
	rules_totals(&c->rules[j->g], rule_default(m), m->default_type);
	rules_totals(&c->rules[j->g], RULE_ADDITIVE, m->default_type);
	j->made = m;
}

/* Keeps g's model once its thread is done. */
static void collect(struct granularity_cache *c, enum granularity g)
{
	struct granularity_job *j = &c->jobs[g];
	if (!c->queued[g] || !background_done(&j->work, 0))
		return;
	c->queued[g] = false;
	c->building--;
	if (j->made) {
		c->models[g] = j->made;
		/* base has not changed since the thread began (prepare). */
		c->counted[g] = c->counted_at_start;
		c->has_rules[g] = c->rules[g].model == j->made;
	}
	j->made = NULL;
}

static void collect_all(struct granularity_cache *c)
{
	for (int g = 0; g < GRANULARITY_COUNT; g++)
		collect(c, (enum granularity)g);
}

void granularity_cache_wait(struct granularity_cache *c)
{
	for (int g = 0; g < GRANULARITY_COUNT; g++)
		if (c->queued[g])
			background_wait(&c->jobs[g].work);
	collect_all(c);
}

/* Waits for the threads, each stopped at its next pause point. */
static void stop(struct granularity_cache *c)
{
	for (int g = 0; g < GRANULARITY_COUNT; g++)
		if (c->queued[g])
			background_stop(&c->jobs[g].work);
	granularity_cache_wait(c);
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

void granularity_cache_prepare(struct granularity_cache *c, enum granularity g,
			       const struct rules *shown)
{
	collect_all(c);
	/* Counting samples later would change base under the threads. */
	if (c->when_asked || c->building || (c->base->nsamples && model_count_type(c->base) == NO_ID))
		return;
	const struct rules *of_base = shown && shown->model == c->base ? shown
		: c->has_rules[GRANULARITY_FUNCTIONS] ? &c->rules[GRANULARITY_FUNCTIONS] : NULL;
	if (!c->base_shape && of_base)
		c->base_shape = rules_hold_shape(of_base);
	c->counted_at_start = model_count_type(c->base) != NO_ID;
	for (int k = 0; k < GRANULARITY_COUNT; k++, g = (g + 1) % GRANULARITY_COUNT) {
		drop_if_stale(c, g);
		/* By addresses is only ever read by the loader. */
		if (g == GRANULARITY_FUNCTIONS || g == GRANULARITY_ADDRESSES || c->models[g] ||
		    granularity_read_again(c->base, g))
			continue;
		struct granularity_job *j = &c->jobs[g];
		j->cache = c;
		j->g = g;
		j->made = NULL;
		c->queued[g] = true;
		background_start_behind(&j->work, make, j, RANK_GRANULARITY + c->building++);
	}
}

bool granularity_cache_ready(struct granularity_cache *c, enum granularity g)
{
	collect_all(c);
	if (c->queued[g])
		background_want(&c->jobs[g].work); /* asked for: no longer ahead of need */
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
	stop(c);
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
	stop(c);
	node_shape_release(c->base_shape);
	c->base_shape = NULL;
	for (int g = 0; g < GRANULARITY_COUNT; g++)
		drop(c, (enum granularity)g);
}
