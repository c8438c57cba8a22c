/* Trace-event files that are not one clean CPU profile: chunks that name
 * nodes no chunk has or pair samples with too many or too few timeDeltas
 * (loaded, what cannot be placed left out and counted in the warning),
 * and traces of duration events only (an evented profile per thread).
 * The files are testdata/trace/, written by hand but one (cut from a real
 * Chromium trace); every number below is worked out from them in the
 * comments. */
#include <stdio.h>
#include <string.h>

#include "tests/model_checks.h"

static const char *dir = "testdata";

static bool load(const char *file, const char *thread, struct model *m)
{
	return load_testdata(dir, "trace", file, thread, m);
}

static void check_warning(const struct model *m, const char *want)
{
	const char *got = m->warning == STR_NONE ? "(none)" : model_str(m, m->warning);
	CHECK_MSG(!strcmp(got, want), "warning %s, want %s", got, want);
}

static double sample_sum(const struct model *m)
{
	double sum = 0;
	for (size_t i = 0; i < m->nsamples; i++)
		sum += m->sample_duration[i];
	return sum;
}

/* startTime 1000, deltas of 10: samples 2 3 9 | 3 9 2 at 1010 ... 1060,
 * endTime 1070, each lasting 10 µs.  Node 9 is in no chunk: its two
 * samples (1030, 1050) are left out with their 20 µs.  main: self
 * 1010 + 1060 = 20, total 40; work: self 1020 + 1040 = 20. */
static void check_nameless_samples(void)
{
	struct model m;
	if (!load("nameless-samples.json", NULL, &m))
		return;
	CHECK(m.nsamples == 4);
	CHECK_CLOSE(sample_sum(&m), 40.0, "sampled time");
	check_function(&m, "main", 20, 40);
	check_function(&m, "work", 20, 20);
	check_warning(&m, "2 samples named no node: left out");
	model_free(&m);
}

/* (root) lists child 7 and lost names parent 8, neither in any chunk:
 * both edges are left out, lost becomes a root.  startTime 0, deltas of
 * 100: samples work work lost main at 100 200 300 400, endTime 500, each
 * 100 µs.  work self 200; main self 100, total 300; lost 100 on its own;
 * (root) total 300. */
static void check_dangling_edges(void)
{
	struct model m;
	if (!load("dangling-edge.json", NULL, &m))
		return;
	check_function(&m, "work", 200, 200);
	check_function(&m, "main", 100, 300);
	check_function(&m, "lost", 100, 100);
	check_function(&m, "(root)", 0, 300);
	check_warning(&m, "2 edges named a node no chunk has: left out");
	model_free(&m);
}

/* Chunk one: samples 2 2 3 with six deltas of 10 (the last three
 * ignored); chunk two: samples 3 2 with one delta (its second sample left
 * out).  Samples main main work work at 10 20 30 40, endTime 50: main
 * self 20, total 40; work 20. */
static void check_delta_counts(void)
{
	struct model m;
	if (!load("extra-deltas.json", NULL, &m))
		return;
	CHECK(m.nsamples == 4);
	check_function(&m, "main", 20, 40);
	check_function(&m, "work", 20, 20);
	check_warning(&m, "1 samples had no timeDelta: left out; "
			  "3 timeDeltas had no sample: ignored");
	model_free(&m);
}

/* begin-end.json, thread 1 (CrRendererMain): B Task 0, B Parse 10,
 * E 30, X Script 40+30 holding X GC 50+10 (written after it, as Chrome
 * writes finished slices), B Layout 80, E (no name) 90, E Task 100, a
 * stray E 110 (nothing open: ignored), X Paint 120+20, B Commit 150
 * never ended: closed at the trace's last time, 300 (thread 2's Compile
 * 0+300).  Stretches: Task 0-10, Parse 10-30, Task 30-40, Script 40-50,
 * GC 50-60, Script 60-70, Task 70-80, Layout 80-90, Task 90-100, idle
 * 100-120, Paint 120-140, idle 140-150, Commit 150-300: 13 samples.
 * Self: Task 40, Parse 20, Script 20, GC 10, Layout 10, Paint 20,
 * Commit 150, (idle) 30; totals: Task 100, Script 30.  CrRendererMain
 * opens though Worker has more slice time (300 against 270). */
static void check_begin_end(void)
{
	struct model m;
	if (!load("begin-end.json", NULL, &m))
		return;
	CHECK(!strcmp(m.format, "trace-event JSON (duration events)"));
	CHECK(!strcmp(model_str(&m, m.thread), "CrRendererMain (Renderer pid 1, tid 1)"));
	CHECK(m.nother_threads == 1 &&
	      !strcmp(model_str(&m, m.other_threads[0]), "Worker (Renderer pid 1, tid 2)"));
	static const double stretches[] = { 10, 20, 10, 10, 10, 10, 10, 10, 10, 20, 20, 10, 150 };
	CHECK(m.nsamples == ARRAY_LEN(stretches));
	for (size_t i = 0; i < m.nsamples && i < ARRAY_LEN(stretches); i++)
		CHECK_CLOSE(m.sample_duration[i], stretches[i], "stretch");
	CHECK(m.caps & HAS_TIMELINE);
	CHECK_CLOSE(m.start_time, 0.0, "start");
	CHECK_CLOSE(m.end_time, 300.0, "end");
	check_function(&m, "Task", 40, 100);
	check_function(&m, "Parse", 20, 20);
	check_function(&m, "Script", 20, 30);
	check_function(&m, "GC", 10, 10);
	check_function(&m, "Layout", 10, 10);
	check_function(&m, "Paint", 20, 20);
	check_function(&m, "Commit", 150, 150);
	check_function(&m, "(idle)", 30, 30);
	CHECK(frame_named(&m, "Stray") == NO_ID);
	model_free(&m);
	/* T names the next thread as the header lists it. */
	if (!load("begin-end.json", "Worker (Renderer pid 1, tid 2)", &m))
		return;
	check_function(&m, "Compile", 300, 300);
	CHECK(m.nsamples == 1);
	model_free(&m);
}

/* trace-duration-only.json, cut from a real Chromium 156 trace (X events
 * and one B, no E, no CPU profile): on CrRendererMain, TimerFire has
 * dur 267856 and holds FunctionCall, dur 267800; every stretch of the
 * thread is one sample, so the samples cover its span without a gap. */
static void check_real_duration_events(void)
{
	struct model m;
	if (!load("trace-duration-only.json", NULL, &m))
		return;
	CHECK(!strcmp(model_str(&m, m.thread), "CrRendererMain (Renderer pid 11984, tid 11984)"));
	check_function(&m, "TimerFire", -1, 267856);
	check_function(&m, "FunctionCall", -1, 267800);
	CHECK_CLOSE(sample_sum(&m), m.end_time - m.start_time, "samples cover the span");
	model_free(&m);
}

int main(int argc, char **argv)
{
	if (argc > 1)
		dir = argv[1];
	check_nameless_samples();
	check_dangling_edges();
	check_delta_counts();
	check_begin_end();
	check_real_duration_events();
	return check_done();
}
