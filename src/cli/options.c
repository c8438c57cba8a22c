/* Reading the command line with the option table: getopt's long options
 * and short-option string are made from it; then the checks that the
 * options given go together. */
#include "options.h"

#include <getopt.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/complain.h"
#include "base/util.h"
#include "input/fetch.h"
#include "live/http.h"
#include "option_table.h"

void usage_error(const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	fprintf(stderr, "wprof-tui: ");
	vfprintf(stderr, fmt, ap);
	fprintf(stderr, "\n(wprof-tui --help lists the options)\n");
	va_end(ap);
	exit(EXIT_BAD_INPUT);
}

/* getopt returns an option's letter when it has one, else 256 + its row. */
enum { ROW_BASE = 256 };

static int has_arg(const struct option_spec *spec)
{
	return !spec->arg ? no_argument
	     : spec->arg_optional ? optional_argument : required_argument;
}

/* getopt's long options, one a named row, ended by a zero row.  Made
 * once and kept: a usage error exits from inside the option loop. */
static struct option *long_options(void)
{
	static struct option *longs;
	if (longs)
		return longs;
	longs = xcalloc(option_table_len + 1, sizeof(*longs));
	size_t n = 0;
	for (size_t i = 0; i < option_table_len; i++) {
		const struct option_spec *spec = &option_table[i];
		if (spec->name)
			longs[n++] = (struct option){ spec->name, has_arg(spec), NULL,
						      spec->letter ? spec->letter
								   : ROW_BASE + (int)i };
	}
	return longs;
}

/* ":r:f:s:...": one colon after a letter that takes a value, two when
 * the value is optional; a leading ':' so that a missing value comes
 * back as ':' and gets our own message. */
/* getopt's short options, made once and kept like the long ones. */
static const char *short_options(void)
{
	static char *shorts;
	if (shorts)
		return shorts;
	shorts = xmalloc(3 * option_table_len + 2);
	size_t n = 0;
	shorts[n++] = ':';
	for (size_t i = 0; i < option_table_len; i++) {
		const struct option_spec *spec = &option_table[i];
		if (!spec->letter)
			continue;
		shorts[n++] = spec->letter;
		if (spec->arg)
			shorts[n++] = ':';
		if (spec->arg_optional)
			shorts[n++] = ':';
	}
	shorts[n] = '\0';
	return shorts;
}

static const struct option_spec *spec_of(int c)
{
	if (c >= ROW_BASE)
		return &option_table[c - ROW_BASE];
	for (size_t i = 0; i < option_table_len; i++)
		if (option_table[i].letter == c)
			return &option_table[i];
	abort(); /* getopt returns only the letters it was given */
}

/* The option getopt could not take: argv[optind - 1] is the culprit,
 * or the letter in it when it is a cluster of short options. */
static void bad_option(int c, char **argv)
{
	const char *culprit = argv[optind - 1];
	char letter[3] = { '-', (char)optopt, '\0' };
	if (optopt && optopt < ROW_BASE && culprit[1] != '-')
		culprit = letter;
	if (c == ':')
		usage_error("%s needs a value", culprit);
	usage_error("unknown option '%s'", culprit);
}

static bool sort_key_parse(const char *name, enum sort_key *out)
{
	for (int k = 0; k < SORT_COUNT; k++)
		if (!strcmp(name, sort_key_name((enum sort_key)k))) {
			*out = (enum sort_key)k;
			return true;
		}
	return false;
}

static void parse_sort(struct options *o)
{
	if (!o->sort_name)
		return;
	if (o->diff && !diff_sort_parse(o->sort_name, &o->diff_sort))
		usage_error("unknown sort key '%s' (delta, regression, total, self, name)",
			    o->sort_name);
	if (!o->diff && !sort_key_parse(o->sort_name, &o->sort))
		usage_error("unknown sort key '%s' (total, self, calls, name)",
			    o->sort_name);
}

/* Two profiles are compared where a comparison exists: the flat report
 * and the explorer's split screen. */
static void check_diff_options(const struct options *o)
{
	if (o->new_file && !o->diff && (o->report || o->exporting || o->bench_keys))
		usage_error("two profiles are compared with --report flat --diff "
			    "BASE NEW or in the explorer ('%s' is one too many)",
			    o->new_file);
	if (o->tags_report && (o->diff || o->new_file))
		usage_error("%s", "--report tags reads one profile");
	if (o->lines_report && (o->diff || o->new_file))
		usage_error("%s", "--report lines reads one profile");
	if (!o->diff) {
		if (o->normalize && (!o->new_file || o->report || o->exporting))
			usage_error("%s", "--normalize goes with --diff, or with two profiles "
				    "(or runs) in the explorer");
		return;
	}
	if (!o->report || o->view != VIEW_FLAT)
		usage_error("%s", "--diff works with --report flat only");
}

