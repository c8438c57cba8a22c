/* The long arrays at the end of a .cpuprofile, on a thread of their own
 * (cpuprofile_tail.h). */
#include "cpuprofile_tail.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "base/util.h"
#include "json.h"

/* Bytes kept at hand before a number is read: the longest number the
 * JSON reader takes (71) and then some. */
#define ROOM 80
/* How far past a chunk the search for the key looks: a key that the
 * chunk's end cuts, and the white space before its colon. */
#define OVERLAP 64
/* How far past the first work's end the key is looked for at least:
 * V8 writes only "startTime" and "endTime" between the nodes and the
 * samples. */
#define NEAR 4096

static const char samples_key[] = "\"samples\"";

/* On the thread: one more step done (*flag is one of t's). */
static void announce(struct cpuprofile_tail *t, bool *flag)
{
	pthread_mutex_lock(&t->lock);
	*flag = true;
	pthread_cond_broadcast(&t->moved);
	pthread_mutex_unlock(&t->lock);
}

/* Until *flag is set or the thread has ended (at once without one). */
static void await(struct cpuprofile_tail *t, const bool *flag)
{
	if (!t->running || t->joined)
		return;
	pthread_mutex_lock(&t->lock);
	while (!*flag && !t->ended)
		pthread_cond_wait(&t->moved, &t->lock);
	pthread_mutex_unlock(&t->lock);
}

static bool stopping(struct cpuprofile_tail *t)
{
	return atomic_load_explicit(&t->stop, memory_order_relaxed);
}

static bool is_space(uint8_t c)
{
	return c == ' ' || c == '\n' || c == '\r' || c == '\t';
}

/* Whether w[at..len) is `"samples"`, white space and a colon. */
static bool samples_key_at(const uint8_t *w, size_t at, size_t len)
{
	size_t n = sizeof(samples_key) - 1;
	if (len - at < n || memcmp(w + at, samples_key, n))
		return false;
	for (at += n; at < len && is_space(w[at]); at++)
		;
	return at < len && w[at] == ':';
}

/* The byte of the first "samples" key in the bytes at hand (NEAR at
 * least) after byte `after` (0: none to look after), which spares
 * reading the arrays twice, once backwards. */
static bool find_samples_key_after(struct cpuprofile_tail *t, uint64_t after, uint64_t *found)
{
	struct input *in = &t->in;
	if (!after || !input_seek(in, after))
		return false;
	size_t len = input_fill(in, NEAR), n = sizeof(samples_key) - 1;
	const uint8_t *w = in->buf + in->pos;
	for (const uint8_t *q = w; (q = memmem(q, len - (size_t)(q - w), samples_key, n)); q++)
		if (samples_key_at(w, (size_t)(q - w), len)) {
			*found = after + (uint64_t)(q - w);
			return true;
		}
	return false;
}

/* The byte of the last "samples" key, searched from the end of the data
 * a chunk at a time (the numbers after it hold no quotes to stop at). */
static bool find_samples_key(struct cpuprofile_tail *t, uint64_t *found)
{
	struct input *in = &t->in;
	uint64_t size = in->size;
	for (uint64_t end = size; end > 0 && !stopping(t);) {
		uint64_t start = end > INPUT_CHUNK ? end - INPUT_CHUNK : 0;
		size_t len = (size_t)((end + OVERLAP < size ? end + OVERLAP : size) - start);
		if (!input_seek(in, start) || input_fill(in, len) < len)
			return false;
		const uint8_t *w = in->buf + in->pos;
		for (size_t before = (size_t)(end - start); before > 0;) {
			const uint8_t *quote = memrchr(w, '"', before);
			if (!quote)
				break;
			before = (size_t)(quote - w);
			if (samples_key_at(w, before, len)) {
				*found = start + before;
				return true;
			}
		}
		end = start;
	}
	return false;
}

/* The next byte that is not white space, with ROOM bytes at hand from
 * it where the data has them; -1 at the end (or when told to stop). */
static int next_byte(struct cpuprofile_tail *t)
{
	struct input *in = &t->in;
	for (;;) {
		if (in->len - in->pos < ROOM && !in->eof) {
			if (stopping(t))
				return -1;
			input_fill(in, ROOM);
		}
		if (in->pos == in->len)
			return -1;
		uint8_t c = in->buf[in->pos];
		if (!is_space(c))
			return c;
		in->pos++;
	}
}

/* Keeps one element; false for one the loader must judge. */
static bool keep(struct tail_array *a, enum tail_kind kind, double v)
{
	if (kind == TAIL_SAMPLES) {
		if (v != floor(v) || v < 0 || v >= NO_ID)
			return false;
		GROW(a->ids, a->cap, a->n + 1);
		a->ids[a->n++] = (uint32_t)v;
		return true;
	}
	GROW(a->values, a->cap, a->n + 1);
	a->values[a->n++] = v;
	if (fabs(v) > a->largest)
		a->largest = fabs(v);
	return true;
}

