/* The xsbug protocol parser (xsbug.h): a byte-at-a-time state machine for
 * tags, with a tight loop for sample text, folding samples into the
 * distinct stacks of their session as they arrive. */
#include "xsbug.h"

#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "base/util.h"
#include "bounded_timeline.h"

const struct xsbug_limits xsbug_default_limits = {
	.max_element = 64 * 1024,
	.max_attribute = 4096,
	.max_id = (1u << 24) - 1,
	.max_depth = 4096,
	.max_records = 1u << 20,
	.max_sessions = 10000,
	.max_timeline = LIVE_TIMELINE_ENTRIES,
};

#define HOST_ID 0u
#define GC_ID 1u
#define NOT_DIGIT 0xff

struct record {
	uint32_t id;
	char *name;
	char *path; /* NULL for native functions */
	int32_t line;
};

/* Distinct stacks of one session: ids leaf first, in one pool. */
struct stack {
	uint32_t offset, depth;
	double total;   /* the durations of its samples, known so far */
	uint64_t count; /* its samples */
};

struct session {
	uint64_t start, stop;
	bool stopped;
	bool suspended;
	uint64_t suspended_at;
	uint64_t time_suspended; /* between suspends and their resumes */
	uint64_t clock;       /* the time the next delta counts from */
	uint64_t last_time;   /* t_n */

	uint32_t *ids;
	size_t nids, ids_cap;
	struct stack *stacks;
	size_t nstacks, stacks_cap;
	uint32_t *index; /* open addressing over stacks, NO_ID empty */
	size_t index_size;

	/* The newest samples, their entries numbering stacks. */
	struct bounded_timeline timeline;
	size_t nsamples;
};

enum lex_state { IN_TEXT, IN_TAG, IN_SAMPLES };

/* Real engines write attribute values raw (a method named `q"x>` arrives
 * as is): a quote only closes a value when what follows it is the end of
 * the tag or another attribute (` name="`).  Until that is known, the
 * bytes after a quote are the value's, provisionally. */
enum value_state {
	OUTSIDE,       /* between attributes: `>` ends the tag */
	INSIDE,        /* in a value */
	AFTER_QUOTE,   /* a quote: the value may have ended */
	AFTER_SLASH,   /* quote, `/`: only `>` follows an ended value */
	AFTER_SPACE,   /* quote, spaces: a name, or the end, would say so */
	IN_NEXT_NAME,  /* quote, spaces, name characters: `=` next */
	AFTER_EQUALS,  /* … `=`: a quote opens the next value */
};

/* The text of a `<log>` (the program's trace() output) or a `<break>`
 * being read, bounded: a longer one is cut. */
#define MESSAGE_TEXT_MAX 1024

struct message_text {
	bool reading, is_break;
	char *path;
	int32_t line;
	char text[MESSAGE_TEXT_MAX];
	size_t len;
	bool cut;
};

struct xsbug_parser {
	struct xsbug_limits limits;
	enum lex_state state;
	bool failed;
	uint64_t offset; /* bytes consumed, for messages */
	uint64_t generation;

	char *tag; /* `<` … `>` of the element being read */
	size_t tag_len;
	enum value_state value; /* where the tag's attribute values stand */
	char quote;             /* the open value's quote */

	/* The sample being read: field 0 is the delta, then ids. */
	uint64_t number;
	bool digits; /* the number has at least one */
	size_t field;
	uint64_t stack_hash; /* of the ids so far, see hash_step */
	uint64_t delta;
	uint32_t *frames;
	bool sample_bad;

	char *login_name, *login_value;

	struct record *records;
	size_t nrecords, records_cap;
	uint32_t *record_index; /* open addressing by id */
	size_t record_index_size;
	uint64_t records_changed; /* grows with every record set */

	struct session *sessions;
	size_t nsessions, sessions_cap;

	struct message_text message;
	xsbug_message_fn on_message;
	void *on_message_ctx;
};

static uint8_t digit_value[256];

static void init_digits(void)
{
	if (digit_value['1'] == 1)
		return;
	memset(digit_value, NOT_DIGIT, sizeof(digit_value));
	for (int c = '0'; c <= '9'; c++)
		digit_value[c] = (uint8_t)(c - '0');
	for (int c = 'A'; c <= 'Z'; c++)
		digit_value[c] = (uint8_t)(c - 'A' + 10);
	for (int c = 'a'; c <= 'z'; c++)
		digit_value[c] = (uint8_t)(c - 'a' + 10);
}

struct xsbug_parser *xsbug_parser_new(const struct xsbug_limits *limits)
{
	init_digits();
	struct xsbug_parser *p = xcalloc(1, sizeof(*p));
	p->limits = limits ? *limits : xsbug_default_limits;
	if (p->limits.max_timeline < 1)
		p->limits.max_timeline = 1;
	p->tag = xmalloc(p->limits.max_element + 1);
	p->frames = xmalloc((p->limits.max_depth + 1) * sizeof(uint32_t));
	return p;
}

static void session_free(struct session *s)
{
	free(s->ids);
	free(s->stacks);
	free(s->index);
	bounded_timeline_free(&s->timeline);
}

void xsbug_parser_free(struct xsbug_parser *p)
{
	if (!p)
		return;
	for (size_t i = 0; i < p->nrecords; i++) {
		free(p->records[i].name);
		free(p->records[i].path);
	}
	free(p->records);
	free(p->record_index);
	for (size_t i = 0; i < p->nsessions; i++)
		session_free(&p->sessions[i]);
	free(p->sessions);
	free(p->login_name);
	free(p->login_value);
	free(p->message.path);
	free(p->tag);
	free(p->frames);
	free(p);
}

static bool fail(struct xsbug_parser *p, struct load_error *err,
		 const char *what)
{
	p->failed = true;
	return load_fail(err, "byte %" PRIu64 ": %s", p->offset, what);
}

/* ---- profile records -------------------------------------------------- */

static uint32_t *record_slot(const struct xsbug_parser *p, uint32_t id)
{
	size_t mask = p->record_index_size - 1;
	for (size_t i = hash_mix(id) & mask;; i = (i + 1) & mask) {
		uint32_t *slot = &p->record_index[i];
		if (*slot == NO_ID || p->records[*slot].id == id)
			return slot;
	}
}

