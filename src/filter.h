/* Focus and hide (pprof's -focus and -hide) as a filtered copy of the
 * model, so that rules and views stay pure: they simply see a smaller
 * profile.  Frame ids are the same in the copy as in the original. */
#ifndef WPROF_FILTER_H
#define WPROF_FILTER_H

#include <stdbool.h>
#include <stdint.h>

#include "model.h"

struct stack_filter {
	uint32_t focus;        /* keep only stacks through it; NO_ID: all */
	const uint8_t *hidden; /* per frame: cut out of every stack; or NULL */
};

/* Fills `out` (a new model) with the stacks of `src` that pass `f`: the
 * nodes and their values, without the timeline (no samples).  Needs
 * whole stacks; otherwise returns false and says why in *why_not. */
bool model_filter_stacks(const struct model *src, const struct stack_filter *f,
			 struct model *out, const char **why_not);

/* Sample types and metadata of `src` into a new model (for copies). */
void model_copy_header(const struct model *src, struct model *out);

/* The sample type holding sample counts, or NO_ID when there is none. */
uint32_t model_count_type(const struct model *m);

/* Adds a "samples" (count) type counted from the timeline to a finished
 * model that has samples but no count type, so that every view can show
 * sample counts (the `u` key); returns the count type or NO_ID. */
uint32_t model_add_sample_counts(struct model *m);

#endif
