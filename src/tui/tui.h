/* The interactive explorer: `wprof-tui FILE`. */
#ifndef WPROF_TUI_H
#define WPROF_TUI_H

#include "../model.h"
#include "../source.h"

struct tui_options {
	const char *theme; /* a name in themes/ or a path; NULL: the default */
	unsigned sample_type; /* as --sample-type chose, else the default */
	struct source_options source; /* --source-path, --trim-path */
	unsigned granularity; /* enum granularity: --granularity, then L */
};

/* Runs the explorer on a loaded model; returns the exit status. */
int tui_run(const char *file, struct model *m, const struct tui_options *o);

struct live;
/* Runs the explorer on live engines (--listen/--connect at `address`,
 * already set up); returns the exit status. */
int tui_run_live(struct live *l, const char *address, const struct tui_options *o);

/* `wprof-tui BASE NEW`: the two profiles side by side. */
int tui_run_compare(const char *const files[2], struct model *models[2],
		    const struct tui_options *o);

/* Replays the keys of `script` (one per line: a key as the help names it,
 * or /TEXT to search) without a terminal and prints each one's time.
 * Returns the exit status. */
int tui_bench_keys(const char *script, const char *file, struct model *m,
		   const struct tui_options *o);

#endif
