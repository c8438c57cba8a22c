/* Live "pin the base" without a terminal (src/explorer/live_pin.h): a
 * timed session's windows are seconds of its samples' time.
 *
 * anon-long.cpuprofile stands for a session: node --cpu-prof samples of
 * 2.70 s (DevTools' reading: a sample lasts until the next), so two
 * windows are complete and the third is still filling.  A window holds
 * the samples that start in its second, so its time is one second give
 * or take one sample's duration. */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "tests/check.h"
#include "explorer/live_pin.h"
#include "loaders/loaders.h"
#include "rules/rules.h"
#include "transform/range.h"

static double longest_sample(const struct model *m)
{
	double longest = 0;
	for (size_t i = 0; i < m->nsamples; i++)
		longest = fmax(longest, m->sample_duration[i]);
	return longest;
}

/* The session's first 1.5 s pinned (one window), then the whole
 * session: its second window is the new run, compared on a thread. */
static void pin_then_grow(const struct model *session)
{
	struct sample_range first = { 0, 0 };
	while (first.end < session->nsamples && range_sample_offset(session, first.end) < 1.5e6)
		first.end++;
	struct model early;
	const char *why_not;
	CHECK(model_cut_range(session, first, true, &early, &why_not));
	struct live_pin pin = { 0 };
	char why[128];
	CHECK(live_pin_start(&pin, &early, why, sizeof(why)));
	CHECK_MSG(pin.n[DIFF_BASE] == 1, "%zu windows pinned of 1.5 s, want 1", pin.n[DIFF_BASE]);
	CHECK(live_pin_update(&pin, session));
	CHECK(pin.n[DIFF_NEW] == 1);
	/* Built on a thread: shown once over, the runs and labels its own. */
	while (!pin.compare)
		live_pin_poll(&pin, true);
	CHECK(pin.building == NULL);
	CHECK(pin.compare->runs.nruns[DIFF_BASE] == 1 && pin.compare->runs.nruns[DIFF_NEW] == 1);
	CHECK_MSG(!strcmp(pin.compare->side[DIFF_BASE].file, "window 1 (1 run)") &&
		  !strcmp(pin.compare->side[DIFF_NEW].file, "window 2 (1 run)"),
		  "labels %s -> %s", pin.compare->side[DIFF_BASE].file,
		  pin.compare->side[DIFF_NEW].file);
	CHECK(pin.compare->delta_layout);
	/* Nothing new: no build, the comparison stays. */
	CHECK(!live_pin_update(&pin, session));
	CHECK(!live_pin_poll(&pin, true) && pin.building == NULL);
	live_pin_free(&pin);
	model_free(&early);
}

int main(int argc, char **argv)
{
	if (argc < 2) {
		fprintf(stderr, "usage: %s TESTDATA\n", argv[0]);
		return 2;
	}
	char path[4096];
	snprintf(path, sizeof(path), "%s/anon-long.cpuprofile", argv[1]);
	struct model session;
	struct load_error err;
	struct load_options opt = { .session = -1 };
	if (!load_file(path, &opt, &session, &err, NULL)) {
		fprintf(stderr, "%s: %s\n", path, err.message);
		return 1;
	}
	struct live_pin pin = { 0 };
	char why[128];
	CHECK(live_pin_start(&pin, &session, why, sizeof(why)));
	CHECK_MSG(pin.n[DIFF_BASE] == 2, "%zu base windows, want 2 of 2.70 s",
		  pin.n[DIFF_BASE]);
	double slack = longest_sample(&session);
	for (size_t i = 0; i < pin.n[DIFF_BASE]; i++) {
		struct model *run = pin.runs[DIFF_BASE][i];
		struct rules rules;
		rules_init(&rules, run);
		double t = rules_totals(&rules, RULE_EXACT, run->default_type)->profile_total;
		rules_free(&rules);
		CHECK_MSG(fabs(t - 1e6) <= slack, "window %zu holds %g us, want 1 s +- %g",
			  i + 1, t, slack);
	}
	/* No window completes after the pin in the same session: nothing to
	 * compare yet. */
	CHECK(!live_pin_update(&pin, &session));
	CHECK(pin.compare == NULL && pin.n[DIFF_NEW] == 0);
	live_pin_free(&pin);
	CHECK(!pin.pinned && !pin.runs[DIFF_BASE]);
	pin_then_grow(&session);
	model_free(&session);
	return check_done();
}
