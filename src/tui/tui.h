/* The interactive explorer: `wprof-tui FILE`. */
#ifndef WPROF_TUI_H
#define WPROF_TUI_H

#include "model/model.h"
#include "transform/transform.h"
#include "input/source.h"
#include "transform/symbolize.h"

struct load_options;

struct tui_options {
	const char *theme; /* a name in themes/ or a path; NULL: the default */
	unsigned sample_type; /* as --sample-type chose, else the default */
	const struct transform_stack *filters; /* --focus RE ..., or NULL */
	bool flame_up; /* --flame-up: the flame graph's root at the bottom */
	struct source_options source; /* --source-path, --trim-path */
	/* --source-map; its source and warn are set where it is used. */
	struct symbolize_options symbolize;
	unsigned granularity; /* enum granularity: --granularity */
	const struct load_options *load; /* how the file was read, or NULL */
	bool relative; /* --relative: % of what the filters leave */
	double min_share; /* --min-share: % of the profile; 0: every row */
	bool normalize; /* --normalize: a comparison starts with shares */
};

/* Every key may rebuild arrays of a row per node or per sample (a range,
 * the flame graph, a filter's level on its thread); glibc serves blocks
 * that large with mmap and hands them back to the kernel on free, so
 * each rebuild page-faulted its memory in again: three times the flame
 * graph's build on the 190 MB bench (bench/tui-range).  A thread's own
 * arena does the same whatever the thresholds say (glibc deletes a heap
 * of it once empty): a filter's level took 15 000 page faults, a third
 * of its 75 ms, each time.  The explorer keeps what it freed instead, in
 * one arena for every thread (the small blocks come from each thread's
 * cache without a lock).  Called before the profile is loaded (its
 * second thread is the first), and again by each explorer. */
void tui_keep_freed_memory(void);

/* Runs the explorer on a loaded model; returns the exit status. */
int tui_run(const char *file, struct model *m, const struct tui_options *o);

struct live_source;
/* Runs the explorer on a live source (src/live/source.h: XS engines, a
 * --live URL, an inspector target), not yet started; returns the exit
 * status. */
int tui_run_live(struct live_source *source, const struct tui_options *o);

/* `wprof-tui BASE NEW`: the two profiles side by side; with several runs
 * a side (`--base A1 --base A2 B1 B2`) models[s] holds nruns[s] of them,
 * files[s] names the first. */
int tui_run_compare(const char *const files[2], struct model *models[2],
		    const size_t nruns[2], const struct tui_options *o);

/* Replays the keys of `script` (one per line: a key as the help names it,
 * or /TEXT to search) without a terminal and prints each one's time.
 * Returns the exit status. */
int tui_bench_keys(const char *script, const char *file, struct model *m,
		   const struct tui_options *o);

#endif
