/* A pull parser for JSON over struct input: one token at a time, strict
 * (RFC 8259), without building a tree, so that arrays of millions of
 * numbers cost nothing but the numbers the caller keeps. */
#ifndef WPROF_JSON_H
#define WPROF_JSON_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

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
void json_free(struct json *j);
enum json_token json_next(struct json *j);

/* After a value's first token: consume the rest of that value. */
bool json_skip(struct json *j, enum json_token first);

/* Sets the error (if none is set yet) and returns JSON_ERROR. */
enum json_token json_fail(struct json *j, uint64_t offset, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

#endif
