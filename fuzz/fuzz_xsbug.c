/* libFuzzer harness: any bytes through the xsbug stream parser, fed in
 * two pieces split where the first byte says (the parser must not care),
 * a live follower's model after each (its timeline a window of 3 samples,
 * so that it slides in place), then every session's model through the
 * rules and every view, and the session written back out as a capture. */
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "fuzz/fuzz_common.h"
#include "loaders/xsbug.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct xsbug_limits limits = xsbug_default_limits;
	limits.max_timeline = 3;
	struct xsbug_parser *p = xsbug_parser_new(&limits);
	struct xsbug_follower *f = xsbug_follower_new();
	struct model live[2];
	int shown = -1;
	struct load_error err;
	size_t split = size ? data[0] % (size + 1) : 0;
	bool fed = xsbug_parser_feed(p, data, split, &err);
	for (int part = 0; part < 2; part++) {
		if (part == 1 && fed)
			xsbug_parser_feed(p, data + split, size - split, &err);
		if (!xsbug_follow(f, p))
			continue;
		int next = shown < 0 ? 0 : 1 - shown;
		if (xsbug_follower_model(f, shown < 0 ? NULL : &live[shown], &live[next])) {
			if (shown >= 0)
				model_free(&live[shown]);
			shown = next;
		}
	}
	if (shown >= 0) {
		fuzz_views(&live[shown]);
		model_free(&live[shown]);
	}
	xsbug_follower_free(f);
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
