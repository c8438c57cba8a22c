/* Several runs a side in the differential flame graph: each call path's
 * own test.  A function can be slower for real on one path and only
 * noisy on another (its callers vary from run to run), so pane 5 colours
 * a frame by its path's runs, not by its function's.
 *
 * The paths are those of the first new run's left-heavy graph (the
 * frames the differential graph draws), under the runs' rule and sample
 * type.  A path's value in a run is the width of the same path (its
 * frames paired function by function as runs.h pairs them: the first
 * base run through the first diff, the other runs through their
 * pairings with the first new run) in that run's own graph, 0 where the
 * run lacks it, or with normalize that width as a percent of the run's
 * profile.  Per path: Welch's test of the new runs against the base
 * runs, as a delta row has (runs.h). */
#ifndef WPROF_RUNS_PATHS_H
#define WPROF_RUNS_PATHS_H

#include <stddef.h>

#include "compare/runs.h"
#include "views/flame.h"

struct path_verdict {
	int significant; /* as runs_significance: 1, 0, -1 untestable */
	double delta;    /* the new mean - the base mean */
};

struct runs_paths {
	struct flame graph; /* the first new run's, left-heavy */
	struct path_verdict *verdicts; /* per frame of graph */
};

/* Builds every run's graph once and tests each path of the first new
 * run's, under rd's rule and normalize (rd built).  Only where both sides
 * have two runs or more (runs_testable); else graph is empty. */
void runs_paths_build(struct runs_paths *p, const struct runs_diff *rd);
void runs_paths_free(struct runs_paths *p);

/* The verdict of the call path of frame i of `now`, a graph of the first
 * new run (it may leave out small frames, or be built later): that of
 * the same path in p's graph; untestable where p has none. */
void runs_paths_of(const struct runs_paths *p, const struct flame *now,
		   struct path_verdict *out);

#endif
