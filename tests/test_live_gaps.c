/* A gap between Profiler windows that do not meet, on the live model's
 * timeline (src/live/cdp_windows.c into loaders/trace_live.c): no value
 * counts it, the strip's cells over it are empty, its cells after it
 * where the session's clock puts them, and a range's ends count it.
 * Numbers worked by hand in the comments. */
#include <cjson/cJSON.h>
#include <stdlib.h>
#include <string.h>

#include "tests/check.h"
#include "base/util.h"
#include "live/cdp_windows.h"
#include "loaders/trace.h"
#include "transform/range.h"
#include "transform/timeline.h"

#define FRAME(name) "{\"functionName\":\"" name "\",\"scriptId\":\"1\",\"url\":\"x.js\"," \
		    "\"lineNumber\":0,\"columnNumber\":0}"
#define NODES "\"nodes\":[{\"id\":1,\"callFrame\":" FRAME("(root)") ",\"children\":[2]}," \
	      "{\"id\":2,\"callFrame\":" FRAME("a") ",\"children\":[3,4]}," \
	      "{\"id\":3,\"callFrame\":" FRAME("b") ",\"children\":[]}," \
	      "{\"id\":4,\"callFrame\":" FRAME("c") ",\"children\":[]}]"

static void fold(struct cdp_windows *w, const char *json)
{
	char err[300] = "";
	cJSON *profile = cJSON_Parse(json);
	CHECK_MSG(profile && cdp_windows_fold(w, profile, false, err, sizeof(err)), "%s", err);
	cJSON_Delete(profile);
}

/* A window from `start` of n samples `step` apart, the first at start,
 * each a, b, b, b in turn; it ends one step after its last. */
static void fold_even(struct cdp_windows *w, double start, size_t n, double step)
{
	size_t cap = 200 + strlen(NODES) + n * 24;
	char *json = xmalloc(cap), *at = json;
	at += sprintf(at, "{" NODES ",\"startTime\":%.0f,\"endTime\":%.0f,\"samples\":[",
		      start, start + (double)n * step);
	for (size_t i = 0; i < n; i++)
		at += sprintf(at, "%s%d", i ? "," : "", i % 4 ? 3 : 2);
	at += sprintf(at, "],\"timeDeltas\":[");
	for (size_t i = 0; i < n; i++)
		at += sprintf(at, "%s%.0f", i ? "," : "", i ? step : 0);
	sprintf(at, "]}");
	fold(w, json);
	free(json);
}

/* The live view's model of the session. */
static void live_model(struct cdp_windows *w, struct model *m)
{
	char err[300] = "";
	CHECK_MSG(trace_live_model(cdp_windows_fold_of(w), NULL, m, err, sizeof(err)) ==
			  TRACE_LIVE_MODEL, "%s", err);
}

static double self_of(const struct model *m, const char *name)
{
	double sum = 0;
	for (uint32_t v = 0; v < m->nnodes; v++)
		if (!strcmp(model_str(m, m->frames[m->nodes[v].frame].name), name))
			sum += node_value(m, v, 0);
	return sum;
}

/* The session's clock holds the samples and the gaps: every sample's time
 * (those left out of the window too) and every gap's make the duration. */
static void check_clock(const struct model *m)
{
	double told = m->live.time_before + range_timeline_span(m) +
		      model_gap_time(m, m->nsamples);
	CHECK_MSG(told == m->duration, "samples and gaps %g, duration %g", told, m->duration);
}

/* Which cells hold a sample start, as a string of '#' and '.'. */
static void cells(const struct timeline *t, char *out)
{
	for (size_t b = 0; b < t->nbins; b++)
		out[b] = t->first_sample[b] < t->first_sample[b + 1] ? '#' : '.';
	out[t->nbins] = 0;
}

/* test_cdp.c's windows: a@100, b@200, b@300, window 1 ending at 400;
 * window 2 from 1000, c@1050, a@1075, ending at 1100.  From the first
 * sample: a 0-100, b 100-200, b 200-300, a gap 300-950 (650), c 950-975,
 * a 975-1000. */
static const char window1[] =
	"{" NODES ",\"startTime\":100,\"endTime\":400,\"samples\":[2,3,3],"
	"\"timeDeltas\":[0,100,100]}";
static const char window2[] =
	"{" NODES ",\"startTime\":1000,\"endTime\":1100,\"samples\":[4,2],"
	"\"timeDeltas\":[50,25]}";

/* Samples still pending (the newest 256): the gap among them.  Cells of
 * 100 us, ten: 0 a, 1 and 2 b, 3-8 the gap, 9 c and a. */
