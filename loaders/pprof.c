/* pprof: profile.proto (github.com/google/pprof), gzip-compressed or raw
 * (../shared/spec/formats.md); gzip is undone by the input layer.
 *
 * Every message is decoded by the protobuf-c code generated at build time
 * from loaders/proto/profile.proto.  Only the outermost Profile message is
 * walked field by field here, for two reasons: a profile of millions of
 * samples must not sit in memory as millions of decoded messages (each
 * Sample is decoded into a scratch arena, added to the model and
 * forgotten), and an error can name the byte where it is.
 *
 * The numbers follow `go tool pprof`: functions are merged by (name,
 * system_name, filename, start_line); each line of a location is a frame,
 * the lines before the last inlined into it and marked "(inline)";
 * drop_frames / keep_frames prune stacks as pprof's Prune does. */
#include <inttypes.h>
#include <math.h>
#include <regex.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/id_table.h"
#include "base/util.h"
#include "loaders.h"
#include "frame_prune.h"
#include "base/units.h"
#include "profile.pb-c.h"

typedef Perftools__Profiles__ValueType pb_value_type;
typedef Perftools__Profiles__Sample pb_sample;
typedef Perftools__Profiles__Mapping pb_mapping;
typedef Perftools__Profiles__Location pb_location;
typedef Perftools__Profiles__Function pb_function;
typedef Perftools__Profiles__Line pb_line;

/* Beyond this a "profile" is not one: it guards memory, not correctness. */
#define FORMAT "pprof"
#define MAX_PROFILE_BYTES ((size_t)8 << 30)

enum wire_type { WIRE_VARINT = 0, WIRE_I64 = 1, WIRE_LEN = 2, WIRE_I32 = 5 };

/* Profile's field numbers (profile.proto). */
enum profile_field {
	F_SAMPLE_TYPE = 1, F_SAMPLE, F_MAPPING, F_LOCATION, F_FUNCTION,
	F_STRING_TABLE, F_DROP_FRAMES, F_KEEP_FRAMES, F_TIME_NANOS,
	F_DURATION_NANOS, F_PERIOD_TYPE, F_PERIOD, F_COMMENT,
	F_DEFAULT_SAMPLE_TYPE, F_LAST = F_DEFAULT_SAMPLE_TYPE
};

static const char *const field_names[] = {
	[F_SAMPLE_TYPE] = "sample_type", [F_SAMPLE] = "sample",
	[F_MAPPING] = "mapping", [F_LOCATION] = "location",
	[F_FUNCTION] = "function", [F_STRING_TABLE] = "string_table",
	[F_DROP_FRAMES] = "drop_frames", [F_KEEP_FRAMES] = "keep_frames",
	[F_TIME_NANOS] = "time_nanos", [F_DURATION_NANOS] = "duration_nanos",
	[F_PERIOD_TYPE] = "period_type", [F_PERIOD] = "period",
	[F_COMMENT] = "comment", [F_DEFAULT_SAMPLE_TYPE] = "default_sample_type",
};

/* One field of the outermost message. */
struct field {
	uint32_t number;
	enum wire_type wire;
	uint64_t varint;      /* WIRE_VARINT */
	const uint8_t *bytes; /* WIRE_LEN payload */
	size_t len;
	size_t offset;        /* of the field's tag */
};

/* Scratch memory for decoding one message at a time: a bump arena,
 * emptied before each message, so a sample costs no malloc/free. */
struct arena {
	uint8_t *block;
	size_t used, cap;
	void **big; /* allocations larger than the block */
	size_t nbig, big_cap;
};

/* Ids of mappings, locations or functions to their index in the file. */
struct id_index {
	uint64_t *ids;         /* by entry, unless dense */
	struct id_table table; /* entries by id; size 0 when dense */
	bool dense; /* ids are 1..n in order, the usual case: no table */
	size_t n;
};

struct location_frames {
	uint32_t start, end; /* into frames[], leaf (innermost line) first */
	uint8_t prune;       /* PRUNE_* */
};

enum { PRUNE_NONE, PRUNE_WHOLE, PRUNE_BENEATH };

/* Samples repeat stacks (one per label set, per goroutine, ...): a stack
 * met before finds its leaf node by its location ids at once, instead of
 * walking down the tree frame by frame.  The ids are kept up to a bound,
 * so a profile of all-distinct stacks costs memory only to that bound. */
#define STACK_CACHE_MAX_IDS ((size_t)16 << 20)

struct cached_stack {
	uint32_t start, len; /* into ids[] */
	uint32_t leaf;       /* NO_ID: the stack was pruned away */
};

struct stack_cache {
	struct cached_stack *entries;
	/* Per entry, ntypes sums of its samples' values, for the lines: a
	 * stack's lines are walked once at the end, not once a sample (5 M
	 * samples of 100 000 stacks: 9 s of cache misses in the node tree). */
	double *line_values;
	size_t nentries, entries_cap, line_values_cap;
	uint32_t *ids;
	size_t nids, ids_cap;
	struct id_table index; /* entries by their stacks */
};

struct pprof_loader {
	struct model *m;
	struct load_error *err;
	const uint8_t *data;
	size_t len;

	str_t *strings;
	size_t nstrings, strings_cap;
	pb_value_type **types;
	size_t ntypes, types_cap;
	pb_mapping **mappings;
	size_t nmappings, mappings_cap;
	pb_location **locations;
	size_t nlocations, locations_cap;
	pb_function **functions;
	size_t nfunctions, functions_cap;
	int64_t *comments;
	size_t ncomments, comments_cap;
	int64_t drop_frames, keep_frames, time_nanos, duration_nanos, period;
	int64_t default_sample_type;
	pb_value_type *period_type;
	/* Where each table entry (and field naming a string) begins in the
	 * buffer, for messages about what it refers to. */
	size_t *types_at, *mappings_at, *locations_at, *functions_at, *comments_at;
	size_t types_at_cap, mappings_at_cap, locations_at_cap, functions_at_cap,
		comments_at_cap;
	size_t default_sample_type_at, drop_frames_at, keep_frames_at, period_type_at;

