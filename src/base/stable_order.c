/* The stable order of an array of keys (stable_order.h). */
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "stable_order.h"
#include "util.h"

/* Insertion, linear while the keys are nearly in order; false (order
 * still a permutation, its prefix sorted stably) once it has moved too
 * much. */
static bool insertion_sort(const double *keys, size_t *order, size_t n)
{
	size_t moves = 0;
	for (size_t i = 1; i < n; i++) {
		size_t item = order[i], j = i;
		for (; j > 0 && keys[order[j - 1]] > keys[item]; j--)
			order[j] = order[j - 1];
		order[j] = item;
		moves += i - j;
		if (moves > 8 * n + 1024)
			return false;
	}
	return true;
}

/* Bottom-up, each pass merging runs of `width` into tmp, then back. */
static void merge_sort(const double *keys, size_t *order, size_t n)
{
	size_t *tmp = xmalloc((n + 1) * sizeof(size_t)), *from = order, *to = tmp;
	for (size_t width = 1; width < n; width *= 2) {
		for (size_t lo = 0; lo < n; lo += 2 * width) {
			size_t mid = lo + width < n ? lo + width : n;
			size_t hi = lo + 2 * width < n ? lo + 2 * width : n;
			size_t a = lo, b = mid, k = lo;
			while (a < mid || b < hi) {
				bool take_a = b == hi || (a < mid && keys[from[a]] <= keys[from[b]]);
				to[k++] = take_a ? from[a++] : from[b++];
			}
		}
		size_t *swap = from;
		from = to;
		to = swap;
	}
	if (from != order)
		memcpy(order, from, n * sizeof(size_t));
	free(tmp);
}

size_t *stable_order(const double *keys, size_t n)
{
	size_t i = 1;
	while (i < n && keys[i - 1] <= keys[i])
		i++;
	if (i >= n)
		return NULL;
	size_t *order = xmalloc(n * sizeof(size_t));
	for (size_t k = 0; k < n; k++)
		order[k] = k;
	if (!insertion_sort(keys, order, n))
		merge_sort(keys, order, n);
	return order;
}

void reorder(void *array, size_t size, const size_t *order, size_t n)
{
	unsigned char *items = array, *sorted = xmalloc(n * size + 1);
	for (size_t k = 0; k < n; k++)
		memcpy(sorted + k * size, items + order[k] * size, size);
	memcpy(items, sorted, n * size);
	free(sorted);
}

/* Item i of `items` moves to j < i, those between one place up. */
static void move_back(void *items, size_t size, size_t i, size_t j)
{
	unsigned char *a = items, held[16];
	memcpy(held, a + i * size, size);
	memmove(a + (j + 1) * size, a + j * size, (i - j) * size);
	memcpy(a + j * size, held, size);
}

void stable_sort_carrying(double *keys, size_t n, const struct carried *with,
			  size_t nwith)
{
	size_t moves = 0;
	for (size_t i = 1; i < n; i++) {
		if (!(keys[i] < keys[i - 1]))
			continue;
		size_t j = i - 1;
		while (j > 0 && keys[j - 1] > keys[i])
			j--;
		moves += i - j;
		if (moves > 8 * n + 1024)
			break; /* keys[0..i) are sorted stably: the rest below */
		move_back(keys, sizeof(*keys), i, j);
		for (size_t k = 0; k < nwith; k++)
			move_back(with[k].items, with[k].size, i, j);
	}
	size_t *order = stable_order(keys, n);
	if (!order)
		return;
	reorder(keys, sizeof(*keys), order, n);
	for (size_t k = 0; k < nwith; k++)
		reorder(with[k].items, with[k].size, order, n);
	free(order);
}