static void test_pending_gap(void)
{
	struct cdp_windows *w = cdp_windows_new();
	fold(w, window1);
	fold(w, window2);
	struct model m;
	live_model(w, &m);
	CHECK(self_of(&m, "a") == 125 && self_of(&m, "b") == 200 && self_of(&m, "c") == 25);
	CHECK_MSG(m.duration == 1000, "duration %g", m.duration);
	CHECK_MSG(m.live.ngaps == 1 && m.live.gaps[0].before == 3 &&
			  m.live.gaps[0].duration == 650,
		  "%zu gaps, the first before %zu, %g long", m.live.ngaps,
		  m.live.ngaps ? m.live.gaps[0].before : 0,
		  m.live.ngaps ? m.live.gaps[0].duration : 0);
	check_clock(&m);

	struct timeline t;
	char got[64];
	timeline_build_window(&t, &m, 10, 100);
	cells(&t, got);
	CHECK_MSG(!strcmp(got, "###......#"), "live strip %s", got);
	CHECK(t.first_sample[9] == 3 && t.first_sample[10] == 5);
	for (size_t b = 3; b < 9; b++)
		CHECK_MSG(timeline_busy_share(&t, b) == 0, "cell %zu busy", b);
	CHECK(t.value[9 * KIND_COUNT + KIND_JS] == 50);
	timeline_free(&t);
	timeline_build(&t, &m, 10);
	cells(&t, got);
	CHECK_MSG(!strcmp(got, "###......#") && t.span == 1000, "whole strip %s over %g",
		  got, t.span);
	timeline_free(&t);

	/* b, b, c: from 100 to c's end at 975, the gap inside; b 200, c 25. */
	char text[120];
	range_describe(&m, (struct sample_range){ 1, 4 }, true, text, sizeof(text));
	CHECK_MSG(!strcmp(text, "range 100us-975us of 1.0ms"), "%s", text);
	struct model view;
	const char *why_not = NULL;
	CHECK(range_view_make(&m, (struct sample_range){ 1, 4 }, NULL, &view, &why_not));
	CHECK_MSG(view.duration == 875 && view.start_time == m.start_time + 100,
		  "range from %g, %g long", view.start_time - m.start_time, view.duration);
	CHECK(self_of(&view, "b") == 200 && self_of(&view, "c") == 25 && self_of(&view, "a") == 0);
	model_free(&view);
	model_free(&m);
	cdp_windows_free(w);
}

/* 1000 samples 10 us apart from 0 (window 1 ends at 10 000), a gap until
 * window 2 at 15 000, its 300 samples 10 us apart (until 18 000): the gap
 * has settled before sample 1000.  Cells of 1 ms, thirty: the session's
 * last sample starts at 17 990, in its cell 17, so the strip starts at
 * -12 000: cells 12-21 window 1, 22-26 the gap, 27-29 window 2.  Then
 * 263 000 samples more, 10 us apart from 18 000: window 1's samples and
 * the gap leave the window (262 144 held), the gap counted before
 * sample 0. */
static void test_settled_gap(void)
{
	struct cdp_windows *w = cdp_windows_new();
	fold_even(w, 0, 1000, 10);
	fold_even(w, 15000, 300, 10);
	struct model m;
	live_model(w, &m);
	CHECK_MSG(m.live.ngaps == 1 && m.live.gaps[0].before == 1000 &&
			  m.live.gaps[0].duration == 5000, "%zu gaps", m.live.ngaps);
	CHECK(m.duration == 18000 && m.nsamples == 1300);
	/* a a sample in four: 325 of 1300, 10 us each. */
	CHECK(self_of(&m, "a") == 3250 && self_of(&m, "b") == 9750);
	check_clock(&m);
	struct timeline t;
	char got[64];
	timeline_build_window(&t, &m, 30, 1000);
	cells(&t, got);
	CHECK_MSG(!strcmp(got, "............##########.....###"), "strip %s", got);
	timeline_free(&t);
	model_free(&m);

	fold_even(w, 18000, 263000, 10);
	live_model(w, &m);
	size_t all = 1300 + 263000;
	CHECK_MSG(m.live.samples_before + m.nsamples == all && m.live.samples_before > 1000,
		  "%zu before, %zu held", m.live.samples_before, m.nsamples);
	CHECK_MSG(m.live.ngaps == 1 && m.live.gaps[0].before == 0 &&
			  m.live.gaps[0].duration == 5000, "%zu gaps, the first before %zu",
		  m.live.ngaps, m.live.ngaps ? m.live.gaps[0].before : 0);
	CHECK(m.duration == 18000 + 2630000.0);
	CHECK(self_of(&m, "a") == (double)all / 4 * 10);
	check_clock(&m);
	model_free(&m);
	cdp_windows_free(w);
}

int main(void)
{
	test_pending_gap();
	test_settled_gap();
	return check_done();
}
