/* .cpuprofile: the Chrome DevTools Protocol's Profiler.Profile, as V8,
 * Node, Chrome and XS write it (../shared/spec/formats.md).
 *
 * The file is read as a stream of JSON tokens.  Node objects become
 * records first (their keys come in any order, and children may be
 * listed before they are defined); the model is built from the records
 * once the whole document has been read. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/id_table.h"
#include "base/stable_order.h"
#include "base/util.h"
#include "cpuprofile_tail.h"
#include "json.h"
#include "loaders.h"
#include "v8_frame.h"
#include "xs_cycles.h"

/* Times beyond these are not from a clock: reject rather than mislead. */
#define MAX_ABS_TIME 1e17  /* µs: XS writes epoch times, about 1.8e15 */
#define MAX_ABS_DELTA 1e12 /* µs: eleven days between two samples */
#define MAX_HITS 1e12
#define MAX_ID 9007199254740992.0 /* 2^53: beyond, ids are not exact */
#define MAX_TREE_MS 1e14 /* ms: selfTime, totalTime (three thousand years) */

#define FORMAT "cpuprofile"

struct record {
	int64_t id;
	struct v8_frame frame;
	double hits;
	/* The old DevTools profile's own times (ms), "tree times". */
	double self_ms, total_ms;
	uint64_t at; /* byte offset of its "id" (else of the node) */
	bool has_id, has_self, has_total;
};

struct id_edge {
	uint32_t from;  /* slot whose list names the other */
	int64_t other;  /* id of the child (or parent, for "parent" fields) */
	uint64_t offset;
};

struct slot_edge {
	uint32_t parent, child;
};

/* Node id -> record slot.  V8 numbers its nodes 1..N, so a plain table
 * indexed by id usually does; scattered ids go through a hash. */
struct id_map {
	struct id_table hashed; /* record slots, keyed by their ids; size 0: none */
	uint32_t *dense; /* dense[id - lowest], NO_ID where no node */
	int64_t lowest;
	size_t dense_size;
};

struct cpu_loader {
	struct json j;
	struct v8_reader reader;
	struct model *m;
	struct load_error *err;
	struct record *records;
	size_t nrecords, records_cap;
	struct id_edge *children, *parents;
	size_t nchildren, children_cap, nparents, parents_cap;
	struct slot_edge *nested;
	size_t nnested, nested_cap;
	struct v8_ticks *ticks; /* by record slot */
	size_t nticks, ticks_cap;
	/* Samples as node slots when the nodes came first (as V8 writes
	 * them), else as raw ids resolved at the end. */
	uint32_t *sample_slots;
	int64_t *sample_ids;
	size_t nsamples, samples_cap;
	size_t mapped_records; /* records the id map covers */
	double *deltas, *timestamps;
	size_t ndeltas, deltas_cap, ntimestamps, timestamps_cap;
	double start, end;
	uint64_t samples_at, deltas_at, timestamps_at; /* where the arrays begin */
	bool have_start, have_end, have_nodes, have_samples;
	size_t tree_times; /* nodes with a selfTime */
	struct id_map map;
	struct v8_frame unknown;     /* each record's frame until read: made once */
	struct cpuprofile_tail tail; /* samples and timeDeltas, read ahead */
	struct node_part *part;      /* the last nodes, read ahead */
};

/* The nodes after a point well into "nodes", read on the tail thread by
 * a loader of its own (its strings in a scratch model) while this one
 * reads those before; taken when this one's reading reaches an element
 * of "nodes" at that very byte, else left (the model is the same). */
struct node_part {
	uint64_t start;         /* the first node's '{' */
	uint64_t end;           /* the byte after the array's ']' */
	bool whole;             /* read to that ']' without a fault */
	bool opened;
	struct input in;
	struct model m;
	struct load_error err;
	struct cpu_loader *L;
};

bool sniff_cpuprofile(const uint8_t *head, size_t len)
{
	size_t i = 0;
	if (len >= 3 && !memcmp(head, "\xef\xbb\xbf", 3))
		i = 3;
	while (i < len && (head[i] == ' ' || head[i] == '\n' ||
			   head[i] == '\r' || head[i] == '\t'))
		i++;
	return i < len && head[i] == '{';
}

/* Reads a number value; `what` names it in the error.  A field that may
 * be left out may also be null (Moddable's xsbug-log writes null lines
 * for native functions): with `present` given, null sets it false and
 * leaves *out alone; without, null is an error like any non-number. */
static bool read_number(struct cpu_loader *L, const char *what, double limit,
			double *out, bool *present)
{
	enum json_token t;
	if (!json_sink_next(&L->reader.s, &t))
		return false;
	if (present)
		*present = t != JSON_NULL;
	if (t == JSON_NULL && present)
		return true;
	if (t != JSON_NUMBER)
		return json_sink_fail_here(&L->reader.s, "%s is not a number", what);
	if (fabs(L->j.num) > limit)
		return json_sink_fail_here(&L->reader.s, "%s %.15g is out of range", what,
					   L->j.num);
	*out = L->j.num;
	return true;
}

static bool read_integer(struct cpu_loader *L, const char *what, double limit,
			 int64_t *out, bool *present)
{
	double v = 0;
	if (!read_number(L, what, limit, &v, present))
		return false;
	if (present && !*present)
		return true;
	if (v != floor(v))
		return json_sink_fail_here(&L->reader.s, "%s %g is not a whole number", what, v);
	*out = (int64_t)v;
	return true;
}

/* A node record, under `parent` when it is nested in its "children". */
static uint32_t new_record(void *ctx, uint32_t parent)
{
	struct cpu_loader *L = ctx;
	GROW(L->records, L->records_cap, L->nrecords + 1);
	L->records[L->nrecords] = (struct record){
		.at = L->j.token_offset,
		.frame = L->unknown,
	};
	uint32_t slot = (uint32_t)L->nrecords++;
	if (parent != NO_ID) {
		GROW(L->nested, L->nested_cap, L->nnested + 1);
		L->nested[L->nnested++] = (struct slot_edge){ parent, slot };
	}
	return slot;
}

