/* Interned strings: each distinct string is stored once in one growing
 * arena and named by its offset (str_t), so frames stay small and names
 * compare by number. */
#ifndef WPROF_STRTAB_H
#define WPROF_STRTAB_H

#include <stddef.h>
#include <stdint.h>

#include "id_table.h"

typedef uint32_t str_t;
#define STR_NONE UINT32_MAX

struct string_table {
	char *arena;
	size_t used, cap;
	struct id_table index; /* each string's offset, by its bytes' hash */
};

void strings_init(struct string_table *t);
void strings_free(struct string_table *t);
str_t strings_intern(struct string_table *t, const char *s, size_t len);
/* `to` (not initialized) becomes a copy of `from`, every str_t the same. */
void strings_copy(struct string_table *to, const struct string_table *from);

static inline const char *strings_get(const struct string_table *t, str_t s)
{
	return s == STR_NONE ? "" : t->arena + s;
}

int strings_cmp(const struct string_table *t, str_t s, const char *other);

#endif
