/* Small helpers every part of wprof-tui uses: allocation that cannot
 * return NULL, and a growable array. */
#ifndef WPROF_UTIL_H
#define WPROF_UTIL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define NO_ID UINT32_MAX
#define ARRAY_LEN(a) (sizeof(a) / sizeof((a)[0]))

void *xmalloc(size_t size);
void *xcalloc(size_t count, size_t size);
/* Zeroed like xcalloc, but by writing every byte: for a large array whose
 * elements are read before they are first written (counts and sums
 * added to).  calloc leaves fresh pages to the kernel, and such an
 * array then takes two faults a page, one to read its zero page and one
 * to write it. */
void *xzeroed(size_t count, size_t size);
void *xrealloc(void *ptr, size_t size);
char *xstrdup(const char *s);

/* Run once when an allocation above fails, before the message and the
 * exit: a part that took the terminal over gives it back here (the curses
 * screen registers its close), so the message is seen and the shell is
 * left sane.  NULL unregisters. */
void on_out_of_memory(void (*restore)(void));

/* Grows *items so that it holds at least `need` elements of `size` bytes,
 * doubling the capacity (kept in *cap) to keep appends amortised O(1). */
void grow_array(void **items, size_t *cap, size_t need, size_t size);

/* The check is inline: GROW runs once per element appended. */
#define GROW(items, cap, need)                                                 \
	do {                                                                   \
		if ((need) > (cap))                                            \
			grow_array((void **)&(items), &(cap), (need),          \
				   sizeof(*(items)));                          \
	} while (0)

/* Frees every pointer listed, NULL ones too as free does: the arrays of
 * a struct, freed in one statement rather than a line each. */
#define FREE_ALL(...)                                                          \
	free_all((void *[]){ __VA_ARGS__ },                                    \
		 sizeof((void *[]){ __VA_ARGS__ }) / sizeof(void *))
void free_all(void *const *ptrs, size_t n);

/* The index of `name` in a table of `count` names (entries may be NULL),
 * or -1: how every enum is read from the command line. */
int name_index(const char *const *names, int count, const char *name);

/* An enum's two functions over its table of names (how the command line
 * and the reports spell it), written once: NAME_FN(value) gives the name,
 * "?" out of range; PARSE_FN(text, &value) is false when text names no
 * value.  `names` is an array indexed by the enum. */
#define ENUM_NAME_FN(fn, type, names)                                          \
	const char *fn(type value)                                             \
	{                                                                      \
		return (size_t)value < ARRAY_LEN(names) ? names[value] : "?";  \
	}
#define ENUM_PARSE_FN(fn, type, names)                                         \
	bool fn(const char *text, type *out)                                   \
	{                                                                      \
		int i = name_index(names, (int)ARRAY_LEN(names), text);        \
		if (i >= 0)                                                    \
			*out = (type)i;                                        \
		return i >= 0;                                                 \
	}

uint64_t hash_bytes(const void *data, size_t len, uint64_t seed);

static inline uint64_t hash_mix(uint64_t x)
{
	x ^= x >> 33;
	x *= 0xff51afd7ed558ccdULL;
	x ^= x >> 33;
	x *= 0xc4ceb9fe1a85ec53ULL;
	x ^= x >> 33;
	return x;
}

#endif
