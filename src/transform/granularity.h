/* pprof's -granularity: the same profile with files or source lines as
 * its functions, as a new model built from the loaded one, so that every
 * pane, rule and report works on it unchanged.
 *
 *   files: a frame per source file (one without a file keeps its name);
 *          calls within a file are one frame, as one function;
 *   lines: pprof files are loaded by line (load_options.by_line, exact
 *          for every rule); V8 profiles and traces split each node's self
 *          time over its positionTicks lines, as frames "f" at line L
 *          under the node's function (V8 does not say from which line a
 *          function called others, so the calls stay under "f" itself);
 *   addresses: profiles of code addresses (pprof, legacy pprof,
 *          gperftools) are loaded with a frame per address
 *          (load_options.by_address), as pprof's -addresses; other
 *          profiles have no addresses.
 * The timeline stays, so that ranges and time order work at any
 * granularity: each sample on the node standing for its node; a node
 * split by its lines keeps its samples on its function's node (V8 counts
 * a node's samples by line, not which sample was on which line), and a
 * count of samples is split in whole samples. */
#ifndef WPROF_GRANULARITY_H
#define WPROF_GRANULARITY_H

#include <stdbool.h>

#include "model/model.h"

enum granularity { GRANULARITY_FUNCTIONS, GRANULARITY_FILES, GRANULARITY_LINES,
		   GRANULARITY_ADDRESSES, GRANULARITY_COUNT };

bool granularity_parse(const char *name, enum granularity *out);
const char *granularity_name(enum granularity g);

/* Is m's format one whose loader reads it by address? */
bool model_has_addresses(const struct model *m);

/* Is m at granularity g the file read again by its loader (pprof by
 * lines, whose lines a model by functions does not hold; by addresses)
 * rather than a model made from m (model_by_granularity)? */
bool granularity_read_again(const struct model *m, enum granularity g);

/* The granularity after g for the explorer's key: addresses only where
 * the profile has them. */
enum granularity granularity_next(enum granularity g, const struct model *m);

/* Fills `out` (a new model) with `src` at granularity g (files or lines).
 * Needs a call tree; otherwise false and why in *why_not (always for
 * addresses, which only a loader can make).  Made ahead by a behind job
 * (base/background.h) that is stopped meanwhile, it ends at its next
 * pause point: false, "stopped", `out` freed. */
bool model_by_granularity(const struct model *src, enum granularity g,
			  struct model *out, const char **why_not);

#endif
