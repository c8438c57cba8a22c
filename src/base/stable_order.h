/* The stable order of an array of keys, for callers that keep other
 * arrays beside their keys (sample times with their nodes and lines):
 * the sort yields a permutation, which each array then takes.  A stable
 * sort has one answer, so who sorts does not change the result. */
#ifndef WPROF_STABLE_ORDER_H
#define WPROF_STABLE_ORDER_H

#include <stddef.h>

/* order[k] is the index of the key that belongs at k, equal keys in
 * their first order; NULL when the keys are in order already.  Keys
 * nearly in order (a few out of place, as V8's rare negative time deltas
 * leave them) cost linear time, others n log n.  The caller frees it. */
size_t *stable_order(const double *keys, size_t n);

/* Puts array's n items of `size` bytes in `order`. */
void reorder(void *array, size_t size, const size_t *order, size_t n);

#endif