/* The usual element: an integer of at most 7 digits with its comma
 * right after it, read eight bytes at once (the bytes up to past the
 * comma; the value in *v).  0 for anything else, which the general path
 * reads (and a leading zero, which it refuses as JSON does).  ROOM bytes
 * are at hand, so eight can be read. */
static inline size_t integer_and_comma(const uint8_t *p, const uint8_t *end, int64_t *v)
{
	const uint64_t threes = 0x3030303030303030ULL, high = 0xf0f0f0f0f0f0f0f0ULL;
	bool negative = *p == '-';
	const uint8_t *digits = p + negative;
	if (__BYTE_ORDER__ != __ORDER_LITTLE_ENDIAN__ || end - digits < 9)
		return 0;
	uint64_t w;
	memcpy(&w, digits, 8);
	/* A digit is 0x30..0x39: high nibble 3, and 3 still after adding 6
	 * (a carry it makes reaches only bytes after the first non-digit). */
	uint64_t not_digit = ((w & high) ^ threes) | (((w + 0x0606060606060606ULL) & high) ^ threes);
	if (!not_digit)
		return 0;
	unsigned len = (unsigned)__builtin_ctzll(not_digit) / 8;
	if (len == 0 || digits[len] != ',' || (digits[0] == '0' && len > 1))
		return 0;
	/* The digits to the top of the word (zeros before them), then
	 * pairs, fours and eights of digits summed at once. */
	uint64_t x = (w << (8 * (8 - len))) & 0x0f0f0f0f0f0f0f0fULL;
	x = (x * 2561) >> 8 & 0x00ff00ff00ff00ffULL;
	x = (x * 6553601) >> 16 & 0x0000ffff0000ffffULL;
	x = (x * 42949672960001ULL) >> 32;
	*v = negative ? -(int64_t)x : (int64_t)x;
	return (size_t)(digits + len + 1 - p);
}

/* The general element: white space, any number, white space, then a
 * comma (more follow) or the array's ']' (*ended). */
static bool any_element(struct cpuprofile_tail *t, struct tail_array *a,
			enum tail_kind kind, bool *ended)
{
	struct input *in = &t->in;
	double v;
	if (next_byte(t) < 0)
		return false;
	size_t used = json_number_at(in->buf + in->pos, in->len - in->pos, &v);
	if (!used || !keep(a, kind, v))
		return false;
	in->pos += used;
	int c = next_byte(t);
	if (c != ',' && c != ']')
		return false;
	in->pos++;
	*ended = c == ']';
	return true;
}

/* The usual elements from `from` on, ids of samples or deltas, while
 * ROOM bytes are at hand: the bytes taken.  The array's fields are kept
 * in locals, as a store through its pointer could otherwise be taken
 * to change them.  It stops before an element integer_and_comma does
 * not read, or an id out of range. */
static size_t id_run(const uint8_t *from, const uint8_t *end, struct tail_array *a)
{
	const uint8_t *p = from;
	uint32_t *ids = a->ids;
	size_t n = a->n, cap = a->cap, used;
	int64_t v;
	while (end - p >= ROOM && (used = integer_and_comma(p, end, &v)) && v >= 0 && v < NO_ID) {
		if (n == cap) {
			grow_array((void **)&a->ids, &a->cap, n + 1, sizeof(*ids));
			ids = a->ids;
			cap = a->cap;
		}
		ids[n++] = (uint32_t)v;
		p += used;
	}
	a->n = n;
	return (size_t)(p - from);
}

static size_t delta_run(const uint8_t *from, const uint8_t *end, struct tail_array *a)
{
	const uint8_t *p = from;
	double *values = a->values;
	size_t n = a->n, cap = a->cap, used;
	int64_t v, widest = 0;
	while (end - p >= ROOM && (used = integer_and_comma(p, end, &v))) {
		if (n == cap) {
			grow_array((void **)&a->values, &a->cap, n + 1, sizeof(*values));
			values = a->values;
			cap = a->cap;
		}
		values[n++] = (double)v;
		if (llabs(v) > widest)
			widest = llabs(v);
		p += used;
	}
	a->n = n;
	if ((double)widest > a->largest)
		a->largest = (double)widest;
	return (size_t)(p - from);
}

/* The element at hand where a run above stopped (one it does not read
 * or keep, or one in the last bytes of the data): a usual one, else any
 * number. */
static bool one_element(struct cpuprofile_tail *t, struct tail_array *a,
			enum tail_kind kind, bool *ended)
{
	struct input *in = &t->in;
	int64_t v;
	size_t used = integer_and_comma(in->buf + in->pos, in->buf + in->len, &v);
	if (!used)
		return any_element(t, a, kind, ended);
	in->pos += used;
	return keep(a, kind, (double)v);
}