static const struct record *find_record(const struct xsbug_parser *p,
					uint32_t id)
{
	if (!p->record_index_size)
		return NULL;
	uint32_t r = *record_slot(p, id);
	return r == NO_ID ? NULL : &p->records[r];
}

static void grow_record_index(struct xsbug_parser *p)
{
	free(p->record_index);
	p->record_index_size = p->record_index_size ? p->record_index_size * 2 : 64;
	p->record_index = xmalloc(p->record_index_size * sizeof(uint32_t));
	memset(p->record_index, 0xff, p->record_index_size * sizeof(uint32_t));
	for (size_t r = 0; r < p->nrecords; r++)
		*record_slot(p, p->records[r].id) = (uint32_t)r;
}

/* A record sent again (a new session) replaces the old one's text. */
static void set_record(struct xsbug_parser *p, const struct record *rec)
{
	if ((p->nrecords + 1) * 2 > p->record_index_size)
		grow_record_index(p);
	uint32_t *slot = record_slot(p, rec->id);
	p->records_changed++;
	if (*slot != NO_ID) {
		struct record *old = &p->records[*slot];
		free(old->name);
		free(old->path);
		*old = *rec;
		return;
	}
	GROW(p->records, p->records_cap, p->nrecords + 1);
	*slot = (uint32_t)p->nrecords;
	p->records[p->nrecords++] = *rec;
}

/* ---- tags and attributes ---------------------------------------------- */

/* The three bytes at s encode a UTF-16 surrogate (U+D800…U+DFFF) the
 * way CESU-8 does; high: one of the first half. */
static bool is_surrogate(const unsigned char *s, size_t left, bool high)
{
	return left >= 3 && s[0] == 0xED && (s[2] & 0xC0) == 0x80 &&
	       (high ? (s[1] & 0xF0) == 0xA0 : (s[1] & 0xE0) == 0xA0);
}

/* XS engines send characters outside the basic plane as CESU-8, a
 * surrogate pair of three bytes each (ED A0 BD ED B8 80 for U+1F600):
 * each pair becomes its four-byte UTF-8 form, a surrogate without its
 * pair U+FFFD.  In place: the text only shrinks. */
static void cesu8_to_utf8(char *text)
{
	unsigned char *s = (unsigned char *)text, *out = s;
	size_t len = strlen(text);
	for (size_t i = 0; i < len;) {
		if (!is_surrogate(s + i, len - i, false)) {
			*out++ = s[i++];
			continue;
		}
		if (is_surrogate(s + i, len - i, true) &&
		    is_surrogate(s + i + 3, len - i - 3, false) &&
		    (s[i + 4] & 0xF0) == 0xB0) {
			uint32_t hi = ((s[i + 1] & 0x0Fu) << 6) | (s[i + 2] & 0x3Fu);
			uint32_t lo = ((s[i + 4] & 0x0Fu) << 6) | (s[i + 5] & 0x3Fu);
			uint32_t cp = 0x10000 + (hi << 10) + lo;
			*out++ = (unsigned char)(0xF0 | (cp >> 18));
			*out++ = (unsigned char)(0x80 | ((cp >> 12) & 0x3F));
			*out++ = (unsigned char)(0x80 | ((cp >> 6) & 0x3F));
			*out++ = (unsigned char)(0x80 | (cp & 0x3F));
			i += 6;
		} else {
			memcpy(out, "\xEF\xBF\xBD", 3);
			out += 3;
			i += 3;
		}
	}
	*out = '\0';
}

/* Decodes the XML entities xsbug writes into names and paths, and the
 * CESU-8 real engines write. */
static char *decode_text(const char *s, size_t len)
{
	char *out = xmalloc(len + 1);
	size_t n = 0;
	for (size_t i = 0; i < len;) {
		if (s[i] != '&') {
			out[n++] = s[i++];
			continue;
		}
		static const struct { const char *name; char c; } named[] = {
			{ "&amp;", '&' }, { "&lt;", '<' }, { "&gt;", '>' },
			{ "&quot;", '"' }, { "&apos;", '\'' },
		};
		size_t k;
		for (k = 0; k < ARRAY_LEN(named); k++) {
			size_t nl = strlen(named[k].name);
			if (len - i >= nl && !memcmp(s + i, named[k].name, nl)) {
				out[n++] = named[k].c;
				i += nl;
				break;
			}
		}
		if (k < ARRAY_LEN(named))
			continue;
		/* &#NN; and &#xHH; for one byte; anything else stays as is. */
		char *end;
		unsigned long code = 0;
		if (i + 2 < len && s[i + 1] == '#') {
			bool hex = s[i + 2] == 'x';
			code = strtoul(s + i + 2 + hex, &end, hex ? 16 : 10);
			if (end < s + len && *end == ';' && code > 0 && code < 256) {
				out[n++] = (char)code;
				i = (size_t)(end - s) + 1;
				continue;
			}
		}
		out[n++] = s[i++];
	}
	out[n] = '\0';
	cesu8_to_utf8(out);
	return out;
}

struct attribute {
	const char *name;
	size_t name_len;
	const char *value;
	size_t value_len;
};

#define MAX_ATTRIBUTES 8

struct element {
	const char *name;
	size_t name_len;
	bool closing; /* </name> */
	struct attribute attrs[MAX_ATTRIBUTES];
	size_t nattrs;
};

static bool is_space(char c)
{
	return c == ' ' || c == '\t' || c == '\r' || c == '\n';
}

static bool is_name_char(char c)
{
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
	       (c >= '0' && c <= '9') || c == '-' || c == '_' || c == ':' ||
	       c == '.';
}

/* Does the quote at s[i] end its value (enum value_state): is it followed
 * by the end of the tag, or by spaces and `name="`? */
static bool closes_value(const char *s, size_t len, size_t i)
{
	size_t j = i + 1;
	if (j == len || (s[j] == '/' && j + 1 == len))
		return true;
	while (j < len && is_space(s[j]))
		j++;
	if (j == i + 1)
		return false;
	if (j == len || (s[j] == '/' && j + 1 == len))
		return true;
	size_t name = j;
	while (j < len && is_name_char(s[j]))
		j++;
	return j > name && j + 1 < len && s[j] == '=' &&
	       (s[j + 1] == '"' || s[j + 1] == '\'');
}