static void add_id_edge(struct id_edge **edges, size_t *n, size_t *cap,
			uint32_t from, int64_t other, uint64_t offset)
{
	GROW(*edges, *cap, *n + 1);
	(*edges)[(*n)++] = (struct id_edge){ from, other, offset };
}

/* selfTime or totalTime of the old DevTools profile: milliseconds, not
 * negative (null: unknown, as if left out). */
static bool read_tree_time(struct cpu_loader *L, uint32_t slot)
{
	bool self = json_key_is(&L->j, "selfTime"), present = false;
	const char *what = self ? "selfTime" : "totalTime"; /* the key is the reader's */
	double v = 0;
	if (!read_number(L, what, MAX_TREE_MS, &v, &present))
		return false;
	if (!present)
		return true;
	if (v < 0)
		return json_sink_fail_here(&L->reader.s, "%s %g is negative", what, v);
	struct record *r = &L->records[slot];
	if (self) {
		L->tree_times += !r->has_self;
		r->self_ms = v;
		r->has_self = true;
	} else {
		r->total_ms = v;
		r->has_total = true;
	}
	return true;
}

/* `key` is the reader's last (L->j.str): read by its length and bytes. */
static bool read_node_key(void *ctx, uint32_t slot, const char *key)
{
	struct cpu_loader *L = ctx;
	(void)key;
	struct record *r = &L->records[slot];
	int64_t v;
	uint32_t small;
	bool known;
	if (json_key_is(&L->j, "id")) {
		if (json_small_whole_value(&L->j, &small))
			v = small;
		else if (!read_integer(L, "node id", MAX_ID, &v, NULL))
			return false;
		L->records[slot].at = L->j.token_offset;
		L->records[slot].id = v;
		L->records[slot].has_id = true;
		return true;
	}
	if (json_key_is(&L->j, "callFrame"))
		return v8_read_call_frame(&L->reader, &r->frame);
	if (json_key_is(&L->j, "hitCount")) {
		if (!json_small_whole_value(&L->j, &small))
			return read_number(L, "hitCount", MAX_HITS, &r->hits, &known);
		r->hits = small;
		return true;
	}
	if (json_key_is(&L->j, "selfTime") || json_key_is(&L->j, "totalTime"))
		return read_tree_time(L, slot);
	if (json_key_is(&L->j, "parent")) { /* null: a root, as if left out */
		if (!read_integer(L, "parent id", MAX_ID, &v, &known))
			return false;
		if (known)
			add_id_edge(&L->parents, &L->nparents, &L->parents_cap, slot,
				    v, L->j.token_offset);
		return true;
	}
	if (json_key_is(&L->j, "positionTicks"))
		return v8_read_position_ticks(&L->reader, slot, &L->ticks, &L->nticks,
					      &L->ticks_cap);
	if (!v8_read_frame_field(&L->reader, &r->frame, &known))
		return false;
	return known || json_sink_skip(&L->reader.s);
}

static bool add_child_id(void *ctx, uint32_t slot, double id, uint64_t offset)
{
	struct cpu_loader *L = ctx;
	if (id != floor(id) || fabs(id) > MAX_ID)
		return json_sink_fail(&L->reader.s, offset, "child id is not a valid id");
	add_id_edge(&L->children, &L->nchildren, &L->children_cap, slot, (int64_t)id, offset);
	return true;
}

/* A node object (its '{' read), with any nested children (the legacy
 * "head" form). */
static bool read_node_tree(struct cpu_loader *L)
{
	static const struct v8_tree_ops ops = { new_record, read_node_key, add_child_id };
	return v8_read_tree(&L->reader, &ops, L);
}

static bool take_node_part(struct cpu_loader *L);

/* The nodes' elements until the ']' of their array (or the element
 * where the tail thread's part begins). */
static bool read_node_elements(struct cpu_loader *L)
{
	enum json_token t;
	while ((t = json_each_object(&L->reader.s, "a node is not an object")) == JSON_OBJECT) {
		if (L->part && L->j.token_offset == L->part->start && take_node_part(L))
			return true;
		if (!read_node_tree(L))
			return false;
	}
	return t == JSON_ARRAY_END;
}

static bool read_nodes(struct cpu_loader *L)
{
	L->have_nodes = true;
	return json_sink_expect(&L->reader.s, JSON_ARRAY, "an array for nodes") &&
	       read_node_elements(L);
}

/* ---- the last nodes, on the tail thread -------------------------------- */

/* Where the thread's part begins: the first node object this far into
 * the file.  In a big V8 profile "nodes" takes about 60 % of it and the
 * arrays the rest, which cost about what as many bytes of nodes do
 * (read the usual way: v8_frame.c): from here the thread has as much to
 * read as this loader has before it and then merges (measured on
 * bench/cpuprofile-bench's profile: docs/hacking.md, Performance). */
#define NODE_PART_FROM 0.46
#define NODE_START "{\"id\":"

/* The part's first node: the first `{"id":` within half a chunk of its
 * point, found on a reader of the loader's own. */
static bool find_node_part(const struct input *in, uint64_t *at)
{
	uint64_t from = (uint64_t)((double)in->size * NODE_PART_FROM);
	struct input look;
	if (!input_share(&look, in, from))
		return false;
	size_t have = input_fill(&look, INPUT_CHUNK / 2);
	const uint8_t *found = memmem(look.buf + look.pos, have, NODE_START, strlen(NODE_START));
	if (found)
		*at = from + (uint64_t)(found - (look.buf + look.pos));
	input_close(&look);
	return found;
}

/* On the tail thread (tail_first_fn): the elements of "nodes" from the
 * part's first node to the array's end, where the samples follow. */
