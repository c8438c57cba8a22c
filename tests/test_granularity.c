/* A profile by lines (transform/granularity.h) keeps its timeline, and
 * counts of samples split by line stay whole.  Worked by hand: (root) ->
 * f, three samples on f of 10, 20 and 30 us, and V8's positionTicks for f
 * of one tick on line 4 and one on line 5 (ticks that do not add up to
 * the samples, as in a file where some ticks had no line).
 *   time:    60 us over two equal ticks: 30 and 30;
 *   samples: 3 over two equal ticks: 1.5 each, in whole samples 2 and 1
 *            (the rest to the first line of equal remainders);
 *   timeline: the three samples, on f's node, with their durations,
 *            still there once the copy owns them and f's model is gone. */
#include <string.h>

#include "tests/check.h"
#include "tests/lines_profile.h"
#include "transform/granularity.h"

int main(void)
{
	struct model src, out;
	build_lines_profile(&src, true);
	const char *why_not = NULL;
	CHECK(model_by_granularity(&src, GRANULARITY_LINES, &out, &why_not));
	uint32_t counts = model_count_type(&out);
	uint32_t fn = node_at(&out, "f", 2), l4 = node_at(&out, "f", 4), l5 = node_at(&out, "f", 5);
	CHECK(counts != NO_ID && fn != NO_ID && l4 != NO_ID && l5 != NO_ID);
	if (counts != NO_ID && fn != NO_ID && l4 != NO_ID && l5 != NO_ID) {
		CHECK_CLOSE(node_value(&out, l4, 0), 30, "line 4's time");
		CHECK_CLOSE(node_value(&out, l5, 0), 30, "line 5's time");
		CHECK_CLOSE(node_value(&out, l4, counts), 2, "line 4's samples");
		CHECK_CLOSE(node_value(&out, l5, counts), 1, "line 5's samples");
		CHECK(out.caps & HAS_TIMELINE);
		CHECK(out.nsamples == 3);
		for (size_t i = 0; i < out.nsamples && i < 3; i++) {
			CHECK(out.sample_node[i] == fn);
			CHECK_CLOSE(out.sample_duration[i], 10.0 * (double)(i + 1), "a duration");
		}
	}
	/* A live session's copy owns its durations: they outlive the model
	 * by functions (ASan would see them read after it is freed). */
	model_own_durations(&out);
	CHECK(!out.durations_borrowed);
	model_free(&src);
	for (size_t i = 0; i < out.nsamples && i < 3; i++)
		CHECK_CLOSE(out.sample_duration[i], 10.0 * (double)(i + 1), "a duration of its own");
	model_free(&out);
	return check_done();
}