/* Splits "<name a="v" …/>" (without the brackets); false when it is not
 * well formed.  Attributes past MAX_ATTRIBUTES are not needed. */
static bool split_element(const char *s, size_t len, struct element *e)
{
	size_t i = 0;
	e->nattrs = 0;
	e->closing = len > 0 && s[0] == '/';
	i += e->closing;
	e->name = s + i;
	while (i < len && is_name_char(s[i]))
		i++;
	e->name_len = (size_t)(s + i - e->name);
	if (!e->name_len)
		return false;
	for (;;) {
		while (i < len && is_space(s[i]))
			i++;
		if (i == len || (s[i] == '/' && i + 1 == len))
			return true;
		struct attribute a = { .name = s + i };
		while (i < len && is_name_char(s[i]))
			i++;
		a.name_len = (size_t)(s + i - a.name);
		if (!a.name_len || i + 1 >= len || s[i] != '=' ||
		    (s[i + 1] != '"' && s[i + 1] != '\''))
			return false;
		char quote = s[i + 1];
		i += 2;
		a.value = s + i;
		while (i < len && !(s[i] == quote && closes_value(s, len, i)))
			i++;
		if (i == len)
			return false;
		a.value_len = (size_t)(s + i - a.value);
		i++;
		if (e->nattrs < MAX_ATTRIBUTES)
			e->attrs[e->nattrs++] = a;
	}
}

static bool name_is(const char *s, size_t len, const char *want)
{
	return len == strlen(want) && !memcmp(s, want, len);
}

static const struct attribute *attribute(const struct element *e,
					 const char *name)
{
	for (size_t i = 0; i < e->nattrs; i++)
		if (name_is(e->attrs[i].name, e->attrs[i].name_len, name))
			return &e->attrs[i];
	return NULL;
}

static bool parse_decimal(const struct attribute *a, uint64_t max,
			  uint64_t *out)
{
	if (!a || !a->value_len || a->value_len > 20)
		return false;
	uint64_t v = 0;
	for (size_t i = 0; i < a->value_len; i++) {
		char c = a->value[i];
		if (c < '0' || c > '9' || v > (max - (uint64_t)(c - '0')) / 10)
			return false;
		v = v * 10 + (uint64_t)(c - '0');
	}
	*out = v;
	return true;
}

/* `@` and 16 hex digits: a time in microseconds. */
static bool parse_time(const struct attribute *a, uint64_t *out)
{
	if (!a || a->value_len != 17 || a->value[0] != '@')
		return false;
	uint64_t v = 0;
	for (size_t i = 1; i < 17; i++) {
		uint8_t d = digit_value[(uint8_t)a->value[i]];
		if (d > 15)
			return false;
		v = v * 16 + d;
	}
	*out = v;
	return true;
}

/* ---- sessions and samples --------------------------------------------- */

static struct session *current(struct xsbug_parser *p)
{
	if (!p->nsessions || p->sessions[p->nsessions - 1].stopped)
		return NULL;
	return &p->sessions[p->nsessions - 1];
}

/* Times from a peer can be anything: they stop at the largest. */
static uint64_t add_saturated(uint64_t a, uint64_t b)
{
	return b > UINT64_MAX - a ? UINT64_MAX : a + b;
}

/* A profile cannot end before it began, nor before its samples; the
 * times come from a clock of the engine's that a peer can send wrong. */
static bool stop_in_order(struct xsbug_parser *p, const struct session *s,
			  uint64_t stop, struct load_error *err)
{
	if (stop < s->start)
		return fail(p, err, "profile stop time before its start time");
	if (stop < s->last_time)
		return fail(p, err, "profile stop time before its last sample");
	return true;
}

static bool on_time(struct xsbug_parser *p, const struct element *e,
		    struct load_error *err)
{
	uint64_t t;
	const struct attribute *name = attribute(e, "name");
	if (!name || !parse_time(attribute(e, "value"), &t))
		return true; /* malformed: skipped like any garbage */
	struct session *s = current(p);
	if (name_is(name->value, name->value_len, "start")) {
		if (s) { /* a start without stop: the old one ends here */
			if (!stop_in_order(p, s, t, err))
				return false;
			s->stopped = true;
			s->stop = t;
		}
		if (p->nsessions >= p->limits.max_sessions)
			return fail(p, err, "too many profile sessions");
		GROW(p->sessions, p->sessions_cap, p->nsessions + 1);
		p->sessions[p->nsessions++] = (struct session){
			.start = t, .clock = t, .stop = t,
			.timeline = BOUNDED_TIMELINE_INIT };
	} else if (!s) {
		return true;
	} else if (name_is(name->value, name->value_len, "stop")) {
		/* Stopped while suspended (at a break): the session ended where
		 * it was suspended, the wait is no one's time. */
		if (s->suspended && t > s->suspended_at)
			t = s->suspended_at;
		if (!stop_in_order(p, s, t, err))
			return false;
		s->stop = t;
		s->stopped = true;
	} else if (name_is(name->value, name->value_len, "suspend")) {
		/* Time suspended belongs to no sample. */
		s->suspended = true;
		s->suspended_at = t;
	} else if (name_is(name->value, name->value_len, "resume")) {
		/* The engine leaves the suspended time out of the next delta
		 * (xsProfile.c, fxResumeProfiler): the clock skips it. */
		if (s->suspended && t > s->suspended_at) {
			uint64_t away = t - s->suspended_at;
			s->time_suspended = add_saturated(s->time_suspended, away);
			s->clock = add_saturated(s->clock, away);
		}
		s->suspended = false;
	}
	p->generation++;
	return true;
}

static bool on_record(struct xsbug_parser *p, const struct element *e,
		      struct load_error *err)
{
	uint64_t id, line;
	const struct attribute *name = attribute(e, "name");
	if (!name || !parse_decimal(attribute(e, "value"), UINT64_MAX, &id))
		return true;
	if (id > p->limits.max_id)
		return fail(p, err, "profile record id out of range");
	if (p->nrecords >= p->limits.max_records && !find_record(p, (uint32_t)id))
		return fail(p, err, "too many profile records");
	const struct attribute *path = attribute(e, "path");
	struct record rec = {
		.id = (uint32_t)id,
		.name = decode_text(name->value, name->value_len),
		.path = path ? decode_text(path->value, path->value_len) : NULL,
		.line = parse_decimal(attribute(e, "line"), INT32_MAX, &line)
				? (int32_t)line : -1,
	};
	set_record(p, &rec);
	p->generation++;
	return true;
}