static uint64_t read_node_part(void *ctx, const struct input *shared)
{
	struct node_part *p = ctx;
	if (!input_share(&p->in, shared, p->start))
		return 0;
	p->opened = true;
	model_init(&p->m, "cpuprofile");
	p->L = xcalloc(1, sizeof(*p->L));
	*p->L = (struct cpu_loader){ .m = &p->m, .err = &p->err,
				     .unknown = v8_frame_unknown(&p->m) };
	json_init_in_array(&p->L->j, &p->in);
	p->L->reader = (struct v8_reader){
		.s = { .j = &p->L->j, .err = &p->err, .format = FORMAT }, .m = &p->m };
	if (read_node_elements(p->L)) {
		p->end = input_offset(&p->in);
		p->whole = true;
	}
	return p->end;
}

/* The part's string `s` in this loader's model; `old` lists the part's
 * strings by offset with theirs here. */
struct string_pair {
	str_t old, here;
};

static str_t string_here(const struct string_pair *pairs, size_t n, str_t s)
{
	size_t lo = 0, hi = n;
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		if (pairs[mid].old < s)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo < n && pairs[lo].old == s ? pairs[lo].here : STR_NONE;
}

/* Every string of the part, in the order of its arena, interned here. */
static struct string_pair *strings_here(struct cpu_loader *L, const struct model *from,
					size_t *n)
{
	const struct string_table *t = &from->strings;
	struct string_pair *pairs = NULL;
	size_t cap = 0;
	*n = 0;
	for (size_t at = 0; at < t->used; at += strlen(t->arena + at) + 1) {
		GROW(pairs, cap, *n + 1);
		pairs[(*n)++] = (struct string_pair){ (str_t)at,
			model_string(L->m, t->arena + at, strlen(t->arena + at)) };
	}
	return pairs;
}

/* The part's records, edges and ticks after this loader's own, its
 * slots moved past them, its strings made this model's. */
static void merge_node_part(struct cpu_loader *L, const struct cpu_loader *P,
			    const struct model *part_model)
{
	uint32_t base = (uint32_t)L->nrecords;
	size_t npairs;
	struct string_pair *pairs = strings_here(L, part_model, &npairs);
	GROW(L->records, L->records_cap, L->nrecords + P->nrecords);
	for (size_t i = 0; i < P->nrecords; i++) {
		struct record r = P->records[i];
		r.frame.name = string_here(pairs, npairs, r.frame.name);
		r.frame.url = string_here(pairs, npairs, r.frame.url);
		L->records[L->nrecords++] = r;
	}
	free(pairs);
	for (size_t i = 0; i < P->nchildren; i++)
		add_id_edge(&L->children, &L->nchildren, &L->children_cap,
			    P->children[i].from + base, P->children[i].other, P->children[i].offset);
	for (size_t i = 0; i < P->nparents; i++)
		add_id_edge(&L->parents, &L->nparents, &L->parents_cap,
			    P->parents[i].from + base, P->parents[i].other, P->parents[i].offset);
	for (size_t i = 0; i < P->nnested; i++) {
		GROW(L->nested, L->nested_cap, L->nnested + 1);
		L->nested[L->nnested++] = (struct slot_edge){ P->nested[i].parent + base,
							      P->nested[i].child + base };
	}
	for (size_t i = 0; i < P->nticks; i++) {
		struct v8_ticks tk = P->ticks[i];
		tk.node += base;
		GROW(L->ticks, L->ticks_cap, L->nticks + 1);
		L->ticks[L->nticks++] = tk;
	}
	L->tree_times += P->tree_times;
}

static void free_node_part(struct node_part *p);

/* At the part's first node, its '{' read: the rest of "nodes" is the
 * part's, when the thread read it whole.  The part goes either way. */
static bool take_node_part(struct cpu_loader *L)
{
	struct node_part *p = L->part;
	tail_wait_first(&L->tail);
	bool whole = p->whole && json_skip_array_to(&L->j, p->end);
	if (whole)
		merge_node_part(L, p->L, &p->m);
	free_node_part(p);
	L->part = NULL;
	return whole;
}

static void loader_free(struct cpu_loader *L);

static void free_node_part(struct node_part *p)
{
	if (!p)
		return;
	if (p->L) {
		loader_free(p->L);
		free(p->L);
		model_free(&p->m);
	}
	if (p->opened)
		input_close(&p->in);
	free(p);
}

/* The long arrays: millions of numbers, read without any tree. */
static bool read_number_array(struct cpu_loader *L, const char *what,
			      double limit, double **out, size_t *n, size_t *cap)
{
	if (!json_sink_expect(&L->reader.s, JSON_ARRAY, "an array"))
		return false;
	for (;;) {
		enum json_token t = json_next(&L->j);
		if (t == JSON_ARRAY_END)
			return true;
		if (t != JSON_NUMBER)
			return t == JSON_ERROR ? json_sink_error(&L->reader.s)
				: json_sink_fail_here(&L->reader.s, "%s[%zu] is not a number",
						      what, *n);
		if (fabs(L->j.num) > limit)
			return json_sink_fail_here(&L->reader.s, "%s[%zu] = %g is out of range",
						   what, *n, L->j.num);
		GROW(*out, *cap, *n + 1);
		(*out)[(*n)++] = L->j.num;
	}
}

static bool map_ids(struct cpu_loader *L);
static uint32_t find_slot(const struct cpu_loader *L, int64_t id);

/* Node ids become record slots where they lie; false at one that names
 * no node.  Millions of them: the usual dense map is read here, not
 * through a call an id. */