/* An array of numbers, from its '[' (white space before it), as the
 * JSON reader takes one: numbers separated by commas.  Millions of
 * them: the usual ones go through a run of integer_and_comma. */
static bool read_numbers(struct cpuprofile_tail *t, struct tail_array *a,
			 enum tail_kind kind)
{
	struct input *in = &t->in;
	if (next_byte(t) != '[')
		return false;
	in->pos++;
	if (next_byte(t) == ']') {
		in->pos++;
		return true;
	}
	for (bool ended = false; !ended;) {
		if (in->len - in->pos < ROOM && (next_byte(t) < 0 || stopping(t)))
			return false; /* (next_byte refills) */
		const uint8_t *at = in->buf + in->pos, *end = in->buf + in->len;
		in->pos += kind == TAIL_SAMPLES ? id_run(at, end, a) : delta_run(at, end, a);
		if ((in->len - in->pos >= ROOM || in->eof) && !one_element(t, a, kind, &ended))
			return false;
	}
	return true;
}

/* The kind of the key at hand, which it consumes; TAIL_KINDS for
 * another key or one read already. */
static enum tail_kind entry_key(struct cpuprofile_tail *t)
{
	static const char *const keys[TAIL_KINDS] = {
		[TAIL_SAMPLES] = samples_key, [TAIL_DELTAS] = "\"timeDeltas\"",
	};
	struct input *in = &t->in;
	for (int k = 0; k < TAIL_KINDS; k++) {
		size_t n = strlen(keys[k]);
		if (t->arrays[k].key_at || in->len - in->pos < n ||
		    memcmp(in->buf + in->pos, keys[k], n))
			continue;
		t->arrays[k].key_at = input_offset(in);
		in->pos += n;
		return (enum tail_kind)k;
	}
	return TAIL_KINDS;
}

/* From the key found: "samples", then "timeDeltas" when it follows. */
static void read_entries(struct cpuprofile_tail *t, uint64_t at)
{
	struct input *in = &t->in;
	if (!input_seek(in, at) || next_byte(t) < 0)
		return;
	for (;;) {
		enum tail_kind kind = entry_key(t);
		if (kind == TAIL_KINDS || next_byte(t) != ':')
			return;
		in->pos++;
		struct tail_array *a = &t->arrays[kind];
		if (kind == TAIL_DELTAS) /* as many as the samples, as a rule */
			GROW(a->values, a->cap, t->arrays[TAIL_SAMPLES].n + 1);
		if (!read_numbers(t, a, kind))
			return;
		a->end = input_offset(in);
		a->whole = true;
		announce(t, &a->settled);
		if (next_byte(t) != ',')
			return;
		in->pos++;
		if (next_byte(t) < 0)
			return;
	}
}

static void *read_tail(void *arg)
{
	struct cpuprofile_tail *t = arg;
	uint64_t at, after = t->first ? t->first(t->first_ctx, &t->in) : 0;
	announce(t, &t->first_done);
	if (find_samples_key_after(t, after, &at) || find_samples_key(t, &at))
		read_entries(t, at);
	announce(t, &t->ended);
	return NULL;
}

void tail_start(struct cpuprofile_tail *t, const struct input *in, tail_first_fn *first,
		void *first_ctx)
{
	memset(t, 0, sizeof(*t));
	atomic_init(&t->stop, false);
	t->first = first;
	t->first_ctx = first_ctx;
	if (!in->size || !input_share(&t->in, in, 0))
		return;
	pthread_mutex_init(&t->lock, NULL);
	pthread_cond_init(&t->moved, NULL);
	t->running = pthread_create(&t->thread, NULL, read_tail, t) == 0;
	if (!t->running) {
		pthread_mutex_destroy(&t->lock);
		pthread_cond_destroy(&t->moved);
		input_close(&t->in);
	}
}

void tail_wait_first(struct cpuprofile_tail *t)
{
	await(t, &t->first_done);
}

void tail_wait(struct cpuprofile_tail *t)
{
	if (!t->running || t->joined)
		return;
	pthread_join(t->thread, NULL);
	t->joined = true;
	pthread_mutex_destroy(&t->lock);
	pthread_cond_destroy(&t->moved);
	input_close(&t->in);
}

struct tail_array *tail_array_at(struct cpuprofile_tail *t, enum tail_kind kind,
				 uint64_t key_at)
{
	struct tail_array *a = &t->arrays[kind];
	await(t, &a->settled);
	return t->running && a->whole && a->key_at == key_at ? a : NULL;
}

void tail_free(struct cpuprofile_tail *t)
{
	atomic_store(&t->stop, true);
	tail_wait(t);
	for (int k = 0; k < TAIL_KINDS; k++)
		FREE_ALL(t->arrays[k].ids, t->arrays[k].values);
	memset(t->arrays, 0, sizeof(t->arrays));
}
