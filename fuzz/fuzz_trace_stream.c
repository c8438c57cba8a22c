/* libFuzzer harness: any bytes as batches of trace events (split at each
 * NUL byte) into a growing trace, followed for a live view after each
 * (trace_live: in place or a new model), and the whole stream's model at
 * the end, through the rules and every view.  Inputs of odd length have
 * the stream drop what the fold took, as an inspector session does, and
 * end with the fold's session model instead. */
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "fuzz/fuzz_common.h"
#include "loaders/trace.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct trace_stream *s = trace_stream_new();
	struct trace_live *l = trace_live_new();
	struct model models[2];
	int shown = -1;
	char err[300];
	struct load_error why;
	for (size_t at = 0; at < size;) {
		const uint8_t *end = memchr(data + at, 0, size - at);
		size_t len = end ? (size_t)(end - data) - at : size - at;
		if (!trace_stream_add(s, data + at, len, &why))
			break;
		at += len + 1;
		trace_live_update(l, s);
		if (size % 2)
			trace_live_drop_taken(l, s);
		int next = shown < 0 ? 0 : 1 - shown;
		enum trace_live_change c = trace_live_model(l, shown < 0 ? NULL : &models[shown],
							    &models[next], err, sizeof(err));
		if (c == TRACE_LIVE_MODEL) {
			if (shown >= 0)
				model_free(&models[shown]);
			shown = next;
		}
		if (c != TRACE_LIVE_NONE)
			fuzz_views(&models[shown]);
	}
	if (shown >= 0)
		model_free(&models[shown]);
	struct model m;
	if (size % 2 ? trace_live_session_model(l, &m, err, sizeof(err))
		     : trace_stream_model(s, NULL, &m, &why)) {
		fuzz_views(&m);
		model_free(&m);
	}
	trace_live_free(l);
	trace_stream_free(s);
	return 0;
}
