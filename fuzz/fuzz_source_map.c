/* libFuzzer harness for the source-map parser (src/transform/source_map.h):
 * any input either parses or says why; a parsed map's every segment names
 * a source and a name within its lists, segments are in generated order,
 * and a lookup at every segment's place finds a segment of that line. */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>

#include "transform/source_map.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct source_map m;
	char why[256];
	if (!source_map_parse((const char *)data, size, &m, why, sizeof(why))) {
		if (!why[0])
			abort();
		return 0;
	}
	for (size_t i = 0; i < m.nsegs; i++) {
		const struct source_map_segment *s = &m.segs[i];
		if (s->source >= (int32_t)m.nsources || s->name >= (int32_t)m.nnames)
			abort();
		if (i && (s->line < m.segs[i - 1].line ||
			  (s->line == m.segs[i - 1].line && s->column < m.segs[i - 1].column)))
			abort();
		const struct source_map_segment *found = source_map_find(&m, s->line, s->column);
		if (!found || found->line != s->line || found->column != s->column)
			abort();
		source_map_first_on_line(&m, s->line);
	}
	source_map_free(&m);
	return 0;
}
