/* An inspector session made of Profiler windows (each a Profiler.Profile:
 * Profiler.stop's result, or Profiler.consoleProfileFinished's): each
 * window is folded as it comes into one live fold (loaders/trace.h,
 * trace_live_fed), so that a window costs what it holds, not the
 * session, and memory is the distinct stacks plus the bounded timeline
 * (docs/live.md).
 *
 * Stacks are merged by their call frames (the callFrame object's text)
 * under the same parent, so node ids that differ between windows do not
 * matter.  Times are the target's clock: windows that overlap (the next
 * profile started before the last one ended) keep each sample once, by
 * its time; between windows that do not, the time from the end of one to
 * the first sample of the next is a gap, counted nowhere (and a window
 * after a gap that folds no sample, all trailing (idle), changes
 * nothing).  A window
 * whose clock runs behind the last one's end (a peer whose clock starts
 * again each window) is laid after it. */
#ifndef WPROF_LIVE_CDP_WINDOWS_H
#define WPROF_LIVE_CDP_WINDOWS_H

#include <cjson/cJSON.h>
#include <stdbool.h>
#include <stddef.h>

#include "model/model.h"

/* The url the console-profile bridge's evaluated code names itself by
 * (its sourceURL): its frames are marked FRAME_PROFILER in the model, so
 * that nothing takes them for the program's scripts. */
#define CDP_BRIDGE_URL "wprof-tui"

/* Distinct stacks in a session: past this the session stops growing. */
#define CDP_MAX_NODES (4u << 20)

struct cdp_windows;

struct cdp_windows *cdp_windows_new(void);
void cdp_windows_free(struct cdp_windows *w);

/* The session ends `us` after its first sample (--duration): samples
 * after that are left out, the last window ends there.  0: no end. */
void cdp_windows_set_length(struct cdp_windows *w, double us);

/* The target waited for the debugger (node --inspect-brk): the first
 * window's leading (idle) samples are that wait, not the program's, and
 * are left out, the session starting with the program. */
void cdp_windows_target_waited(struct cdp_windows *w);

/* Folds one window.  `last`: the program is over, and the window's
 * trailing (idle) samples (Node waiting for the debugger to leave) are
 * left out, the session ending where they began.  False, with none of
 * its samples folded, when the profile is not one (nodes without a
 * callFrame, a child named twice, samples naming no node, ...). */
bool cdp_windows_fold(struct cdp_windows *w, const cJSON *profile, bool last,
		      char *err, size_t cap);

/* Samples folded, and the target's time from the first to the end. */
size_t cdp_windows_samples(const struct cdp_windows *w);
double cdp_windows_span(const struct cdp_windows *w);

/* Has the session reached its length? */
bool cdp_windows_full(const struct cdp_windows *w);

/* For the live view: the fold (trace_live_model, trace_live_session_model). */
struct trace_live *cdp_windows_fold_of(struct cdp_windows *w);

#endif
