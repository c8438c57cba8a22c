/* The interactive explorer: `wprof-tui FILE`. */
#ifndef WPROF_TUI_H
#define WPROF_TUI_H

#include "../model.h"
#include "../transform.h"
#include "../source.h"

struct load_options;

struct tui_options {
	const char *theme; /* a name in themes/ or a path; NULL: the default */
	unsigned sample_type; /* as --sample-type chose, else the default */
	const struct transform_stack *filters; /* --focus RE ..., or NULL */
	bool flame_up; /* --flame-up: the flame graph's root at the bottom */
	struct source_options source; /* --source-path, --trim-path */
	unsigned granularity; /* enum granularity: --granularity */
	const struct load_options *load; /* how the file was read, or NULL */
};

/* Runs the explorer on a loaded model; returns the exit status. */
int tui_run(const char *file, struct model *m, const struct tui_options *o);

struct live;
/* Runs the explorer on live engines (--listen/--connect at `address`,
 * already set up); returns the exit status. */
int tui_run_live(struct live *l, const char *address, const struct tui_options *o);

struct fetch_options;
struct load_options;
/* --live URL: the explorer on a Go service's CPU profile, fetched in
 * windows of `window` seconds (src/tui/http_live_view.h). */
int tui_run_http_live(const char *url, unsigned window,
		      const struct fetch_options *fetch, const struct load_options *load,
		      const struct tui_options *o);
struct cdp_live;
/* Runs the explorer on an inspector target followed live (--inspect on a
 * terminal); p starts/stops its profiler windows, z freezes, w writes
 * the session as a .cpuprofile.  Returns the exit status. */
int tui_run_inspect(struct cdp_live *cl, const struct tui_options *o);

/* `wprof-tui BASE NEW`: the two profiles side by side. */
int tui_run_compare(const char *const files[2], struct model *models[2],
		    const struct tui_options *o);

/* Replays the keys of `script` (one per line: a key as the help names it,
 * or /TEXT to search) without a terminal and prints each one's time.
 * Returns the exit status. */
int tui_bench_keys(const char *script, const char *file, struct model *m,
		   const struct tui_options *o);

#endif