	struct id_index mapping_ids, location_ids, function_ids;
	struct location_frames *loc;
	uint32_t *frames;
	size_t nframes, frames_cap;
	struct unit_scale scale[MAX_SAMPLE_TYPES];
	uint32_t *stack;
	size_t stack_cap;
	uint32_t *sample_locs;
	size_t sample_locs_cap;
	struct stack_cache cache;
	struct arena arena;
	size_t nsamples;
	double abs_total[MAX_SAMPLE_TYPES]; /* in the file's units */
	/* One stack's frames with their lines, leaf first, and per frame the
	 * last walk (lines_walks) that counted it, for counting each line once. */
	struct sample_line *path;
	size_t path_cap;
	size_t *frame_seen;
	size_t lines_walks;
	bool by_line; /* --granularity lines: frames per source line */
	bool by_address; /* --granularity addresses: and per location */
	double stackless_positive[MAX_SAMPLE_TYPES], stackless_negative[MAX_SAMPLE_TYPES];
};

struct sample_line {
	uint32_t node, frame;
	int32_t line;
};

/* ---- the arena ---------------------------------------------------------- */

static void *arena_alloc(void *data, size_t size)
{
	struct arena *a = data;
	size = (size + 15) & ~(size_t)15;
	if (size > a->cap - a->used) {
		GROW(a->big, a->big_cap, a->nbig + 1);
		return a->big[a->nbig++] = xmalloc(size);
	}
	void *p = a->block + a->used;
	a->used += size;
	return p;
}

static void arena_free(void *data, void *p)
{
	(void)data;
	(void)p; /* everything goes at arena_reset */
}

static void arena_reset(struct arena *a)
{
	for (size_t i = 0; i < a->nbig; i++)
		free(a->big[i]);
	a->nbig = 0;
	a->used = 0;
}

/* ---- wire format --------------------------------------------------------- */

static bool read_varint(const uint8_t *p, size_t len, size_t *pos, uint64_t *out)
{
	uint64_t v = 0;
	for (unsigned shift = 0; shift < 64 && *pos < len; shift += 7) {
		uint8_t b = p[(*pos)++];
		v |= (uint64_t)(b & 0x7f) << shift;
		if (!(b & 0x80)) {
			*out = v;
			return true;
		}
	}
	return false;
}

/* Reads the field at *pos; false with `why` set when it is malformed. */
static bool read_field(const uint8_t *p, size_t len, size_t *pos,
		       struct field *f, const char **why)
{
	f->offset = *pos;
	uint64_t tag;
	if (!read_varint(p, len, pos, &tag)) {
		*why = "a field tag is cut short";
		return false;
	}
	f->number = (uint32_t)(tag >> 3);
	f->wire = (enum wire_type)(tag & 7);
	if (tag >> 3 == 0 || tag >> 3 > 536870911) {
		*why = "field number 0 (not a protocol buffer)";
		return false;
	}
	switch (f->wire) {
	case WIRE_VARINT:
		if (!read_varint(p, len, pos, &f->varint)) {
			*why = "a number is cut short";
			return false;
		}
		return true;
	case WIRE_I64:
	case WIRE_I32: {
		size_t size = f->wire == WIRE_I64 ? 8 : 4;
		if (len - *pos < size) {
			*why = "a fixed-size number is cut short";
			return false;
		}
		*pos += size;
		return true;
	}
	case WIRE_LEN: {
		uint64_t n;
		if (!read_varint(p, len, pos, &n)) {
			*why = "a length is cut short";
			return false;
		}
		if (n > len - *pos) {
			*why = "a length runs past the end of the data";
			return false;
		}
		f->bytes = p + *pos;
		f->len = (size_t)n;
		*pos += (size_t)n;
		return true;
	}
	default:
		*why = "a field has an unknown wire type (not a protocol buffer)";
		return false;
	}
}

/* The wire type each Profile field must have (packed or not, for the
 * repeated numbers of `comment`). */
static bool wire_fits(uint32_t number, enum wire_type wire)
{
	switch (number) {
	case F_SAMPLE_TYPE: case F_SAMPLE: case F_MAPPING: case F_LOCATION:
	case F_FUNCTION: case F_STRING_TABLE: case F_PERIOD_TYPE:
		return wire == WIRE_LEN;
	case F_COMMENT:
		return wire == WIRE_LEN || wire == WIRE_VARINT;
	case F_DROP_FRAMES: case F_KEEP_FRAMES: case F_TIME_NANOS:
	case F_DURATION_NANOS: case F_PERIOD: case F_DEFAULT_SAMPLE_TYPE:
		return wire == WIRE_VARINT;
	default:
		return true; /* unknown fields are skipped, as protobuf does */
	}
}

/* Does this look like the start of a Profile message?  Every field in
 * `head` must be well formed with the wire type profile.proto gives it
 * (a last field may be cut by the end of the head). */
static bool looks_like_profile(const uint8_t *head, size_t len)
{
	size_t pos = 0;
	unsigned known = 0;
	while (pos < len) {
		struct field f;
		const char *why;
		size_t start = pos;
		if (!read_field(head, len, &pos, &f, &why)) {
			uint64_t tag;
			size_t p = start;
			/* Cut by the end of the head: judge by its tag alone. */
			return known > 0 && read_varint(head, len, &p, &tag) &&
			       (tag >> 3) >= 1 && (tag >> 3) <= F_LAST &&
			       wire_fits((uint32_t)(tag >> 3), (enum wire_type)(tag & 7));
		}
		if (f.number > F_LAST || !wire_fits(f.number, f.wire))
			return false;
		known++;
	}
	return known > 0;
}

