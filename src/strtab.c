#include "strtab.h"

#include <stdlib.h>
#include <string.h>

#include "util.h"

void strings_init(struct string_table *t)
{
	memset(t, 0, sizeof(*t));
	t->index_size = 1024;
	t->index = xmalloc(t->index_size * sizeof(*t->index));
	memset(t->index, 0xff, t->index_size * sizeof(*t->index));
}

void strings_free(struct string_table *t)
{
	free(t->arena);
	free(t->index);
	memset(t, 0, sizeof(*t));
}

void strings_copy(struct string_table *to, const struct string_table *from)
{
	*to = *from;
	to->arena = xmalloc(from->cap + 1);
	if (from->used)
		memcpy(to->arena, from->arena, from->used);
	to->index = xmalloc(from->index_size * sizeof(*to->index));
	memcpy(to->index, from->index, from->index_size * sizeof(*to->index));
}

static size_t slot_for(const struct string_table *t, const char *s, size_t len,
		       uint64_t h)
{
	size_t mask = t->index_size - 1;
	for (size_t i = h & mask;; i = (i + 1) & mask) {
		uint32_t off = t->index[i];
		if (off == STR_NONE)
			return i;
		const char *have = t->arena + off;
		/* strncmp stops at the end of a shorter stored string,
		 * where memcmp would read past the arena. */
		if (!strncmp(have, s, len) && have[len] == '\0')
			return i;
	}
}

static void rehash(struct string_table *t)
{
	size_t old_size = t->index_size;
	uint32_t *old = t->index;
	t->index_size *= 2;
	t->index = xmalloc(t->index_size * sizeof(*t->index));
	memset(t->index, 0xff, t->index_size * sizeof(*t->index));
	for (size_t i = 0; i < old_size; i++) {
		if (old[i] == STR_NONE)
			continue;
		const char *s = t->arena + old[i];
		size_t len = strlen(s);
		t->index[slot_for(t, s, len, hash_bytes(s, len, 0))] = old[i];
	}
	free(old);
}

/* A string with an embedded NUL is cut there: names are C strings. */
str_t strings_intern(struct string_table *t, const char *s, size_t len)
{
	const char *nul = memchr(s, '\0', len);
	if (nul)
		len = (size_t)(nul - s);
	uint64_t h = hash_bytes(s, len, 0);
	size_t slot = slot_for(t, s, len, h);
	if (t->index[slot] != STR_NONE)
		return t->index[slot];
	if (t->used + len + 1 >= STR_NONE)
		return STR_NONE; /* 4 GiB of names: show the rest as "" */
	GROW(t->arena, t->cap, t->used + len + 1);
	str_t off = (str_t)t->used;
	memcpy(t->arena + off, s, len);
	t->arena[off + len] = '\0';
	t->used += len + 1;
	t->index[slot] = off;
	if (++t->count * 2 > t->index_size)
		rehash(t);
	return off;
}

int strings_cmp(const struct string_table *t, str_t s, const char *other)
{
	return strcmp(strings_get(t, s), other);
}
