/* The inspector session's folding (src/live/cdp_windows.c): windows
 * whose node ids differ are merged by call frame under the same parent;
 * windows that overlap keep each sample once, a gap between windows is
 * no one's time; --duration cuts the session, the program's end its
 * trailing (idle); broken windows are refused; a gap stays time on the
 * live model's timeline (model.live.gaps): the strip's cells over it
 * empty, a range's ends counting it, no value.  Numbers worked by hand
 * in the comments. */
#include <cjson/cJSON.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tests/check.h"
#include "tests/model_checks.h"
#include "base/util.h"
#include "input/source.h"
#include "live/cdp.h"
#include "live/cdp_windows.h"
#include "loaders/loaders.h"
#include "loaders/trace.h"
#include "transform/range.h"
#include "transform/timeline.h"
#include "transform/js_source_maps.h"
#include "transform/symbolize.h"

#define FRAME(name) "{\"functionName\":\"" name "\",\"scriptId\":\"1\",\"url\":\"x.js\"," \
		    "\"lineNumber\":0,\"columnNumber\":0}"

/* Children listed before their parents: b(3) under a(2) under root(1).
 * Samples a, b, b at 100 us apart from startTime 100: times 100, 200,
 * 300; the window ends at 400. */
static const char window1[] =
	"{\"nodes\":[{\"id\":3,\"callFrame\":" FRAME("b") ",\"children\":[]},"
	"{\"id\":1,\"callFrame\":" FRAME("(root)") ",\"children\":[2]},"
	"{\"id\":2,\"callFrame\":" FRAME("a") ",\"children\":[3]}],"
	"\"startTime\":100,\"endTime\":400,\"samples\":[2,3,3],\"timeDeltas\":[0,100,100]}";
/* The same root and a under other ids, and c new under a.  Samples c at
 * 1050 and a at 1075, the window ending at 1100. */
static const char window2[] =
	"{\"nodes\":[{\"id\":7,\"callFrame\":" FRAME("(root)") ",\"children\":[8]},"
	"{\"id\":8,\"callFrame\":" FRAME("a") ",\"children\":[9]},"
	"{\"id\":9,\"callFrame\":" FRAME("c") ",\"children\":[]}],"
	"\"startTime\":1000,\"endTime\":1100,\"samples\":[9,8],\"timeDeltas\":[50,25]}";

/* The model's timeline, sample by sample: leaf names and durations. */
static void check_timeline(const struct model *m, const char *const *names,
			   const double *durations, size_t n)
{
	CHECK_MSG(m->nsamples == n, "%zu samples on the timeline, want %zu", m->nsamples, n);
	for (size_t i = 0; i < n && i < m->nsamples; i++) {
		const char *got = model_str(m, m->frames[m->nodes[m->sample_node[i]].frame].name);
		CHECK_MSG(!strcmp(got, names[i]) && m->sample_duration[i] == durations[i],
			  "sample %zu: %s %g, want %s %g", i, got, m->sample_duration[i],
			  names[i], durations[i]);
	}
}

/* Window 2 starts after window 1 ended (Profiler.stop, then start): the
 * time between, from window 1's end at 400 to window 2's first sample at
 * 1050, is a gap that no function is charged.  a 100 + 25, b 100 + 100
 * (the last of window 1 lasts until its end), c 25; the session spans
 * 100 to 1100. */
static void test_two_windows(void)
{
	struct cdp *c = cdp_new_session();
	char err[300];
	CHECK(cdp_fold_json(c, window1, strlen(window1), err, sizeof(err)));
	CHECK(cdp_fold_json(c, window2, strlen(window2), err, sizeof(err)));
	struct model m;
	CHECK(cdp_session_model(c, &m, err, sizeof(err)));
	CHECK(nodes_self(&m, "a", 0) == 125 && nodes_self(&m, "b", 0) == 200 &&
	      nodes_self(&m, "c", 0) == 25);
	CHECK(nodes_self(&m, "(root)", 0) == 0);
	/* One (root), one a under it (merged across the windows' ids), b and
	 * c under a. */
	CHECK_MSG(m.nnodes == 4, "%zu nodes, want 4", m.nnodes);
	const char *names[] = { "a", "b", "b", "c", "a" };
	const double durations[] = { 100, 100, 100, 25, 25 };
	check_timeline(&m, names, durations, 5);
	CHECK(model_sample_count(&m) == 5 && cdp_sample_count(c) == 5);
	CHECK_MSG(m.duration == 1000, "duration %g, want 1000", m.duration);
	model_free(&m);
	cdp_free(c);
}