/* A live profile comes from the network, not from a file. */
static void check_live_options(const struct options *o)
{
	if (o->listen && (o->connect || o->inspect))
		usage_error("%s", "--listen, --connect or --inspect, one of them");
	if (o->file)
		usage_error("a live profile comes from the network, not '%s'", o->file);
	if (o->diff)
		usage_error("%s", "--diff compares files, not live profiles");
}

static void check_http_live_options(const struct options *o)
{
	if (!fetch_is_url(o->live_url))
		usage_error("--live takes an http:// or https:// URL, not '%s'", o->live_url);
	if (o->listen || o->connect || o->file || o->diff)
		usage_error("%s", "--live URL is the only profile");
	if ((o->report || o->exporting) && !o->windows)
		usage_error("%s", "--live with --report or --export needs --windows N");
}

static void make_filters(struct options *o)
{
	for (size_t i = 0; i < o->nfilter_args; i++) {
		enum transform_kind kind = o->filter_args[i].kind;
		const char *text = kind == TF_MINE ? o->root : o->filter_args[i].text;
		char err[256];
		if (!transform_push(&o->filters, kind, NO_ID, text, err, sizeof(err)))
			usage_error("%s", err);
		/* As pprof says it: "shard=1" matches no string label. */
		if (o->filters.items[o->filters.n - 1].numeric)
			complain("--%s %s: read as a range of numeric labels, not a regular "
				 "expression", transform_name(kind), text);
	}
	free(o->filter_args);
	o->filter_args = NULL;
}

/* go tool pprof's flags that are not wprof-tui's, and what says the
 * same here: said as unknown, rather than read as short options with
 * values ("-top" as -t op). */
static const struct {
	const char *pprof, *ours;
} pprof_flags[] = {
	{ "sample_index", "--sample-type" }, { "timeout", "--fetch-timeout" },
	{ "top", "--report flat" }, { "text", "--report flat" },
	{ "tree", "--report top-down" }, { "traces", NULL }, { "raw", NULL },
	{ "list", "--report lines --function REGEX" }, { "web", NULL },
	{ "http", NULL }, { "nodecount", "--max-rows" }, { "nodefraction", NULL },
	{ "edgefraction", NULL }, { "cum", NULL }, { "svg", NULL }, { "png", NULL },
	{ "pdf", NULL }, { "symbolize", NULL }, { "diff_base", "--diff" },
};

static void refuse_pprof_flags(int argc, char **argv)
{
	for (int i = 1; i < argc && strcmp(argv[i], "--"); i++) {
		if (argv[i][0] != '-' || argv[i][1] == '-')
			continue;
		size_t len = strcspn(argv[i] + 1, "=");
		for (size_t k = 0; k < sizeof(pprof_flags) / sizeof(*pprof_flags); k++) {
			const char *ours = pprof_flags[k].ours;
			if (strlen(pprof_flags[k].pprof) != len ||
			    strncmp(argv[i] + 1, pprof_flags[k].pprof, len))
				continue;
			usage_error("unknown option '%.*s' (go tool pprof's%s%s)", (int)len + 1,
				    argv[i], ours ? "; here: " : "", ours ? ours : "");
		}
	}
}

/* Each option through its row's handler.  An optional value may also
 * come as the next word (`--listen 5002` as well as `--listen=5002`). */
static void read_options(int argc, char **argv, struct options *o)
{
	struct option *longs = long_options();
	const char *shorts = short_options();
	opterr = 0;
	refuse_pprof_flags(argc, argv);
	/* Long options with one dash too, as go tool pprof's (-seconds N). */
	int c;
	while ((c = getopt_long_only(argc, argv, shorts, longs, NULL)) != -1) {
		if (c == '?' || c == ':')
			bad_option(c, argv);
		const struct option_spec *spec = spec_of(c);
		const char *v = optarg;
		if (spec->arg_optional && !v && optind < argc && argv[optind][0] != '-')
			v = argv[optind++];
		spec->apply(o, spec, v);
	}
}

/* With --base, what is left is the new runs: for --report flat --diff,
 * or the explorer. */
