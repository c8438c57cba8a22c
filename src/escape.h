/* Names come from files written by others: before any of them reaches a
 * terminal (or a report), control characters, escape sequences and bytes
 * that are not UTF-8 are spelled out (\e, \n, \x9b) instead. */
#ifndef WPROF_ESCAPE_H
#define WPROF_ESCAPE_H

#include <stddef.h>

/* Writes the safe form of `in` into out (always NUL-terminated, cut at
 * cap - 1 bytes on a character boundary); returns its length. */
size_t escape_text(const char *in, char *out, size_t cap);

#endif
