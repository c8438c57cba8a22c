/* The one hash table (id_table.h). */
#include <stdlib.h>
#include <string.h>

#include "id_table.h"

static void alloc_slots(struct id_table *t, size_t size)
{
	t->size = size;
	t->ids = xmalloc(size * sizeof(*t->ids));
	t->tags = xmalloc(size * sizeof(*t->tags));
	memset(t->ids, 0xff, size * sizeof(*t->ids));
}

void id_table_init(struct id_table *t, size_t expected)
{
	size_t size = 16;
	while (size < expected * 2)
		size *= 2;
	t->count = 0;
	alloc_slots(t, size);
}

void id_table_free(struct id_table *t)
{
	free(t->ids);
	free(t->tags);
	memset(t, 0, sizeof(*t));
}

void id_table_copy(struct id_table *to, const struct id_table *from)
{
	to->count = from->count;
	alloc_slots(to, from->size);
	memcpy(to->ids, from->ids, from->size * sizeof(*to->ids));
	memcpy(to->tags, from->tags, from->size * sizeof(*to->tags));
}

void id_table_clear(struct id_table *t)
{
	memset(t->ids, 0xff, t->size * sizeof(*t->ids));
	t->count = 0;
}

/* Doubling keeps each entry's slot determined by its stored tag: the
 * slot is the tag's low bits, and the table never outgrows 32 of them. */
static void grow(struct id_table *t)
{
	uint32_t *old_ids = t->ids, *old_tags = t->tags;
	size_t old_size = t->size;
	alloc_slots(t, old_size * 2);
	size_t mask = t->size - 1;
	for (size_t i = 0; i < old_size; i++) {
		if (old_ids[i] == NO_ID)
			continue;
		size_t s = old_tags[i] & mask;
		while (t->ids[s] != NO_ID)
			s = (s + 1) & mask;
		t->ids[s] = old_ids[i];
		t->tags[s] = old_tags[i];
	}
	free(old_ids);
	free(old_tags);
}

void id_table_add(struct id_table *t, const struct id_probe *p, uint32_t id)
{
	t->ids[p->slot] = id;
	t->tags[p->slot] = p->tag;
	if (++t->count * 2 > t->size)
		grow(t);
}
