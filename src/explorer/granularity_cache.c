#include "granularity_cache.h"

#include <stdlib.h>
#include <string.h>

#include "base/util.h"
#include "model/sample_counts.h"

void granularity_cache_init(struct granularity_cache *c, struct model *base)
{
	memset(c, 0, sizeof(*c));
	c->base = base;
}

static void make(void *arg)
{
	struct granularity_cache *c = arg;
	const char *why_not;
	c->made = xmalloc(sizeof(*c->made));
	if (!model_by_granularity(c->base, c->building_g, c->made, &why_not)) {
		free(c->made);
		c->made = NULL;
	}
}

void granularity_cache_wait(struct granularity_cache *c)
{
	if (!c->building)
		return;
	background_wait(&c->job);
	c->building = false;
	if (c->made) {
		c->models[c->building_g] = c->made;
		/* base has not changed since the thread began (prepare). */
		c->counted[c->building_g] = model_count_type(c->base) != NO_ID;
	}
	c->made = NULL;
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

void granularity_cache_prepare(struct granularity_cache *c, enum granularity g)
{
	if (c->building && background_done(&c->job, 0))
		granularity_cache_wait(c);
	if (g == GRANULARITY_FUNCTIONS || c->models[g] || c->building ||
	    made_by_loader(c->base, g))
		return;
	/* Counting samples later would change base under the thread. */
	if (c->base->nsamples && model_count_type(c->base) == NO_ID)
		return;
	c->building = true;
	c->building_g = g;
	background_start(&c->job, make, c);
}

struct model *granularity_cache_take(struct granularity_cache *c, enum granularity g)
{
	if (g == GRANULARITY_FUNCTIONS)
		return c->base;
	if (c->building && c->building_g == g)
		granularity_cache_wait(c);
	if (!c->counted[g] && model_count_type(c->base) != NO_ID)
		drop(c, g);
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
