#include "json.h"

#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/util.h"
#include "loaders/loaders.h"

enum state {
	ST_TOP,       /* the document's value */
	ST_DONE,      /* only white space may follow */
	ST_OBJ_FIRST, /* key or } */
	ST_OBJ_COLON, /* : then a value */
	ST_OBJ_NEXT,  /* , or } */
	ST_ARR_FIRST, /* value or ] */
	ST_ARR_NEXT,  /* , or ] */
	ST_FAILED,
};

void json_init(struct json *j, struct input *in)
{
	memset(j, 0, sizeof(*j));
	j->in = in;
	j->state = ST_TOP;
}

void json_free(struct json *j)
{
	free(j->str);
	free(j->stack);
	j->str = NULL;
	j->stack = NULL;
}

/* Sets the error (if none is set yet) and returns JSON_ERROR. */
static enum json_token json_fail(struct json *j, uint64_t offset, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

static enum json_token json_fail(struct json *j, uint64_t offset, const char *fmt, ...)
{
	if (j->state != ST_FAILED) {
		va_list ap;
		va_start(ap, fmt);
		vsnprintf(j->error, sizeof(j->error), fmt, ap);
		va_end(ap);
		j->error_offset = offset;
		j->state = ST_FAILED;
	}
	return JSON_ERROR;
}

static inline int peek(struct json *j)
{
	struct input *in = j->in;
	if (in->pos == in->len && !input_fill(in, 1))
		return -1;
	return in->buf[in->pos];
}

static int skip_space_and_fill(struct json *j)
{
	struct input *in = j->in;
	for (;;) {
		while (in->pos < in->len) {
			uint8_t c = in->buf[in->pos];
			if (c != ' ' && c != '\n' && c != '\r' && c != '\t')
				return c;
			in->pos++;
		}
		if (!input_fill(in, 1))
			return -1;
	}
}

/* The next byte that is not white space, or -1 at the end.  Inline for
 * the usual case, a token right there (white space is at most ' '). */
static inline int skip_space(struct json *j)
{
	struct input *in = j->in;
	if (in->pos < in->len && in->buf[in->pos] > ' ')
		return in->buf[in->pos];
	return skip_space_and_fill(j);
}

static void str_push(struct json *j, const void *bytes, size_t n)
{
	GROW(j->str, j->str_cap, j->str_len + n + 1);
	memcpy(j->str + j->str_len, bytes, n);
	j->str_len += n;
}

static int hex_digit(int c)
{
	if (c >= '0' && c <= '9')
		return c - '0';
	if (c >= 'a' && c <= 'f')
		return c - 'a' + 10;
	if (c >= 'A' && c <= 'F')
		return c - 'A' + 10;
	return -1;
}

static int read_hex4(struct json *j)
{
	struct input *in = j->in;
	if (input_fill(in, 4) < 4)
		return -1;
	int v = 0;
	for (int i = 0; i < 4; i++) {
		int d = hex_digit(in->buf[in->pos + i]);
		if (d < 0)
			return -1;
		v = v * 16 + d;
	}
	in->pos += 4;
	return v;
}

static void push_utf8(struct json *j, uint32_t cp)
{
	uint8_t b[4];
	size_t n;
	if (cp < 0x80) {
		b[0] = (uint8_t)cp;
		n = 1;
	} else if (cp < 0x800) {
		b[0] = (uint8_t)(0xc0 | cp >> 6);
		b[1] = (uint8_t)(0x80 | (cp & 0x3f));
		n = 2;
	} else if (cp < 0x10000) {
		b[0] = (uint8_t)(0xe0 | cp >> 12);
		b[1] = (uint8_t)(0x80 | (cp >> 6 & 0x3f));
		b[2] = (uint8_t)(0x80 | (cp & 0x3f));
		n = 3;
	} else {
		b[0] = (uint8_t)(0xf0 | cp >> 18);
		b[1] = (uint8_t)(0x80 | (cp >> 12 & 0x3f));
		b[2] = (uint8_t)(0x80 | (cp >> 6 & 0x3f));
		b[3] = (uint8_t)(0x80 | (cp & 0x3f));
		n = 4;
	}
	str_push(j, b, n);
}

static bool read_escape(struct json *j)
{
	struct input *in = j->in;
	uint64_t at = input_offset(in);
	int c = peek(j);
	if (c < 0)
		return json_fail(j, at, "unfinished escape in a string"), false;
	in->pos++;
	static const char plain[] = "\"\\/bfnrt";
	static const char meaning[] = "\"\\/\b\f\n\r\t";
	const char *p = c ? strchr(plain, c) : NULL;
	if (p) {
		str_push(j, &meaning[p - plain], 1);
		return true;
	}
	if (c != 'u')
		return json_fail(j, at, "unknown escape \\%c", c), false;
	int cp = read_hex4(j);
	if (cp < 0)
		return json_fail(j, at, "bad \\u escape"), false;
	if (cp >= 0xd800 && cp < 0xdc00 && input_fill(in, 2) >= 2 &&
	    in->buf[in->pos] == '\\' && in->buf[in->pos + 1] == 'u') {
		in->pos += 2;
		int lo = read_hex4(j);
		if (lo >= 0xdc00 && lo < 0xe000)
			cp = 0x10000 + ((cp - 0xd800) << 10) + (lo - 0xdc00);
		else if (lo < 0)
			return json_fail(j, at, "bad \\u escape"), false;
		else
			push_utf8(j, 0xfffd), cp = lo;
	}
	if (cp >= 0xd800 && cp < 0xe000)
		cp = 0xfffd; /* a lone surrogate has no UTF-8 form */
	push_utf8(j, (uint32_t)cp);
	return true;
}

/* Eight bytes a step: a byte's high bit is set in `stops` when it is
 * one (exact for the lowest such byte, which is the one taken; the
 * carries that may mark bytes above it do not reach down). */
size_t json_plain_run_end(const uint8_t *buf, size_t at, size_t len)
{
	const uint64_t ones = 0x0101010101010101ULL, highs = 0x8080808080808080ULL;
	/* The lowest byte of a word is its first only on little-endian
	 * machines; others take the bytes one by one. */
	bool words = __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__;
	for (; words && at + 8 <= len; at += 8) {
		uint64_t w, quote, backslash;
		memcpy(&w, buf + at, 8);
		quote = w ^ (ones * '"');
		backslash = w ^ (ones * '\\');
		uint64_t stops = ((quote - ones) & ~quote) | ((backslash - ones) & ~backslash) |
				 ((w - ones * 0x20) & ~w);
		stops &= highs;
		if (stops)
			return at + (size_t)__builtin_ctzll(stops) / 8;
	}
	while (at < len && buf[at] != '"' && buf[at] != '\\' && buf[at] >= 0x20)
		at++;
	return at;
}

/* The opening quote has been consumed. */
static bool read_string(struct json *j)
{
	struct input *in = j->in;
	j->str_len = 0;
	for (;;) {
		size_t start = in->pos;
		in->pos = json_plain_run_end(in->buf, in->pos, in->len);
		str_push(j, in->buf + start, in->pos - start);
		if (in->pos == in->len) {
			if (!input_fill(in, 1))
				return json_fail(j, input_offset(in),
						 "the file ends inside a string"), false;
			continue;
		}
		uint8_t c = in->buf[in->pos];
		if (c == '"') {
			in->pos++;
			j->str[j->str_len] = '\0';
			return true;
		}
		if (c < 0x20)
			return json_fail(j, input_offset(in),
					 "control character 0x%02x in a string", c), false;
		in->pos++;
		if (!read_escape(j))
			return false;
	}
}

/* JSON's number grammar: -?(0|[1-9][0-9]*)(\.[0-9]+)?([eE][+-]?[0-9]+)? */
static bool number_syntax_ok(const char *s, bool *is_integer)
{
	const char *p = s;
	if (*p == '-')
		p++;
	if (*p == '0')
		p++;
	else if (*p >= '1' && *p <= '9')
		while (*p >= '0' && *p <= '9')
			p++;
	else
		return false;
	*is_integer = true;
	if (*p == '.') {
		*is_integer = false;
		p++;
		if (!(*p >= '0' && *p <= '9'))
			return false;
		while (*p >= '0' && *p <= '9')
			p++;
	}
	if (*p == 'e' || *p == 'E') {
		*is_integer = false;
		p++;
		if (*p == '+' || *p == '-')
			p++;
		if (!(*p >= '0' && *p <= '9'))
			return false;
		while (*p >= '0' && *p <= '9')
			p++;
	}
	return *p == '\0';
}

/* The value of a number's text (n characters): NULL, or what is wrong
 * with it.  Short integers are summed, exactly; others go to strtod. */
static const char *number_value(const char *text, size_t n, double *value)
{
	bool is_integer;
	if (!number_syntax_ok(text, &is_integer))
		return "malformed number";
	if (is_integer && n <= 16) {
		const char *p = text + (text[0] == '-');
		int64_t v = 0;
		while (*p)
			v = v * 10 + (*p++ - '0');
		*value = (double)(text[0] == '-' ? -v : v);
		return NULL;
	}
	*value = strtod(text, NULL);
	return isfinite(*value) ? NULL : "number out of range";
}

#define MAX_NUMBER_TEXT 71

size_t json_number_general(const uint8_t *text, size_t len, double *value)
{
	char copy[MAX_NUMBER_TEXT + 1];
	size_t n = 0;
	while (n < len && json_number_char(text[n])) {
		if (n == MAX_NUMBER_TEXT)
			return 0;
		copy[n] = (char)text[n];
		n++;
	}
	if (n == len)
		return 0;
	copy[n] = '\0';
	return number_value(copy, n, value) ? 0 : n;
}

/* Any number, wherever it ends: copied out byte by byte, for the
 * messages of one that is wrong. */
static enum json_token read_any_number(struct json *j)
{
	struct input *in = j->in;
	char text[MAX_NUMBER_TEXT + 1];
	size_t n = 0;
	int c;
	while ((c = peek(j)) >= 0 && json_number_char(c)) {
		if (n == MAX_NUMBER_TEXT)
			return json_fail(j, j->token_offset, "number too long");
		text[n++] = (char)c;
		in->pos++;
	}
	text[n] = '\0';
	const char *wrong = number_value(text, n, &j->num);
	if (wrong)
		return json_fail(j, j->token_offset, "%s '%s'", wrong, text);
	return JSON_NUMBER;
}

/* A number is read where it lies when it ends inside the buffer. */
static enum json_token read_number(struct json *j)
{
	struct input *in = j->in;
	size_t used = json_number_at(in->buf + in->pos, in->len - in->pos, &j->num);
	if (!used)
		return read_any_number(j);
	in->pos += used;
	return JSON_NUMBER;
}

static enum json_token read_literal(struct json *j, const char *word,
				    enum json_token token)
{
	struct input *in = j->in;
	size_t n = strlen(word);
	if (input_fill(in, n) < n || memcmp(in->buf + in->pos, word, n))
		return json_fail(j, j->token_offset, "unexpected character '%c'",
				 in->buf[in->pos]);
	in->pos += n;
	return token;
}

static void open_container(struct json *j, uint8_t kind)
{
	GROW(j->stack, j->stack_cap, j->depth + 1);
	j->stack[j->depth++] = kind;
	j->state = kind == 'o' ? ST_OBJ_FIRST : ST_ARR_FIRST;
}

static void after_value(struct json *j)
{
	if (!j->depth)
		j->state = ST_DONE;
	else
		j->state = j->stack[j->depth - 1] == 'o' ? ST_OBJ_NEXT : ST_ARR_NEXT;
}

static enum json_token read_value(struct json *j, int c)
{
	struct input *in = j->in;
	enum json_token t;
	switch (c) {
	case '{':
	case '[':
		if (j->depth >= JSON_MAX_DEPTH)
			return json_fail(j, j->token_offset,
					 "nesting deeper than %d", JSON_MAX_DEPTH);
		in->pos++;
		open_container(j, c == '{' ? 'o' : 'a');
		return c == '{' ? JSON_OBJECT : JSON_ARRAY;
	case '"':
		in->pos++;
		if (!read_string(j))
			return JSON_ERROR;
		t = JSON_STRING;
		break;
	case 't':
		t = read_literal(j, "true", JSON_TRUE);
		break;
	case 'f':
		t = read_literal(j, "false", JSON_FALSE);
		break;
	case 'n':
		t = read_literal(j, "null", JSON_NULL);
		break;
	case -1:
		return json_fail(j, j->token_offset, "the file ends where a value should be");
	default:
		if (c == '-' || (c >= '0' && c <= '9')) {
			t = read_number(j);
			break;
		}
		if (c >= 0x20 && c < 0x7f)
			return json_fail(j, j->token_offset,
					 "unexpected character '%c'", c);
		return json_fail(j, j->token_offset, "unexpected byte 0x%02x", c);
	}
	if (t != JSON_ERROR)
		after_value(j);
	return t;
}

static enum json_token close_container(struct json *j)
{
	j->in->pos++;
	uint8_t kind = j->stack[--j->depth];
	after_value(j);
	return kind == 'o' ? JSON_OBJECT_END : JSON_ARRAY_END;
}

static enum json_token read_key(struct json *j, int c)
{
	if (c != '"')
		return json_fail(j, j->token_offset, c < 0 ? "the file ends inside an object"
						       : "expected a key in quotes");
	j->in->pos++;
	if (!read_string(j))
		return JSON_ERROR;
	j->state = ST_OBJ_COLON;
	return JSON_KEY;
}

/* Past a ':' or ',': the byte where the next token begins. */
static int past_separator(struct json *j)
{
	j->in->pos++;
	int c = skip_space(j);
	j->token_offset = input_offset(j->in);
	return c;
}

/* After an entry of an object or array: its end, or a comma and the
 * next entry (in an object, a key). */
static enum json_token next_entry(struct json *j, int c, bool object)
{
	if (c == (object ? '}' : ']'))
		return close_container(j);
	if (c < 0)
		return json_fail(j, j->token_offset, object ? "the file ends inside an object"
							    : "the file ends inside an array");
	if (c != ',')
		return json_fail(j, j->token_offset, object ? "expected ',' or '}'"
							    : "expected ',' or ']'");
	c = past_separator(j);
	return object ? read_key(j, c) : read_value(j, c);
}

enum json_token json_next(struct json *j)
{
	int c = skip_space(j);
	j->token_offset = input_offset(j->in);
	switch (j->state) {
	case ST_TOP:
		return read_value(j, c);
	case ST_DONE:
		if (c < 0)
			return JSON_END;
		return json_fail(j, j->token_offset, "text after the end of the JSON value");
	case ST_OBJ_FIRST:
		if (c == '}')
			return close_container(j);
		return read_key(j, c);
	case ST_OBJ_COLON:
		if (c != ':')
			return json_fail(j, j->token_offset, "expected ':' after a key");
		return read_value(j, past_separator(j));
	case ST_OBJ_NEXT:
		return next_entry(j, c, true);
	case ST_ARR_FIRST:
		if (c == ']')
			return close_container(j);
		return read_value(j, c);
	case ST_ARR_NEXT:
		return next_entry(j, c, false);
	default:
		return JSON_ERROR;
	}
}

void json_init_in_array(struct json *j, struct input *in)
{
	json_init(j, in);
	open_container(j, 'a');
}

bool json_skip_array_to(struct json *j, uint64_t end)
{
	if (j->depth < 2 || j->stack[j->depth - 2] != 'a' || !input_seek(j->in, end))
		return false;
	j->depth -= 2;
	after_value(j);
	return true;
}

bool json_passes_small_whole(const uint8_t **p, const uint8_t *end, uint32_t *value)
{
	const uint8_t *q = *p;
	uint32_t v = 0;
	while (q < end && q - *p < 10 && *q >= '0' && *q <= '9')
		v = v * 10 + (uint32_t)(*q++ - '0');
	size_t digits = (size_t)(q - *p);
	if (digits == 0 || digits > 9 || (**p == '0' && digits > 1))
		return false;
	*p = q;
	*value = v;
	return true;
}

bool json_small_whole_value(struct json *j, uint32_t *value)
{
	struct input *in = j->in;
	const uint8_t *colon = in->buf + in->pos, *end = in->buf + in->len;
	const uint8_t *p = colon + 1;
	uint32_t v;
	if (j->state != ST_OBJ_COLON || p >= end || *colon != ':' ||
	    !json_passes_small_whole(&p, end, &v) || p == end || (*p != ',' && *p != '}'))
		return false;
	j->token_offset = input_offset(in) + 1;
	j->num = v;
	in->pos += (size_t)(p - colon);
	after_value(j);
	*value = v;
	return true;
}

bool json_skip_value_to(struct json *j, uint64_t end)
{
	if (j->state != ST_OBJ_COLON || !input_seek(j->in, end))
		return false;
	after_value(j);
	return true;
}

bool json_skip(struct json *j, enum json_token first)
{
	if (first == JSON_ERROR)
		return false;
	if (first != JSON_OBJECT && first != JSON_ARRAY)
		return true;
	size_t depth = 1;
	while (depth) {
		enum json_token t = json_next(j);
		if (t == JSON_ERROR)
			return false;
		if (t == JSON_OBJECT || t == JSON_ARRAY)
			depth++;
		else if (t == JSON_OBJECT_END || t == JSON_ARRAY_END)
			depth--;
	}
	return true;
}

/* ---- for loaders --------------------------------------------------------- */

bool json_sink_fail(const struct json_sink *s, uint64_t at, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	bool r = load_vfail_at(s->err, s->format, at, fmt, ap);
	va_end(ap);
	return r;
}

bool json_sink_fail_here(const struct json_sink *s, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	bool r = load_vfail_at(s->err, s->format, s->j->token_offset, fmt, ap);
	va_end(ap);
	return r;
}

bool json_sink_error(const struct json_sink *s)
{
	return json_sink_fail(s, s->j->error_offset, "%s", s->j->error);
}

bool json_sink_expect(const struct json_sink *s, enum json_token want, const char *what)
{
	enum json_token t;
	if (!json_sink_next(s, &t))
		return false;
	return t == want || json_sink_fail_here(s, "expected %s", what);
}

bool json_sink_number(const struct json_sink *s, const char *what, double *out)
{
	enum json_token t;
	if (!json_sink_next(s, &t))
		return false;
	if (t != JSON_NUMBER || !isfinite(s->j->num))
		return json_sink_fail_here(s, "%s is not a number", what);
	*out = s->j->num;
	return true;
}

bool json_sink_skip(const struct json_sink *s)
{
	return json_sink_skip_rest(s, json_next(s->j));
}

bool json_sink_skip_rest(const struct json_sink *s, enum json_token first)
{
	return json_skip(s->j, first) || json_sink_error(s);
}

enum json_token json_each_object(const struct json_sink *s, const char *not_object)
{
	enum json_token t;
	if (!json_sink_next(s, &t))
		return JSON_ERROR;
	if (t == JSON_OBJECT || t == JSON_ARRAY_END)
		return t;
	json_sink_fail_here(s, "%s", not_object);
	return JSON_ERROR;
}

enum json_token json_each_number(const struct json_sink *s, const char *not_number)
{
	enum json_token t;
	if (!json_sink_next(s, &t))
		return JSON_ERROR;
	if (t == JSON_NUMBER || t == JSON_ARRAY_END)
		return t;
	json_sink_fail_here(s, "%s", not_number);
	return JSON_ERROR;
}

bool json_read_objects(const struct json_sink *s, const char *not_array,
		       const char *not_object, bool (*read)(void *ctx), void *ctx)
{
	if (!json_sink_expect(s, JSON_ARRAY, not_array))
		return false;
	enum json_token t;
	while ((t = json_each_object(s, not_object)) == JSON_OBJECT)
		if (!read(ctx))
			return false;
	return t == JSON_ARRAY_END;
}

bool json_sink_end(const struct json_sink *s)
{
	/* After the top value the parser yields only the end or an error. */
	return json_next(s->j) == JSON_END || json_sink_error(s);
}

bool json_read_object(const struct json_sink *s,
		      bool (*on_key)(void *ctx, const char *key), void *ctx)
{
	enum json_token t;
	while ((t = json_each_key(s)) == JSON_KEY)
		if (!on_key(ctx, s->j->str))
			return false;
	return t != JSON_ERROR;
}

bool json_read_document(const struct json_sink *s,
			bool (*on_key)(void *ctx, const char *key), void *ctx)
{
	return json_sink_expect(s, JSON_OBJECT, "a JSON object") &&
	       json_read_object(s, on_key, ctx) && json_sink_end(s);
}
