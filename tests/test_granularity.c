/* A profile by lines (transform/granularity.h) keeps its timeline, and
 * counts of samples split by line stay whole.  Worked by hand: (root) ->
 * f, three samples on f of 10, 20 and 30 us, and V8's positionTicks for f
 * of one tick on line 4 and one on line 5 (ticks that do not add up to
 * the samples, as in a file where some ticks had no line).
 *   time:    60 us over two equal ticks: 30 and 30;
 *   samples: 3 over two equal ticks: 1.5 each, in whole samples 2 and 1
 *            (the rest to the first line of equal remainders);
 *   timeline: the three samples, on f's node, with their durations,
 *            still there once the copy owns them and f's model is gone.
 * Then two trees a copy by lines does not keep node for node, worked
 * the same way (see each). */
#include <string.h>

#include "tests/check.h"
#include "tests/lines_profile.h"
#include "transform/granularity.h"

/* (root) -> f at 2 -> f at 4 (a recursive call placed at line 4), 10,
 * 20 and 30 us on the first f, 5 on the second, and the first f's
 * ticks one on line 4, one on line 5: the first f's line 4 is the frame
 * of its child, so one node: 30 + 5 = 35 us; its line 5 30 us. */
static void line_is_a_child(void)
{
	struct model src, out;
	model_init(&src, "cpuprofile");
	model_add_sample_type(&src, "time", "us");
	uint32_t root = model_add_child(&src, NO_ID, add_frame(&src, "(root)", -1));
	uint32_t f = model_add_child(&src, root, add_frame(&src, "f", 2));
	uint32_t inner = model_add_child(&src, f, add_frame(&src, "f", 4));
	model_add_sample(&src, f, 10);
	model_add_sample(&src, inner, 5);
	model_add_sample(&src, f, 20);
	model_add_sample(&src, f, 30);
	model_add_line_ticks(&src, f, 5, 1);
	model_add_line_ticks(&src, f, 4, 1);
	uint32_t cycle;
	model_finish(&src, &cycle);
	const char *why_not;
	CHECK(model_by_granularity(&src, GRANULARITY_LINES, &out, &why_not));
	uint32_t fn = node_at(&out, "f", 2), l4 = node_at(&out, "f", 4), l5 = node_at(&out, "f", 5);
	CHECK(out.nnodes == 4 && fn != NO_ID && l4 != NO_ID && l5 != NO_ID);
	if (out.nnodes == 4 && fn != NO_ID && l4 != NO_ID && l5 != NO_ID) {
		CHECK(out.nodes[l4].parent == fn && out.nodes[l5].parent == fn);
		CHECK_CLOSE(node_value(&out, fn, 0), 0, "f's own time, all on its lines");
		CHECK_CLOSE(node_value(&out, l4, 0), 35, "line 4's time with the call's");
		CHECK_CLOSE(node_value(&out, l5, 0), 30, "line 5's time");
		CHECK(out.nsamples == 4 && out.sample_node[1] == l4);
		CHECK(out.sample_node[0] == fn && out.sample_node[3] == fn);
	}
	model_free(&out);
	model_free(&src);
}

/* (root) -> f at 2, twice (a file may repeat a child): one sample of
 * 10 us on the first f, with one tick on line 4; one of 20 us on the
 * second, with one tick on line 4 and one on line 5.  By lines the two
 * are one f: line 4 10 + 10 = 20 us, line 5 10 us; samples 1 + 0.5 and
 * 0.5, in whole samples: the first f's to line 4, the second's by its
 * floors 0 and 0, the one left to its first largest remainder, line 4:
 * 2 and 0.  Both samples are on the one f. */
static void siblings_merged(void)
{
	struct model src, out;
	model_init(&src, "cpuprofile");
	model_add_sample_type(&src, "time", "us");
	uint32_t root = model_add_child(&src, NO_ID, add_frame(&src, "(root)", -1));
	uint32_t frame = add_frame(&src, "f", 2), f[2];
	for (int k = 0; k < 2; k++) {
		f[k] = model_add_node(&src, frame);
		model_add_edge(&src, root, f[k]);
	}
	model_add_sample(&src, f[0], 10);
	model_add_sample(&src, f[1], 20);
	model_add_line_ticks(&src, f[1], 5, 1);
	model_add_line_ticks(&src, f[1], 4, 1);
	model_add_line_ticks(&src, f[0], 4, 1);
	uint32_t cycle;
	model_finish(&src, &cycle);
	model_add_sample_counts(&src);
	const char *why_not;
	CHECK(model_by_granularity(&src, GRANULARITY_LINES, &out, &why_not));
	uint32_t counts = model_count_type(&out);
	uint32_t fn = node_at(&out, "f", 2), l4 = node_at(&out, "f", 4), l5 = node_at(&out, "f", 5);
	CHECK(out.nnodes == 4 && counts != NO_ID && fn != NO_ID && l4 != NO_ID && l5 != NO_ID);
	if (out.nnodes == 4 && counts != NO_ID && fn != NO_ID && l4 != NO_ID && l5 != NO_ID) {
		CHECK_CLOSE(node_value(&out, l4, 0), 20, "line 4's time");
		CHECK_CLOSE(node_value(&out, l5, 0), 10, "line 5's time");
		CHECK_CLOSE(node_value(&out, l4, counts), 2, "line 4's samples");
		CHECK_CLOSE(node_value(&out, l5, counts), 0, "line 5's samples");
		CHECK(out.nsamples == 2 && out.sample_node[0] == fn && out.sample_node[1] == fn);
	}
	model_free(&out);
	model_free(&src);
}

int main(void)
{
	line_is_a_child();
	siblings_merged();
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
		/* Whole microseconds: a range's sums can move (range.c). */
		CHECK(out.integral_samples == 3);
		CHECK(out.nsample_offsets == 1 && out.sample_offsets[0] == 0);
		for (size_t i = 0; i < out.nsamples && i < 3; i++) {
			CHECK(out.sample_node[i] == fn);
			CHECK_CLOSE(out.sample_duration[i], 10.0 * (double)(i + 1), "a duration");
		}
	}
	/* A live session's copy owns its timeline: it outlives the model by
	 * functions (ASan would see it read after it is freed). */
	model_own_timeline(&out);
	CHECK(!out.durations_borrowed);
	CHECK(!out.sample_nodes_borrowed);
	model_free(&src);
	for (size_t i = 0; i < out.nsamples && i < 3; i++) {
		CHECK_CLOSE(out.sample_duration[i], 10.0 * (double)(i + 1), "a duration of its own");
		CHECK(out.sample_node[i] == fn);
	}
	model_free(&out);
	return check_done();
}
