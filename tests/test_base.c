/* src/base: the id table, on keys kept in the test's own array as the
 * model and the string table keep theirs. */
#include <stdbool.h>
#include <string.h>

#include "base/id_table.h"
#include "base/util.h"
#include "check.h"

#define MAX_KEYS 5000

struct keyed {
	struct id_table t;
	uint64_t keys[MAX_KEYS]; /* id -> key */
	uint32_t n;
};

/* How many ids the probe offered before it ended, for the collision
 * checks: each one costs the caller a key comparison. */
static uint32_t offered;

/* The id of `key` under `hash`, or NO_ID with the probe left where an
 * add goes. */
static uint32_t find(const struct keyed *k, uint64_t key, uint64_t hash, struct id_probe *p)
{
	*p = id_table_probe(&k->t, hash);
	offered = 0;
	for (uint32_t id; (id = id_probe_next(&k->t, p)) != NO_ID;) {
		offered++;
		if (k->keys[id] == key)
			return id;
	}
	return NO_ID;
}

static uint32_t intern(struct keyed *k, uint64_t key, uint64_t hash)
{
	struct id_probe p;
	uint32_t id = find(k, key, hash, &p);
	if (id != NO_ID)
		return id;
	k->keys[k->n] = key;
	id_table_add(&k->t, &p, k->n);
	return k->n++;
}

static uint32_t lookup(const struct keyed *k, uint64_t key, uint64_t hash)
{
	struct id_probe p;
	return find(k, key, hash, &p);
}

static uint64_t mixed(uint64_t key)
{
	return hash_mix(key);
}

/* From 16 slots to 8192: nine doublings, every id still where it was. */
static void check_growth(void)
{
	static struct keyed k;
	id_table_init(&k.t, 0);
	CHECK(k.t.size == 16 && k.t.count == 0);
	for (uint64_t i = 0; i < 4000; i++)
		CHECK(intern(&k, i * 7919 + 3, mixed(i * 7919 + 3)) == i);
	CHECK_MSG(k.t.count == 4000 && k.t.size == 8192, "count %zu size %zu", k.t.count,
		  k.t.size);
	for (uint64_t i = 0; i < 4000; i++)
		CHECK(lookup(&k, i * 7919 + 3, mixed(i * 7919 + 3)) == i);
	uint64_t last = 7919 * 3999 + 3, after = 7919 * 4000 + 3;
	CHECK(lookup(&k, 1, mixed(1)) == NO_ID && lookup(&k, after, mixed(after)) == NO_ID);
	/* Adding a key again finds it. */
	CHECK(intern(&k, 3, mixed(3)) == 0 && intern(&k, last, mixed(last)) == 3999);
	CHECK(k.t.count == 4000 && k.n == 4000);
	id_table_free(&k.t);
	CHECK(k.t.ids == NULL && k.t.size == 0);
}

/* Room asked for up front: no growth until past it. */
static void check_expected(void)
{
	struct id_table t;
	id_table_init(&t, 100);
	CHECK(t.size == 256);
	id_table_free(&t);
	id_table_init(&t, 512);
	CHECK(t.size == 1024);
	id_table_free(&t);
}

/* Keys whose hashes are equal in every bit: they lie on one run of
 * slots, the probe offers each in turn and the keys decide, through
 * growth too (which may reorder the run). */
static void check_equal_hashes(void)
{
	static struct keyed k;
	id_table_init(&k.t, 0);
	for (uint64_t i = 0; i < 40; i++)
		CHECK(intern(&k, 1000 + i, 0x12345678) == i);
	CHECK(k.t.count == 40 && k.t.size == 128);
	bool at[41] = { false }; /* found after that many offers */
	for (uint64_t i = 0; i < 40; i++) {
		CHECK(lookup(&k, 1000 + i, 0x12345678) == i);
		CHECK_MSG(offered >= 1 && offered <= 40 && !at[offered],
			  "key %llu: %u offered", (unsigned long long)i, offered);
		at[offered <= 40 ? offered : 0] = true;
	}
	CHECK(lookup(&k, 999, 0x12345678) == NO_ID && offered == 40);
	id_table_free(&k.t);
}

/* Hashes equal in the slot bits but not in the stored 32: the probe
 * walks past the others without offering them. */
static void check_equal_slots(void)
{
	static struct keyed k;
	id_table_init(&k.t, 0);
	for (uint64_t i = 0; i < 7; i++)
		CHECK(intern(&k, i, (i + 1) << 8 | 5) == i);
	CHECK(k.t.size == 16);
	for (uint64_t i = 0; i < 7; i++) {
		CHECK(lookup(&k, i, (i + 1) << 8 | 5) == i);
		CHECK(offered == 1);
	}
	/* Same 32 stored bits, other high bits: offered, and told apart by key. */
	CHECK(intern(&k, 100, 1ULL << 40 | 1 << 8 | 5) == 7);
	CHECK(lookup(&k, 100, 1ULL << 40 | 1 << 8 | 5) == 7 && offered == 2);
	CHECK(lookup(&k, 0, 1 << 8 | 5) == 0 && offered == 1);
	id_table_free(&k.t);
}

static void check_copy_and_clear(void)
{
	static struct keyed k, c;
	id_table_init(&k.t, 0);
	for (uint64_t i = 0; i < 100; i++)
		intern(&k, i, mixed(i));
	id_table_copy(&c.t, &k.t);
	memcpy(c.keys, k.keys, sizeof(k.keys));
	c.n = k.n;
	CHECK(c.t.count == 100 && c.t.size == k.t.size && c.t.ids != k.t.ids);
	for (uint64_t i = 0; i < 100; i++)
		CHECK(lookup(&c, i, mixed(i)) == i);
	/* The copy grows on its own: the original neither sees nor loses. */
	for (uint64_t i = 100; i < 300; i++)
		CHECK(intern(&c, i, mixed(i)) == i);
	CHECK(c.t.count == 300 && k.t.count == 100 && c.t.size > k.t.size);
	CHECK(lookup(&k, 150, mixed(150)) == NO_ID && lookup(&k, 99, mixed(99)) == 99);

	size_t size = c.t.size;
	id_table_clear(&c.t);
	c.n = 0;
	CHECK(c.t.count == 0 && c.t.size == size);
	CHECK(lookup(&c, 5, mixed(5)) == NO_ID);
	CHECK(intern(&c, 42, mixed(42)) == 0 && lookup(&c, 42, mixed(42)) == 0);
	CHECK(c.t.count == 1);
	id_table_free(&c.t);
	id_table_free(&k.t);
}

int main(void)
{
	check_growth();
	check_expected();
	check_equal_hashes();
	check_equal_slots();
	check_copy_and_clear();
	return check_done();
}