/* Stacks are hashed id by id as they are read (hashing the finished
 * array again cost a third of the ingest time). */
#define STACK_HASH_SEED 0x5851f42d4c957f2dULL

static inline uint64_t hash_step(uint64_t h, uint32_t id)
{
	return (h ^ id) * 0x9e3779b97f4a7c15ULL;
}

static uint64_t hash_ids(const uint32_t *ids, size_t n)
{
	uint64_t h = STACK_HASH_SEED;
	for (size_t i = 0; i < n; i++)
		h = hash_step(h, ids[i]);
	return hash_mix(h);
}

static uint32_t *stack_slot(const struct session *s, const uint32_t *ids,
			    size_t depth, uint64_t hash)
{
	size_t mask = s->index_size - 1;
	for (size_t i = hash & mask;; i = (i + 1) & mask) {
		uint32_t *slot = &s->index[i];
		if (*slot == NO_ID)
			return slot;
		const struct stack *st = &s->stacks[*slot];
		if (st->depth == depth &&
		    !memcmp(s->ids + st->offset, ids, depth * sizeof(uint32_t)))
			return slot;
	}
}

static void grow_stack_index(struct session *s)
{
	free(s->index);
	s->index_size = s->index_size ? s->index_size * 2 : 256;
	s->index = xmalloc(s->index_size * sizeof(uint32_t));
	memset(s->index, 0xff, s->index_size * sizeof(uint32_t));
	for (size_t k = 0; k < s->nstacks; k++) {
		const struct stack *st = &s->stacks[k];
		const uint32_t *ids = s->ids + st->offset;
		*stack_slot(s, ids, st->depth, hash_ids(ids, st->depth)) =
			(uint32_t)k;
	}
}

static uint32_t intern_stack(struct session *s, const uint32_t *ids,
			     size_t depth, uint64_t hash)
{
	if ((s->nstacks + 1) * 2 > s->index_size)
		grow_stack_index(s);
	uint32_t *slot = stack_slot(s, ids, depth, hash);
	if (*slot != NO_ID)
		return *slot;
	GROW(s->ids, s->ids_cap, s->nids + depth);
	memcpy(s->ids + s->nids, ids, depth * sizeof(uint32_t));
	GROW(s->stacks, s->stacks_cap, s->nstacks + 1);
	s->stacks[s->nstacks] = (struct stack){ .offset = (uint32_t)s->nids,
						.depth = (uint32_t)depth };
	s->nids += depth;
	*slot = (uint32_t)s->nstacks;
	return (uint32_t)s->nstacks++;
}

/* One whole sample: it lasts the delta it carries, the time its stack
 * just ran (time-rules.md: the engine samples at the first check after
 * its deadline). */
static void fold_sample(struct xsbug_parser *p, uint64_t delta,
			const uint32_t *ids, size_t depth, uint64_t hash)
{
	struct session *s = current(p);
	if (!s)
		return; /* samples outside start…stop count for nothing */
	/* Saturated: a delta that wraps the clock is no time at all. */
	if (delta > UINT64_MAX - s->clock)
		delta = UINT64_MAX - s->clock;
	s->clock = s->last_time = s->clock + delta;
	uint32_t stack = intern_stack(s, ids, depth, hash);
	s->stacks[stack].count++;
	s->stacks[stack].total += (double)delta;
	bounded_timeline_add(&s->timeline, stack, (double)delta, p->limits.max_timeline);
	s->nsamples++;
	p->generation++;
}

static void reset_sample(struct xsbug_parser *p)
{
	p->number = 0;
	p->digits = false;
	p->field = 0;
	p->sample_bad = false;
	p->stack_hash = STACK_HASH_SEED;
}

/* A number ends at `,`, `.` or the end of the samples.  False when a
 * limit is hit. */
static bool end_field(struct xsbug_parser *p, struct load_error *err)
{
	if (!p->digits) {
		p->sample_bad = true;
		return true;
	}
	if (p->field == 0) {
		p->delta = p->number;
	} else {
		if (p->number > p->limits.max_id)
			return fail(p, err, "profile record id out of range in a sample");
		if (p->field > p->limits.max_depth)
			return fail(p, err, "sample stack deeper than the limit");
		p->frames[p->field - 1] = (uint32_t)p->number;
		p->stack_hash = hash_step(p->stack_hash, (uint32_t)p->number);
	}
	p->field++;
	p->number = 0;
	p->digits = false;
	return true;
}

/* `DELTA,ID,…,0` complete: a stack must end with the host. */
static bool end_sample(struct xsbug_parser *p, struct load_error *err)
{
	if ((p->digits || p->field) && !end_field(p, err))
		return false;
	size_t depth = p->field ? p->field - 1 : 0;
	if (!p->sample_bad && depth >= 1 && p->frames[depth - 1] == HOST_ID)
		fold_sample(p, p->delta, p->frames, depth, hash_mix(p->stack_hash));
	reset_sample(p);
	return true;
}

/* Sample text up to the next `<`; returns bytes used, or SIZE_MAX when a
 * limit is hit. */
static size_t read_samples(struct xsbug_parser *p, const uint8_t *b,
			   size_t len, struct load_error *err)
{
	/* Base-36 digits past this would overflow 64 bits. */
	const uint64_t max_before_digit = (UINT64_MAX - 35) / 36;
	/* The number being read stays in a register between separators. */
	uint64_t number = p->number;
	bool digits = p->digits;
	for (size_t i = 0; i < len; i++) {
		uint8_t c = b[i];
		uint8_t d = digit_value[c];
		if (d != NOT_DIGIT) {
			if (number > max_before_digit)
				p->sample_bad = true;
			else
				number = number * 36 + d;
			digits = true;
			continue;
		}
		/* The common case, an id within the limits, without a call. */
		if (c == ',' && digits && p->field &&
		    number <= p->limits.max_id && p->field <= p->limits.max_depth) {
			p->frames[p->field - 1] = (uint32_t)number;
			p->stack_hash = hash_step(p->stack_hash, (uint32_t)number);
			p->field++;
			number = 0;
			digits = false;
			continue;
		}
		p->number = number;
		p->digits = digits;
		bool ok = true;
		if (c == ',')
			ok = end_field(p, err);
		else if (c == '.')
			ok = end_sample(p, err);
		else if (c == '<') {
			ok = end_sample(p, err);
			p->state = IN_TEXT;
			if (ok)
				return i; /* the `<` is the next tag's */
		} else
			p->sample_bad = true;
		if (!ok) {
			p->offset += i;
			return SIZE_MAX;
		}
		number = p->number;
		digits = p->digits;
	}
	p->number = number;
	p->digits = digits;
	return len;
}

