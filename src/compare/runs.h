/* Several runs a side: each function's values in every run, their mean
 * and spread per side, the delta of the means with its 95 % interval and
 * Welch's t-test (welch.h) saying whether the change is more than noise.
 * `--report flat --diff --base A1 --base A2 B1 B2` prints it.
 *
 * Pairing, kept simple: the rows are those of the diff of the first base
 * run with the first new run (diff.h); every other run is paired the same
 * way (a diff of the two) with the first run of its side, and with the
 * first run of the other side for the functions only that one has; a
 * function counts the value its counterpart has in that run.  A function
 * a run lacks counts 0 there, as an absent side counts 0 in a delta; one
 * that neither first run has makes no row.
 * Values are totals and selfs under the first diff's rule, or with its
 * normalize each run's shares (percent of that run's profile).
 *
 * With one run a side there is no spread: p, the interval and
 * `significant` are unknown (NAN, -1), never a guess. */
#ifndef WPROF_RUNS_H
#define WPROF_RUNS_H

#include <stddef.h>

#include "compare/diff.h"
#include "compare/welch.h"

struct runs_row {
	const struct diff_row *row; /* of the first runs' diff */
	/* Per run, nruns[s] values each; NAN where the rule gives no total. */
	double *total[DIFF_SIDES], *self[DIFF_SIDES];
	bool present[DIFF_SIDES]; /* some run of that side has the function */
	struct sample_summary total_stats[DIFF_SIDES], self_stats[DIFF_SIDES];
	struct welch test; /* of the totals: new runs against base runs */
	double delta_pct;  /* test.delta as percent of the base mean, or NAN */
	int significant;   /* 1, 0, or -1: untestable */
};

struct runs_diff {
	struct diff *first; /* the first base run against the first new run */
	size_t nruns[DIFF_SIDES];
	struct diff *pairing[DIFF_SIDES]; /* run i + 1 against run 0 */
	struct diff *cross[DIFF_SIDES];   /* run i + 1 against the other's run 0 */
	struct runs_row *rows;
	size_t nrows;
	double *values;
};

/* `first` is initialised (diff_init) on rules[s][0]; the rules outlive
 * the runs_diff. */
void runs_diff_init(struct runs_diff *rd, struct diff *first,
		    struct rules **rules[DIFF_SIDES], const size_t nruns[DIFF_SIDES]);
void runs_diff_free(struct runs_diff *rd);

/* Builds first (diff_build) and the rows under its rule and normalize,
 * sorted: significant rows first, then by first->sort on the means. */
void runs_diff_build(struct runs_diff *rd);
/* Sorts the rows again after first->sort or first->reversed changed
 * (first's own rows stay as they are: the runs' rows point into them). */
void runs_diff_sort(struct runs_diff *rd);

/* A test's verdict as runs_row.significant holds it: 1 significant, 0
 * within the noise, -1 untestable (no spread to weigh it against). */
int runs_significance(const struct welch *test);

/* Whether the explorer colours a change of `change` (new - base in the
 * first runs: of a delta row, or of one call path in the differential
 * flame graph) of a function or path whose runs' test gave `significant`
 * (as runs_significance) and whose means moved by `delta`: where the runs
 * could be weighed, only a significant change that went the way its
 * means did (first runs that moved against them are noise there);
 * untestable (one run a side), every change but none, as before there
 * were runs. */
bool runs_colours_change(int significant, double delta, double change);

/* Every side has two runs or more: the test can be made. */
bool runs_testable(const struct runs_diff *rd);

/* The name of the row's function (its base side where known). */
const char *runs_row_name(const struct runs_diff *rd, const struct runs_row *r);

#endif
