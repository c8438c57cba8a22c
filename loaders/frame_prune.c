/* pprof's name matching for drop_frames / keep_frames (see frame_prune.h). */
#include "frame_prune.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/util.h"

bool regcomp_whole(regex_t *re, const char *pattern)
{
	size_t n = strlen(pattern) + 5;
	char *anchored = xmalloc(n);
	snprintf(anchored, n, "^(%s)$", pattern);
	int rc = regcomp(re, anchored, REG_EXTENDED | REG_NOSUB);
	free(anchored);
	return rc == 0;
}

/* The name up to its argument list ("f(int)" -> "f"), leaving the
 * parentheses of "(anonymous namespace)" and "operator()". */
static size_t simplified_length(const char *name)
{
	for (const char *p = name; (p = strchr(p, '(')); p++) {
		if (!strncmp(p, "(anonymous namespace)", 21)) {
			p += 20;
			continue;
		}
		if (p - name >= 8 && !strncmp(p - 8, "operator()", 10)) {
			p++;
			continue;
		}
		return (size_t)(p - name);
	}
	return strlen(name);
}

bool function_name_matches(const regex_t *re, const char *name)
{
	if (*name == '.')
		name++;
	size_t n = simplified_length(name);
	char *simple = xmalloc(n + 1);
	memcpy(simple, name, n);
	simple[n] = '\0';
	bool hit = regexec(re, simple, 0, NULL, 0) == 0;
	free(simple);
	return hit;
}
