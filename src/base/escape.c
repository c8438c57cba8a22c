#include "escape.h"

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

/* Length of the UTF-8 sequence at p (1 to 4) and its code point in *cp,
 * or 0 when it is not valid UTF-8.  Surrogates (ED A0..BF) are not
 * valid UTF-8, but *surrogate then says which one the bytes spell. */
static size_t utf8_decode(const unsigned char *p, uint32_t *cp, uint32_t *surrogate)
{
	*surrogate = 0;
	if (p[0] < 0x80) {
		*cp = p[0];
		return 1;
	}
	size_t n = p[0] >= 0xf0 && p[0] < 0xf5 ? 4
		 : p[0] >= 0xe0 && p[0] < 0xf0 ? 3
		 : p[0] >= 0xc2 && p[0] < 0xe0 ? 2 : 0;
	if (!n)
		return 0;
	uint32_t c = p[0] & (0x7f >> n);
	for (size_t i = 1; i < n; i++) {
		if ((p[i] & 0xc0) != 0x80)
			return 0;
		c = c << 6 | (p[i] & 0x3f);
	}
	if ((n == 3 && c < 0x800) || (n == 4 && (c < 0x10000 || c > 0x10ffff)))
		return 0; /* overlong or past Unicode */
	if (c >= 0xd800 && c < 0xe000) {
		*surrogate = c;
		return 0;
	}
	*cp = c;
	return n;
}

/* Characters that change how the text around them is displayed. */
static bool is_control(uint32_t c)
{
	return c < 0x20 || (c >= 0x7f && c < 0xa0) ||
	       c == 0x061c || c == 0x200e || c == 0x200f ||   /* ALM, LRM, RLM */
	       (c >= 0x202a && c <= 0x202e) ||                /* LRE..RLO */
	       (c >= 0x2066 && c <= 0x2069) ||                /* LRI..PDI */
	       c == 0x2028 || c == 0x2029;                    /* line breaks */
}

static size_t spell(uint32_t c, char *buf)
{
	switch (c) {
	case 0x1b: return (size_t)sprintf(buf, "\\e");
	case '\n': return (size_t)sprintf(buf, "\\n");
	case '\r': return (size_t)sprintf(buf, "\\r");
	case '\t': return (size_t)sprintf(buf, "\\t");
	default:
		return c < 0x100 ? (size_t)sprintf(buf, "\\x%02x", (unsigned)c)
				 : (size_t)sprintf(buf, "\\u%04x", (unsigned)c);
	}
}

/* The safe form of the character at p in piece (at most 7 bytes);
 * returns its length and sets *take to the bytes it stands for.  With
 * `reversible`, a backslash is spelled too. */
static size_t escape_one(const unsigned char *p, char *piece, size_t *take,
			 bool reversible)
{
	uint32_t c, surrogate;
	size_t n = utf8_decode(p, &c, &surrogate);
	if (n == 0) { /* not UTF-8: the byte alone */
		*take = 1;
		return spell(p[0], piece);
	}
	*take = n;
	/* A C1 character as \u0080..: \x80.. is a byte that is not UTF-8. */
	if (is_control(c) && reversible && c >= 0x80)
		return (size_t)sprintf(piece, "\\u%04x", (unsigned)c);
	if (is_control(c))
		return spell(c, piece);
	if (reversible && c == '\\')
		return (size_t)sprintf(piece, "\\\\");
	memcpy(piece, p, n);
	return n;
}

static size_t escape_into(const char *in, char *out, size_t cap, bool reversible)
{
	const unsigned char *p = (const unsigned char *)in;
	size_t used = 0;
	while (*p) {
		char piece[8];
		size_t take, len = escape_one(p, piece, &take, reversible);
		if (used + len + 1 > cap)
			break;
		memcpy(out + used, piece, len);
		used += len;
		p += take;
	}
	if (cap)
		out[used] = '\0';
	return used;
}

size_t escape_text(const char *in, char *out, size_t cap)
{
	return escape_into(in, out, cap, false);
}

size_t escape_text_reversible(const char *in, char *out, size_t cap)
{
	return escape_into(in, out, cap, true);
}

void escape_text_to(FILE *out, const char *in)
{
	const unsigned char *p = (const unsigned char *)in;
	while (*p) {
		char piece[8];
		size_t take, len = escape_one(p, piece, &take, false);
		fwrite(piece, 1, len, out);
		p += take;
	}
}

void json_escape_to(FILE *out, const char *in)
{
	const unsigned char *p = (const unsigned char *)in;
	fputc('"', out);
	while (*p) {
		uint32_t c, surrogate;
		size_t n = utf8_decode(p, &c, &surrogate);
		if (n == 0 && surrogate) {
			fprintf(out, "\\u%04x", (unsigned)surrogate);
			n = 3;
		} else if (n == 0) {
			fputs("\\ufffd", out);
			n = 1;
		} else if (c == '"' || c == '\\') {
			fprintf(out, "\\%c", (char)c);
		} else if (is_control(c)) {
			fprintf(out, "\\u%04x", (unsigned)c);
		} else {
			fwrite(p, 1, n, out);
		}
		p += n;
	}
	fputc('"', out);
}