static bool ids_to_slots(const struct cpu_loader *L, uint32_t *ids, size_t n)
{
	const struct id_map *map = &L->map;
	if (!map->dense) {
		for (size_t i = 0; i < n; i++)
			if ((ids[i] = find_slot(L, ids[i])) == NO_ID)
				return false;
		return true;
	}
	for (size_t i = 0; i < n; i++) {
		uint64_t at = (uint64_t)((int64_t)ids[i] - map->lowest);
		if (at >= map->dense_size || (ids[i] = map->dense[at]) == NO_ID)
			return false;
	}
	return true;
}

/* The samples the tail thread read, when it read these: their node ids
 * become slots where they lie.  False (nothing taken) when it did not,
 * or when an id names no node: reading the array again finds which. */
static bool take_tail_samples(struct cpu_loader *L)
{
	struct tail_array *a = tail_array_at(&L->tail, TAIL_SAMPLES, L->samples_at);
	if (!a || !ids_to_slots(L, a->ids, a->n))
		return false;
	if (!json_skip_value_to(&L->j, a->end))
		return false;
	L->sample_slots = a->ids;
	L->nsamples = L->samples_cap = a->n;
	a->ids = NULL;
	return true;
}

static bool read_samples(struct cpu_loader *L)
{
	L->have_samples = true;
	if (L->nsamples)
		return json_sink_fail_here(&L->reader.s, "a second \"samples\"");
	bool resolve = L->nrecords && map_ids(L);
	if (!resolve && L->nrecords)
		return false; /* duplicate ids: map_ids said so */
	if (resolve && take_tail_samples(L))
		return true;
	if (!json_sink_expect(&L->reader.s, JSON_ARRAY, "an array for samples"))
		return false;
	for (;;) {
		enum json_token t = json_next(&L->j);
		if (t == JSON_ARRAY_END)
			return true;
		if (t != JSON_NUMBER || L->j.num != floor(L->j.num) ||
		    fabs(L->j.num) > MAX_ID)
			return t == JSON_ERROR ? json_sink_error(&L->reader.s)
				: json_sink_fail_here(&L->reader.s, "samples[%zu] is not a node id",
						      L->nsamples);
		int64_t id = (int64_t)L->j.num;
		if (resolve) {
			uint32_t slot = find_slot(L, id);
			if (slot == NO_ID)
				return load_fail_at(L->err, FORMAT, L->j.token_offset,
						    "samples[%zu] names node id %lld, which no node has",
						    L->nsamples, (long long)id);
			GROW(L->sample_slots, L->samples_cap, L->nsamples + 1);
			L->sample_slots[L->nsamples++] = slot;
		} else {
			GROW(L->sample_ids, L->samples_cap, L->nsamples + 1);
			L->sample_ids[L->nsamples++] = id;
		}
	}
}

/* The time deltas the tail thread read, when it read these and they are
 * all within bounds (else reading them again says which is not). */
static bool take_tail_deltas(struct cpu_loader *L)
{
	struct tail_array *a = tail_array_at(&L->tail, TAIL_DELTAS, L->deltas_at);
	if (!a || a->largest > MAX_ABS_DELTA || !json_skip_value_to(&L->j, a->end))
		return false;
	free(L->deltas);
	L->deltas = a->values;
	L->ndeltas = L->deltas_cap = a->n;
	a->values = NULL;
	return true;
}

static bool read_document_key(void *ctx, const char *key)
{
	struct cpu_loader *L = ctx;
	uint64_t key_at = L->j.token_offset;
	if (!strcmp(key, "nodes"))
		return read_nodes(L);
	if (!strcmp(key, "head")) {
		L->have_nodes = true;
		return json_sink_expect(&L->reader.s, JSON_OBJECT, "an object for head") &&
		       read_node_tree(L);
	}
	if (!strcmp(key, "samples")) {
		L->samples_at = key_at;
		return read_samples(L);
	}
	if (!strcmp(key, "timeDeltas")) {
		L->deltas_at = key_at;
		if (!L->ndeltas && take_tail_deltas(L))
			return true;
		return read_number_array(L, "timeDeltas", MAX_ABS_DELTA, &L->deltas,
					 &L->ndeltas, &L->deltas_cap);
	}
	if (!strcmp(key, "timestamps")) {
		L->timestamps_at = key_at;
		return read_number_array(L, "timestamps", MAX_ABS_TIME, &L->timestamps,
					 &L->ntimestamps, &L->timestamps_cap);
	}
	if (!strcmp(key, "startTime"))
		return read_number(L, "startTime", MAX_ABS_TIME, &L->start, &L->have_start);
	if (!strcmp(key, "endTime"))
		return read_number(L, "endTime", MAX_ABS_TIME, &L->end, &L->have_end);
	return json_sink_skip(&L->reader.s);
}

/* ---- from records to the model -------------------------------------- */

static bool duplicate_id(struct cpu_loader *L, uint32_t first, uint32_t second)
{
	return load_fail_at(L->err, FORMAT, L->records[second].at,
			    "node id %lld appears twice (the first at byte %llu)",
			    (long long)L->records[second].id,
			    (unsigned long long)L->records[first].at);
}

static bool map_dense(struct cpu_loader *L, int64_t lowest, int64_t highest)
{
	struct id_map *map = &L->map;
	map->lowest = lowest;
	map->dense_size = (size_t)(highest - lowest) + 1;
	map->dense = xmalloc(map->dense_size * sizeof(uint32_t));
	memset(map->dense, 0xff, map->dense_size * sizeof(uint32_t));
	for (uint32_t s = 0; s < L->nrecords; s++) {
		if (!L->records[s].has_id)
			continue;
		uint32_t *slot = &map->dense[L->records[s].id - lowest];
		if (*slot != NO_ID)
			return duplicate_id(L, *slot, s);
		*slot = s;
	}
	return true;
}