/* Console profiles rolled over: B began (950) before A ended (1000) and
 * repeats A's last sample (900); kept once.  a@100 300, b@400 500, b@900
 * until B's next sample 1200: 300, c@1200 400, a@1600 until B's end
 * 2000: 400.  No gap: the samples sum to the span, 1900. */
static const char rolled_a[] =
	"{\"nodes\":[{\"id\":1,\"callFrame\":" FRAME("(root)") ",\"children\":[2]},"
	"{\"id\":2,\"callFrame\":" FRAME("a") ",\"children\":[3]},"
	"{\"id\":3,\"callFrame\":" FRAME("b") ",\"children\":[]}],"
	"\"startTime\":0,\"endTime\":1000,\"samples\":[2,3,3],\"timeDeltas\":[100,300,500]}";
static const char rolled_b[] =
	"{\"nodes\":[{\"id\":5,\"callFrame\":" FRAME("(root)") ",\"children\":[6]},"
	"{\"id\":6,\"callFrame\":" FRAME("a") ",\"children\":[7,8]},"
	"{\"id\":7,\"callFrame\":" FRAME("b") ",\"children\":[]},"
	"{\"id\":8,\"callFrame\":" FRAME("c") ",\"children\":[]}],"
	"\"startTime\":950,\"endTime\":2000,\"samples\":[7,8,6],\"timeDeltas\":[-50,300,400]}";

static void test_rolled_over(void)
{
	struct cdp *c = cdp_new_session();
	char err[300];
	CHECK(cdp_fold_json(c, rolled_a, strlen(rolled_a), err, sizeof(err)));
	CHECK(cdp_fold_json(c, rolled_b, strlen(rolled_b), err, sizeof(err)));
	struct model m;
	CHECK(cdp_session_model(c, &m, err, sizeof(err)));
	CHECK(nodes_self(&m, "a", 0) == 700 && nodes_self(&m, "b", 0) == 800 &&
	      nodes_self(&m, "c", 0) == 400);
	const char *names[] = { "a", "b", "b", "c", "a" };
	const double durations[] = { 300, 500, 300, 400, 400 };
	check_timeline(&m, names, durations, 5);
	CHECK_MSG(m.duration == 1900, "duration %g, want 1900", m.duration);
	model_free(&m);
	cdp_free(c);
}

/* --duration: the session ends 1400 after its first sample (100): c@1200
 * lasts until 1500, a@1600 is left out. */
static void test_length(void)
{
	struct cdp_windows *w = cdp_windows_new();
	char err[300];
	cdp_windows_set_length(w, 1400);
	cJSON *a = cJSON_Parse(rolled_a), *b = cJSON_Parse(rolled_b);
	CHECK(cdp_windows_fold(w, a, false, err, sizeof(err)));
	CHECK(cdp_windows_fold(w, b, false, err, sizeof(err)));
	struct model m;
	CHECK(trace_live_session_model(cdp_windows_fold_of(w), &m, err, sizeof(err)));
	CHECK(nodes_self(&m, "a", 0) == 300 && nodes_self(&m, "b", 0) == 800 &&
	      nodes_self(&m, "c", 0) == 300);
	CHECK(m.duration == 1400 && cdp_windows_span(w) == 1400 && cdp_windows_samples(w) == 4);
	model_free(&m);
	cJSON_Delete(a);
	cJSON_Delete(b);
	cdp_windows_free(w);
}

/* The program's end: Node idles until the debugger leaves.  The last
 * window's trailing (idle) samples go, the session ending at the first
 * of them: a@100 until 500, nothing of (idle). */
static void test_program_end(void)
{
	static const char last[] =
		"{\"nodes\":[{\"id\":1,\"callFrame\":" FRAME("(root)") ",\"children\":[2,3]},"
		"{\"id\":2,\"callFrame\":" FRAME("a") ",\"children\":[]},"
		"{\"id\":3,\"callFrame\":" FRAME("(idle)") ",\"children\":[]}],"
		"\"startTime\":0,\"endTime\":1000,\"samples\":[2,3,3],\"timeDeltas\":[100,400,400]}";
	struct cdp_windows *w = cdp_windows_new();
	char err[300];
	cJSON *p = cJSON_Parse(last);
	CHECK(cdp_windows_fold(w, p, true, err, sizeof(err)));
	struct model m;
	CHECK(trace_live_session_model(cdp_windows_fold_of(w), &m, err, sizeof(err)));
	CHECK(nodes_self(&m, "a", 0) == 400 && nodes_self(&m, "(idle)", 0) == 0 && m.duration == 400);
	model_free(&m);
	cJSON_Delete(p);
	cdp_windows_free(w);
}

