/* The explorer's models at each granularity (transform/granularity.h) of
 * one profile by functions, kept once made, so that the granularity key
 * swaps models instead of making one each time (a tenth of a second of
 * CPU by files or lines on a 450 000-node profile).  The models not yet
 * made are made behind the work a key waits for (base/background.h:
 * nice 10, on the cores that work leaves free), each on a thread of its
 * own, while the user reads the screen: the key's next first, the one
 * after it as soon as a second core is free.  Each can be taken as soon
 * as it is ready (asking for one lets its thread go on through the
 * keys).
 *
 * The threads read `base`: nothing may change it meanwhile.  So models
 * are made ahead only when `base` has its sample counts already (the one
 * change the explorer makes to a loaded model, model_add_sample_counts),
 * and granularity_cache_free or _take waits for the threads. */
#ifndef WPROF_GRANULARITY_CACHE_H
#define WPROF_GRANULARITY_CACHE_H

#include <stdbool.h>

#include "base/background.h"
#include "model/model.h"
#include "rules/rules.h"
#include "transform/granularity.h"

/* One model being made on a thread of its own. */
struct granularity_job {
	struct background work;
	struct granularity_cache *cache;
	enum granularity g;
	/* Once the thread is done: its model, whole, or NULL (it could not
	 * be made, or the thread was stopped); the thread no longer
	 * touches it. */
	struct model *made;
};

struct granularity_cache {
	struct model *base; /* by functions: not ours */
	/* A live session's base gains samples and is replaced on each
	 * refresh: its models are made only when asked (no thread), and the
	 * live view starts the cache again from each new snapshot. */
	bool when_asked;
	struct model *models[GRANULARITY_COUNT]; /* made from base, ours */
	/* Made after base had its sample counts, split with the rest. */
	bool counted[GRANULARITY_COUNT];
	/* The threads at work (`building` of them): one for each
	 * granularity `queued`, ranked at the gate in the key's order. */
	unsigned building;
	bool counted_at_start;
	bool queued[GRANULARITY_COUNT];
	struct granularity_job jobs[GRANULARITY_COUNT];
	/* base's outermost nodes, held from the rules that made them for
	 * the threads: the model by lines derives its own from them. */
	struct node_shape *base_shape;
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
/* Starts making, each on a thread, the model for g and those of the
 * other granularities not kept yet, ranked in the key's order from g:
 * all but by functions and those a loader reads (pprof by lines,
 * addresses: made by the caller and handed to granularity_cache_keep).
 * Does nothing while a thread is at work, or when c->when_asked.
 * `shown` (may be NULL) are the rules of the model on screen: base's
 * (or c's own for base, put aside) lend the threads base's outermost
 * nodes, if made. */
void granularity_cache_prepare(struct granularity_cache *c, enum granularity g,
			       const struct rules *shown);
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
/* Waits for the threads, if any, keeping their models. */
void granularity_cache_wait(struct granularity_cache *c);
/* Stops the threads at their next pause point (a model half made is
 * freed; one not begun is not made) and drops what was put aside, whose
 * threads may still read base or a kept model: before base may be freed.
 * A model not made is made when next prepared or taken. */
void granularity_cache_quiet(struct granularity_cache *c);
/* Stops the threads as granularity_cache_quiet does, then frees every
 * model made from base, and all that was put aside: closing the
 * explorer waits for no whole model. */
void granularity_cache_free(struct granularity_cache *c);

#endif
