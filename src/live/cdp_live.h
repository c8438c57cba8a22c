/* An inspector target followed live: a thread of its own takes the
 * trace batches or runs the profiler windows (cdp.h) into the session, so that the
 * explorer's keys never wait on the network; the explorer takes finished
 * model snapshots when a window has been folded.  The shape other
 * sources can share: start/stop, a snapshot when there is news, write,
 * a state line. */
#ifndef WPROF_LIVE_CDP_LIVE_H
#define WPROF_LIVE_CDP_LIVE_H

#include <stdbool.h>
#include <stddef.h>

#include "model/model.h"
#include "cdp.h"

struct cdp_live;

/* Attaches (blocking, with cdp_attach's deadlines) and starts profiling
 * on the thread.  NULL with a message in err. */
struct cdp_live *cdp_live_start(const struct cdp_options *o, char *err, size_t cap);
/* Stops the thread (after the window under way) and detaches. */
void cdp_live_free(struct cdp_live *cl);

const char *cdp_live_name(const struct cdp_live *cl);
const char *cdp_live_url(const struct cdp_live *cl);
/* p: profiling windows on or off (the window under way is folded).  Off,
 * the target is still listened to, so that its program's end is heard
 * (the state then says "program ended", and Node is let go). */
void cdp_live_set_profiling(struct cdp_live *cl, bool on);
bool cdp_live_profiling(struct cdp_live *cl);
/* cdp_mode ("streaming samples over Tracing", "polling Profiler windows
 * (…)"), "not profiling (p starts)", or what ended the connection. */
void cdp_live_state(struct cdp_live *cl, char *out, size_t cap);
/* Once, for the status line: why the samples come in windows
 * ("polling Profiler windows (tracing not available) because
 * Tracing.start: 'Tracing.start' wasn't found").  False when nothing new. */
bool cdp_live_news(struct cdp_live *cl, char *out, size_t cap);
/* A window folded or a batch taken since the last refresh: cdp_refresh
 * (the session's new model in *fresh, or new numbers in place in `shown`,
 * the model this gave last, NULL before the first). */
enum cdp_refresh cdp_live_refresh(struct cdp_live *cl, struct model *shown,
				  struct model *fresh);
bool cdp_live_write(struct cdp_live *cl, const char *path, char *err, size_t cap);

#endif
