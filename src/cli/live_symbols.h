/* Live models symbolized (transform/symbolize.h) as loaded files are:
 * a live source that wraps another, so that every model it gives the
 * explorer (snapshots) or a report (collect) has its JavaScript frames
 * through their scripts' source maps and its wasm frames through the
 * --symbols modules.
 *
 * The maps, modules and DWARF are read once and kept for the session
 * (a symbolizer).  Until a model has something to map, models pass as
 * the source gives them, new numbers in place; from the first that has,
 * the wrapper keeps the source's own model (which the source goes on
 * updating in place) and gives the explorer a mapped copy of it at each
 * refresh: a new model, the cost of one rebuild of the model.
 *
 * A --symbols module that does not fit a model is said once (on `log`
 * without the explorer, else on the status line) and that model's wasm
 * frames stay as they are: a session's first seconds may have none; the
 * next models are tried again.  collect (for --report and --export)
 * refuses it instead, as a file's load does.  `w` writes the session as
 * the source recorded it. */
#ifndef WPROF_CLI_LIVE_SYMBOLS_H
#define WPROF_CLI_LIVE_SYMBOLS_H

#include <stdio.h>

#include "live/source.h"

struct symbolize_options;

/* Takes `source` over (freed with the wrapper); NULL with err when a
 * --symbols file cannot be read (`source` then still the caller's).
 * `o` is copied, what it points to must outlive the wrapper. */
struct live_source *live_symbolized(struct live_source *source,
				    const struct symbolize_options *o, FILE *log, char *err,
				    size_t cap);

#endif
