/* The rules: self and total time per function, computed from the model
 * exactly as ../shared/spec/time-rules.md defines them (docs/time-rules.md
 * says it in this project's words).  Results are cached per
 * (rule, sample type); the rules never change the model.  When its owner
 * changes the model's values in place (a live snapshot of the same
 * stacks), rules_values_changed drops what the values decide and keeps
 * what the shape alone does, the costly part. */
#ifndef WPROF_RULES_H
#define WPROF_RULES_H

#include <stdatomic.h>
#include <stdbool.h>

#include "caller_chains.h"
#include "gprof.h"
#include "model/model.h"
#include "node_shape.h"

enum rule { RULE_EXACT, RULE_ADDITIVE, RULE_DIVIDED, RULE_GPROF, RULE_COUNT };

struct totals {
	enum rule rule;
	unsigned type;
	double *self;      /* per frame, the same under every rule */
	double *total;     /* per frame; NULL when the rule does not apply */
	const char *why_not; /* why total is NULL, for the user */
	bool computing;    /* total is NULL only until a thread finishes it */
	/* Per arc (model->arcs): the part of the callee's total that this
	 * rule gives to the caller, and the part of it that is the callee's
	 * own self time.  NULL when the rule does not apply, and under exact
	 * and additive until rules_arc_totals is asked (only the panes of
	 * arcs read them: a range key on another pane does not sum them). */
	double *arc_total;
	double *arc_self;
	bool arcs_later; /* rules_arc_totals makes them */
	double profile_total; /* the base of every %: the whole profile's
			       * value, or with `relative` what is left */
	/* gprof only: calls per frame as gprof counts them (recursive calls
	 * left out) and the whole computation, cycles included; else NULL. */
	const double *calls;
	struct gprof_graph *gprof;
};

struct divided_job;

struct chains_job;

struct rules {
	const struct model *model;
	struct totals *cache[RULE_COUNT][MAX_SAMPLE_TYPES];
	/* With `background` set, divided (seconds on a large graph) is
	 * computed on a thread of its own, one sample type at a time; until
	 * it is done its totals are the placeholder `waiting[type]`. */
	bool background;
	struct divided_job *job;
	bool news; /* totals installed since rules_poll last said so */
	struct totals waiting[MAX_SAMPLE_TYPES];
	double *node_total[MAX_SAMPLE_TYPES]; /* node self + its subtree */
	double *frame_self[MAX_SAMPLE_TYPES];
	/* What the shape alone decides, kept by rules_values_changed: */
	struct node_shape *shape; /* held: made here, or another rules' */
	struct caller_chains chains; /* for bottom-up, made when first asked */
	bool chains_tried;
	struct chains_job *chains_job; /* or made ahead on a thread */
	/* Percentages of what a filter left rather than of the whole
	 * profile (pprof's -relative_percentages); see rules_set_relative. */
	bool relative;
};

void rules_init(struct rules *r, const struct model *m);
void rules_free(struct rules *r);
/* The model's values changed, its nodes, frames and arcs did not. */
void rules_values_changed(struct rules *r);

const struct totals *rules_totals(struct rules *r, enum rule rule,
				  unsigned type);
/* t (rules_totals' of r) with its arcs' numbers, made now if not yet. */
const struct totals *rules_arc_totals(struct rules *r, const struct totals *t);
/* Percentages of what is left (true) or of the whole profile (false, the
 * default): every totals' profile_total follows, computed ones too. */
void rules_set_relative(struct rules *r, bool relative);
/* Starts computing divided for `type` on its thread (with `background`
 * set), so that it may be ready before anyone asks: as work made ahead
 * (base/background.h, RANK_DIVIDED) until the screen asks for it, and
 * after the caller chains when they are being sorted (the bottom-up
 * pane waits for those, divided shows its placeholder meanwhile). */
void rules_start_divided(struct rules *r, unsigned type);
/* Asks divided's thread, if any, to stop, without waiting for it: the
 * rules are put aside (the explorer's other granularities).  Its partial
 * numbers are dropped when it ends (rules_poll, rules_free), and divided
 * is computed anew when asked for again.  The rest stays. */
void rules_stop_divided(struct rules *r);
/* Starts sorting the caller chains (bottom-up's) on a thread (with
 * `background` set), so that the bottom-up pane opens without it.  The
 * thread reads the tree's shape alone (nodes, child_ids): the model's
 * values and sample types may change meanwhile (model_add_sample_counts),
 * its nodes not. */
void rules_start_chains(struct rules *r);
/* Background work: installs what has finished and starts what is still
 * wanted; true when new totals were installed. */
bool rules_poll(struct rules *r);
bool rules_busy(const struct rules *r);
const double *rules_node_totals(struct rules *r, unsigned type);
const uint8_t *rules_outermost(struct rules *r);
/* A view with the nodes of `from`'s model (a filter that keeps the
 * tree's shape, filter_view.h) has its outermost nodes too: `r` holds
 * them where `from` has made them. */
void rules_share_shape(struct rules *r, const struct rules *from);
/* r's outermost nodes as made so far, held for the caller (who lets go
 * with node_shape_release), or NULL: for a thread that makes a model
 * from r's and its rules (rules_extend_shape), whatever r becomes. */
struct node_shape *rules_hold_shape(const struct rules *r);
/* r's outermost nodes, if not made yet, derived from `from` (src's, may
 * be NULL) where r's model extends src by leaves (node_shape_extend);
 * else rules_outermost walks the tree when first asked. */
void rules_extend_shape(struct rules *r, const struct model *src, const struct node_shape *from);
/* The nodes sorted by their chains of callers, on `places` places at
 * least (caller_chains.h): one sort for every rule and time range.  NULL
 * where the nodes are not one tree. */
const struct caller_chains *rules_caller_chains(struct rules *r, uint32_t places);

const char *rule_name(enum rule rule);
bool rule_parse(const char *name, enum rule *out);
/* The rule a user starts with: exact where stacks allow it, gprof for
 * call arcs, divided on an XS node graph (xsbug's), else additive. */
enum rule rule_default(const struct model *m);

/* The xsbug rule on its own, for tests and the benchmark.  False when
 * `stop` (may be NULL) was set meanwhile: the numbers are then partial. */
bool divided_compute(const struct model *m, const double *self,
		     double cutoff, double *total, double *arc_total,
		     double *arc_self, const atomic_bool *stop);

#endif
