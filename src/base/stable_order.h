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

/* An array that moves with the keys a sort puts in order: n items of
 * `size` bytes, at most 16. */
struct carried {
	void *items;
	size_t size;
};

/* Sorts keys[0..n) stably and the carried arrays with them, the result
 * stable_order and reorder would give.  Keys nearly in order are sorted
 * where they lie, in linear time and no memory (millions of samples
 * with a few out of place: the permutation alone would cost 8 bytes a
 * sample); others through stable_order. */
void stable_sort_carrying(double *keys, size_t n, const struct carried *with,
			  size_t nwith);

#endif
