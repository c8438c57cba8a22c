/* A pull parser for JSON over struct input: one token at a time, strict
 * (RFC 8259), without building a tree, so that arrays of millions of
 * numbers cost nothing but the numbers the caller keeps.  For the JSON
 * loaders it also carries what they share: an error sink that writes
 * their messages (struct json_sink) and the loops over an object's keys
 * and an array's objects. */
#ifndef WPROF_JSON_H
#define WPROF_JSON_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "input/input.h"

enum json_token {
	JSON_ERROR,
	JSON_END, /* the whole document has been read */
	JSON_OBJECT,
	JSON_OBJECT_END,
	JSON_ARRAY,
	JSON_ARRAY_END,
	JSON_KEY,    /* j->str holds the key */
	JSON_STRING, /* j->str holds the value, unescaped, UTF-8 */
	JSON_NUMBER, /* j->num */
	JSON_TRUE,
	JSON_FALSE,
	JSON_NULL,
};

#define JSON_MAX_DEPTH 100000

struct json {
	struct input *in;
	char *str;
	size_t str_len, str_cap;
	double num;
	uint64_t token_offset; /* where the last token began */
	uint8_t *stack;        /* 'o' or 'a' per open container */
	size_t depth, stack_cap;
	uint8_t state;
	char error[160];
	uint64_t error_offset;
};

void json_init(struct json *j, struct input *in);

/* Whether the key (or string) just read is `word`: its length first,
 * then its bytes, so a loader's chain of keys costs a compare or two a
 * key where strcmp would read each.  A key with a NUL inside is no word. */
static inline bool json_key_is(const struct json *j, const char *word)
{
	size_t n = strlen(word);
	return j->str_len == n && !memcmp(j->str, word, n);
}
void json_free(struct json *j);
enum json_token json_next(struct json *j);

/* After a key: its value when it is the usual small count, a whole
 * number of one to nine digits right after the colon, with ',' or '}'
 * right after it in the bytes at hand; read as json_next reads it
 * (j->num, j->token_offset), without the token machinery: a loader's
 * quick path for a key every node has.  False, nothing read, for any
 * other value, which json_next then reads. */
bool json_small_whole_value(struct json *j, uint32_t *value);

/* After a key: its value has been read by another reader (a thread
 * that read a long array) and ends just before byte `end`, where reading
 * goes on.  False, nothing changed, where the input cannot move there
 * (input_seek). */
bool json_skip_value_to(struct json *j, uint64_t end);

/* A reader that starts at an element of an array whose '[' lies before
 * (another reader is reading up to there): JSON_ARRAY_END at that
 * array's ']', then JSON_END. */
void json_init_in_array(struct json *j, struct input *in);

/* Just after the '{' or '[' of an element of an array: that element and
 * the rest of the array were read by another reader, the array ending
 * just before byte `end`, where reading goes on.  False, nothing changed,
 * where the input cannot move there. */
bool json_skip_array_to(struct json *j, uint64_t end);

/* ---- for readers that scan bytes themselves ---------------------------- */

/* Where a string's plain run stops: the first '"', '\\' or control byte
 * of buf[at..len), or `len`.  The bytes before it are the string's own,
 * as json_next would give them. */
size_t json_plain_run_end(const uint8_t *buf, size_t at, size_t len);

/* A whole number of one to nine digits without a leading zero (the
 * usual small count: an id, a line, a tick count) next in *p..end, which
 * it then passes, its value in *value; false, nothing passed, for any
 * other text. */
bool json_passes_small_whole(const uint8_t **p, const uint8_t *end, uint32_t *value);

static inline bool json_number_char(int c)
{
	return (c >= '0' && c <= '9') || c == '-' || c == '+' || c == '.' ||
	       c == 'e' || c == 'E';
}

/* json_number_at's general case: any number, through strtod. */
size_t json_number_general(const uint8_t *text, size_t len, double *value);

/* The number text[0..len) starts with, read as json_next reads one: the
 * bytes it takes, its value in *value; 0 when no whole number is there
 * (none, malformed, out of range, too long, or running on to text[len],
 * where more bytes may follow).  Inline for the usual case, an integer
 * of at most 16 characters, read where it lies. */