static bool map_hashed(struct cpu_loader *L)
{
	struct id_table *t = &L->map.hashed;
	id_table_init(t, L->nrecords);
	for (uint32_t s = 0; s < L->nrecords; s++) {
		if (!L->records[s].has_id)
			continue; /* nested legacy nodes may go without */
		int64_t id = L->records[s].id;
		struct id_probe p = id_table_probe(t, hash_mix((uint64_t)id));
		for (uint32_t other; (other = id_probe_next(t, &p)) != NO_ID;)
			if (L->records[other].id == id)
				return duplicate_id(L, other, s);
		id_table_add(t, &p, s);
	}
	return true;
}

static bool map_ids(struct cpu_loader *L)
{
	struct id_map *map = &L->map;
	if ((map->hashed.size || map->dense) && L->mapped_records == L->nrecords)
		return true;
	id_table_free(&map->hashed);
	free(map->dense);
	memset(map, 0, sizeof(*map));
	L->mapped_records = L->nrecords;
	int64_t lowest = INT64_MAX, highest = INT64_MIN;
	for (uint32_t s = 0; s < L->nrecords; s++) {
		if (!L->records[s].has_id)
			continue;
		if (L->records[s].id < lowest)
			lowest = L->records[s].id;
		if (L->records[s].id > highest)
			highest = L->records[s].id;
	}
	if (lowest <= highest && (uint64_t)(highest - lowest) < 4 * (uint64_t)L->nrecords + 1024)
		return map_dense(L, lowest, highest);
	return map_hashed(L);
}

static uint32_t find_slot(const struct cpu_loader *L, int64_t id)
{
	const struct id_map *map = &L->map;
	if (map->dense) {
		if (id < map->lowest || (uint64_t)(id - map->lowest) >= map->dense_size)
			return NO_ID;
		return map->dense[id - map->lowest];
	}
	if (!map->hashed.size)
		return NO_ID;
	struct id_probe p = id_table_probe(&map->hashed, hash_mix((uint64_t)id));
	for (uint32_t slot; (slot = id_probe_next(&map->hashed, &p)) != NO_ID;)
		if (L->records[slot].id == id)
			return slot;
	return NO_ID;
}

static void make_nodes(struct cpu_loader *L)
{
	for (uint32_t s = 0; s < L->nrecords; s++) /* node id == slot */
		model_add_node(L->m, v8_intern_frame(L->m, &L->records[s].frame));
}

struct edge_at {
	struct slot_edge edge;
	uint32_t position;
};

/* (child, parent, position) order, to find repeats. */
static int compare_edges_at(const void *a, const void *b)
{
	const struct edge_at *x = a, *y = b;
	if (x->edge.child != y->edge.child)
		return x->edge.child < y->edge.child ? -1 : 1;
	if (x->edge.parent != y->edge.parent)
		return x->edge.parent < y->edge.parent ? -1 : 1;
	return x->position < y->position ? -1 : x->position > y->position;
}

/* Adds the edges to the model in the order given, each once: the order
 * is the file's order of children, which the rules and views keep. */
/* Whether a child has two edges (a repeat or a second parent): in a
 * tree, the usual file, none does and no edge can repeat. */
static bool some_child_twice(const struct slot_edge *edges, size_t n, size_t nnodes)
{
	uint8_t *seen = xcalloc(nnodes / 8 + 1, 1);
	bool twice = false;
	for (size_t i = 0; i < n && !twice; i++) {
		uint32_t c = edges[i].child;
		twice = seen[c / 8] >> (c % 8) & 1;
		seen[c / 8] |= (uint8_t)(1u << (c % 8));
	}
	free(seen);
	return twice;
}

static void add_distinct_edges(struct model *m, struct slot_edge *edges, size_t n)
{
	if (!some_child_twice(edges, n, m->nnodes)) {
		for (size_t i = 0; i < n; i++)
			model_add_edge(m, edges[i].parent, edges[i].child);
		return;
	}
	struct edge_at *sorted = xmalloc((n + 1) * sizeof(*sorted));
	for (size_t i = 0; i < n; i++)
		sorted[i] = (struct edge_at){ edges[i], (uint32_t)i };
	qsort(sorted, n, sizeof(*sorted), compare_edges_at);
	for (size_t k = 1; k < n; k++)
		if (sorted[k].edge.child == sorted[k - 1].edge.child &&
		    sorted[k].edge.parent == sorted[k - 1].edge.parent)
			edges[sorted[k].position].parent = NO_ID; /* the first stays */
	for (size_t i = 0; i < n; i++)
		if (edges[i].parent != NO_ID)
			model_add_edge(m, edges[i].parent, edges[i].child);
	free(sorted);
}

/* XS writes one node per function under (host): a function graph. */
static bool is_xs_graph(const struct model *m)
{
	const struct frame *first = &m->frames[m->nodes[0].frame];
	return !strcmp(model_str(m, first->name), "(host)");
}

/* The graph as XS's file profiler saves it: Moddable's xsbug-log writes
 * the same graph with its cycles in (recursion), which xs_cycles.h takes
 * out as the profiler does. */
static void remove_xs_cycles(const struct model *m, struct slot_edge *edges, size_t n)
{
	uint32_t *parents = xmalloc((n + 1) * sizeof(uint32_t));
	uint32_t *children = xmalloc((n + 1) * sizeof(uint32_t));
	for (size_t e = 0; e < n; e++) {
		parents[e] = edges[e].parent;
		children[e] = edges[e].child;
	}
	xs_remove_cycles(parents, children, n, m->nnodes);
	for (size_t e = 0; e < n; e++)
		edges[e].parent = parents[e];
	free(parents);
	free(children);
}

/* Each node's "parent" field as a slot (NO_ID where it has none).  One
 * node naming two different parents contradicts itself. */