static bool on_login(struct xsbug_parser *p, const struct element *e)
{
	const struct attribute *name = attribute(e, "name");
	const struct attribute *value = attribute(e, "value");
	free(p->login_name);
	free(p->login_value);
	p->login_name = name ? decode_text(name->value, name->value_len)
			     : xstrdup("");
	p->login_value = value ? decode_text(value->value, value->value_len)
			       : xstrdup("");
	p->generation++;
	return true;
}

static bool attributes_fit(const struct xsbug_parser *p, const struct element *e)
{
	for (size_t i = 0; i < e->nattrs; i++)
		if (e->attrs[i].value_len > p->limits.max_attribute)
			return false;
	return true;
}

/* ---- logs and breaks --------------------------------------------------- */

void xsbug_parser_on_message(struct xsbug_parser *p, xsbug_message_fn fn,
			     void *ctx)
{
	p->on_message = fn;
	p->on_message_ctx = ctx;
}

static void keep_message_byte(struct message_text *m, uint8_t c)
{
	if (m->len < sizeof(m->text))
		m->text[m->len++] = (char)c;
	else
		m->cut = true;
}

static void deliver_message(struct xsbug_parser *p)
{
	struct message_text *m = &p->message;
	m->reading = false;
	if (!p->on_message)
		return;
	char *text = decode_text(m->text, m->len);
	size_t len = strlen(text);
	while (len && is_space(text[len - 1]))
		text[--len] = '\0';
	struct xsbug_message msg = { .is_break = m->is_break, .text = text,
				     .cut = m->cut, .path = m->path,
				     .line = m->line };
	p->on_message(p->on_message_ctx, &msg);
	free(text);
}

/* `<log path=… line=…>TEXT</log>`, `<break path=… line=…>TEXT</break>`:
 * the text is read up to the closing tag (or at once when empty). */
static void begin_message(struct xsbug_parser *p, const struct element *e)
{
	struct message_text *m = &p->message;
	const struct attribute *path = attribute(e, "path");
	uint64_t line;
	free(m->path);
	m->path = path ? decode_text(path->value, path->value_len) : NULL;
	m->line = parse_decimal(attribute(e, "line"), INT32_MAX, &line)
			? (int32_t)line : -1;
	m->is_break = e->name_len == strlen("break");
	m->reading = true;
	m->len = 0;
	m->cut = false;
	if (p->tag_len && p->tag[p->tag_len - 1] == '/')
		deliver_message(p);
}

static void end_message(struct xsbug_parser *p, const struct element *e)
{
	if (p->message.reading &&
	    name_is(e->name, e->name_len, p->message.is_break ? "break" : "log"))
		deliver_message(p);
}

/* A whole tag is in p->tag (without `<` and `>`). */
static bool on_tag(struct xsbug_parser *p, struct load_error *err)
{
	struct element e;
	if (!split_element(p->tag, p->tag_len, &e))
		return true; /* garbage: skipped */
	if (!attributes_fit(p, &e))
		return fail(p, err, "attribute value longer than the limit");
	if (e.closing) {
		end_message(p, &e);
		return true;
	}
	if (name_is(e.name, e.name_len, "log") ||
	    name_is(e.name, e.name_len, "break"))
		begin_message(p, &e);
	if (name_is(e.name, e.name_len, "ps")) {
		bool empty = p->tag_len && p->tag[p->tag_len - 1] == '/';
		if (!empty) {
			p->state = IN_SAMPLES;
			reset_sample(p);
		}
		return true;
	}
	if (name_is(e.name, e.name_len, "pt"))
		return on_time(p, &e, err);
	if (name_is(e.name, e.name_len, "pr"))
		return on_record(p, &e, err);
	if (name_is(e.name, e.name_len, "login"))
		return on_login(p, &e);
	return true; /* any other element: not ours */
}

/* The value state after byte c (enum value_state); *ends: c is the `>`
 * that ends the tag. */
static enum value_state next_value_state(enum value_state v, char quote,
					 char c, bool *ends)
{
	*ends = false;
	switch (v) {
	case OUTSIDE:
		*ends = c == '>';
		return c == '"' || c == '\'' ? INSIDE : OUTSIDE;
	case AFTER_QUOTE:
	case AFTER_SLASH:
		if (c == '>') {
			*ends = true;
			return OUTSIDE;
		}
		if (c == '/' && v == AFTER_QUOTE)
			return AFTER_SLASH;
		if (is_space(c) && v == AFTER_QUOTE)
			return AFTER_SPACE;
		break;
	case AFTER_SPACE:
		if (is_space(c))
			return AFTER_SPACE;
		if (is_name_char(c))
			return IN_NEXT_NAME;
		if (c == '/')
			return AFTER_SLASH;
		if (c == '>') {
			*ends = true;
			return OUTSIDE;
		}
		break;
	case IN_NEXT_NAME:
		if (is_name_char(c))
			return IN_NEXT_NAME;
		if (c == '=')
			return AFTER_EQUALS;
		break;
	case AFTER_EQUALS:
		if (c == '"' || c == '\'')
			return INSIDE; /* the caller takes the new quote */
		break;
	case INSIDE:
		break;
	}
	return c == quote ? AFTER_QUOTE : INSIDE; /* still the value's */
}

