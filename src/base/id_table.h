/* The one hash table: keys to small integer ids.  The keys themselves live
 * in the caller's arrays (frames, strings, stacks, nodes); the table only
 * holds each entry's id and 32 bits of its hash, so one structure serves
 * every index in the program and growing it never hashes a key again.
 *
 * Looking up, and adding when absent:
 *
 *     struct id_probe p = id_table_probe(&t, hash);
 *     for (uint32_t id; (id = id_probe_next(&t, &p)) != NO_ID;)
 *             if (same_key(id, key))
 *                     return id;
 *     id_table_add(&t, &p, new_id);      the slot the probe stopped at
 *
 * id_probe_next hands out only ids whose stored hash bits equal the key's,
 * so the caller compares keys rarely.  Nothing may be added between the
 * probe and id_table_add.  Open addressing with linear probing, at most
 * half full; the hash must be mixed (hash_bytes, hash_mix), since its low
 * bits pick the slot.  An id is any value but NO_ID. */
#ifndef WPROF_ID_TABLE_H
#define WPROF_ID_TABLE_H

#include <stddef.h>
#include <stdint.h>

#include "util.h"

struct id_table {
	uint32_t *ids;  /* NO_ID: an empty slot */
	uint32_t *tags; /* the low 32 bits of the entry's hash */
	size_t size;    /* a power of two */
	size_t count;
};

struct id_probe {
	size_t slot;
	uint32_t tag;
};

/* Room for `expected` entries before the first growth (0: a few). */
void id_table_init(struct id_table *t, size_t expected);
void id_table_free(struct id_table *t);
void id_table_copy(struct id_table *to, const struct id_table *from);
/* Empties the table, keeping its room. */
void id_table_clear(struct id_table *t);

static inline struct id_probe id_table_probe(const struct id_table *t, uint64_t hash)
{
	return (struct id_probe){ .slot = (size_t)hash & (t->size - 1),
				  .tag = (uint32_t)hash };
}

/* The next id stored under the probe's hash bits, or NO_ID when the probe
 * reaches an empty slot (where id_table_add then puts a new entry). */
static inline uint32_t id_probe_next(const struct id_table *t, struct id_probe *p)
{
	size_t mask = t->size - 1;
	for (;; p->slot = (p->slot + 1) & mask) {
		uint32_t id = t->ids[p->slot];
		if (id == NO_ID)
			return NO_ID;
		if (t->tags[p->slot] == p->tag) {
			p->slot = (p->slot + 1) & mask; /* the next call goes on */
			return id;
		}
	}
}

/* Adds `id` under the probe's hash; the probe must have ended on NO_ID. */
void id_table_add(struct id_table *t, const struct id_probe *p, uint32_t id);

#endif