static bool resolve_parent_fields(struct cpu_loader *L, uint32_t *parent_of)
{
	for (size_t i = 0; i < L->nparents; i++) {
		const struct id_edge *e = &L->parents[i];
		uint32_t parent = find_slot(L, e->other);
		if (parent == NO_ID)
			return load_fail_at(L->err, FORMAT, e->offset,
					    "node %lld names parent id %lld, which no node has",
					    (long long)L->records[e->from].id, (long long)e->other);
		if (parent_of[e->from] != NO_ID && parent_of[e->from] != parent)
			return load_fail_at(L->err, FORMAT, e->offset,
					    "node %lld names two parents, %lld and %lld",
					    (long long)L->records[e->from].id,
					    (long long)L->records[parent_of[e->from]].id,
					    (long long)e->other);
		parent_of[e->from] = parent;
	}
	return true;
}

/* The edges as the file states them: by "children" lists, by "parent"
 * fields (Chrome's trace ProfileChunk nodes), or both at once (converted
 * traces keep both).  An edge stated twice is one edge; a child list
 * that gives a node another parent than its own "parent" field says is
 * a contradiction, not a second parent. */
static bool make_edges(struct cpu_loader *L)
{
	uint32_t *parent_of = xmalloc((L->nrecords + 1) * sizeof(uint32_t));
	memset(parent_of, 0xff, (L->nrecords + 1) * sizeof(uint32_t));
	size_t n = 0, cap = 0;
	struct slot_edge *edges = NULL;
	bool ok = resolve_parent_fields(L, parent_of);
	for (size_t i = 0; ok && i < L->nchildren; i++) {
		const struct id_edge *e = &L->children[i];
		uint32_t child = find_slot(L, e->other);
		if (child == NO_ID) {
			ok = load_fail_at(L->err, FORMAT, e->offset,
					  "node %lld lists child id %lld, which no node has",
					  (long long)L->records[e->from].id, (long long)e->other);
		} else if (parent_of[child] != NO_ID && parent_of[child] != e->from) {
			ok = load_fail_at(L->err, FORMAT, e->offset,
					  "node %lld lists child %lld, whose \"parent\" is node %lld",
					  (long long)L->records[e->from].id, (long long)e->other,
					  (long long)L->records[parent_of[child]].id);
		} else {
			GROW(edges, cap, n + 1);
			edges[n++] = (struct slot_edge){ e->from, child };
		}
	}
	for (uint32_t s = 0; ok && s < L->nrecords; s++)
		if (parent_of[s] != NO_ID) {
			GROW(edges, cap, n + 1);
			edges[n++] = (struct slot_edge){ parent_of[s], s };
		}
	for (size_t i = 0; ok && i < L->nnested; i++)
		model_add_edge(L->m, L->nested[i].parent, L->nested[i].child);
	if (ok && is_xs_graph(L->m))
		remove_xs_cycles(L->m, edges, n);
	if (ok)
		add_distinct_edges(L->m, edges, n);
	free(edges);
	free(parent_of);
	return ok;
}

/* Puts times (and their nodes and own deltas alongside, when there are
 * any) in order, stably. */
static void sort_by_time(double *t, uint32_t *node, double *own, size_t n)
{
	struct carried with[] = { { node, sizeof(*node) }, { own, sizeof(*own) } };
	stable_sort_carrying(t, n, with, own ? 2 : 1);
}

static bool resolve_sample_ids(struct cpu_loader *L)
{
	if (!L->sample_ids)
		return true;
	if (!map_ids(L))
		return false;
	L->sample_slots = xmalloc((L->nsamples + 1) * sizeof(uint32_t));
	for (size_t i = 0; i < L->nsamples; i++) {
		L->sample_slots[i] = find_slot(L, L->sample_ids[i]);
		if (L->sample_slots[i] == NO_ID)
			return load_fail_at(L->err, FORMAT, L->samples_at,
					    "samples[%zu] names node id %lld, which no node has",
					    i, (long long)L->sample_ids[i]);
	}
	free(L->sample_ids);
	L->sample_ids = NULL;
	return true;
}

/* Samples outside the profile's own span (timeDeltas that run far
 * backwards or forwards) would give a one-second profile hundreds of
 * hours: their times are clamped into [startTime, endTime], and the
 * model says so.  Real V8 files stay inside by far. */
static void clamp_times(struct cpu_loader *L, double *times, size_t n)
{
	if (!L->have_start)
		return;
	bool bounded = L->have_end && L->end >= L->start;
	size_t clamped = 0;
	double worst = 0;
	for (size_t i = 0; i < n; i++) {
		double past = times[i] < L->start ? L->start - times[i]
			: bounded && times[i] > L->end ? times[i] - L->end : 0;
		if (!past)
			continue;
		times[i] = times[i] < L->start ? L->start : L->end;
		clamped++;
		worst = fmax(worst, past);
	}
	if (!clamped)
		return;
	char text[200];
	int len = snprintf(text, sizeof(text),
			   "%zu of %zu samples outside startTime..endTime (by up to "
			   "%.0f us): their times were clamped into it", clamped, n, worst);
	L->m->warning = model_string(L->m, text, (size_t)len);
}

static bool node_named(const struct cpu_loader *L, int64_t id, const char *name)
{
	uint32_t slot = find_slot(L, id);
	const struct model *m = L->m;
	return slot != NO_ID && !strcmp(model_str(m, m->frames[m->nodes[slot].frame].name), name);
}

/* The XS file profiler numbers its nodes by the engine's profile ids,
 * where 0 is (host) and 1 is (gc), and writes each sample with the
 * delta it carried: the time its stack just ran.  Every other writer
 * means a sample to last until the next one, as DevTools reads them. */
static enum sample_time sample_time_reading(const struct cpu_loader *L,
					    const struct load_options *opt)
{
	if (opt && opt->sample_time != SAMPLE_TIME_FILE)
		return opt->sample_time;
	bool xs = node_named(L, 0, "(host)") && node_named(L, 1, "(gc)");
	return xs ? SAMPLE_TIME_OWN : SAMPLE_TIME_NEXT;
}

/* Each sample's own delta, the time since the sample before it in the
 * file: timeDeltas as they are, or what separates legacy timestamps.
 * A negative one (V8 writes them, XS does not) lasts nothing. */
