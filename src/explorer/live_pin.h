/* Live "pin the base" (B): the windows of a live session so far become
 * the base runs, and each window that completes after the pin a new run,
 * compared as `--base A1 --base A2 B1 B2` compares files (compare.h,
 * compare/runs.h): the same means, intervals and test, a window a run.
 *
 * A session's windows are its own where it has them (Go's `--live URL`
 * windows, model.live.window_first), else spans of LIVE_PIN_WINDOW_US of
 * its samples' time from the session's start (XS engines, the
 * inspector).  Each window is cut from the session (model_cut_range)
 * once, when it is complete: the base stays what was pinned while a live
 * timeline slides on.  No curses here. */
#ifndef WPROF_LIVE_PIN_H
#define WPROF_LIVE_PIN_H

#include <stdbool.h>
#include <stddef.h>

#include "compare.h"

/* A timed session's window: one second, as the inspector's Profiler
 * windows. */
#define LIVE_PIN_WINDOW_US 1e6

/* What B says before the session's first window is complete. */
#define LIVE_PIN_TOO_EARLY "no complete window yet: B pins once one has arrived"

struct live_pin {
	bool pinned;
	struct model *runs[DIFF_SIDES]; /* the windows cut, base then new */
	size_t n[DIFF_SIDES], cap[DIFF_SIDES];
	size_t first_window[DIFF_SIDES]; /* the session's number of each side's first */
	size_t next_window; /* the session's window the next new run will be */
	char labels[DIFF_SIDES][96];
	/* Built once a window after the pin is in; again at each window. */
	struct compare *compare;
};

/* B: pins the session's complete windows as the base.  False, and what
 * to tell the user in `why`, when it has none yet (nothing is pinned
 * then: pinning later, when the first completes, would take in a window
 * the user may already have changed the program in). */
bool live_pin_start(struct live_pin *p, const struct model *session, char *why,
		    size_t cap);
/* After each snapshot: the windows completed since become new runs, and
 * the comparison is built again on them (keeping its settings).  True
 * when it was. */
bool live_pin_update(struct live_pin *p, const struct model *session);
/* Unpins: frees the runs and the comparison. */
void live_pin_free(struct live_pin *p);

#endif
