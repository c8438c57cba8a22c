/* The xsbug parser's lexer (xsbug.h, xsbug_parser.h): a byte-at-a-time
 * state machine for tags, with a tight loop for sample text, the XML
 * entities and CESU-8 of names and paths, and `<log>` and `<break>`
 * messages; what the tags say goes to the store (xsbug_session.c). */
#include <stdlib.h>
#include <string.h>

#include "base/util.h"
#include "xsbug_parser.h"

/* Base-36 digits (sample text) and hex digits (times) by byte: a const
 * table, as parsers are made on several threads. */
#define NOT_DIGIT 0xff
#define X NOT_DIGIT
static const uint8_t digit_value[256] = {
	X, X, X, X, X, X, X, X, X, X, X, X, X, X, X, X,
	X, X, X, X, X, X, X, X, X, X, X, X, X, X, X, X,
	X, X, X, X, X, X, X, X, X, X, X, X, X, X, X, X,
	0, 1, 2, 3, 4, 5, 6, 7, 8, 9, X, X, X, X, X, X,
	X, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20, 21, 22, 23, 24,
	25, 26, 27, 28, 29, 30, 31, 32, 33, 34, 35, X, X, X, X, X,
	X, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20, 21, 22, 23, 24,
	25, 26, 27, 28, 29, 30, 31, 32, 33, 34, 35, X, X, X, X, X,
	[0x80] = X, X, X, X, X, X, X, X, X, X, X, X, X, X, X, X,
	X, X, X, X, X, X, X, X, X, X, X, X, X, X, X, X,
	X, X, X, X, X, X, X, X, X, X, X, X, X, X, X, X,
	X, X, X, X, X, X, X, X, X, X, X, X, X, X, X, X,
	X, X, X, X, X, X, X, X, X, X, X, X, X, X, X, X,
	X, X, X, X, X, X, X, X, X, X, X, X, X, X, X, X,
	X, X, X, X, X, X, X, X, X, X, X, X, X, X, X, X,
	X, X, X, X, X, X, X, X, X, X, X, X, X, X, X, X,
};
#undef X

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

/* ---- what the tags say ------------------------------------------------ */

static enum time_event time_event(const struct attribute *name)
{
	if (name_is(name->value, name->value_len, "start"))
		return TIME_START;
	if (name_is(name->value, name->value_len, "stop"))
		return TIME_STOP;
	if (name_is(name->value, name->value_len, "suspend"))
		return TIME_SUSPEND;
	if (name_is(name->value, name->value_len, "resume"))
		return TIME_RESUME;
	return TIME_OTHER;
}

static bool on_time(struct xsbug_parser *p, const struct element *e,
		    struct load_error *err)
{
	uint64_t t;
	const struct attribute *name = attribute(e, "name");
	if (!name || !parse_time(attribute(e, "value"), &t))
		return true; /* malformed: skipped like any garbage */
	return xsbug_time_event(p, time_event(name), t, err);
}

static bool on_record(struct xsbug_parser *p, const struct element *e,
		      struct load_error *err)
{
	uint64_t id, line;
	const struct attribute *name = attribute(e, "name");
	if (!name || !parse_decimal(attribute(e, "value"), UINT64_MAX, &id))
		return true;
	if (id > p->limits.max_id)
		return xsbug_fail(p, err, "profile record id out of range");
	if (p->nrecords >= p->limits.max_records && !xsbug_find_record(p, (uint32_t)id))
		return xsbug_fail(p, err, "too many profile records");
	const struct attribute *path = attribute(e, "path");
	struct record rec = {
		.id = (uint32_t)id,
		.name = decode_text(name->value, name->value_len),
		.path = path ? decode_text(path->value, path->value_len) : NULL,
		.line = parse_decimal(attribute(e, "line"), INT32_MAX, &line)
				? (int32_t)line : -1,
	};
	xsbug_set_record(p, &rec);
	p->generation++;
	return true;
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

/* ---- sample text ------------------------------------------------------ */

/* Stacks are hashed id by id as they are read (hashing the finished
 * array again cost a third of the ingest time). */
#define STACK_HASH_SEED 0x5851f42d4c957f2dULL

static inline uint64_t hash_step(uint64_t h, uint32_t id)
{
	return (h ^ id) * 0x9e3779b97f4a7c15ULL;
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
			return xsbug_fail(p, err, "profile record id out of range in a sample");
		if (p->field > p->limits.max_depth)
			return xsbug_fail(p, err, "sample stack deeper than the limit");
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
		xsbug_fold_sample(p, p->delta, p->frames, depth, hash_mix(p->stack_hash));
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
		return xsbug_fail(p, err, "attribute value longer than the limit");
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
		return xsbug_fail(p, err, "element longer than the limit");
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

