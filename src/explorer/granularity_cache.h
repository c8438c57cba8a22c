/* The explorer's models at each granularity (transform/granularity.h) of
 * one profile by functions, kept once made, so that the granularity key
 * swaps models instead of making one each time (a tenth of a second of
 * CPU by files or lines on a 450 000-node profile).  The models not yet
 * made are made on a thread (base/background.h) behind the work a key
 * waits for (nice 10, and paused between its steps while a key's work or
 * a job of the screen runs), one after the other, while the user reads
 * the screen; each can be taken as soon as it is ready (asking for one
 * lets the thread go on through the keys).
 *
 * The thread reads `base`: nothing may change it meanwhile.  So models
 * are made ahead only when `base` has its sample counts already (the one
 * change the explorer makes to a loaded model, model_add_sample_counts),
 * and granularity_cache_free or _take waits for the thread. */
#ifndef WPROF_GRANULARITY_CACHE_H
#define WPROF_GRANULARITY_CACHE_H

#include <stdatomic.h>
#include <stdbool.h>

#include "base/background.h"
#include "model/model.h"
#include "rules/rules.h"
#include "transform/granularity.h"

struct granularity_cache {
	struct model *base; /* by functions: not ours */
	/* A live session's base gains samples and is replaced on each
	 * refresh: its models are made only when asked (no thread), and the
	 * live view starts the cache again from each new snapshot. */
	bool when_asked;
	struct model *models[GRANULARITY_COUNT]; /* made from base, ours */
	/* Made after base had its sample counts, split with the rest. */
	bool counted[GRANULARITY_COUNT];
	/* The thread's work: each granularity `queued`, in `order`; once
	 * ready[g], made[g] is its model (NULL if it could not be made),
	 * which the thread no longer touches. */
	struct background job;
	bool building;
	bool counted_at_start;
	enum granularity order[GRANULARITY_COUNT];
	int nqueued;
	bool queued[GRANULARITY_COUNT];
	struct model *made[GRANULARITY_COUNT];
	atomic_bool ready[GRANULARITY_COUNT];
	atomic_bool stop; /* the thread makes no further model */
	/* What the explorer worked out for a granularity's model (base's
	 * too), put aside while another is shown: its rules (totals, caller
	 * chains; for a model made on the thread, the default rule's and
	 * additive's totals made there) and the whole profile's range sums
	 * (app_range.c). */
	struct rules rules[GRANULARITY_COUNT];
	bool has_rules[GRANULARITY_COUNT];
	struct whole_sums *sums[GRANULARITY_COUNT];
};

void granularity_cache_init(struct granularity_cache *c, struct model *base);
/* Starts making on a thread the model for g, then those of the other
 * granularities, in the key's order, that are not kept yet: all but by
 * functions and those a loader reads (pprof by lines, addresses: made by
 * the caller and handed to granularity_cache_keep).  Does nothing while
 * the thread is at work, or when c->when_asked. */
void granularity_cache_prepare(struct granularity_cache *c, enum granularity g);
/* False while the thread is still making g's model (taking it would
 * wait); true when taking it waits for nothing. */
bool granularity_cache_ready(struct granularity_cache *c, enum granularity g);
/* The kept model for g (base itself for functions), waiting for the
 * thread if it is making g; NULL when there is none, or when it was made
 * before base had sample counts and base has them now (they would not
 * be split by line). */
struct model *granularity_cache_take(struct granularity_cache *c, enum granularity g);
/* The model kept for g (base for functions), NULL when there is none;
 * never waits. */
struct model *granularity_cache_model(const struct granularity_cache *c, enum granularity g);
/* Puts aside, for g's model, rules made for it (moved: the caller's copy
 * is forgotten) and its range sums (ours from now on, may be NULL). */
void granularity_cache_put_aside(struct granularity_cache *c, enum granularity g,
				 struct rules *r, struct whole_sums *sums);
/* Takes back what was put aside for g's model (or made with it on the
 * thread): true with the rules in *r, and *sums (NULL when none). */
bool granularity_cache_take_aside(struct granularity_cache *c, enum granularity g,
				  struct rules *r, struct whole_sums **sums);
/* Keeps m (ours from now on), made from base as it is now, for g. */
void granularity_cache_keep(struct granularity_cache *c, enum granularity g, struct model *m);
/* Waits for the thread, if any, keeping its models. */
void granularity_cache_wait(struct granularity_cache *c);
/* Stops the thread after the model it is making and drops what was put
 * aside, whose threads may still read base or a kept model: before base
 * may be freed.  A model not made is made when next prepared or taken. */
void granularity_cache_quiet(struct granularity_cache *c);
/* Stops the thread after the model it is making (a second at most on a
 * large profile, not all of them), then frees every model made from
 * base, and all that was put aside. */
void granularity_cache_free(struct granularity_cache *c);

#endif