/* gzip is undone by the input layer: the head is the protocol buffer. */
bool sniff_pprof(const uint8_t *head, size_t len)
{
	return looks_like_profile(head, len);
}

/* ---- reading the bytes ----------------------------------------------------- */

static bool read_bytes(struct input *in, uint8_t **data, size_t *len,
		       struct load_error *err)
{
	if (!input_slurp(in, data, len, MAX_PROFILE_BYTES))
		return load_fail(err, "larger than %zu GiB", MAX_PROFILE_BYTES >> 30);
	return true;
}

/* ---- the outermost message ------------------------------------------------ */

static bool fail_field(struct pprof_loader *L, const struct field *f,
		       const char *what)
{
	const char *name = f->number <= F_LAST ? field_names[f->number] : "a field";
	return load_fail_at(L->err, FORMAT, f->offset, "%s: %s", name, what);
}

#define KEEP(L, list, item)                                                  \
	do {                                                                 \
		GROW((L)->list, (L)->list##_cap, (L)->n##list + 1);          \
		(L)->list[(L)->n##list++] = (item);                          \
	} while (0)

/* A table entry, with the byte offset of its message. */
#define KEEP_AT(L, list, item, offset)                                       \
	do {                                                                 \
		GROW((L)->list##_at, (L)->list##_at_cap, (L)->n##list + 1);  \
		(L)->list##_at[(L)->n##list] = (offset);                     \
		KEEP(L, list, item);                                         \
	} while (0)

static bool read_comment(struct pprof_loader *L, const struct field *f)
{
	if (f->wire == WIRE_VARINT) {
		KEEP_AT(L, comments, (int64_t)f->varint, f->offset);
		return true;
	}
	size_t pos = 0;
	while (pos < f->len) {
		uint64_t v;
		if (!read_varint(f->bytes, f->len, &pos, &v))
			return fail_field(L, f, "a packed number is cut short");
		KEEP_AT(L, comments, (int64_t)v, f->offset);
	}
	return true;
}

/* Decodes one table entry with the generated code; keeps it for good. */
#define UNPACK(L, f, fn, what, out)                                          \
	do {                                                                 \
		(out) = fn(NULL, (f)->len, (f)->bytes);                      \
		if (!(out))                                                  \
			return fail_field((L), (f), "not a valid " what " message"); \
	} while (0)

/* A table's message, unpacked and kept with its offset. */
#define UNPACK_KEEP(L, f, type, fn, what, list)                               \
	do {                                                                 \
		type *item_;                                                 \
		UNPACK(L, f, fn, what, item_);                               \
		KEEP_AT(L, list, item_, (f)->offset);                        \
	} while (0)

static bool read_table_field(struct pprof_loader *L, const struct field *f)
{
	switch (f->number) {
	case F_SAMPLE_TYPE:
		UNPACK_KEEP(L, f, pb_value_type, perftools__profiles__value_type__unpack,
			    "ValueType", types);
		return true;
	case F_PERIOD_TYPE:
		if (L->period_type)
			perftools__profiles__value_type__free_unpacked(L->period_type, NULL);
		UNPACK(L, f, perftools__profiles__value_type__unpack,
		       "ValueType", L->period_type);
		L->period_type_at = f->offset;
		return true;
	case F_MAPPING:
		UNPACK_KEEP(L, f, pb_mapping, perftools__profiles__mapping__unpack,
			    "Mapping", mappings);
		return true;
	case F_LOCATION:
		UNPACK_KEEP(L, f, pb_location, perftools__profiles__location__unpack,
			    "Location", locations);
		return true;
	case F_FUNCTION:
		UNPACK_KEEP(L, f, pb_function, perftools__profiles__function__unpack,
			    "Function", functions);
		return true;
	case F_STRING_TABLE:
		KEEP(L, strings, model_string(L->m, (const char *)f->bytes, f->len));
		return true;
	default:
		return true;
	}
}

/* Everything but the samples, which wait for the tables they name. */
static bool read_tables(struct pprof_loader *L)
{
	size_t pos = 0;
	while (pos < L->len) {
		struct field f;
		const char *why;
		if (!read_field(L->data, L->len, &pos, &f, &why))
			return load_fail_at(L->err, FORMAT, f.offset, "%s", why);
		if (!wire_fits(f.number, f.wire))
			return fail_field(L, &f, "wrong wire type (not a pprof profile)");
		int64_t v = (int64_t)f.varint;
		switch (f.number) {
		case F_DROP_FRAMES:
			L->drop_frames = v;
			L->drop_frames_at = f.offset;
			break;
		case F_KEEP_FRAMES:
			L->keep_frames = v;
			L->keep_frames_at = f.offset;
			break;
		case F_TIME_NANOS: L->time_nanos = v; break;
		case F_DURATION_NANOS: L->duration_nanos = v; break;
		case F_PERIOD: L->period = v; break;
		case F_DEFAULT_SAMPLE_TYPE:
			L->default_sample_type = v;
			L->default_sample_type_at = f.offset;
			break;
		case F_COMMENT:
			if (!read_comment(L, &f))
				return false;
			break;
		case F_SAMPLE:
			break;
		default:
			if (!read_table_field(L, &f))
				return false;
		}
	}
	return true;
}

/* ---- strings and ids ------------------------------------------------------ */

/* `at`: the byte offset of the message naming the string. */
static bool string_at(struct pprof_loader *L, int64_t index, const char *what,
		      uint64_t owner_id, size_t at, str_t *out)
{
	if (index < 0 || (uint64_t)index >= L->nstrings)
		return load_fail_at(L->err, FORMAT, at, "%s %llu names string %lld, but the "
				    "string table has %zu", what, (unsigned long long)owner_id,
				    (long long)index, L->nstrings);
	*out = L->strings[index];
	return true;
}

/* Builds the id -> index map; ids must be nonzero and distinct.  `at`
 * gives each entry's byte offset, for the messages. */
static bool index_ids(struct pprof_loader *L, struct id_index *x,
		      uint64_t *ids, const size_t *at, size_t n, const char *what)
{
	x->n = n;
	x->dense = true;
	for (size_t i = 0; i < n && x->dense; i++)
		x->dense = ids[i] == i + 1;
	if (x->dense) {
		free(ids);
		return true;
	}
	x->ids = ids;
	id_table_init(&x->table, n);
	for (size_t i = 0; i < n; i++) {
		if (ids[i] == 0)
			return load_fail_at(L->err, FORMAT, at[i], "%s %zu has id 0 (ids are "
					    "nonzero)", what, i);
		struct id_probe p = id_table_probe(&x->table, hash_mix(ids[i]));
		for (uint32_t k; (k = id_probe_next(&x->table, &p)) != NO_ID;)
			if (ids[k] == ids[i])
				return load_fail_at(L->err, FORMAT, at[i], "two %ss have id %llu "
						    "(the first at byte %zu)", what,
						    (unsigned long long)ids[i], at[k]);
		id_table_add(&x->table, &p, (uint32_t)i);
	}
	return true;
}

static uint32_t find_id(const struct id_index *x, uint64_t id)
{
	if (x->dense)
		return id >= 1 && id <= x->n ? (uint32_t)(id - 1) : NO_ID;
	if (!x->table.size)
		return NO_ID;
	struct id_probe p = id_table_probe(&x->table, hash_mix(id));
	for (uint32_t k; (k = id_probe_next(&x->table, &p)) != NO_ID;)
		if (x->ids[k] == id)
			return k;
	return NO_ID;
}

static void id_index_free(struct id_index *x)
{
	free(x->ids);
	id_table_free(&x->table);
}

/* The ids of a table of generated messages, each with an `id` field. */
#define INDEX_IDS(L, list, index, what)                                      \
	index_table_ids((L), &(L)->index, (void **)(L)->list, (L)->list##_at, \
			(L)->n##list, offsetof(__typeof__(**(L)->list), id), (what))

static bool index_table_ids(struct pprof_loader *L, struct id_index *x,
			    void **items, const size_t *at, size_t n, size_t id_offset,
			    const char *what)
{
	uint64_t *ids = xmalloc((n + 1) * sizeof(uint64_t));
	for (size_t i = 0; i < n; i++)
		memcpy(&ids[i], (const uint8_t *)items[i] + id_offset, sizeof(uint64_t));
	return index_ids(L, x, ids, at, n, what);
}

/* Mappings only name unsymbolized locations, but their strings must be
 * in the table like any other. */
static bool check_mappings(struct pprof_loader *L)
{
	for (size_t i = 0; i < L->nmappings; i++) {
		str_t s = STR_NONE;
		const pb_mapping *mp = L->mappings[i];
		if (!string_at(L, mp->filename, "mapping", mp->id, L->mappings_at[i], &s) ||
		    !string_at(L, mp->build_id, "mapping", mp->id, L->mappings_at[i], &s))
			return false;
	}
	return true;
}

/* ---- sample types ----------------------------------------------------------- */

static bool make_sample_types(struct pprof_loader *L)
{
	struct model *m = L->m;
	if (L->ntypes == 0)
		return load_fail(L->err, "the profile has no sample types");
	if (L->ntypes > MAX_SAMPLE_TYPES)
		return load_fail(L->err, "the profile has %zu sample types; wprof-tui "
				 "reads at most %d", L->ntypes, MAX_SAMPLE_TYPES);
	str_t default_name = STR_NONE;
	if (L->default_sample_type &&
	    !string_at(L, L->default_sample_type, "default_sample_type", 0,
		       L->default_sample_type_at, &default_name))
		return false;
	m->default_type = (unsigned)L->ntypes - 1;
	for (size_t i = 0; i < L->ntypes; i++) {
		str_t name = STR_NONE, unit = STR_NONE;
		if (!string_at(L, L->types[i]->type, "sample_type", i, L->types_at[i], &name) ||
		    !string_at(L, L->types[i]->unit, "sample_type", i, L->types_at[i], &unit))
			return false;
		L->scale[i] = unit_scale_of(model_str(m, unit));
		const char *shown = L->scale[i].unit ? L->scale[i].unit : model_str(m, unit);
		model_add_sample_type(m, model_str(m, name), *shown ? shown : "count");
		if (name == default_name)
			m->default_type = (unsigned)i;
	}
	return true;
}

/* ---- frames ------------------------------------------------------------------ */

/* What pprof calls a location it cannot name: its mapping's file, or
 * "<unknown>". */
static str_t unnamed_location(struct pprof_loader *L, const pb_location *loc)
{
	uint32_t mi = find_id(&L->mapping_ids, loc->mapping_id);
	str_t file = STR_NONE;
	if (mi != NO_ID)
		file = L->strings[L->mappings[mi]->filename]; /* checked */
	const char *path = model_str(L->m, file);
	if (!*path)
		return model_string(L->m, "<unknown>", 9);
	const char *base = strrchr(path, '/');
	base = base ? base + 1 : path;
	size_t n = strlen(base);
	char *name = xmalloc(n + 3);
	snprintf(name, n + 3, "[%s]", base);
	str_t s = model_string(L->m, name, n + 2);
	free(name);
	return s;
}

/* Lines are shown and exported as they are, or one higher: the largest
 * line the rest of the program can take. */
#define MAX_LINE 2147483646

static bool function_frame(struct pprof_loader *L, size_t location,
			   const pb_line *line, bool inlined, struct frame *out)
{
	const pb_location *loc = L->locations[location];
	uint32_t fi = find_id(&L->function_ids, line->function_id);
	if (fi == NO_ID)
		return load_fail_at(L->err, FORMAT, L->locations_at[location], "location %llu "
				    "names function %llu, which no function has",
				    (unsigned long long)loc->id,
				    (unsigned long long)line->function_id);
	const pb_function *fn = L->functions[fi];
	size_t at = L->functions_at[fi];
	str_t name = STR_NONE, system_name = STR_NONE, file = STR_NONE;
	if (!string_at(L, fn->name, "function", fn->id, at, &name) ||
	    !string_at(L, fn->system_name, "function", fn->id, at, &system_name) ||
	    !string_at(L, fn->filename, "function", fn->id, at, &file))
		return false;
	if (fn->start_line > MAX_LINE)
		return load_fail_at(L->err, FORMAT, at, "function %llu: start_line %lld is "
				    "out of range", (unsigned long long)fn->id,
				    (long long)fn->start_line);
	if (!*model_str(L->m, name))
		name = unnamed_location(L, loc);
	if (inlined) {
		const char *plain = model_str(L->m, name);
		size_t n = strlen(plain) + sizeof(" (inline)");
		char *marked = xmalloc(n);
		int len = snprintf(marked, n, "%s (inline)", plain);
		name = model_string(L->m, marked, (size_t)len);
		free(marked);
	}
	int64_t first = L->by_line ? line->line : fn->start_line;
	*out = (struct frame){
		.name = name, .url = file, .extra = system_name,
		.line = first > 0 && first <= INT32_MAX ? (int32_t)first : -1,
		.column = -1, .kind = KIND_NATIVE,
		.flags = inlined ? FRAME_INLINED : 0,
	};
	return true;
}

/* pprof -addresses: a location's address (when it has one) before the
 * name. */
static str_t with_address(struct pprof_loader *L, uint64_t address, str_t name)
{
	if (!L->by_address || !address)
		return name;
	const char *plain = model_str(L->m, name);
	size_t n = strlen(plain) + 18;
	char *named = xmalloc(n);
	int len = snprintf(named, n, "%016" PRIx64 " %s", address, plain);
	str_t s = model_string(L->m, named, (size_t)len);
	free(named);
	return s;
}

/* Each location's frames, innermost line first. */
static bool make_location_frames(struct pprof_loader *L)
{
	L->loc = xcalloc(L->nlocations + 1, sizeof(*L->loc));
	for (size_t i = 0; i < L->nlocations; i++) {
		const pb_location *loc = L->locations[i];
		L->loc[i].start = (uint32_t)L->nframes;
		for (size_t k = 0; k < loc->n_line || (k == 0 && !loc->n_line); k++) {
			struct frame f = { .name = STR_NONE, .url = STR_NONE,
					   .extra = STR_NONE, .line = -1, .column = -1,
					   .kind = KIND_NATIVE };
			if (!loc->n_line)
				f.name = unnamed_location(L, loc);
			else if (!function_frame(L, i, loc->line[k], k + 1 < loc->n_line, &f))
				return false;
			f.name = with_address(L, loc->address, f.name);
			KEEP(L, frames, model_intern_frame(L->m, &f));
		}
		L->loc[i].end = (uint32_t)L->nframes;
	}
	return true;
}

/* ---- drop_frames / keep_frames ---------------------------------------------- */

static bool compile_anchored(struct pprof_loader *L, int64_t index, size_t at,
			     const char *what, regex_t *re)
{
	str_t s = STR_NONE;
	if (!string_at(L, index, what, 0, at, &s))
		return false;
	const char *pattern = model_str(L->m, s);
	if (!regcomp_whole(re, pattern))
		return load_fail(L->err, "%s \"%.80s\" is not a regular expression "
				 "wprof-tui can read", what, pattern);
	return true;
}

/* Marks the locations where pprof's Prune cuts stacks. */
static bool mark_pruned(struct pprof_loader *L)
{
	if (!L->drop_frames)
		return true;
	regex_t drop, keep;
	if (!compile_anchored(L, L->drop_frames, L->drop_frames_at, "drop_frames", &drop))
		return false;
	bool have_keep = L->keep_frames != 0;
	if (have_keep && !compile_anchored(L, L->keep_frames, L->keep_frames_at,
					   "keep_frames", &keep)) {
		regfree(&drop);
		return false;
	}
	for (size_t i = 0; i < L->nlocations; i++) {
		const pb_location *loc = L->locations[i];
		/* From the caller (the last line) inwards: the first dropped
		 * line goes with every line inlined into it. */
		for (size_t k = loc->n_line; k-- > 0;) {
			uint32_t fi = find_id(&L->function_ids, loc->line[k]->function_id);
			const pb_function *fn = L->functions[fi];
			const char *name = model_str(L->m, L->strings[fn->name]);
			if (!*name || !function_name_matches(&drop, name) ||
			    (have_keep && function_name_matches(&keep, name)))
				continue;
			if (k + 1 == loc->n_line)
				L->loc[i].prune = PRUNE_WHOLE;
			else {
				L->loc[i].prune = PRUNE_BENEATH;
				L->loc[i].start += (uint32_t)(k + 1);
			}
			break;
		}
	}
	regfree(&drop);
	if (have_keep)
		regfree(&keep);
	return true;
}

/* Where a sample's stack starts after pruning: from the root towards the
 * leaf, the first pruned location after a kept one cuts the stack. */
static size_t pruned_start(const struct pprof_loader *L, const uint32_t *locs,
			   size_t n)
{
	bool seen_user = false;
	for (size_t i = n; i-- > 0;) {
		uint8_t prune = L->loc[locs[i]].prune;
		if (prune == PRUNE_NONE) {
			seen_user = true;
			continue;
		}
		if (!seen_user)
			continue;
		return prune == PRUNE_WHOLE ? i + 1 : i;
	}
	return 0;
}

/* ---- samples ------------------------------------------------------------------- */

/* The entry of the stack `locs`, or NO_ID with *p where to add it. */
static uint32_t cache_find(const struct stack_cache *c, const uint32_t *locs, size_t n,
			   struct id_probe *p)
{
	*p = id_table_probe(&c->index, hash_bytes(locs, n * sizeof(uint32_t), 0));
	for (uint32_t k; (k = id_probe_next(&c->index, p)) != NO_ID;) {
		const struct cached_stack *e = &c->entries[k];
		if (e->len == n && !memcmp(c->ids + e->start, locs, n * sizeof(uint32_t)))
			return k;
	}
	return NO_ID;
}

/* The new entry's index, or NO_ID when the cache is full. */
static uint32_t cache_put(struct stack_cache *c, const struct id_probe *p,
			  const uint32_t *locs, size_t n, uint32_t leaf, size_t ntypes)
{
	if (c->nids + n > STACK_CACHE_MAX_IDS)
		return NO_ID;
	GROW(c->ids, c->ids_cap, c->nids + n);
	memcpy(c->ids + c->nids, locs, n * sizeof(uint32_t));
	GROW(c->entries, c->entries_cap, c->nentries + 1);
	GROW(c->line_values, c->line_values_cap, (c->nentries + 1) * ntypes);
	memset(c->line_values + c->nentries * ntypes, 0, ntypes * sizeof(double));
	c->entries[c->nentries] = (struct cached_stack){ (uint32_t)c->nids, (uint32_t)n, leaf };
	id_table_add(&c->index, p, (uint32_t)c->nentries);
	c->nids += n;
	return (uint32_t)c->nentries++;
}

static void cache_free(struct stack_cache *c)
{
	free(c->entries);
	free(c->line_values);
	free(c->ids);
	id_table_free(&c->index);
}

/* The leaf node of a sample's stack, made on first sight: NO_ID when
 * drop_frames prunes it all (pprof shows no row for it either). */
static uint32_t stack_leaf(struct pprof_loader *L, const uint32_t *locs, size_t n)
{
	size_t first = L->drop_frames ? pruned_start(L, locs, n) : 0;
	size_t depth = 0;
	for (size_t i = first; i < n; i++) {
		const struct location_frames *lf = &L->loc[locs[i]];
		GROW(L->stack, L->stack_cap, depth + (lf->end - lf->start));
		for (uint32_t k = lf->start; k < lf->end; k++)
			L->stack[depth++] = L->frames[k];
	}
	return depth ? model_add_stack(L->m, L->stack, depth) : NO_ID;
}

static bool add_labels(struct pprof_loader *L, const pb_sample *s, size_t at,
		       uint32_t node)
{
	if (!s->n_label)
		return true;
	double values[MAX_SAMPLE_TYPES];
	for (size_t t = 0; t < L->ntypes; t++)
		values[t] = (double)s->value[t];
	uint32_t row = model_add_label_row(L->m, values);
	for (size_t i = 0; i < s->n_label; i++) {
		const Perftools__Profiles__Label *lb = s->label[i];
		struct sample_label label = { .sample = (uint32_t)L->nsamples,
					      .node = node, .str = STR_NONE,
					      .num = lb->num, .num_unit = STR_NONE,
					      .row = row };
		if (!string_at(L, lb->key, "label of sample", L->nsamples, at, &label.key) ||
		    (lb->str && !string_at(L, lb->str, "label of sample", L->nsamples,
					  at, &label.str)) ||
		    (lb->num_unit && !string_at(L, lb->num_unit, "label of sample",
					       L->nsamples, at, &label.num_unit)))
			return false;
		model_add_label(L->m, &label);
	}
	return true;
}

/* The sample's frames with their line numbers, leaf first, walking up
 * the tree from its leaf node alongside. */
static size_t sample_path(struct pprof_loader *L, const uint32_t *locs, size_t n,
			  uint32_t leaf)
{
	size_t first = L->drop_frames ? pruned_start(L, locs, n) : 0, depth = 0;
	uint32_t v = leaf;
	for (size_t i = first; i < n && v != NO_ID; i++) {
		const pb_location *loc = L->locations[locs[i]];
		const struct location_frames *lf = &L->loc[locs[i]];
		for (uint32_t k = lf->start; k < lf->end && v != NO_ID; k++) {
			int64_t line = loc->n_line ? loc->line[k - lf->start]->line : 0;
			GROW(L->path, L->path_cap, depth + 1);
			L->path[depth++] = (struct sample_line){
				v, L->frames[k], line > 0 && line <= INT32_MAX ? (int32_t)line : 0 };
			v = L->m->nodes[v].parent;
		}
	}
	return depth;
}

static bool line_counted_below(const struct pprof_loader *L, size_t i)
{
	for (size_t j = 0; j < i; j++)
		if (L->path[j].frame == L->path[i].frame && L->path[j].line == L->path[i].line)
			return true;
	return false;
}

/* pprof -list: the leaf's line gets the sample as self, every (function,
 * line) on the stack gets it once as total.  Under recursion the total
 * goes to the deepest of a line's nodes, so that the leaf's line holds
 * its self within its total (as transform_lines.h expects). */
static void add_stack_lines(struct pprof_loader *L, const double *values,
			    const uint32_t *locs, size_t n, uint32_t leaf)
{
	size_t depth = sample_path(L, locs, n, leaf);
	struct model *m = L->m;
	size_t walk = ++L->lines_walks;
	for (size_t i = 0; i < depth; i++) {
		const struct sample_line *p = &L->path[i];
		bool seen = L->frame_seen[p->frame] == walk;
		L->frame_seen[p->frame] = walk;
		if (!p->line || (seen && line_counted_below(L, i)))
			continue;
		uint32_t k = model_node_line(m, p->node, p->line);
		double *total = node_line_total(m, k), *self = node_line_self(m, k);
		for (size_t t = 0; t < L->ntypes; t++) {
			total[t] += values[t];
			if (i == 0)
				self[t] += values[t];
		}
	}
}

/* `at`: the sample's byte offset in the buffer. */
static bool add_sample(struct pprof_loader *L, const pb_sample *s, size_t at)
{
	if (s->n_value != L->ntypes)
		return load_fail_at(L->err, FORMAT, at, "sample %zu has %zu values for %zu "
				    "sample types", L->nsamples, s->n_value, L->ntypes);
	for (size_t t = 0; t < L->ntypes; t++)
		L->abs_total[t] += fabs((double)s->value[t]);
	GROW(L->sample_locs, L->sample_locs_cap, s->n_location_id + 1);
	for (size_t i = 0; i < s->n_location_id; i++) {
		L->sample_locs[i] = find_id(&L->location_ids, s->location_id[i]);
		if (L->sample_locs[i] == NO_ID)
			return load_fail_at(L->err, FORMAT, at, "sample %zu names location %llu, "
					    "which no location has", L->nsamples,
					    (unsigned long long)s->location_id[i]);
	}
	size_t n = s->n_location_id;
	if (n == 0) { /* Go's threadcreate: counted in the total, no row */
		for (size_t t = 0; t < L->ntypes; t++)
			*(s->value[t] < 0 ? &L->stackless_negative[t]
			  : &L->stackless_positive[t]) += (double)s->value[t];
		L->nsamples++;
		return true;
	}
	struct id_probe p;
	uint32_t cached = cache_find(&L->cache, L->sample_locs, n, &p);
	uint32_t leaf;
	if (cached != NO_ID) {
		leaf = L->cache.entries[cached].leaf;
	} else {
		leaf = stack_leaf(L, L->sample_locs, n);
		cached = cache_put(&L->cache, &p, L->sample_locs, n, leaf, L->ntypes);
	}
	if (leaf != NO_ID) {
		double values[MAX_SAMPLE_TYPES];
		for (size_t t = 0; t < L->ntypes; t++) {
			values[t] = (double)s->value[t];
			model_add_node_value(L->m, leaf, (unsigned)t, values[t]);
		}
		if (cached != NO_ID) /* its lines are added with its stack's */
			for (size_t t = 0; t < L->ntypes; t++)
				L->cache.line_values[cached * L->ntypes + t] += values[t];
		else
			add_stack_lines(L, values, L->sample_locs, n, leaf);
		if (!add_labels(L, s, at, leaf))
			return false;
	}
	L->nsamples++;
	return true;
}

/* Each cached stack's lines, with the sums of its samples' values. */
static void add_cached_lines(struct pprof_loader *L)
{
	const struct stack_cache *c = &L->cache;
	for (size_t k = 0; k < c->nentries; k++)
		if (c->entries[k].leaf != NO_ID)
			add_stack_lines(L, c->line_values + k * L->ntypes, c->ids + c->entries[k].start,
					c->entries[k].len, c->entries[k].leaf);
}

static bool read_samples(struct pprof_loader *L)
{
	ProtobufCAllocator scratch = { arena_alloc, arena_free, &L->arena };
	id_table_init(&L->cache.index, 2048);
	L->frame_seen = xcalloc(L->m->nframes + 1, sizeof(size_t));
	L->arena.cap = 1 << 16;
	L->arena.block = xmalloc(L->arena.cap);
	size_t pos = 0;
	while (pos < L->len) {
		struct field f;
		const char *why;
		if (!read_field(L->data, L->len, &pos, &f, &why))
			return false; /* read_tables has walked these bytes */
		if (f.number != F_SAMPLE)
			continue;
		arena_reset(&L->arena);
		pb_sample *s = perftools__profiles__sample__unpack(&scratch, f.len, f.bytes);
		if (!s)
			return load_fail_at(L->err, FORMAT, f.offset, "sample %zu is not a valid "
					    "Sample message", L->nsamples);
		if (!add_sample(L, s, f.offset))
			return false;
	}
	add_cached_lines(L);
	return true;
}

/* pprof's "Total samples" under -sample_index=samples: the sum of the
 * samples/count type (Go's CPU profiles: 530 where -raw lists 91
 * records); the records themselves where there is no such type. */
static void set_sample_count(struct pprof_loader *L)
{
	struct model *m = L->m;
	m->summed_samples = L->nsamples;
	for (unsigned t = 0; t < m->ntypes; t++)
		if (!strcmp(model_str(m, m->types[t].name), "samples") &&
		    !strcmp(model_str(m, m->types[t].unit), "count")) {
			m->summed_samples = (size_t)llround(L->abs_total[t]);
			m->sample_records = L->nsamples;
		}
}

/* Values were summed in the file's units, exact for integers; now each
 * type takes the model's unit (microseconds for time). */
static void scale_values(struct pprof_loader *L)
{
	struct model *m = L->m;
	for (size_t v = 0; v < m->nnodes; v++)
		for (unsigned t = 0; t < m->ntypes; t++) {
			double *x = &m->node_self[v * m->ntypes + t];
			*x = unit_scale_apply(&L->scale[t], *x);
		}
	for (unsigned t = 0; t < m->ntypes; t++) {
		m->type_total[t] = unit_scale_apply(&L->scale[t], L->abs_total[t]);
		m->stackless_positive[t] = unit_scale_apply(&L->scale[t], L->stackless_positive[t]);
		m->stackless_negative[t] = unit_scale_apply(&L->scale[t], L->stackless_negative[t]);
	}
	m->has_type_totals = true;
	set_sample_count(L);
	for (size_t r = 0; r < m->nlabel_rows; r++)
		for (unsigned t = 0; t < m->label_stride; t++) {
			double *x = &m->label_values[r * m->label_stride + t];
			*x = unit_scale_apply(&L->scale[t], *x);
		}
	for (size_t k = 0; k < 2 * m->nnode_lines; k++)
		for (unsigned t = 0; t < m->ntypes; t++) {
			double *x = &m->node_line_values[k * m->ntypes + t];
			*x = unit_scale_apply(&L->scale[t], *x);
		}
}

/* ---- the rest of the profile ---------------------------------------------------- */

static bool make_metadata(struct pprof_loader *L)
{
	struct model *m = L->m;
	m->start_time = (double)L->time_nanos / 1000;
	m->wall_start = m->start_time;
	if (L->nmappings) /* checked by check_mappings */
		m->main_binary = L->strings[L->mappings[0]->filename];
	m->duration = (double)L->duration_nanos / 1000;
	m->end_time = m->start_time + m->duration;
	if (L->period_type) {
		str_t unit = STR_NONE;
		if (!string_at(L, L->period_type->unit, "period_type", 0, L->period_type_at,
			       &unit))
			return false;
		struct unit_scale scale = unit_scale_of(model_str(m, unit));
		m->period = unit_scale_apply(&scale, (double)L->period);
	} else {
		m->period = (double)L->period;
	}
	size_t n = 0;
	for (size_t i = 0; i < L->ncomments; i++) {
		str_t s = STR_NONE;
		if (!string_at(L, L->comments[i], "comment", i, L->comments_at[i], &s))
			return false;
		n += strlen(model_str(m, s)) + 1;
	}
	if (!n)
		return true;
	char *text = xmalloc(n), *p = text;
	for (size_t i = 0; i < L->ncomments; i++)
		p += sprintf(p, "%s%s", i ? "\n" : "", model_str(m, L->strings[L->comments[i]]));
	m->comment = model_string(m, text, (size_t)(p - text));
	free(text);
	return true;
}

static bool build_model(struct pprof_loader *L)
{
	if (!read_tables(L))
		return false;
	if (L->nstrings == 0 || *model_str(L->m, L->strings[0]))
		return load_fail(L->err, "string_table[0] must be \"\" (not a pprof profile)");
	if (!make_sample_types(L) || !make_metadata(L) ||
	    !check_mappings(L) || !INDEX_IDS(L, mappings, mapping_ids, "mapping") ||
	    !INDEX_IDS(L, locations, location_ids, "location") ||
	    !INDEX_IDS(L, functions, function_ids, "function") || !make_location_frames(L) ||
	    !mark_pruned(L) || !read_samples(L))
		return false;
	scale_values(L);
	/* Stacks, even when there are none: an empty profile has its totals
	 * under the same rule as any other. */
	L->m->caps |= HAS_STACKS;
	uint32_t cycle;
	model_finish(L->m, &cycle); /* merged stacks are a tree: no cycle */
	return true;
}

static void loader_free(struct pprof_loader *L)
{
	for (size_t i = 0; i < L->ntypes; i++)
		perftools__profiles__value_type__free_unpacked(L->types[i], NULL);
	for (size_t i = 0; i < L->nmappings; i++)
		perftools__profiles__mapping__free_unpacked(L->mappings[i], NULL);
	for (size_t i = 0; i < L->nlocations; i++)
		perftools__profiles__location__free_unpacked(L->locations[i], NULL);
	for (size_t i = 0; i < L->nfunctions; i++)
		perftools__profiles__function__free_unpacked(L->functions[i], NULL);
	if (L->period_type)
		perftools__profiles__value_type__free_unpacked(L->period_type, NULL);
	free(L->types);
	free(L->types_at);
	free(L->mappings_at);
	free(L->locations_at);
	free(L->functions_at);
	free(L->comments_at);
	free(L->mappings);
	free(L->locations);
	free(L->functions);
	free(L->strings);
	free(L->comments);
	id_index_free(&L->mapping_ids);
	id_index_free(&L->location_ids);
	id_index_free(&L->function_ids);
	free(L->loc);
	free(L->frames);
	free(L->stack);
	free(L->sample_locs);
	free(L->path);
	free(L->frame_seen);
	cache_free(&L->cache);
	arena_reset(&L->arena);
	free(L->arena.big);
	free(L->arena.block);
}

bool load_pprof(struct input *in, struct model *m, const struct load_options *opt,
		struct load_error *err)
{
	/* The sample type is picked by the caller, for any format. */
	struct pprof_loader L = { .m = m, .err = err,
				  .by_line = opt && (opt->by_line || opt->by_address),
				  .by_address = opt && opt->by_address };
	model_init(m, "pprof");
	uint8_t *data = NULL;
	bool ok = read_bytes(in, &data, &L.len, err);
	if (ok) {
		L.data = data;
		ok = build_model(&L);
	}
	loader_free(&L);
	free(data);
	if (!ok)
		model_free(m);
	return ok;
}
