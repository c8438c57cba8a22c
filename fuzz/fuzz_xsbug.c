/* libFuzzer harness: any bytes through the xsbug stream parser, fed in
 * two pieces split where the first byte says (the parser must not care),
 * then every session's model through the rules and every view, and the
 * session written back out as a capture. */
#include <stddef.h>
#include <stdint.h>

#include "fuzz_common.h"
#include "loaders/xsbug.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct xsbug_parser *p = xsbug_parser_new(NULL);
	struct load_error err;
	size_t split = size ? data[0] % (size + 1) : 0;
	if (xsbug_parser_feed(p, data, split, &err))
		xsbug_parser_feed(p, data + split, size - split, &err);
	xsbug_parser_end(p);
	FILE *sink = fopen("/dev/null", "w");
	for (size_t n = 1; n <= xsbug_session_count(p) && n <= 4; n++) {
		struct model m;
		xsbug_session_model(p, n, &m);
		fuzz_views(&m);
		model_free(&m);
		if (sink)
			xsbug_write_session(p, n, sink);
	}
	if (sink)
		fclose(sink);
	xsbug_parser_free(p);
	return 0;
}
