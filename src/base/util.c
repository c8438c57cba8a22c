#include "util.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static void (*restore_before_exit)(void);

void on_out_of_memory(void (*restore)(void))
{
	restore_before_exit = restore;
}

/* Running out of memory is not an input error: there is nothing sensible
 * to show, so say so and stop. */
static void out_of_memory(size_t size)
{
	void (*restore)(void) = restore_before_exit;
	restore_before_exit = NULL; /* the hook may allocate and fail again */
	if (restore)
		restore();
	fprintf(stderr, "wprof-tui: out of memory (asked for %zu bytes)\n", size);
	exit(3);
}

void *xmalloc(size_t size)
{
	void *p = malloc(size ? size : 1);
	if (!p)
		out_of_memory(size);
	return p;
}

void *xcalloc(size_t count, size_t size)
{
	void *p = calloc(count ? count : 1, size ? size : 1);
	if (!p)
		out_of_memory(count * size);
	return p;
}

void *xzeroed(size_t count, size_t size)
{
	if (size && count > SIZE_MAX / size)
		out_of_memory(SIZE_MAX);
	return memset(xmalloc(count * size), 0, count * size);
}

void *xrealloc(void *ptr, size_t size)
{
	void *p = realloc(ptr, size ? size : 1);
	if (!p)
		out_of_memory(size);
	return p;
}

void free_all(void *const *ptrs, size_t n)
{
	for (size_t i = 0; i < n; i++)
		free(ptrs[i]);
}

char *xstrdup(const char *s)
{
	size_t len = strlen(s) + 1;
	return memcpy(xmalloc(len), s, len);
}

void grow_array(void **items, size_t *cap, size_t need, size_t size)
{
	if (need <= *cap)
		return;
	size_t new_cap = *cap ? *cap : 16;
	while (new_cap < need) {
		if (new_cap > SIZE_MAX / 2 / size)
			out_of_memory(SIZE_MAX);
		new_cap *= 2;
	}
	*items = xrealloc(*items, new_cap * size);
	*cap = new_cap;
}

int name_index(const char *const *names, int count, const char *name)
{
	for (int i = 0; i < count; i++)
		if (names[i] && !strcmp(names[i], name))
			return i;
	return -1;
}

/* FNV-1a over the bytes, then a final mix so that low bits are usable as
 * a table index. */
/* Eight bytes a step, each multiplied in and folded down, then mixed:
 * names are hashed once each on load, hundreds of thousands of them. */
uint64_t hash_bytes(const void *data, size_t len, uint64_t seed)
{
	const unsigned char *p = data;
	uint64_t h = 0xcbf29ce484222325ULL ^ seed, word;
	for (size_t left = len; left >= 8; left -= 8, p += 8) {
		memcpy(&word, p, 8);
		h = (h ^ word) * 0x9e3779b97f4a7c15ULL;
		h ^= h >> 29;
	}
	word = 0;
	memcpy(&word, p, len % 8);
	h = (h ^ word ^ (uint64_t)len << 56) * 0x9e3779b97f4a7c15ULL;
	return hash_mix(h);
}