static void read_runs(int argc, char **argv, struct options *o)
{
	if ((o->report || o->exporting) && (!o->diff || !o->report || o->view != VIEW_FLAT))
		usage_error("%s", "--base names base runs for --report flat --diff or the "
			    "explorer");
	o->new_files = (const char **)(argv + optind);
	o->nnew_files = (size_t)(argc - optind);
	if (!o->nnew_files)
		usage_error("%s", "--base needs the new runs as well: --base A1 --base A2 "
			    "B1 B2");
	o->file = o->base_files[0];
	o->new_file = o->new_files[0];
	size_t stdin_uses = 0;
	for (size_t i = 0; i < o->nbase_files; i++)
		stdin_uses += !strcmp(o->base_files[i], "-");
	for (size_t i = 0; i < o->nnew_files; i++)
		stdin_uses += !strcmp(o->new_files[i], "-");
	if (stdin_uses > 1)
		usage_error("%s", "standard input ('-') can be only one of the profiles");
}

/* What is left is the profiles; `-` is standard input. */
static void read_profiles(int argc, char **argv, struct options *o)
{
	if (o->nbase_files) {
		read_runs(argc, argv, o);
		return;
	}
	for (int i = optind; i < argc; i++) {
		if (!o->file)
			o->file = argv[i];
		else if (!o->new_file)
			o->new_file = argv[i];
		else
			usage_error("at most two profiles ('%s' is one too many)", argv[i]);
	}
}

/* Profile addresses as go tool pprof takes them (fetch_pprof_address),
 * with --seconds N as their seconds=N. */
static const char *profile_url(struct options *o, const char *name, size_t slot)
{
	if (!name)
		return NULL;
	char *url = fetch_pprof_address(name);
	if (o->seconds && (url || fetch_is_url(name))) {
		char *timed = http_live_window_url(url ? url : name, o->seconds);
		free(url);
		url = timed;
	}
	o->urls[slot] = url;
	return url ? url : name;
}

void parse_options(int argc, char **argv, struct options *o)
{
	*o = (struct options){ .depth = REPORT_DEPTH, .max_rows = REPORT_MAX_ROWS,
			       .load.session = -1, .window = HTTP_LIVE_DEFAULT_WINDOW,
			       .fail_pct = NAN };
	read_options(argc, argv, o);
	read_profiles(argc, argv, o);
	if (o->live_url && o->seconds)
		o->window = o->seconds;
	o->live_url = o->live_url ? profile_url(o, o->live_url, 0) : NULL;
	o->file = profile_url(o, o->file, 1);
	o->new_file = profile_url(o, o->new_file, 2);
	if ((o->duration > 0 || o->cdp.target || o->cdp.interval_us || o->cdp.wait_seconds) &&
	    !o->inspect)
		usage_error("%s", "--duration, --target, --interval and --wait go with --inspect");
	if (o->live_url)
		check_http_live_options(o);
	else if (o->listen || o->connect || o->inspect)
		check_live_options(o);
	else if (!o->file)
		usage_error("%s", "no profile given");
	if (o->new_file && !strcmp(o->file, "-") && !strcmp(o->new_file, "-"))
		usage_error("%s", "standard input ('-') can be only one of the two profiles");
	check_diff_options(o);
	if (o->range_text && o->new_file)
		usage_error("%s", "--range works on one profile at a time (in the explorer, "
			    "choose a range on each side with [ ] { } or the mouse)");
	parse_sort(o);
	if (!isnan(o->fail_pct) && (o->nbase_files < 2 || o->nnew_files < 2))
		usage_error("%s", "--fail-if-slower needs two runs a side or more: "
			    "--report flat --diff --base A1 --base A2 B1 B2");
	make_filters(o);
	bool sandwich = o->report && !o->lines_report && !o->tags_report &&
			o->view == VIEW_SANDWICH;
	if ((o->lines_report || sandwich) != (o->function != NULL))
		usage_error("%s", "--report lines or sandwich and --function REGEX go together");
	o->tui.granularity = o->granularity;
	o->tui.normalize = o->normalize;
	/* pprof files are read by line for reports, exports and comparisons;
	 * the explorer of one profile starts from functions and reads the
	 * file again by line when asked (tui.c). */
	o->load.by_line = o->granularity == GRANULARITY_LINES &&
			  (o->report || o->exporting || o->new_file);
	o->load.by_address = o->granularity == GRANULARITY_ADDRESSES &&
			     (o->report || o->exporting || o->new_file);
	if (o->exporting && !o->output)
		usage_error("%s", "--export needs -o FILE");
	if (o->output && !o->exporting)
		usage_error("%s", "-o goes with --export FORMAT");
}

void free_options(struct options *o)
{
	for (size_t i = 0; i < sizeof(o->urls) / sizeof(*o->urls); i++)
		free(o->urls[i]);
	transform_stack_free(&o->filters);
	free(o->tui.source.dirs);
	free(o->tui.source.trims);
	free(o->base_files);
	free(o->tui.symbolize.source_maps);
	free(o->tui.symbolize.symbols);
}
