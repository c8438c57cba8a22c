/* Trace-event files that are not one clean CPU profile: chunks that name
 * nodes no chunk has or pair samples with too many or too few timeDeltas
 * (loaded, what cannot be placed left out and counted in the warning),
 * and traces of duration events only (an evented profile per thread).
 * The files are testdata/trace/, written by hand; every number below is
 * worked out from them in the comments. */
#include <stdio.h>
#include <string.h>

#include "tests/check.h"
#include "loaders/loaders.h"
#include "rules/rules.h"
#include "base/util.h"

static const char *dir = "testdata";

static uint32_t frame_named(const struct model *m, const char *name)
{
	for (uint32_t f = 0; f < m->nframes; f++)
		if (!strcmp(model_str(m, m->frames[f].name), name))
			return f;
	return NO_ID;
}

static bool load(const char *file, const char *thread, struct model *m)
{
	char path[512];
	snprintf(path, sizeof(path), "%s/trace/%s", dir, file);
	struct load_options opt = { .session = -1, .thread = thread };
	struct load_error err;
	bool ok = load_file(path, &opt, m, &err, NULL);
	CHECK_MSG(ok, "%s: %s", path, err.message);
	return ok;
}

/* Self and total (µs) of a function under the exact rule. */
static void check_function(const struct model *m, const char *name, double self,
			   double total)
{
	struct rules r;
	rules_init(&r, m);
	const struct totals *t = rules_totals(&r, RULE_EXACT, 0);
	uint32_t f = frame_named(m, name);
	CHECK_MSG(f != NO_ID, "no function %s", name);
	if (f != NO_ID) {
		CHECK_MSG(close_enough(t->self[f], self), "%s: self %g, want %g", name,
			  t->self[f], self);
		CHECK_MSG(close_enough(t->total[f], total), "%s: total %g, want %g", name,
			  t->total[f], total);
	}
	rules_free(&r);
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

int main(int argc, char **argv)
{
	if (argc > 1)
		dir = argv[1];
	check_nameless_samples();
	check_dangling_edges();
	check_delta_counts();
	return check_done();
}
