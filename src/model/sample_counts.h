/* Sample counts for profiles whose file gives none (filters are in
 * transform.h). */
#ifndef WPROF_FILTER_H
#define WPROF_FILTER_H

#include <stdbool.h>
#include <stdint.h>

#include "model.h"

/* The sample type holding sample counts, or NO_ID when there is none. */
uint32_t model_count_type(const struct model *m);

/* Adds a "samples" (count) type counted from the timeline to a finished
 * model that has samples but no count type, so that every view can show
 * sample counts (the `u` key); returns the count type or NO_ID. */
uint32_t model_add_sample_counts(struct model *m);

#endif
