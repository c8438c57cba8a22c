/* libFuzzer harness for the enclosing-function scanner
 * (src/transform/js_functions.h): any text scans without a fault or a
 * hang; every function found starts no later than it ends and is in
 * order of its start, and the lookup at each start finds a function
 * that holds that place. */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "transform/js_functions.h"

static int compare(struct js_position a, struct js_position b)
{
	if (a.line != b.line)
		return a.line < b.line ? -1 : 1;
	return a.column < b.column ? -1 : a.column > b.column;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *text = malloc(size + 1);
	memcpy(text, data, size);
	text[size] = 0;
	struct js_functions fns;
	js_functions_scan(text, &fns);
	for (size_t i = 0; i < fns.n; i++) {
		const struct js_function *f = &fns.fn[i];
		if (compare(f->start, f->end) > 0)
			abort();
		if (i && compare(fns.fn[i - 1].start, f->start) > 0)
			abort();
		const struct js_function *at = js_function_at(&fns, f->start);
		if (!at || compare(at->start, f->start) > 0 || compare(f->start, at->end) > 0)
			abort();
	}
	js_functions_free(&fns);
	free(text);
	return 0;
}
