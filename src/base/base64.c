#include "base64.h"

#include <stdint.h>
#include <stdlib.h>

#include "util.h"

int base64_digit(char c)
{
	if (c >= 'A' && c <= 'Z')
		return c - 'A';
	if (c >= 'a' && c <= 'z')
		return c - 'a' + 26;
	if (c >= '0' && c <= '9')
		return c - '0' + 52;
	return c == '+' ? 62 : c == '/' ? 63 : -1;
}

bool base64_decode(const char *in, size_t len, char **out, size_t *out_len)
{
	char *buf = xmalloc(len / 4 * 3 + 4);
	size_t n = 0;
	uint32_t bits = 0;
	int nbits = 0;
	for (size_t i = 0; i < len; i++) {
		if (in[i] == '=' || in[i] == '\n' || in[i] == '\r')
			continue;
		int d = base64_digit(in[i]);
		if (d < 0) {
			free(buf);
			return false;
		}
		bits = (bits << 6) | (uint32_t)d;
		nbits += 6;
		if (nbits >= 8) {
			nbits -= 8;
			buf[n++] = (char)((bits >> nbits) & 0xff);
		}
	}
	buf[n] = 0;
	*out = buf;
	*out_len = n;
	return true;
}
