/* Base64 (RFC 4648, the standard alphabet), for source maps: their VLQ
 * digits and data: URLs. */
#ifndef WPROF_BASE64_H
#define WPROF_BASE64_H

#include <stdbool.h>
#include <stddef.h>

/* The value of a Base64 digit, -1 for any other character. */
int base64_digit(char c);

/* Decodes `len` characters (padding and line breaks allowed) into a
 * malloc'd, NUL-terminated buffer; false on any other character. */
bool base64_decode(const char *in, size_t len, char **out, size_t *out_len);

#endif
