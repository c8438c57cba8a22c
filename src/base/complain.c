#include "complain.h"

#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "escape.h"
#include "util.h"

static const char prefix[] = "wprof-tui: ";

/* An escaped character is at most four times its bytes ("\x9b" for one
 * byte, "\u202e" for three). */
#define ESCAPED_MAX(len) (4 * (len) + 1)

static void complain_v(FILE *out, const char *fmt, va_list ap)
{
	va_list again;
	va_copy(again, ap);
	int n = vsnprintf(NULL, 0, fmt, ap);
	if (n < 0) {
		va_end(again);
		return;
	}
	char *message = xmalloc((size_t)n + 1);
	vsnprintf(message, (size_t)n + 1, fmt, again);
	va_end(again);
	size_t cap = sizeof(prefix) + ESCAPED_MAX((size_t)n) + 1;
	char *line = xmalloc(cap);
	memcpy(line, prefix, sizeof(prefix) - 1);
	size_t len = sizeof(prefix) - 1;
	len += escape_text(message, line + len, cap - len - 1);
	line[len++] = '\n';
	fwrite(line, 1, len, out);
	free(line);
	free(message);
}

void complain(const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	complain_v(stderr, fmt, ap);
	va_end(ap);
}

void complain_to(FILE *out, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	complain_v(out, fmt, ap);
	va_end(ap);
}
