#include "strtab.h"

#include <stdlib.h>
#include <string.h>

#include "util.h"

void strings_init(struct string_table *t)
{
	memset(t, 0, sizeof(*t));
	id_table_init(&t->index, 512);
}

void strings_free(struct string_table *t)
{
	free(t->arena);
	id_table_free(&t->index);
	memset(t, 0, sizeof(*t));
}

void strings_copy(struct string_table *to, const struct string_table *from)
{
	*to = *from;
	to->arena = xmalloc(from->cap + 1);
	if (from->used)
		memcpy(to->arena, from->arena, from->used);
	id_table_copy(&to->index, &from->index);
}

/* A string with an embedded NUL is cut there: names are C strings. */
str_t strings_intern(struct string_table *t, const char *s, size_t len)
{
	const char *nul = memchr(s, '\0', len);
	if (nul)
		len = (size_t)(nul - s);
	struct id_probe p = id_table_probe(&t->index, hash_bytes(s, len, 0));
	for (str_t off; (off = id_probe_next(&t->index, &p)) != NO_ID;) {
		const char *have = t->arena + off;
		/* Within the arena, a stored string of this length ends at
		 * have[len]; only then are its bytes compared. */
		if (off + len < t->used && have[len] == '\0' && !memcmp(have, s, len))
			return off;
	}
	if (t->used + len + 1 >= STR_NONE)
		return STR_NONE; /* 4 GiB of names: show the rest as "" */
	GROW(t->arena, t->cap, t->used + len + 1);
	str_t off = (str_t)t->used;
	memcpy(t->arena + off, s, len);
	t->arena[off + len] = '\0';
	t->used += len + 1;
	id_table_add(&t->index, &p, off);
	return off;
}

int strings_cmp(const struct string_table *t, str_t s, const char *other)
{
	return strcmp(strings_get(t, s), other);
}