/* The program ends between windows (the bridge that would have covered
 * the moment between them lost): the next window, started after window1
 * ended at 400, holds only (idle) and goes whole; window1's last sample
 * still ends at 400, not at the first (idle) at 1050: a 100, b 200, the
 * session 300 long. */
static void test_program_end_after_gap(void)
{
	static const char idle[] =
		"{\"nodes\":[{\"id\":1,\"callFrame\":" FRAME("(root)") ",\"children\":[2]},"
		"{\"id\":2,\"callFrame\":" FRAME("(idle)") ",\"children\":[]}],"
		"\"startTime\":1000,\"endTime\":1200,\"samples\":[2,2],\"timeDeltas\":[50,50]}";
	struct cdp_windows *w = cdp_windows_new();
	char err[300];
	cJSON *a = cJSON_Parse(window1), *b = cJSON_Parse(idle);
	CHECK(cdp_windows_fold(w, a, false, err, sizeof(err)));
	CHECK(cdp_windows_fold(w, b, true, err, sizeof(err)));
	struct model m;
	CHECK(trace_live_session_model(cdp_windows_fold_of(w), &m, err, sizeof(err)));
	CHECK_MSG(nodes_self(&m, "a", 0) == 100 && nodes_self(&m, "b", 0) == 200 && m.duration == 300,
		  "a %g b %g, duration %g", nodes_self(&m, "a", 0), nodes_self(&m, "b", 0), m.duration);
	model_free(&m);
	cJSON_Delete(a);
	cJSON_Delete(b);
	cdp_windows_free(w);
}

static void refused(const char *json, const char *why)
{
	struct cdp *c = cdp_new_session();
	char err[300] = "";
	CHECK_MSG(!cdp_fold_json(c, json, strlen(json), err, sizeof(err)), "accepted: %s", why);
	CHECK_MSG(err[0], "no message: %s", why);
	cdp_free(c);
}

static void test_broken_windows(void)
{
	/* Each node the other's child: no root, so the sample names a node
	 * that has no place in the session. */
	refused("{\"nodes\":[{\"id\":1,\"callFrame\":" FRAME("a") ",\"children\":[2]},"
		"{\"id\":2,\"callFrame\":" FRAME("b") ",\"children\":[1]}],"
		"\"startTime\":0,\"endTime\":10,\"samples\":[1],\"timeDeltas\":[1]}", "a cycle");
	refused("{\"nodes\":[{\"id\":1,\"callFrame\":" FRAME("a") ",\"children\":[2,2]},"
		"{\"id\":2,\"callFrame\":" FRAME("b") ",\"children\":[]}],"
		"\"startTime\":0,\"endTime\":10,\"samples\":[1],\"timeDeltas\":[1]}",
		"a child twice");
	refused("{\"nodes\":[{\"id\":1,\"callFrame\":" FRAME("a") ",\"children\":[]}],"
		"\"startTime\":0,\"endTime\":10,\"samples\":[1,1],\"timeDeltas\":[1]}",
		"samples and timeDeltas of different lengths");
	refused("{\"nodes\":[{\"id\":1,\"callFrame\":" FRAME("a") ",\"children\":[]}],"
		"\"startTime\":0,\"endTime\":10,\"samples\":[5],\"timeDeltas\":[1]}",
		"a sample of no node");
	refused("{\"nodes\":[],\"startTime\":0,\"endTime\":10}", "no nodes");
	refused("[1,2", "not JSON");
}

/* root > a > b, c under a: for windows made up by fold_even. */
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

/* The live strip of `nbins` cells of `bin` us, as cells() draws it. */
static void check_strip(const struct model *m, size_t nbins, double bin, const char *want,
			struct timeline *t)
{
	char got[64];
	timeline_build_window(t, m, nbins, bin);
	cells(t, got);
	CHECK_MSG(!strcmp(got, want), "live strip %s, want %s", got, want);
}

/* window1 and window2 again, folded as the live view has them: from
 * the first sample, a 0-100, b 100-200, b 200-300, a gap 300-950 (650),
 * c 950-975, a 975-1000. */
/* Samples still pending (the newest 256): the gap among them.  Cells of
 * 100 us, ten: 0 a, 1 and 2 b, 3-8 the gap, 9 c and a. */