static bool read_tag_byte(struct xsbug_parser *p, uint8_t c,
			  struct load_error *err)
{
	/* Never between attributes: garbage before it, start again. */
	if (c == '<' && p->value == OUTSIDE) {
		p->tag_len = 0;
		return true;
	}
	bool ends;
	enum value_state was = p->value;
	p->value = next_value_state(was, p->quote, (char)c, &ends);
	if ((was == OUTSIDE || was == AFTER_EQUALS) && (c == '"' || c == '\''))
		p->quote = (char)c;
	if (ends) {
		p->state = IN_TEXT;
		return on_tag(p, err);
	}
	if (p->tag_len >= p->limits.max_element)
		return fail(p, err, "element longer than the limit");
	p->tag[p->tag_len++] = (char)c;
	return true;
}

bool xsbug_parser_feed(struct xsbug_parser *p, const uint8_t *bytes,
		       size_t len, struct load_error *err)
{
	if (p->failed)
		return load_fail(err, "the stream already failed");
	size_t i = 0;
	while (i < len) {
		if (p->state == IN_SAMPLES) {
			size_t used = read_samples(p, bytes + i, len - i, err);
			if (used == SIZE_MAX)
				return false;
			i += used;
			p->offset += used;
			continue;
		}
		uint8_t c = bytes[i++];
		if (p->state == IN_TEXT) {
			if (c == '<') {
				p->state = IN_TAG;
				p->tag_len = 0;
				p->value = OUTSIDE;
			} else if (p->message.reading) {
				keep_message_byte(&p->message, c);
			}
		} else if (!read_tag_byte(p, c, err)) {
			return false;
		}
		p->offset++;
	}
	return true;
}

bool xsbug_parser_end(struct xsbug_parser *p)
{
	if (p->state == IN_TEXT)
		return true;
	p->state = IN_TEXT;
	return false;
}

const char *xsbug_login_name(const struct xsbug_parser *p)
{
	return p->login_name;
}

const char *xsbug_login_value(const struct xsbug_parser *p)
{
	return p->login_value;
}

size_t xsbug_session_count(const struct xsbug_parser *p)
{
	return p->nsessions;
}

bool xsbug_session_stopped(const struct xsbug_parser *p, size_t n)
{
	return n >= 1 && n <= p->nsessions && p->sessions[n - 1].stopped;
}

size_t xsbug_session_samples(const struct xsbug_parser *p, size_t n)
{
	return n >= 1 && n <= p->nsessions ? p->sessions[n - 1].nsamples : 0;
}

bool xsbug_profiling(const struct xsbug_parser *p)
{
	return p->nsessions && !p->sessions[p->nsessions - 1].stopped;
}

uint64_t xsbug_generation(const struct xsbug_parser *p)
{
	return p->generation;
}

size_t xsbug_pick_session(const struct xsbug_parser *p, int session,
			  struct load_error *err)
{
	if (!p->nsessions) {
		load_fail(err, "no profile in the stream (no <pt name=\"start\">)");
		return 0;
	}
	if (session >= 1) {
		if ((size_t)session > p->nsessions) {
			load_fail(err, "no session %d: the stream has %zu", session,
				  p->nsessions);
			return 0;
		}
		return (size_t)session;
	}
	/* The last that stopped with samples: an engine told to start at a
	 * break (XS 17.9) opens a session that never gets one. */
	for (size_t n = p->nsessions; n >= 1; n--)
		if (p->sessions[n - 1].stopped && p->sessions[n - 1].nsamples)
			return n;
	for (size_t n = p->nsessions; n >= 1; n--)
		if (p->sessions[n - 1].nsamples)
			return n;
	return p->nsessions;
}

/* ---- models ----------------------------------------------------------- */

static enum frame_kind record_kind(uint32_t id, const struct record *rec)
{
	if (id == HOST_ID)
		return KIND_ROOT;
	if (id == GC_ID)
		return KIND_GC;
	return rec && rec->path ? KIND_JS : KIND_NATIVE;
}

static uint32_t frame_of(const struct xsbug_parser *p, struct model *m,
			 uint32_t id)
{
	const struct record *rec = find_record(p, id);
	char unknown[48];
	const char *name = rec ? rec->name : unknown;
	if (!rec)
		snprintf(unknown, sizeof(unknown), "(unknown %" PRIu32 ")", id);
	const char *path = rec && rec->path ? rec->path : "";
	struct frame f = {
		.name = model_string(m, name, strlen(name)),
		.url = model_string(m, path, strlen(path)),
		.extra = STR_NONE,
		.line = rec ? rec->line : -1,
		.column = -1,
		.kind = (uint8_t)record_kind(id, rec),
	};
	return model_intern_frame(m, &f);
}

/* Does the timeline still hold every sample, none having left it? */
static bool timeline_exact(const struct session *s)
{
	return bounded_timeline_exact(&s->timeline);
}

/* The timeline: every sample with its duration, on its stack's leaf. */
static void adopt_timeline(const struct session *s, const uint32_t *leaf,
			   struct model *m)
{
	size_t n = s->timeline.n;
	uint32_t *nodes = xmalloc((n + 1) * sizeof(uint32_t));
	double *durations = xmalloc((n + 1) * sizeof(double));
	for (size_t i = 0; i < n; i++) {
		const struct timeline_entry *e = bounded_timeline_at(&s->timeline, i);
		nodes[i] = leaf[e->stack];
		durations[i] = e->duration;
	}
	model_adopt_samples(m, nodes, durations, n);
}

/* The first value type of every xsbug model; totals models (live
 * snapshots, without a timeline to count from) carry sample counts as the
 * second, so that `u` can show them. */
enum { TYPE_TIME, TYPE_COUNT };

static double summed_durations(const struct session *s)
{
	double sum = 0;
	for (size_t k = 0; k < s->nstacks; k++)
		sum += s->stacks[k].total;
	return sum;
}

/* A stopped session lasts from start to stop, less the time it was
 * suspended (time-rules.md); a running one until its last sample: the
 * sum of its samples.  stop_in_order keeps both from going negative. */
static double session_duration(const struct session *s)
{
	if (!s->stopped)
		return summed_durations(s);
	uint64_t span = s->stop - s->start;
	return (double)(span > s->time_suspended ? span - s->time_suspended : 0);
}

static void set_times(const struct session *s, struct model *m)
{
	m->start_time = (double)s->start;
	m->end_time = s->stopped ? (double)s->stop : (double)s->last_time;
	m->duration = session_duration(s);
	/* Every sample, whether the timeline holds it or not. */
	m->summed_samples = s->nsamples;
}