static inline size_t json_number_at(const uint8_t *text, size_t len, double *value)
{
	const uint8_t *end = text + len;
	const uint8_t *digits = text + (len && *text == '-'), *p = digits;
	int64_t v = 0;
	while (p < end && p - text < 17 && *p >= '0' && *p <= '9')
		v = v * 10 + (*p++ - '0');
	if (p == end || p - text > 16 || p == digits || json_number_char(*p) ||
	    (*digits == '0' && p - digits > 1))
		return json_number_general(text, len, value);
	*value = (double)(*text == '-' ? -v : v);
	return (size_t)(p - text);
}

/* After a value's first token: consume the rest of that value. */
bool json_skip(struct json *j, enum json_token first);

/* ---- for loaders: errors into a struct load_error ---------------------- */

struct load_error;

/* Where a loader's JSON errors go and how they read: "FORMAT, byte N:
 * what", as every loader's (load_fail_at). */
struct json_sink {
	struct json *j;
	struct load_error *err;
	const char *format;
};

/* Each returns false, having written the error. */
bool json_sink_fail(const struct json_sink *s, uint64_t at, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
/* At the last token. */
bool json_sink_fail_here(const struct json_sink *s, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
/* The parser's own error, at its byte. */
bool json_sink_error(const struct json_sink *s);

/* The next token; false (reported) on a parse error.  Inline: the
 * loaders' inner loops call it once a token. */
static inline bool json_sink_next(const struct json_sink *s, enum json_token *t)
{
	*t = json_next(s->j);
	return *t != JSON_ERROR || json_sink_error(s);
}
/* The next token must be `want`; else "expected <what>". */
bool json_sink_expect(const struct json_sink *s, enum json_token want, const char *what);
/* The next value must be a finite number; else "<what> is not a number". */
bool json_sink_number(const struct json_sink *s, const char *what, double *out);
/* Consumes the next value whole. */
bool json_sink_skip(const struct json_sink *s);
/* Consumes the rest of a value whose first token, `first`, was read. */
bool json_sink_skip_rest(const struct json_sink *s, enum json_token first);

/* The key loop of an object whose '{' has been read:
 *
 *     enum json_token t;
 *     while ((t = json_each_key(s)) == JSON_KEY)
 *             ... the key is in s->j->str, its value comes next ...
 *     if (t == JSON_ERROR)
 *             return false;
 *
 * JSON_OBJECT_END ends the loop; JSON_ERROR has been reported. */
static inline enum json_token json_each_key(const struct json_sink *s)
{
	enum json_token t;
	json_sink_next(s, &t);
	return t;
}

/* The element loop of an array of objects, after its '[':
 *
 *     while ((t = json_each_object(s, "a node is not an object")) == JSON_OBJECT)
 *             ... read the object's keys ...
 *     return t == JSON_ARRAY_END;
 *
 * An element that is not an object is an error with that message. */
enum json_token json_each_object(const struct json_sink *s, const char *not_object);

/* The element loop of an array of numbers, after its '[': JSON_NUMBER
 * with the value in s->j->num, JSON_ARRAY_END at its end, or JSON_ERROR
 * (said, with `not_number` for an element that is not a number). */
enum json_token json_each_number(const struct json_sink *s, const char *not_number);

/* A whole array of objects: '[' (else the error "expected NOT_ARRAY"),
 * then `read` called once an object, after its '{'. */
bool json_read_objects(const struct json_sink *s, const char *not_array,
		       const char *not_object, bool (*read)(void *ctx), void *ctx);

/* After the document's value: nothing may follow it. */
bool json_sink_end(const struct json_sink *s);

/* The rest of an object whose '{' has been read: `on_key` reads the value
 * of each key (its text in s->j->str, its byte in s->j->token_offset). */
bool json_read_object(const struct json_sink *s,
		      bool (*on_key)(void *ctx, const char *key), void *ctx);

/* A document that is one object: `on_key` reads the value of each key
 * (its text in s->j->str, its byte in s->j->token_offset), and nothing
 * may follow the object. */
bool json_read_document(const struct json_sink *s,
			bool (*on_key)(void *ctx, const char *key), void *ctx);

#endif
