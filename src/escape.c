#include "escape.h"

#include <stdint.h>
#include <stdio.h>
#include <string.h>

/* Length of the valid UTF-8 sequence at p (1 to 4), or 0. */
static size_t utf8_length(const unsigned char *p)
{
	if (p[0] < 0x80)
		return 1;
	size_t n = p[0] >= 0xf0 && p[0] < 0xf5 ? 4
		 : p[0] >= 0xe0 ? 3
		 : p[0] >= 0xc2 && p[0] < 0xe0 ? 2 : 0;
	if (!n || (p[0] >= 0xf0 && n != 4))
		return 0;
	for (size_t i = 1; i < n; i++)
		if ((p[i] & 0xc0) != 0x80)
			return 0;
	if (n == 3 && p[0] == 0xe0 && p[1] < 0xa0)
		return 0; /* overlong */
	if (n == 3 && p[0] == 0xed && p[1] >= 0xa0)
		return 0; /* surrogate */
	if (n == 4 && p[0] == 0xf0 && p[1] < 0x90)
		return 0;
	if (n == 4 && p[0] == 0xf4 && p[1] >= 0x90)
		return 0;
	return n;
}

static size_t spell(unsigned c, char *buf)
{
	switch (c) {
	case 0x1b: return (size_t)sprintf(buf, "\\e");
	case '\n': return (size_t)sprintf(buf, "\\n");
	case '\r': return (size_t)sprintf(buf, "\\r");
	case '\t': return (size_t)sprintf(buf, "\\t");
	default: return (size_t)sprintf(buf, "\\x%02x", c);
	}
}

size_t escape_text(const char *in, char *out, size_t cap)
{
	const unsigned char *p = (const unsigned char *)in;
	size_t used = 0;
	while (*p) {
		char piece[8];
		size_t len = utf8_length(p), take;
		if (len == 1 && (p[0] < 0x20 || p[0] == 0x7f)) {
			len = spell(p[0], piece);
			take = 1;
		} else if (len == 2 && p[0] == 0xc2 && p[1] < 0xa0) {
			len = spell(p[1], piece); /* C1 controls: CSI, OSC, ... */
			take = 2;
		} else if (len == 0) {
			len = spell(p[0], piece);
			take = 1;
		} else {
			memcpy(piece, p, len);
			take = len;
		}
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