/* Each distinct stack's summed duration and count on its leaf node; two
 * stacks whose functions look alike (the same name and place under
 * different ids) share one, so the values are summed. */
static void set_stack_values(const struct session *s, const uint32_t *leaf,
			     struct model *m)
{
	for (size_t k = 0; k < s->nstacks; k++) {
		model_set_node_value(m, leaf[k], TYPE_TIME, 0);
		model_set_node_value(m, leaf[k], TYPE_COUNT, 0);
	}
	for (size_t k = 0; k < s->nstacks; k++) {
		model_add_node_value(m, leaf[k], TYPE_TIME, s->stacks[k].total);
		model_add_node_value(m, leaf[k], TYPE_COUNT,
				     (double)s->stacks[k].count);
	}
}

/* With the timeline (while it holds every sample, when `timeline` is
 * asked for), or with each stack's totals; `leaf` (nstacks entries, or
 * NULL) receives each stack's leaf node.  A finished model (a file,
 * --report, --export) is the whole session: once samples have left the
 * window, a timeline of the last ones would make --range, time-order
 * graphs and exports of samples silently cover only those, so it has
 * none.  The live follower adds the window itself, saying so. */
static void build_model(const struct xsbug_parser *p, size_t n,
			struct model *m, bool timeline, uint32_t *leaf)
{
	const struct session *s = &p->sessions[n - 1];
	timeline = timeline && timeline_exact(s);
	model_init(m, "xsbug");
	model_add_sample_type(m, "time", "us");
	if (!timeline)
		model_add_sample_type(m, "samples", "count");
	/* Every record becomes a function, sampled or not, as in xsbug. */
	for (size_t r = 0; r < p->nrecords; r++)
		frame_of(p, m, p->records[r].id);
	uint32_t *leaves = leaf ? leaf : xmalloc((s->nstacks + 1) * sizeof(uint32_t));
	uint32_t *frames = xmalloc((p->limits.max_depth + 1) * sizeof(uint32_t));
	for (size_t k = 0; k < s->nstacks; k++) {
		const struct stack *st = &s->stacks[k];
		for (uint32_t d = 0; d < st->depth; d++)
			frames[d] = frame_of(p, m, s->ids[st->offset + d]);
		leaves[k] = model_add_stack(m, frames, st->depth);
	}
	free(frames);
	/* The order the divided rule walks callees in: the samples'. */
	m->first_leaves = xmalloc((s->nstacks + 1) * sizeof(uint32_t));
	memcpy(m->first_leaves, leaves, s->nstacks * sizeof(uint32_t));
	m->nfirst_leaves = s->nstacks;
	if (timeline)
		adopt_timeline(s, leaves, m);
	else
		set_stack_values(s, leaves, m);
	if (leaves != leaf)
		free(leaves);
	set_times(s, m);
	uint32_t cycle;
	model_finish(m, &cycle); /* merged stacks form a tree: no cycle */
}

void xsbug_session_model(const struct xsbug_parser *p, size_t n,
			 struct model *m)
{
	build_model(p, n, m, true, NULL);
}

size_t xsbug_session_bytes(const struct xsbug_parser *p, size_t n)
{
	const struct session *s = &p->sessions[n - 1];
	return s->ids_cap * sizeof(*s->ids) + s->stacks_cap * sizeof(*s->stacks) +
	       s->index_size * sizeof(*s->index) +
	       s->timeline.cap * sizeof(*s->timeline.entries);
}

/* ---- following a session that grows ------------------------------------ */

struct xsbug_follower {
	const struct xsbug_parser *source;
	size_t session;           /* the source's session copied (1-based) */
	uint64_t records_changed; /* the source's, when its records were copied */
	/* The source's records and that one session's stacks, with their
	 * totals and counts, and its timeline (the newest samples); never
	 * fed. */
	struct xsbug_parser *copy;
	bool reshaped;            /* new stacks or records since `built` */
	const struct model *built; /* the model last built, which `leaf` maps */
	uint32_t *leaf;           /* per stack of `built`, its leaf node */
};

struct xsbug_follower *xsbug_follower_new(void)
{
	return xcalloc(1, sizeof(struct xsbug_follower));
}

void xsbug_follower_free(struct xsbug_follower *f)
{
	if (!f)
		return;
	xsbug_parser_free(f->copy);
	free(f->leaf);
	free(f);
}

/* Another parser or another session: everything is copied again (the
 * caller then copies the records). */
static void restart(struct xsbug_follower *f, const struct xsbug_parser *p,
		    size_t n)
{
	xsbug_parser_free(f->copy);
	f->copy = xsbug_parser_new(&p->limits);
	f->copy->sessions = xcalloc(1, sizeof(struct session));
	f->copy->nsessions = f->copy->sessions_cap = 1;
	f->source = p;
	f->session = n;
}

static char *copy_text(const char *s)
{
	return s ? xstrdup(s) : NULL;
}

static void copy_records(struct xsbug_follower *f, const struct xsbug_parser *p)
{
	struct xsbug_parser *c = f->copy;
	for (size_t r = 0; r < c->nrecords; r++) {
		free(c->records[r].name);
		free(c->records[r].path);
	}
	c->nrecords = 0;
	if (c->record_index)
		memset(c->record_index, 0xff, c->record_index_size * sizeof(uint32_t));
	for (size_t r = 0; r < p->nrecords; r++) {
		struct record rec = p->records[r];
		rec.name = copy_text(rec.name);
		rec.path = copy_text(rec.path);
		set_record(c, &rec);
	}
	f->records_changed = p->records_changed;
	f->reshaped = true;
}


/* Stacks are only ever appended: the new ones and their ids are copied,
 * and every stack's total and count. */
