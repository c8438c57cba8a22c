/* The explorer's models at each granularity (transform/granularity.h) of
 * one profile by functions, kept once made, so that the granularity key
 * swaps models instead of making one each time (a quarter of a second on
 * a 450 000-node profile).  The next granularity's model is made on a
 * thread (base/background.h) while the user reads the screen.
 *
 * The thread reads `base`: nothing may change it meanwhile.  So a model
 * is made ahead only when `base` has its sample counts already (the one
 * change the explorer makes to a loaded model, model_add_sample_counts),
 * and granularity_cache_free or _take waits for the thread. */
#ifndef WPROF_GRANULARITY_CACHE_H
#define WPROF_GRANULARITY_CACHE_H

#include <stdbool.h>

#include "base/background.h"
#include "model/model.h"
#include "transform/granularity.h"

struct granularity_cache {
	struct model *base; /* by functions: not ours */
	struct model *models[GRANULARITY_COUNT]; /* made from base, ours */
	/* Made after base had its sample counts, split with the rest. */
	bool counted[GRANULARITY_COUNT];
	struct background job;
	bool building;
	enum granularity building_g;
	struct model *made; /* the job's model, NULL if it could not be made */
};

void granularity_cache_init(struct granularity_cache *c, struct model *base);
/* Starts making the model for g on a thread, unless it is kept, being
 * made, by functions, or read by a loader (pprof by lines, addresses:
 * made by the caller and handed to granularity_cache_keep). */
void granularity_cache_prepare(struct granularity_cache *c, enum granularity g);
/* The kept model for g (base itself for functions), waiting for the
 * thread if it is making g; NULL when there is none, or when it was made
 * before base had sample counts and base has them now (they would not
 * be split by line). */
struct model *granularity_cache_take(struct granularity_cache *c, enum granularity g);
/* Keeps m (ours from now on), made from base as it is now, for g. */
void granularity_cache_keep(struct granularity_cache *c, enum granularity g, struct model *m);
/* Waits for the thread, if any, keeping its model. */
void granularity_cache_wait(struct granularity_cache *c);
/* Waits for the thread and frees every model made from base. */
void granularity_cache_free(struct granularity_cache *c);

#endif
