/* The command line, read: what the user asked for (struct options) and
 * the checks that the options go together.  Each option is declared once,
 * in option_table.c; --help and getopt's tables are made from it.
 *
 * parse_options() either fills `o` or exits: 0 after --help, --version
 * or --all-options, EXIT_BAD_INPUT after a usage error (said on stderr).
 * free_options() frees what it allocated. */
#ifndef WPROF_CLI_OPTIONS_H
#define WPROF_CLI_OPTIONS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "compare/diff.h"
#include "input/fetch.h"
#include "live/cdp.h"
#include "loaders/loaders.h"
#include "output/export.h"
#include "output/report.h"
#include "rules/rules.h"
#include "transform/granularity.h"
#include "transform/range.h"
#include "transform/transform.h"
#include "tui/tui.h"
#include "views/view.h"

#define EXIT_BAD_INPUT 2

struct options {
	const char *file;
	const char *new_file; /* with --diff: the second profile */
	/* --base FILE (repeatable): the base runs; the files named without
	 * it are then the new runs (file and new_file are the first of each). */
	const char **base_files, **new_files; /* new_files: within argv */
	size_t nbase_files, nnew_files;
	bool diff;
	bool normalize;
	/* --fail-if-slower PCT[:REGEX]: the gate, or fail_pct NAN. */
	double fail_pct;
	const char *fail_regex; /* NULL: every function */
	const char *sort_name; /* parsed once we know whether it is a diff */
	enum diff_sort diff_sort;
	bool report;
	enum view_kind view;
	bool rule_given;
	enum rule rule;
	enum report_format format;
	enum sort_key sort;
	bool reversed;
	uint32_t depth;
	size_t max_rows;
	bool exporting;
	enum export_format export_format;
	const char *output;
	const char *bench_keys;
	bool svg;       /* --export svg: the flame graph, not the profile */
	unsigned width; /* --width: --report flame's columns, 0: the terminal's */
	struct tui_options tui;
	struct load_options load;
	struct fetch_options fetch; /* --fetch-timeout: profiles named by URL */
	/* Filters (--focus RE, --mine, ...) in the order given; --mine's
	 * root is --root wherever it stands. */
	struct transform_stack filters;
	struct { enum transform_kind kind; const char *text; } *filter_args;
	size_t nfilter_args, filter_args_cap;
	const char *root;
	bool tags_report; /* --report tags */
	bool lines_report;    /* --report lines */
	const char *function; /* --function REGEX */
	enum granularity granularity;
	const char *listen;  /* --listen: the address, or NULL */
	const char *connect; /* --connect: the address, or NULL */
	const char *range_text; /* --range as given, or NULL */
	struct range_spec range;
	const char *live_url; /* --live: a Go service's profile URL, or NULL */
	unsigned window;      /* --window: seconds per window */
	unsigned windows;     /* --windows: how many (0: until stopped) */
	unsigned seconds;     /* --seconds: a profile URL's seconds=N (0: as typed) */
	char *urls[3];        /* the profile URLs made from what was typed (owned) */
	bool inspect;        /* --inspect, or --connect ws://… */
	struct cdp_options cdp;
	double duration;     /* --duration, seconds; 0 when not given */
};

void parse_options(int argc, char **argv, struct options *o);
void free_options(struct options *o);

/* "wprof-tui: MESSAGE" and the pointer to --help on stderr, then exit
 * with EXIT_BAD_INPUT.  The message echoes the user's own words: it is
 * not escaped. */
_Noreturn void usage_error(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

#endif