static void copy_session(struct xsbug_follower *f, const struct session *from)
{
	struct session *to = &f->copy->sessions[0];
	if (from->nstacks) { /* before the first sample it has no arrays */
		GROW(to->ids, to->ids_cap, from->nids);
		memcpy(to->ids + to->nids, from->ids + to->nids,
		       (from->nids - to->nids) * sizeof(uint32_t));
		GROW(to->stacks, to->stacks_cap, from->nstacks);
		memcpy(to->stacks, from->stacks, from->nstacks * sizeof(struct stack));
		f->reshaped |= to->nstacks != from->nstacks;
		to->nids = from->nids;
		to->nstacks = from->nstacks;
	}
	to->start = from->start;
	to->stop = from->stop;
	to->stopped = from->stopped;
	to->time_suspended = from->time_suspended;
	to->last_time = from->last_time;
	to->nsamples = from->nsamples;
	/* Only the samples new since: the window slides in the copy too. */
	bounded_timeline_follow(&to->timeline, &from->timeline,
				f->copy->limits.max_timeline);
}

bool xsbug_follow(struct xsbug_follower *f, const struct xsbug_parser *p)
{
	return xsbug_follow_session(f, p, p->nsessions);
}

bool xsbug_follow_session(struct xsbug_follower *f,
			  const struct xsbug_parser *p, size_t n)
{
	if (n < 1 || n > p->nsessions)
		return false;
	bool other = f->source != p || f->session != n;
	if (other)
		restart(f, p, n);
	if (other || f->records_changed != p->records_changed)
		copy_records(f, p);
	copy_session(f, &p->sessions[n - 1]);
	return true;
}

/* The copied window's samples, for the strip and ranges: those that
 * left it leave the model, those it lacks are appended (the values are
 * then set again from the stacks' exact sums of every sample). */
static void append_timeline(const struct session *s, const uint32_t *leaf,
			    struct model *m)
{
	bounded_timeline_to_model(&s->timeline, leaf, m, m->nsamples);
}

bool xsbug_follower_model(struct xsbug_follower *f, struct model *shown,
			  struct model *fresh)
{
	const struct session *s = &f->copy->sessions[0];
	if (shown && shown == f->built && !f->reshaped) {
		append_timeline(s, f->leaf, shown);
		set_stack_values(s, f->leaf, shown);
		set_times(s, shown);
		return false;
	}
	f->leaf = xrealloc(f->leaf, (s->nstacks + 1) * sizeof(uint32_t));
	build_model(f->copy, 1, fresh, false, f->leaf);
	append_timeline(s, f->leaf, fresh);
	set_stack_values(s, f->leaf, fresh);
	f->built = fresh;
	f->reshaped = false;
	return true;
}

/* ---- captures --------------------------------------------------------- */

static void write_escaped(FILE *out, const char *s)
{
	for (; *s; s++) {
		switch (*s) {
		case '&': fputs("&amp;", out); break;
		case '<': fputs("&lt;", out); break;
		case '>': fputs("&gt;", out); break;
		case '"': fputs("&quot;", out); break;
		default: fputc(*s, out);
		}
	}
}

static void write_base36(FILE *out, uint64_t v)
{
	char buf[16];
	size_t n = 0;
	do {
		buf[n++] = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ"[v % 36];
		v /= 36;
	} while (v);
	while (n)
		fputc(buf[--n], out);
}

static void write_records(const struct xsbug_parser *p, FILE *out)
{
	for (size_t r = 0; r < p->nrecords; r++) {
		const struct record *rec = &p->records[r];
		fputs("\r\n<xsbug><pr name=\"", out);
		write_escaped(out, rec->name);
		fprintf(out, "\" value=\"%" PRIu32 "\"", rec->id);
		if (rec->path) {
			fputs(" path=\"", out);
			write_escaped(out, rec->path);
			fputc('"', out);
		}
		if (rec->line >= 0)
			fprintf(out, " line=\"%" PRId32 "\"", rec->line);
		fputs("/></xsbug>\r\n", out);
	}
}

/* Durations are sums of whole µs; past 2^64 (a hostile peer's) they
 * stop at the largest. */
static uint64_t whole_micros(double v)
{
	return v >= 0x1p64 ? UINT64_MAX : (uint64_t)v;
}

static void write_sample(const struct session *s, uint32_t stack,
			 uint64_t delta, size_t i, FILE *out)
{
	const size_t per_message = 8;
	fputs(i % per_message ? "." : "\r\n<xsbug><ps>", out);
	write_base36(out, delta);
	const struct stack *st = &s->stacks[stack];
	for (uint32_t d = 0; d < st->depth; d++) {
		fputc(',', out);
		write_base36(out, s->ids[st->offset + d]);
	}
	if (i % per_message == per_message - 1 || i + 1 == s->nsamples)
		fputs("</ps></xsbug>\r\n", out);
}

/* A sample's delta is its duration; a suspended stretch, which no sample
 * owns, drops out of the capture and of its duration alike.  Once
 * samples have left the timeline's window their order is lost: each
 * stack's samples are written together instead, their integer deltas
 * summing to its exact total. */
static void write_samples(const struct session *s, FILE *out)
{
	size_t i = 0;
	if (timeline_exact(s)) {
		for (; i < s->timeline.n; i++) {
			const struct timeline_entry *e = bounded_timeline_at(&s->timeline, i);
			write_sample(s, e->stack, whole_micros(e->duration), i, out);
		}
		return;
	}
	for (uint32_t k = 0; k < s->nstacks; k++) {
		uint64_t total = whole_micros(s->stacks[k].total);
		uint64_t count = s->stacks[k].count;
		for (uint64_t c = 0; c < count; c++, i++)
			write_sample(s, k, total / count + (c < total % count), i,
				     out);
	}
}

bool xsbug_write_session(const struct xsbug_parser *p, size_t n, FILE *out)
{
	const struct session *s = &p->sessions[n - 1];
	fputs("\r\n<xsbug><login name=\"", out);
	write_escaped(out, p->login_name ? p->login_name : "wprof-tui");
	fputs("\" value=\"", out);
	write_escaped(out, p->login_value ? p->login_value : "");
	fputs("\"/></xsbug>\r\n", out);
	fprintf(out, "\r\n<xsbug><pt name=\"start\" value=\"@%016" PRIX64
		     "\"/></xsbug>\r\n", s->start);
	write_records(p, out);
	write_samples(s, out);
	uint64_t stop = add_saturated(s->start, whole_micros(session_duration(s)));
	fprintf(out, "\r\n<xsbug><pt name=\"stop\" value=\"@%016" PRIX64
		     "\"/></xsbug>\r\n", stop);
	return !ferror(out);
}