static double *own_deltas(const struct cpu_loader *L, const double *values, size_t n,
			  bool timestamps)
{
	double *own = xmalloc((n + 1) * sizeof(double));
	for (size_t i = 0; i < n; i++) {
		double delta = timestamps ? values[i] - (i ? values[i - 1] : L->start)
			: values[i];
		own[i] = delta > 0 ? delta : 0;
	}
	return own;
}

/* Durations until the next sample, in times' own array. */
static void next_sample_durations(const struct cpu_loader *L, double *times, size_t n)
{
	double last_end = L->have_end ? L->end : times[n - 1];
	for (size_t i = 0; i < n; i++) {
		double next = i + 1 < n ? times[i + 1] : last_end;
		times[i] = next > times[i] ? next - times[i] : 0;
	}
}

/* Sample times, in time order as DevTools puts them, become durations
 * under the reading in force, which the model then adopts with the node
 * slots.  Under the own-delta reading a sample keeps its delta wherever
 * the sort puts it, and nothing after the last sample is charged. */
static bool make_samples(struct cpu_loader *L, const struct load_options *opt)
{
	size_t n = L->nsamples;
	bool legacy = L->ntimestamps && !L->ndeltas;
	if (!legacy && L->ndeltas != n)
		return load_fail_at(L->err, FORMAT, L->samples_at, "samples has %zu entries "
				    "but timeDeltas (at byte %llu) has %zu", n,
				    (unsigned long long)L->deltas_at, L->ndeltas);
	/* Legacy files give startTime and endTime in seconds, and may open
	 * timestamps with the start time itself (one entry more). */
	double *times = legacy ? L->timestamps : L->deltas;
	size_t first = 0;
	if (legacy && L->ntimestamps == n + 1)
		first = 1;
	else if (legacy && L->ntimestamps != n)
		return load_fail_at(L->err, FORMAT, L->samples_at, "samples has %zu entries "
				    "but timestamps (at byte %llu) has %zu", n,
				    (unsigned long long)L->timestamps_at, L->ntimestamps);
	if (legacy) {
		if (L->start * 1e6 <= L->timestamps[0] + 1e6) {
			L->start *= 1e6;
			L->end *= 1e6;
		}
		if (first)
			L->start = L->timestamps[0];
		memmove(times, times + first, n * sizeof(double));
	}
	L->m->sample_time = sample_time_reading(L, opt);
	double *own = L->m->sample_time == SAMPLE_TIME_OWN
		? own_deltas(L, times, n, legacy) : NULL;
	if (!legacy) {
		double t = L->start;
		for (size_t i = 0; i < n; i++)
			times[i] = t += times[i];
	}
	if (!resolve_sample_ids(L)) {
		free(own);
		return false;
	}
	clamp_times(L, times, n);
	sort_by_time(times, L->sample_slots, own, n);
	if (own) {
		memcpy(times, own, n * sizeof(double));
		free(own);
	} else {
		next_sample_durations(L, times, n);
	}
	model_adopt_samples(L->m, L->sample_slots, times, n);
	L->sample_slots = NULL;
	if (legacy)
		L->timestamps = NULL;
	else
		L->deltas = NULL;
	return true;
}

/* Old profiles without samples: each hit is an equal share of the
 * profile's time, as DevTools does; without a usable time span, hits
 * are reported as counts. */
static bool make_hits(struct cpu_loader *L)
{
	double hits = 0;
	for (size_t s = 0; s < L->nrecords; s++)
		hits += L->records[s].hits;
	if (!(hits > 0))
		return load_fail(L->err, "the profile is empty: no samples and no hit counts");
	double span = L->end - L->start;
	double each = span > 0 ? span / hits : 1;
	for (uint32_t s = 0; s < L->nrecords; s++)
		model_add_node_value(L->m, s, 0, L->records[s].hits * each);
	return true;
}

/* The old DevTools profile (Chrome before 2014) gives each node's own
 * selfTime and totalTime in milliseconds, and no samples: the nodes'
 * values are their selfTime, as DevTools showed it. */
static bool make_tree_times(struct cpu_loader *L)
{
	for (uint32_t s = 0; s < L->nrecords; s++) {
		const struct record *r = &L->records[s];
		if (!r->has_self)
			return load_fail_at(L->err, FORMAT, r->at,
					    "a node without selfTime (other nodes have one)");
		model_add_node_value(L->m, s, 0, r->self_ms * 1000);
	}
	return true;
}

/* The old profile's nodes give V8's CpuProfileNode line as it was then:
 * from 1, with 0 for "no line" (the callFrame of later files counts
 * from 0, with -1). */
static void use_one_based_lines(struct cpu_loader *L)
{
	L->m->lines_zero_based = false;
	for (size_t s = 0; s < L->nrecords; s++)
		if (L->records[s].frame.line == 0)
			L->records[s].frame.line = -1;
}

/* A node's totalTime is its selfTime plus its children's totalTime, as
 * the profiler computed them; the rules compute totals from selfTime, so
 * a file where they differ (edited, or rounded by a converter) is shown
 * with a warning rather than with numbers that contradict it. */