static void test_pending_gap(void)
{
	struct cdp_windows *w = cdp_windows_new();
	fold(w, window1);
	fold(w, window2);
	struct model m;
	live_model(w, &m);
	CHECK(nodes_self(&m, "a", 0) == 125 && nodes_self(&m, "b", 0) == 200 &&
	      nodes_self(&m, "c", 0) == 25);
	CHECK_MSG(m.duration == 1000, "duration %g", m.duration);
	CHECK_MSG(m.live.ngaps == 1 && m.live.gaps[0].before == 3 &&
			  m.live.gaps[0].duration == 650,
		  "%zu gaps, the first before %zu, %g long", m.live.ngaps,
		  m.live.ngaps ? m.live.gaps[0].before : 0,
		  m.live.ngaps ? m.live.gaps[0].duration : 0);
	check_clock(&m);

	struct timeline t;
	char got[64];
	check_strip(&m, 10, 100, "###......#", &t);
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
	CHECK(nodes_self(&view, "b", 0) == 200 && nodes_self(&view, "c", 0) == 25 &&
	      nodes_self(&view, "a", 0) == 0);
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
	CHECK(nodes_self(&m, "a", 0) == 3250 && nodes_self(&m, "b", 0) == 9750);
	check_clock(&m);
	struct timeline t;
	check_strip(&m, 30, 1000, "............##########.....###", &t);
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
	CHECK(nodes_self(&m, "a", 0) == (double)all / 4 * 10);
	check_clock(&m);
	model_free(&m);
	cdp_windows_free(w);
}

/* A bridge's moment: its evaluated code, "(anonymous)" at url wprof-tui,
 * under (root) beside a of x.js. */
static const char bridged[] =
	"{\"nodes\":[{\"id\":1,\"callFrame\":" FRAME("(root)") ",\"children\":[2,3]},"
	"{\"id\":2,\"callFrame\":" FRAME("a") ",\"children\":[]},"
	"{\"id\":3,\"callFrame\":{\"functionName\":\"\",\"scriptId\":\"9\","
	"\"url\":\"" CDP_BRIDGE_URL "\",\"lineNumber\":0,\"columnNumber\":0},\"children\":[]}],"
	"\"startTime\":0,\"endTime\":300,\"samples\":[2,3],\"timeDeltas\":[100,100]}";

static void ignore_warning(void *ctx, const char *message)
{
	(void)ctx;
	(void)message;
}

/* The scripts the source maps look for: "0 of N scripts" with a map
 * given that is not there. */
static void check_scripts(struct model *m, const char *want)
{
	struct source_options source = { 0 };
	const char *maps[] = { "/nonexistent/none.js.map" };
	struct symbolize_options o = { .source_maps = maps, .nsource_maps = 1,
				       .source = &source, .warn = ignore_warning };
	js_source_maps_apply(m, &o);
	const char *got = m->symbols == STR_NONE ? "(none)" : model_str(m, m->symbols);
	CHECK_MSG(!strcmp(got, want), "%s, want %s", got, want);
}

/* The bridge's frames are marked as wprof-tui's own and are no script
 * of the program's: x.js is the one script.  A program's own script
 * named wprof-tui (a file's frame, unmarked) is one. */
static void test_bridge_marked(void)
{
	struct cdp *c = cdp_new_session();
	char err[300];
	CHECK(cdp_fold_json(c, bridged, strlen(bridged), err, sizeof(err)));
	struct model m;
	CHECK(cdp_session_model(c, &m, err, sizeof(err)));
	size_t marked = 0;
	for (uint32_t f = 0; f < m.nframes; f++)
		if (m.frames[f].flags & FRAME_PROFILER)
			marked += !strcmp(model_str(&m, m.frames[f].url), CDP_BRIDGE_URL) &&
				  !strcmp(model_str(&m, m.frames[f].name), "(anonymous)") ? 1 : 100;
	CHECK_MSG(marked == 1, "marked %zu, want the bridge's frame alone", marked);
	check_scripts(&m, "source maps: 0 of 1 scripts");
	model_free(&m);
	cdp_free(c);

	struct load_options opt = { .session = -1 };
	struct load_error lerr;
	CHECK(load_memory(bridged, strlen(bridged), "mine.cpuprofile", &opt, &m, &lerr));
	check_scripts(&m, "source maps: 0 of 2 scripts");
	model_free(&m);
}

int main(void)
{
	test_two_windows();
	test_rolled_over();
	test_length();
	test_program_end();
	test_program_end_after_gap();
	test_broken_windows();
	test_bridge_marked();
	test_pending_gap();
	test_settled_gap();
	return check_done();
}
