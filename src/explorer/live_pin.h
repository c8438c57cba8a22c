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

/* A comparison of the runs so far, built on a thread (live_pin.c). */
struct live_pin_build;

struct live_pin {
	bool pinned;
	/* The windows cut, base then new, each a model of its own: a build
	 * under way reads them while later windows are added. */
	struct model **runs[DIFF_SIDES];
	size_t n[DIFF_SIDES], cap[DIFF_SIDES];
	size_t first_window[DIFF_SIDES]; /* the session's number of each side's first */
	size_t next_window; /* the session's window the next new run will be */
	/* What the screen shows: the last comparison built, once a window
	 * after the pin is in (NULL before), and the build that owns it. */
	struct compare *compare;
	struct live_pin_build *shown;
	/* The comparison of more runs being built on a thread, or NULL:
	 * with many functions and windows a build takes longer than a key
	 * may wait (hundreds of ms), so the one shown stays until it is
	 * ready. */
	struct live_pin_build *building;
};

/* B: pins the session's complete windows as the base.  False, and what
 * to tell the user in `why`, when it has none yet (nothing is pinned
 * then: pinning later, when the first completes, would take in a window
 * the user may already have changed the program in). */
bool live_pin_start(struct live_pin *p, const struct model *session, char *why,
		    size_t cap);
/* After each snapshot: the windows completed since become new runs, and
 * a comparison of all the runs is started on a thread (or once the one
 * under way is over).  True when windows were added. */
bool live_pin_update(struct live_pin *p, const struct model *session);
/* Often, from the UI's loop: a finished build becomes `compare`, taking
 * the settings of the one shown (layout, sort, rule, shares, hidden
 * noise, the cursor's function), and runs added meanwhile start the
 * next.  True when `compare` changed.  With `wait`, waits for the build
 * under way (tests). */
bool live_pin_poll(struct live_pin *p, bool wait);
/* Unpins: waits for a build under way, frees the runs and comparisons. */
void live_pin_free(struct live_pin *p);

#endif