static void check_tree_totals(struct cpu_loader *L)
{
	struct model *m = L->m;
	if (m->caps & HAS_NODE_GRAPH)
		return;
	double *sub = xcalloc(m->nnodes + 1, sizeof(double));
	double root = 0, worst = 0;
	size_t wrong = 0;
	uint32_t worst_node = 0;
	for (size_t i = m->nnodes; i-- > 0;) {
		uint32_t v = m->node_order[i];
		sub[v] += node_value(m, v, 0);
		if (m->nodes[v].parent != NO_ID)
			sub[m->nodes[v].parent] += sub[v];
		else
			root += sub[v];
	}
	for (uint32_t v = 0; v < m->nnodes; v++) {
		const struct record *r = &L->records[v];
		double off = r->has_total ? fabs(r->total_ms * 1000 - sub[v]) : 0;
		if (off > 1e-9 * root + 1e-3) {
			wrong++;
			if (off > worst) {
				worst = off;
				worst_node = v;
			}
		}
	}
	free(sub);
	if (!wrong)
		return;
	char text[240];
	int len = snprintf(text, sizeof(text),
			   "%zu of %zu nodes have a totalTime other than their selfTime plus their "
			   "children's (by up to %.3f ms, the node at byte %llu): totals are "
			   "computed from selfTime", wrong, m->nnodes, worst / 1000,
			   (unsigned long long)L->records[worst_node].at);
	m->warning = model_string(m, text, (size_t)len);
}

/* Where the nodes' values come from: the samples when they have times,
 * else the tree's own times when the nodes give them, else hit counts. */
enum value_source { BY_SAMPLES, BY_TREE_TIMES, BY_HITS };

static enum value_source value_source(const struct cpu_loader *L)
{
	bool timed = L->ndeltas || L->ntimestamps;
	if (L->nsamples && (timed || !L->tree_times))
		return BY_SAMPLES;
	return L->tree_times ? BY_TREE_TIMES : BY_HITS;
}

static bool make_values(struct cpu_loader *L, enum value_source source,
			const struct load_options *opt)
{
	switch (source) {
	case BY_SAMPLES:
		return make_samples(L, opt);
	case BY_TREE_TIMES:
		return make_tree_times(L);
	case BY_HITS:
		return make_hits(L);
	}
	return false;
}

/* The edges as read, once the model has its own: a big profile's
 * samples are about to take their room. */
static void drop_read_edges(struct cpu_loader *L)
{
	FREE_ALL(L->children, L->parents, L->nested);
	L->children = L->parents = NULL;
	L->nested = NULL;
	L->nchildren = L->nparents = L->nnested = 0;
}

static bool build_model(struct cpu_loader *L, const struct load_options *opt)
{
	struct model *m = L->m;
	if (!L->have_nodes)
		return load_fail(L->err, "no \"nodes\" (or \"head\"): not a .cpuprofile");
	if (!L->nrecords)
		return load_fail(L->err, "the profile is empty: \"nodes\" has no node");
	if (L->have_start && L->have_end && L->end < L->start && !L->ntimestamps)
		return load_fail(L->err, "endTime %.0f is before startTime %.0f",
				 L->end, L->start);
	enum value_source source = value_source(L);
	double span = L->end - L->start;
	if (source == BY_HITS && !(L->have_start && L->have_end && span > 0))
		model_add_sample_type(m, "samples", "count");
	else
		model_add_sample_type(m, "time", "us");
	if (!map_ids(L))
		return false;
	if (source == BY_TREE_TIMES)
		use_one_based_lines(L);
	make_nodes(L);
	for (size_t i = 0; i < L->nticks; i++)
		model_add_line_ticks(m, L->ticks[i].node, L->ticks[i].line,
				     L->ticks[i].ticks);
	free(L->ticks);
	L->ticks = NULL;
	L->nticks = 0;
	if (!make_edges(L))
		return false;
	drop_read_edges(L);
	if (!make_values(L, source, opt))
		return false;

	/* XS writes one node per function under (host): a function graph
	 * whose samples name leaf functions, not stacks.  Whether its stacks
	 * can be recovered is a matter of structure, which model_finish
	 * judges (a node with two parents makes a graph): a tree under
	 * (host), as wprof-tui exports an XS stream, has whole stacks. */
	if (is_xs_graph(m))
		m->format = "cpuprofile (XS)";
	if (source == BY_TREE_TIMES) {
		m->format = "cpuprofile (tree times)";
		L->start = L->end = 0; /* no timeline: the times are the tree's */
	}
	m->start_time = L->start;
	m->end_time = L->have_end ? L->end : L->start;
	uint32_t cycle_node;
	if (!model_finish(m, &cycle_node))
		return load_fail_at(L->err, FORMAT, L->records[cycle_node].at,
				    "node %lld is on a cycle of children (a tree is required)",
				    (long long)L->records[cycle_node].id);
	if (source != BY_SAMPLES || !(m->duration > 0)) {
		double sum = 0;
		for (size_t v = 0; v < m->nnodes; v++)
			sum += node_value(m, (uint32_t)v, 0);
		if (!(m->duration > 0))
			m->duration = sum;
	}
	if (source == BY_TREE_TIMES)
		check_tree_totals(L);
	return true;
}

static void loader_free(struct cpu_loader *L)
{
	json_free(&L->j);
	free(L->records);
	free(L->children);
	free(L->parents);
	free(L->nested);
	free(L->ticks);
	free(L->sample_ids);
	free(L->sample_slots);
	free(L->deltas);
	free(L->timestamps);
	id_table_free(&L->map.hashed);
	free(L->map.dense);
	tail_free(&L->tail);
	free_node_part(L->part);
}

bool load_cpuprofile(struct input *in, struct model *m,
		     const struct load_options *opt, struct load_error *err)
{
	struct cpu_loader L = { .m = m, .err = err };
	model_init(m, "cpuprofile");
	L.unknown = v8_frame_unknown(m);
	m->lines_zero_based = true;
	v8_reader_start(&L.reader, &L.j, in, m, err, FORMAT);
	if (!(opt && opt->one_thread)) {
		uint64_t part_at;
		if (find_node_part(in, &part_at)) {
			L.part = xcalloc(1, sizeof(*L.part));
			L.part->start = part_at;
		}
		tail_start(&L.tail, in, L.part ? read_node_part : NULL, L.part);
	}
	bool ok = json_read_document(&L.reader.s, read_document_key, &L) && build_model(&L, opt);
	loader_free(&L);
	if (!ok)
		model_free(m);
	return ok;
}
