/* Gecko frame location strings, read as the Firefox Profiler reads them
 * (gecko_location.h); its regular expressions done by hand, greedy and
 * lazy parts where it has them. */
#include "gecko_location.h"

#include <string.h>

static bool all_digits(const char *s, size_t n)
{
	if (!n)
		return false;
	for (size_t i = 0; i < n; i++)
		if (s[i] < '0' || s[i] > '9')
			return false;
	return true;
}

/* Digits as a line or column; -1 past what a line number holds. */
static int32_t line_number(const char *s, size_t n)
{
	int64_t v = 0;
	for (size_t i = 0; i < n; i++) {
		v = v * 10 + (s[i] - '0');
		if (v > 2147483646)
			return -1;
	}
	return (int32_t)v;
}

/* "a.js -> b.js" is b.js. */
static void real_script(struct gecko_location *out)
{
	for (size_t i = out->file_len; i >= 4; i--)
		if (!memcmp(out->file + i - 4, " -> ", 4)) {
			out->file_len -= i;
			out->file += i;
			return;
		}
}

/* `(.+?):([0-9]+)(?::([0-9]+))?` over the whole of s: the shortest URL
 * that leaves a line and maybe a column. */
static bool split_script(const char *s, size_t n, struct gecko_location *out)
{
	for (size_t j = 1; j < n; j++) {
		if (s[j] != ':')
			continue;
		const char *rest = s + j + 1, *colon = memchr(rest, ':', n - j - 1);
		size_t line_len = colon ? (size_t)(colon - rest) : n - j - 1;
		size_t column_len = colon ? n - j - 2 - line_len : 0;
		if (!all_digits(rest, line_len) || (colon && !all_digits(colon + 1, column_len)))
			continue;
		out->file = s;
		out->file_len = j;
		out->line = line_number(rest, line_len);
		out->column = colon ? line_number(colon + 1, column_len) : -1;
		real_script(out);
		return true;
	}
	return false;
}

/* What follows "name (in lib)": nothing, " + 123", or " (file:line)". */
static bool cpp_tail(const char *s, size_t n)
{
	if (!n)
		return true;
	if (n > 3 && !memcmp(s, " + ", 3) && all_digits(s + 3, n - 3))
		return true;
	return n >= 4 && !memcmp(s, " (", 2) && s[n - 1] == ')' && memchr(s + 2, ':', n - 3);
}

static bool parse_cpp(const char *s, size_t n, struct gecko_location *out)
{
	for (size_t i = n; i-- > 0;) { /* the name is greedy: the last " (in " */
		if (n - i < 5 || memcmp(s + i, " (in ", 5))
			continue;
		const char *lib = s + i + 5, *close = memchr(lib, ')', n - i - 5);
		if (!close || !cpp_tail(close + 1, (size_t)(s + n - close - 1)))
			continue;
		static const char thunk[] = "non-virtual thunk to ";
		size_t skip = i >= sizeof(thunk) - 1 && !memcmp(s, thunk, sizeof(thunk) - 1)
				      ? sizeof(thunk) - 1 : 0;
		out->name = s + skip;
		out->name_len = i - skip;
		out->library = lib;
		out->library_len = (size_t)(close - lib);
		return true;
	}
	return false;
}

static bool parse_js(const char *s, size_t n, struct gecko_location *out)
{
	/* A source index "[4]" at the end is not part of the location. */
	if (n && s[n - 1] == ']') {
		size_t open = n - 1;
		while (open > 0 && s[open - 1] != '[')
			open--;
		if (open > 0 && all_digits(s + open, n - 1 - open))
			n = open - 1;
	}
	if (n && s[n - 1] == ')')
		for (size_t i = n - 1; i-- > 0;) /* greedy name: the last " (" */
			if (s[i] == ' ' && s[i + 1] == '(' && split_script(s + i + 2, n - i - 3, out)) {
				out->name = s;
				out->name_len = i;
				out->root_scope = i == 0;
				out->js = true;
				return true;
			}
	if (!split_script(s, n, out))
		return false;
	out->root_scope = out->js = true;
	return true;
}

void gecko_location_parse(const char *s, size_t len, struct gecko_location *out)
{
	*out = (struct gecko_location){ .name = s, .name_len = len, .line = -1, .column = -1 };
	if (len >= 2 && !memcmp(s, "0x", 2))
		return;
	if (parse_cpp(s, len, out) || parse_js(s, len, out))
		return;
	*out = (struct gecko_location){ .name = s, .name_len = len, .line = -1, .column = -1 };
}
