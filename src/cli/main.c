/* wprof-tui: the command line.  Reads the options, loads the profile
 * (bytes -> loader -> model), and hands it to the report printer or the
 * interactive explorer. */
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <limits.h>
#include <langinfo.h>
#include <locale.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <unistd.h>

#include "loaders/loaders.h"
#include "compare/diff.h"
#include "views/view.h"
#include "output/diff_report.h"
#include "base/escape.h"
#include "output/export.h"
#include "input/fetch.h"
#include "transform/granularity.h"
#include "live/http.h"
#include "live/source.h"
#include "live/xs.h"
#include "transform/range.h"
#include "live/cdp.h"
#include "output/report.h"
#include "output/report_flame.h"
#include "output/report_lines.h"
#include "rules/rules.h"
#include "output/tags_report.h"
#include "transform/transform.h"
#include "tui/tui.h"
#include "base/util.h"

#define EXIT_BAD_INPUT 2

struct options {
	const char *file;
	const char *new_file; /* with --diff: the second profile */
	bool diff;
	bool normalize;
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
	bool inspect;        /* --inspect, or --connect ws://… */
	struct cdp_options cdp;
	double duration;     /* --duration, seconds; 0 when not given */
};

/* --fetch-timeout: for profiles named by URL (src/fetch.h). */
static struct fetch_options fetch_opt;

static const char usage_text[] =
	"usage: wprof-tui [options] FILE|URL\n"
	"       wprof-tui [options] BASE NEW\n"
	"       wprof-tui --report flat --diff [options] BASE NEW\n"
	"       wprof-tui --listen [HOST:]PORT [--report VIEW] [options]\n"
	"       wprof-tui --connect HOST:PORT [--report VIEW] [options]\n"
	"       wprof-tui --live URL [--window N] [--report VIEW --windows N]\n"
	"\n"
	"Explore a CPU profile in the terminal: V8/Chrome/Node/XS .cpuprofile,\n"
	"pprof (profile.proto, gzipped or not), GNU gmon.out (gprof), WasmProf\n"
	"call arcs, perf script text, folded stacks, .heapprofile, Firefox\n"
	"Profiler JSON.  A folded file with two counts per stack (BASE NEW)\n"
	"opens as a comparison.\n"
	"An http:// or https:// URL is fetched, as `go tool pprof URL` does\n"
	"(e.g. http://host:6060/debug/pprof/profile?seconds=30, .../heap).\n"
	"\n"
	"Options take their value as `--opt value` or `--opt=value`.  FILE `-`\n"
	"is standard input; any FILE may be gzip-compressed.\n"
	"\n"
	"  --report VIEW     print VIEW without a terminal and exit:\n"
	"                    flat, top-down, bottom-up, callgraph or flame (the\n"
	"                    flame graph as text at the terminal's width); tags\n"
	"                    lists the labels (pprof tags) and their values;\n"
	"                    lines (with --function) a function's source lines\n"
	"  --function REGEX  --report lines: the functions to list, line by\n"
	"                    line, as go tool pprof -list REGEX\n"
	"  --granularity G   functions (default), files or lines: the frames\n"
	"                    panes and reports group by, as pprof's\n"
	"                    -granularity (the a key in the explorer)\n"
	"  --source-path DIR where to look for source files (repeatable)\n"
	"  --trim-path PREFIX  take PREFIX off source paths before looking\n"
	"                    under each --source-path (repeatable)\n"
	"  --width N         --report flame: N columns (default: $COLUMNS, the\n"
	"                    terminal's width, else 100)\n"
	"  --flame-up        flame graph: root at the bottom (default: on top)\n"
	"  -r, --rule RULE   exact, additive, divided or gprof (default: exact\n"
	"                    where the data has whole stacks)\n"
	"  -f, --format FORMAT  text, csv or json (with --report; default text)\n"
	"  -s, --sort KEY    total, self, calls or name (default total); with\n"
	"                    --diff: delta (|delta|, the default), regression,\n"
	"                    total, self or name\n"
	"  --reverse         sort the other way round\n"
	"  -d, --depth N     open tree reports N levels deep (default 256; all:\n"
	"                    no limit); deeper rows say so\n"
	"  --max-rows N      print at most N rows of a tree report (default\n"
	"                    100000; all: no limit); a cut report says so\n"
	"  --diff            compare BASE with NEW, function by function (with\n"
	"                    --report flat); delta = new total - base total;\n"
	"                    one differential folded file is BASE and NEW\n"
	"  --normalize       with --diff: compare shares of each profile (%)\n"
	"  -t, --sample-type T  the values to show, by name or index (like\n"
	"                    pprof's -sample_index; default: the file's\n"
	"                    default, else the last); callgrind: the event\n"
	"                    to read (default: the first)\n"
	"  --export FORMAT   write the profile as pprof (gzipped profile.proto),\n"
	"                    cpuprofile (V8 JSON), trace (the same as Chrome\n"
	"                    trace events), folded (flame graph stacks)\n"
	"                    or svg (an interactive flame graph: click to zoom,\n"
	"                    search)\n"
	"  -o, --output FILE where --export writes\n"
	"  --range START-END only the samples from START to END, for --report,\n"
	"                    --export and the explorer: times from the first\n"
	"                    sample (1.2s-3.4s, 200ms-3s, 1500us-), shares of\n"
	"                    the timeline (20%-40%) or sample numbers from 1\n"
	"                    (#100-#500, both included); an end left out is\n"
	"                    the profile's\n"
	"  --exe PROGRAM     gmon.out: the program that wrote it (default:\n"
	"                    a.out beside the file, as gprof); gperftools and\n"
	"                    legacy pprof profiles: names for their addresses\n"
	"  --listen[=[HOST:]PORT]  wait for XS engines (xsbug protocol; default\n"
	"                    127.0.0.1:5002, a bare port is loopback only) and\n"
	"                    explore them live; with --report: profile the\n"
	"                    first engine that logs in until it stops\n"
	"                    profiling or disconnects\n"
	"  --connect HOST:PORT   read the stream of a program that serves it\n"
	"  --fetch-timeout S  a URL's whole request may take S seconds\n"
	"                    (default: its seconds=N plus 30)\n"
	"  --live URL        a Go service's CPU profile (net/http/pprof) in\n"
	"                    consecutive windows of --window seconds, folded\n"
	"                    into one growing session; p pauses, w writes it\n"
	"  --window N        seconds per --live window (default 5)\n"
	"  --windows N       --live: stop after N windows (needed with --report\n"
	"                    or --export)\n"
	"  --inspect [HOST:]PORT  profile a Node, Chrome, Deno or Electron\n"
	"                    target over the inspector (default 127.0.0.1:9229,\n"
	"                    what node --inspect opens); --connect ws://… names\n"
	"                    a target's WebSocket directly; on a terminal the\n"
	"                    explorer follows it (p, z, w as for XS engines)\n"
	"  --target ID|TITLE  --inspect: the target (default: the first page\n"
	"                    or node target of /json/list)\n"
	"  --interval US     --inspect: the sampling interval in microseconds\n"
	"  --duration TIME   --inspect with --report or --export: profile for\n"
	"                    TIME (10s, 500ms; default 10s)\n"
	"  --session N       xsbug captures: the Nth profile (default: the\n"
	"                    last one that stopped with samples)\n"
	"  --thread NAME|TID  traces: the thread whose profile to show, by\n"
	"                    name, tid or profile id (default: the busiest\n"
	"                    CrRendererMain, else the busiest thread);\n"
	"                    speedscope files: the profile of that name, or\n"
	"                    the Nth (default: activeProfileIndex, else the\n"
	"                    first); perf script: only the samples of this\n"
	"                    command or thread (process) id (default: all);\n"
	"                    Firefox Profiler: the thread by name, tid or as\n"
	"                    the header describes it (default: as the\n"
	"                    profiler selects, a tab's GeckoMain)\n"
	"\n"
	"Filters, as pprof's, applied in the order given to every view, report,\n"
	"export and compared side (REGEX: POSIX extended, on name and file):\n"
	"  --focus REGEX     keep samples with a frame that matches\n"
	"  --ignore REGEX    drop samples with a frame that matches\n"
	"  --hide REGEX      remove matching frames from the stacks\n"
	"  --show REGEX      keep only matching frames in the stacks\n"
	"  --prune-from REGEX  cut each stack after its deepest match\n"
	"  --merge REGEX     merge matching functions into their callers\n"
	"  --collapse REGEX  a run of frames whose file matches becomes one\n"
	"                    frame named by the match (node_modules/react)\n"
	"  --collapse-recursion  remove inner occurrences of recursive calls\n"
	"  --mine            my code: frames outside --root (node:, node_modules,\n"
	"                    Go's runtime and GOROOT too) fold into their callers\n"
	"  --root DIR        --mine's root (default: the current directory)\n"
	"  --tagfocus KEY=REGEX  keep samples whose label KEY matches (pprof\n"
	"                    tags; REGEX alone: matched against KEY:VALUE)\n"
	"  --tagignore KEY=REGEX  drop samples whose label KEY matches\n"
	"  --tagroot KEY     the values of label KEY as the roots of the tree\n"
	"\n"
	"  --theme NAME      colours from themes/NAME.theme (dark, light, mono)\n"
	"                    or a theme file's path; also $WPROF_THEME\n"
	"  --max-size SIZE   gzip input may inflate to SIZE (K, M, G: powers of\n"
	"                    1024; default: 100 times the compressed size, at\n"
	"                    least 64M, at most 2G)\n"
	"  --bench-keys SCRIPT  replay the keys in SCRIPT without a terminal\n"
	"                    and print the time each one takes\n"
	"  -h, --help        show this help\n"
	"  -V, --version     show the version\n"
	"\n"
	"Exit status: 0 on success, 2 for unreadable or invalid input or usage.\n";

static void usage_error(const char *fmt, const char *arg)
{
	fprintf(stderr, "wprof-tui: ");
	fprintf(stderr, fmt, arg);
	fprintf(stderr, "\n(wprof-tui --help lists the options)\n");
	exit(EXIT_BAD_INPUT);
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
		if (o->normalize)
			usage_error("%s", "--normalize goes with --diff");
		return;
	}
	if (!o->report || o->view != VIEW_FLAT)
		usage_error("%s", "--diff works with --report flat only");
}

/* A live profile comes from the network, not from a file. */
/* "10s", "500ms", "2m" or a bare number of seconds. */
static double parse_duration(const char *v)
{
	char *end;
	errno = 0;
	double d = strtod(v, &end);
	double scale = !strcmp(end, "ms") ? 1e-3 : !strcmp(end, "m") ? 60
		     : (!*end || !strcmp(end, "s")) ? 1 : -1;
	if (errno || end == v || scale < 0 || !(d > 0) || d * scale > 86400)
		usage_error("--duration takes a time like 10s or 500ms, not '%s'", v);
	return d * scale;
}

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

/* The option table: one line per option.  `val` is the short letter when
 * the option has one, else an OPT_ id; the short-option string is made
 * from the table, so adding an option is one line here and one case in
 * apply_option. */
enum {
	OPT_REPORT = 256,
	OPT_DIFF,
	OPT_NORMALIZE,
	OPT_EXE,
	OPT_REVERSE,
	OPT_LISTEN,
	OPT_CONNECT,
	OPT_SESSION,
	OPT_EXPORT,
	OPT_THEME,
	OPT_BENCH_KEYS,
	OPT_MAX_SIZE,
	OPT_MAX_ROWS,
	OPT_THREAD,
	OPT_RANGE,
	OPT_ROOT,
	OPT_LIVE_URL,
	OPT_WINDOW,
	OPT_WINDOWS,
	OPT_FETCH_TIMEOUT,
	OPT_INSPECT,
	OPT_TARGET,
	OPT_INTERVAL,
	OPT_DURATION,
	OPT_WIDTH,
	OPT_FLAME_UP,
	OPT_FUNCTION,
	OPT_GRANULARITY,
	OPT_SOURCE_PATH,
	OPT_TRIM_PATH,
	/* One id a filter, in transform_kind order. */
	OPT_FILTER,
};

static const struct option option_table[] = {
	{ "help", no_argument, NULL, 'h' },
	{ "version", no_argument, NULL, 'V' },
	{ "report", required_argument, NULL, OPT_REPORT },
	{ "rule", required_argument, NULL, 'r' },
	{ "format", required_argument, NULL, 'f' },
	{ "sort", required_argument, NULL, 's' },
	{ "reverse", no_argument, NULL, OPT_REVERSE },
	{ "depth", required_argument, NULL, 'd' },
	{ "diff", no_argument, NULL, OPT_DIFF },
	{ "normalize", no_argument, NULL, OPT_NORMALIZE },
	{ "sample-type", required_argument, NULL, 't' },
	{ "export", required_argument, NULL, OPT_EXPORT },
	{ "output", required_argument, NULL, 'o' },
	{ "exe", required_argument, NULL, OPT_EXE },
	{ "listen", optional_argument, NULL, OPT_LISTEN },
	{ "connect", required_argument, NULL, OPT_CONNECT },
	{ "session", required_argument, NULL, OPT_SESSION },
	{ "theme", required_argument, NULL, OPT_THEME },
	{ "bench-keys", required_argument, NULL, OPT_BENCH_KEYS },
	{ "max-size", required_argument, NULL, OPT_MAX_SIZE },
	{ "max-rows", required_argument, NULL, OPT_MAX_ROWS },
	{ "thread", required_argument, NULL, OPT_THREAD },
	{ "range", required_argument, NULL, OPT_RANGE },
	{ "root", required_argument, NULL, OPT_ROOT },
	{ "live", required_argument, NULL, OPT_LIVE_URL },
	{ "window", required_argument, NULL, OPT_WINDOW },
	{ "windows", required_argument, NULL, OPT_WINDOWS },
	{ "fetch-timeout", required_argument, NULL, OPT_FETCH_TIMEOUT },
	{ "inspect", optional_argument, NULL, OPT_INSPECT },
	{ "target", required_argument, NULL, OPT_TARGET },
	{ "interval", required_argument, NULL, OPT_INTERVAL },
	{ "duration", required_argument, NULL, OPT_DURATION },
	{ "width", required_argument, NULL, OPT_WIDTH },
	{ "flame-up", no_argument, NULL, OPT_FLAME_UP },
	{ "function", required_argument, NULL, OPT_FUNCTION },
	{ "granularity", required_argument, NULL, OPT_GRANULARITY },
	{ "source-path", required_argument, NULL, OPT_SOURCE_PATH },
	{ "trim-path", required_argument, NULL, OPT_TRIM_PATH },
	{ "focus", required_argument, NULL, OPT_FILTER + TF_FOCUS },
	{ "ignore", required_argument, NULL, OPT_FILTER + TF_IGNORE },
	{ "hide", required_argument, NULL, OPT_FILTER + TF_HIDE },
	{ "show", required_argument, NULL, OPT_FILTER + TF_SHOW },
	{ "prune-from", required_argument, NULL, OPT_FILTER + TF_PRUNE_FROM },
	{ "merge", required_argument, NULL, OPT_FILTER + TF_MERGE },
	{ "collapse-recursion", no_argument, NULL, OPT_FILTER + TF_COLLAPSE_RECURSION },
	{ "collapse", required_argument, NULL, OPT_FILTER + TF_COLLAPSE_FILE },
	{ "mine", no_argument, NULL, OPT_FILTER + TF_MINE },
	{ "tagfocus", required_argument, NULL, OPT_FILTER + TF_TAGFOCUS },
	{ "tagignore", required_argument, NULL, OPT_FILTER + TF_TAGIGNORE },
	{ "tagroot", required_argument, NULL, OPT_FILTER + TF_TAGROOT },
	{ 0 },
};

/* "hVR:r:..." from the table: a leading ':' so that a missing value comes
 * back as ':' and gets our own message. */
static void short_options(char *out, size_t cap)
{
	size_t n = 0;
	out[n++] = ':';
	for (const struct option *opt = option_table; opt->name; opt++) {
		if (opt->val >= 256)
			continue;
		if (n + 3 >= cap)
			abort();
		out[n++] = (char)opt->val;
		if (opt->has_arg == required_argument)
			out[n++] = ':';
	}
	out[n] = '\0';
}

static uint32_t parse_count(const char *option, const char *v)
{
	char *end;
	errno = 0;
	unsigned long long n = strtoull(v, &end, 10);
	if (errno || *end || !*v || *v == '-' || n > UINT32_MAX) {
		fprintf(stderr, "wprof-tui: %s takes a whole number, not '%s'\n"
				"(wprof-tui --help lists the options)\n", option, v);
		exit(EXIT_BAD_INPUT);
	}
	return (uint32_t)n;
}

/* --max-size: bytes, or a number with K, M, G or T (powers of 1024). */
static uint64_t parse_size(const char *option, const char *v)
{
	char *end;
	errno = 0;
	unsigned long long n = strtoull(v, &end, 10);
	static const char units[] = "KMGT";
	const char *unit = *end ? strchr(units, *end & ~0x20) : NULL;
	unsigned shift = unit ? 10 * (unsigned)(unit - units + 1) : 0;
	if (unit && (end[1] == 'i' || end[1] == 'I') && (end[2] == 'B' || end[2] == 'b'))
		end += 2;
	else if (unit && (end[1] == 'B' || end[1] == 'b'))
		end++;
	if (unit)
		end++;
	if (errno || *end || end == v || *v == '-' || n == 0 || n > (UINT64_MAX >> shift)) {
		fprintf(stderr, "wprof-tui: %s takes a size such as 4G, 500M or 1048576, "
				"not '%s'\n(wprof-tui --help lists the options)\n", option, v);
		exit(EXIT_BAD_INPUT);
	}
	return (uint64_t)n << shift;
}

/* The option getopt just read, with its value in optarg. */
static void apply_option(int c, int argc, char **argv, struct options *o)
{
	const char *v = optarg;
	switch (c) {
	case 'h':
		fputs(usage_text, stdout);
		exit(0);
	case 'V':
		printf("wprof-tui %s\n", WPROF_VERSION);
		exit(0);
	case OPT_REPORT:
		o->report = true;
		o->tags_report = !strcmp(v, "tags");
		o->lines_report = !strcmp(v, "lines");
		if (!o->tags_report && !o->lines_report && !view_kind_parse(v, &o->view))
			usage_error("unknown view '%s' (flat, top-down, bottom-up, "
				    "callgraph, flame, tags, lines)", v);
		break;
	case 'r':
		if (!rule_parse(v, &o->rule))
			usage_error("unknown rule '%s' (exact, additive, divided, gprof)", v);
		o->rule_given = true;
		break;
	case 'f':
		if (!report_format_parse(v, &o->format))
			usage_error("unknown format '%s' (text, csv, json)", v);
		break;
	case 's':
		o->sort_name = v;
		break;
	case OPT_REVERSE:
		o->reversed = true;
		break;
	case 'd':
		o->depth = strcmp(v, "all") ? parse_count("--depth", v) : REPORT_NO_LIMIT;
		break;
	case OPT_DIFF:
		o->diff = true;
		break;
	case OPT_NORMALIZE:
		o->normalize = true;
		break;
	case 't':
		o->load.sample_type = v;
		break;
	case OPT_EXPORT:
		o->svg = !strcmp(v, "svg");
		if (!o->svg && !export_format_parse(v, &o->export_format))
			usage_error("unknown export format '%s' (pprof, cpuprofile, trace, folded, svg)", v);
		o->exporting = true;
		break;
	case 'o':
		o->output = v;
		break;
	case OPT_EXE:
		o->load.exe = v;
		break;
	case OPT_LISTEN:
		/* The address is optional (XS engines dial 5002 by default), and
		 * `--listen PORT` is accepted as well as `--listen=PORT`. */
		if (!v && optind < argc && argv[optind][0] != '-')
			v = argv[optind++];
		o->listen = v ? v : XS_DEFAULT_ADDRESS;
		break;
	case OPT_CONNECT:
		o->connect = v;
		if (!strncmp(v, "ws://", 5)) {
			o->inspect = true;
			o->cdp.connect_url = v;
		}
		break;
	case OPT_INSPECT:
		/* As --listen: `--inspect PORT` as well as `--inspect=PORT`. */
		if (!v && optind < argc && argv[optind][0] != '-')
			v = argv[optind++];
		o->inspect = true;
		o->cdp.inspect = v ? v : CDP_DEFAULT_ADDRESS;
		break;
	case OPT_TARGET:
		o->cdp.target = v;
		break;
	case OPT_INTERVAL: {
		uint32_t us = parse_count("--interval", v);
		if (!us || us > 1000000)
			usage_error("--interval takes microseconds (1 to 1000000), not '%s'", v);
		o->cdp.interval_us = us;
		break;
	}
	case OPT_DURATION:
		o->duration = parse_duration(v);
		break;
	case OPT_WIDTH: {
		uint32_t w = parse_count("--width", v);
		if (w < 10 || w > 10000)
			usage_error("--width takes a number of columns from 10 to 10000, not '%s'", v);
		o->width = w;
		break;
	}
	case OPT_FLAME_UP:
		o->tui.flame_up = true;
		break;
	case OPT_FUNCTION:
		o->function = v;
		break;
	case OPT_GRANULARITY:
		if (!granularity_parse(v, &o->granularity))
			usage_error("unknown granularity '%s' (functions, files, lines)", v);
		break;
	case OPT_SOURCE_PATH:
	case OPT_TRIM_PATH: {
		struct source_options *so = &o->tui.source;
		const char ***list = c == OPT_SOURCE_PATH ? &so->dirs : &so->trims;
		size_t *n = c == OPT_SOURCE_PATH ? &so->ndirs : &so->ntrims;
		*list = xrealloc(*list, (*n + 1) * sizeof(**list));
		(*list)[(*n)++] = v;
		break;
	}
	case OPT_SESSION: {
		uint32_t n = parse_count("--session", v);
		if (n < 1 || n > INT32_MAX)
			usage_error("--session takes a number from 1, not '%s'", v);
		o->load.session = (int)n;
		break;
	}
	case OPT_THEME:
		o->tui.theme = v;
		break;
	case OPT_BENCH_KEYS:
		o->bench_keys = v;
		break;
	case OPT_MAX_ROWS:
		o->max_rows = strcmp(v, "all") ? parse_count("--max-rows", v) : SIZE_MAX;
		break;
	case OPT_MAX_SIZE:
		o->load.max_size = parse_size("--max-size", v);
		break;
	default: /* a filter, kept in order and made once --root is known */
		GROW(o->filter_args, o->filter_args_cap, o->nfilter_args + 1);
		o->filter_args[o->nfilter_args].kind = (enum transform_kind)(c - OPT_FILTER);
		o->filter_args[o->nfilter_args].text = v;
		o->nfilter_args++;
		break;
	case OPT_THREAD:
		o->load.thread = v;
		break;
	case OPT_ROOT:
		o->root = v;
		break;
	case OPT_LIVE_URL:
		o->live_url = v;
		break;
	case OPT_WINDOW:
	case OPT_WINDOWS: {
		uint32_t n = parse_count(c == OPT_WINDOW ? "--window" : "--windows", v);
		if (n < 1 || n > 86400)
			usage_error("%s takes a whole number from 1 to 86400",
				    c == OPT_WINDOW ? "--window" : "--windows");
		*(c == OPT_WINDOW ? &o->window : &o->windows) = n;
		break;
	}
	case OPT_FETCH_TIMEOUT: {
		char *end;
		double t = strtod(v, &end);
		if (*end || !*v || !(t > 0 && t <= 86400))
			usage_error("--fetch-timeout takes seconds, not '%s'", v);
		fetch_opt.timeout = t;
		break;
	}
	case OPT_RANGE: {
		char why[256];
		o->range_text = v;
		if (!range_parse(v, &o->range, why, sizeof(why)))
			usage_error("--range: %s", why);
		break;
	}
	}
}

/* The option getopt could not take: argv[optind - 1] is the culprit. */
static void bad_option(int c, char **argv)
{
	const char *arg = argv[optind - 1];
	if (c == ':') {
		if (optopt && optopt < 256 && arg[1] != '-') {
			char name[3] = { '-', (char)optopt, '\0' };
			usage_error("%s needs a value", name);
		}
		usage_error("%s needs a value", arg);
	}
	if (optopt && optopt < 256 && arg[1] != '-') {
		char name[3] = { '-', (char)optopt, '\0' };
		usage_error("unknown option '%s'", name);
	}
	usage_error("unknown option '%s'", arg);
}

static void make_filters(struct options *o)
{
	for (size_t i = 0; i < o->nfilter_args; i++) {
		enum transform_kind kind = o->filter_args[i].kind;
		const char *text = kind == TF_MINE ? o->root : o->filter_args[i].text;
		char err[256];
		if (!transform_push(&o->filters, kind, NO_ID, text, err, sizeof(err)))
			usage_error("%s", err);
	}
	free(o->filter_args);
	o->filter_args = NULL;
}

static void parse_options(int argc, char **argv, struct options *o)
{
	*o = (struct options){ .depth = REPORT_DEPTH, .max_rows = REPORT_MAX_ROWS,
			       .load.session = -1, .window = HTTP_LIVE_DEFAULT_WINDOW };
	char shorts[2 * sizeof(option_table) / sizeof(option_table[0]) + 2];
	short_options(shorts, sizeof(shorts));
	opterr = 0;
	int c;
	while ((c = getopt_long(argc, argv, shorts, option_table, NULL)) != -1) {
		if (c == '?' || c == ':')
			bad_option(c, argv);
		apply_option(c, argc, argv, o);
	}
	/* What is left is the profiles; `-` is standard input. */
	for (int i = optind; i < argc; i++) {
		if (!o->file)
			o->file = argv[i];
		else if (!o->new_file)
			o->new_file = argv[i];
		else
			usage_error("at most two profiles ('%s' is one too many)", argv[i]);
	}
	if ((o->duration > 0 || o->cdp.target || o->cdp.interval_us) && !o->inspect)
		usage_error("%s", "--duration, --target and --interval go with --inspect");
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
	make_filters(o);
	if (o->lines_report != (o->function != NULL))
		usage_error("%s", "--report lines and --function REGEX go together");
	o->tui.granularity = o->granularity;
	/* pprof files are read by line for reports, exports and comparisons;
	 * the explorer of one profile starts from functions and reads the
	 * file again by line when asked (tui.c). */
	o->load.by_line = o->granularity == GRANULARITY_LINES &&
			  (o->report || o->exporting || o->new_file);
	if (o->exporting && !o->output)
		usage_error("%s", "--export needs -o FILE");
	if (o->output && !o->exporting)
		usage_error("%s", "-o goes with --export FORMAT");
}

/* A progress line for files that take more than a moment to read. */
static void show_progress(const struct input *in)
{
	static int last = -1;
	if (in->raw_size < (64u << 20) || !isatty(STDERR_FILENO))
		return;
	int percent = (int)(100.0 * (double)in->raw_done / (double)in->raw_size);
	if (percent == last)
		return;
	last = percent;
	fprintf(stderr, "\rwprof-tui: reading %d%%", percent);
	if (percent >= 100)
		fprintf(stderr, "\r\033[K");
}

/* --sample-type: a name, else an index; any format may be asked. */
static bool pick_sample_type(const struct model *m, const char *wanted,
			     unsigned *out)
{
	if (!wanted || m->type_chosen_at_load) {
		*out = m->default_type;
		return true;
	}
	for (unsigned t = 0; t < m->ntypes; t++)
		if (!strcmp(model_str(m, m->types[t].name), wanted)) {
			*out = t;
			return true;
		}
	char *end;
	errno = 0;
	unsigned long index = strtoul(wanted, &end, 10);
	if (*wanted && !*end && !errno && index < m->ntypes) {
		*out = (unsigned)index;
		return true;
	}
	return false;
}

static int bad_sample_type(const struct options *o, const struct model *m)
{
	char safe_file[1024], safe_type[256], types[512] = "";
	escape_text(o->file, safe_file, sizeof(safe_file));
	escape_text(o->load.sample_type, safe_type, sizeof(safe_type));
	for (unsigned t = 0; t < m->ntypes; t++) {
		char name[128];
		escape_text(model_str(m, m->types[t].name), name, sizeof(name));
		snprintf(types + strlen(types), sizeof(types) - strlen(types), "%s%u=%s",
			 t ? ", " : "", t, name);
	}
	fprintf(stderr, "wprof-tui: %s: no sample type '%s' (it has %s)\n", safe_file,
		safe_type, types);
	return EXIT_BAD_INPUT;
}

static int export_profile(const struct options *o, const struct model *m,
			  unsigned type)
{
	char err[256];
	if (export_model(m, type, o->export_format, o->output, stderr, err, sizeof(err)))
		return 0;
	char safe[1024];
	escape_text(o->output, safe, sizeof(safe));
	fprintf(stderr, "wprof-tui: %s: %s\n", safe, err);
	return 1;
}

/* --granularity files, or lines where the loader has not read the
 * profile by line (load_options.by_line: pprof). */
static bool granular_model(const struct options *o, const char *file, struct model *m)
{
	if (o->granularity == GRANULARITY_FUNCTIONS ||
	    (o->granularity == GRANULARITY_LINES && o->load.by_line && !strcmp(m->format, "pprof")))
		return true;
	struct model by;
	const char *why;
	if (!model_by_granularity(m, o->granularity, &by, &why)) {
		char safe[1024];
		escape_text(file, safe, sizeof(safe));
		fprintf(stderr, "wprof-tui: %s: --granularity %s: %s\n", safe,
			granularity_name(o->granularity), why);
		return false;
	}
	model_free(m);
	*m = by;
	return true;
}

/* The model by the command line's granularity and after its filters, in
 * place of the one read. */
static bool filter_model(const struct options *o, const char *file, struct model *m)
{
	if (!granular_model(o, file, m))
		return false;
	if (!o->filters.n)
		return true;
	struct model out;
	const char *why;
	if (!model_transform(m, o->filters.items, o->filters.n, &out, &why)) {
		char safe[1024];
		escape_text(file, safe, sizeof(safe));
		fprintf(stderr, "wprof-tui: %s: %s\n", safe, why);
		return false;
	}
	model_free(m);
	*m = out;
	return true;
}

/* "focus=main\.run", one a filter, for the report's Active filters. */
static char **describe_filters(const struct options *o, const struct model *m)
{
	char **out = xcalloc(o->filters.n + 1, sizeof(char *));
	for (size_t i = 0; i < o->filters.n; i++) {
		char buf[600];
		transform_describe(m, &o->filters.items[i], buf, sizeof(buf));
		out[i] = xstrdup(buf);
	}
	return out;
}

static void free_descriptions(char **d, size_t n)
{
	for (size_t i = 0; i < n; i++)
		free(d[i]);
	free(d);
}

static int print_tags(const struct options *o, const struct model *m, unsigned type)
{
	tags_report_print(stdout, o->file, m, type, o->format);
	return fflush(stdout) == 0 ? 0 : 1;
}

static int print_lines(const struct options *o, const struct model *m, unsigned type)
{
	struct lines_report rep = { o->file, o->format, o->function, type, &o->tui.source };
	char err[512];
	if (!report_lines(stdout, m, &rep, err, sizeof(err))) {
		char safe[600];
		escape_text(err, safe, sizeof(safe));
		fprintf(stderr, "wprof-tui: %s\n", safe);
		return EXIT_BAD_INPUT;
	}
	return fflush(stdout) == 0 ? 0 : 1;
}

/* --report flame's width: --width, $COLUMNS, the terminal's, else 100. */
static unsigned report_width(const struct options *o)
{
	if (o->width)
		return o->width;
	const char *columns = getenv("COLUMNS");
	long n = columns ? strtol(columns, NULL, 10) : 0;
	if (n >= 10 && n <= 10000)
		return (unsigned)n;
	struct winsize ws;
	if (isatty(STDOUT_FILENO) && ioctl(STDOUT_FILENO, TIOCGWINSZ, &ws) == 0 &&
	    ws.ws_col >= 10)
		return ws.ws_col;
	return 100;
}

/* --report flame (text) and --export svg: the flame graph itself. */
static int print_flame(const struct options *o, struct view_context *ctx)
{
	struct flame f;
	flame_build(&f, ctx, FLAME_LEFT_HEAVY);
	struct flame_report rep = {
		.file = o->file, .ctx = ctx, .flame = &f, .width = report_width(o),
		.root_below = o->tui.flame_up,
		.utf8 = !strcmp(nl_langinfo(CODESET), "UTF-8"),
	};
	int status = 0;
	if (o->svg && !f.nframes) {
		fprintf(stderr, "wprof-tui: %s: no flame graph: %s\n", o->file,
			f.why_not ? f.why_not : "no samples");
		status = EXIT_BAD_INPUT;
	} else if (o->svg && !flame_export_svg(o->output, &rep)) {
		fprintf(stderr, "wprof-tui: %s: %s\n", o->output, strerror(errno));
		status = 1;
	} else if (!o->svg) {
		flame_report_print(stdout, &rep);
		status = fflush(stdout) == 0 ? 0 : 1;
	}
	flame_free(&f);
	return status;
}

static int print_report(const struct options *o, struct model *m, unsigned type,
			const char *range)
{
	struct rules rules;
	rules_init(&rules, m);
	struct view_context ctx = {
		.model = m,
		.rules = &rules,
		.rule = o->rule_given ? o->rule : rule_default(m),
		.type = type,
		.sort = o->sort,
		.reversed = o->reversed,
		.focus_frame = NO_ID,
	};
	if (o->svg || (o->view == VIEW_FLAME && o->format == REPORT_TEXT)) {
		int status = print_flame(o, &ctx);
		rules_free(&rules);
		return status;
	}
	struct view view;
	view_open(&view, o->view, &ctx);
	struct report_cut cut;
	report_expand(&view, o->view, o->depth, o->max_rows, &cut);
	char **filters = describe_filters(o, m);
	struct report rep = { o->file, o->view, o->format, &view, &cut, range,
			      filters, o->filters.n };
	report_print(stdout, &rep);
	free_descriptions(filters, o->filters.n);
	view_close(&view);
	rules_free(&rules);
	return fflush(stdout) == 0 ? 0 : 1;
}

/* A URL (http://, https://) is fetched whole, then read like a file. */
static bool load_url_or_file(const char *file, const struct load_options *opt,
			     struct model *m, struct load_error *err)
{
	if (!fetch_is_url(file))
		return load_file(file, opt, m, err, show_progress);
	uint8_t *data;
	size_t len;
	if (!fetch_url(file, &fetch_opt, &data, &len, err->message, sizeof(err->message)))
		return false;
	bool ok = load_memory(data, len, file, opt, m, err);
	free(data);
	return ok;
}

static bool load_profile(const char *file, const struct load_options *opt,
			 struct model *m)
{
	struct load_error err;
	char safe[1024], warning[1024];
	escape_text(file, safe, sizeof(safe));
	if (load_url_or_file(file, opt, m, &err)) {
		if (m->warning != STR_NONE) {
			escape_text(model_str(m, m->warning), warning, sizeof(warning));
			fprintf(stderr, "wprof-tui: %s: warning: %s\n", safe, warning);
		}
		return true;
	}
	fprintf(stderr, "wprof-tui: %s: %s\n", safe, err.message);
	return false;
}

/* --range: `m` becomes the profile cut to the range, and `described`
 * says which part of the whole it is. */
static bool cut_to_range(const struct options *o, struct model *m,
			 char *described, size_t cap)
{
	char why[256], safe[1024];
	struct sample_range r;
	const char *why_not = why;
	struct model cut;
	bool ok = range_resolve(m, &o->range, &r, why, sizeof(why)) &&
		  model_cut_range(m, r, true, &cut, &why_not);
	if (!ok) {
		escape_text(o->file, safe, sizeof(safe));
		fprintf(stderr, "wprof-tui: %s: %s\n", safe, why_not);
		return false;
	}
	range_describe(m, r, true, described, cap);
	snprintf(described + strlen(described), cap - strlen(described),
		 " (samples #%zu-#%zu)", r.first + 1, r.end);
	model_free(m);
	*m = cut;
	return true;
}

/* The live source the command line names (--listen, --connect, --inspect,
 * --live URL), or NULL when it cannot be set up (said on stderr).
 * Without the explorer, the peers' news goes to stderr. */
static struct live_source *open_source(const struct options *o, bool explorer)
{
	FILE *log = explorer ? NULL : stderr;
	if (o->live_url)
		return http_source_open(o->live_url, o->window, o->windows, &fetch_opt,
					&o->load, log);
	if (o->inspect)
		return cdp_source_open(&o->cdp, o->duration > 0 ? o->duration : 10);
	char err[512], safe[1100];
	const char *address = o->listen ? o->listen : o->connect;
	struct live_source *source = xs_source_open(address, o->listen != NULL, log,
						    err, sizeof(err));
	if (!source) {
		escape_text(err, safe, sizeof(safe));
		fprintf(stderr, "wprof-tui: %s\n", safe);
	}
	return source;
}

/* Without a terminal: the profile the source was asked for (the first
 * engine's session, --duration of a target, --windows windows); `who`
 * names it for the report. */
static bool collect_profile(struct live_source *source, struct model *m,
			    char *who, size_t cap)
{
	char err[1300], safe[2600];
	if (source->ops->collect(source, m, who, cap, err, sizeof(err)))
		return true;
	escape_text(err, safe, sizeof(safe));
	fprintf(stderr, "wprof-tui: %s\n", safe);
	return false;
}

/* After the report: the source lets its peers go, then ends. */
static void close_source(struct live_source *source)
{
	if (source->ops->finish)
		source->ops->finish(source);
	source->ops->free(source);
}

static int print_diff(const struct options *o, struct rules *base,
		      struct rules *new_side)
{
	struct diff d;
	diff_init(&d, base, new_side);
	if (o->rule_given)
		d.rule = o->rule;
	d.normalize = o->normalize;
	d.sort = o->diff_sort;
	d.reversed = o->reversed;
	int status = EXIT_BAD_INPUT;
	if (!diff_comparable(&d)) {
		const struct model *mb = base->model, *mn = new_side->model;
		char units[DIFF_SIDES][64];
		escape_text(model_str(mb, mb->types[d.type[DIFF_BASE]].unit),
			    units[DIFF_BASE], sizeof(units[DIFF_BASE]));
		escape_text(model_str(mn, mn->types[d.type[DIFF_NEW]].unit),
			    units[DIFF_NEW], sizeof(units[DIFF_NEW]));
		fprintf(stderr, "wprof-tui: cannot compare %s with %s; use --normalize "
				"to compare shares of each profile\n",
			units[DIFF_BASE], units[DIFF_NEW]);
	} else {
		diff_build(&d);
		struct diff_report rep = { { o->file, o->new_file }, o->format, &d };
		diff_report_print(stdout, &rep);
		status = fflush(stdout) == 0 ? 0 : 1;
	}
	diff_free(&d);
	return status;
}

/* The two sides of a comparison: BASE and NEW files, or the two count
 * columns of one differential folded file (side names in `names`).
 * With `base_loaded`, sides[0] holds the first file already. */
static bool load_sides(const struct options *o, struct model sides[2],
		       char names[2][1024], bool base_loaded)
{
	if (!base_loaded && !load_profile(o->file, &o->load, &sides[0]))
		return false;
	bool differential = !strcmp(sides[0].format, FORMAT_FOLDED_DIFFERENTIAL);
	if (o->new_file && differential) {
		model_free(&sides[0]);
		char safe[1024];
		escape_text(o->file, safe, sizeof(safe));
		fprintf(stderr, "wprof-tui: %s: holds BASE and NEW already (two counts "
				"per stack): give it alone\n", safe);
		return false;
	}
	if (!o->new_file && !differential) {
		model_free(&sides[0]);
		usage_error("%s", "--diff needs two profiles: BASE NEW (or one "
			    "differential folded file)");
	}
	struct load_options second = o->load;
	second.count_column = 1;
	const char *other = o->new_file ? o->new_file : o->file;
	if (!load_profile(other, o->new_file ? &o->load : &second, &sides[1])) {
		model_free(&sides[0]);
		return false;
	}
	snprintf(names[0], sizeof(names[0]), "%s%s", o->file, differential ? " (BASE)" : "");
	snprintf(names[1], sizeof(names[1]), "%s%s", other, differential ? " (NEW)" : "");
	return true;
}

static int compare_profiles(struct options *o)
{
	struct model sides[2];
	char names[2][1024];
	if (!load_sides(o, sides, names, false))
		return EXIT_BAD_INPUT;
	o->file = names[0];
	o->new_file = names[1];
	if (!filter_model(o, o->file, &sides[0]) || !filter_model(o, o->new_file, &sides[1])) {
		model_free(&sides[0]);
		model_free(&sides[1]);
		return EXIT_BAD_INPUT;
	}
	struct rules base_rules, new_rules;
	rules_init(&base_rules, &sides[0]);
	rules_init(&new_rules, &sides[1]);
	int status = print_diff(o, &base_rules, &new_rules);
	rules_free(&base_rules);
	rules_free(&new_rules);
	model_free(&sides[0]);
	model_free(&sides[1]);
	return status;
}

/* A profile read from standard input (`curl ... | wprof-tui -`) leaves
 * the explorer no keyboard there: it reads keys from the terminal. */
static void keys_from_terminal(const struct options *o)
{
	bool piped = !strcmp(o->file, "-") || (o->new_file && !strcmp(o->new_file, "-"));
	if (!piped || isatty(STDIN_FILENO))
		return;
	int tty = open("/dev/tty", O_RDONLY | O_CLOEXEC);
	if (tty < 0)
		return; /* the explorer then says it needs a terminal */
	dup2(tty, STDIN_FILENO);
	close(tty);
}

/* `wprof-tui BASE NEW` (or a differential folded file, `base` when it
 * is loaded already): the explorer's split screen. */
static int explore_two(const struct options *o, struct model *base)
{
	struct model models[2];
	char names[2][1024];
	if (base)
		models[0] = *base;
	if (!load_sides(o, models, names, base != NULL))
		return EXIT_BAD_INPUT;
	if (!filter_model(o, names[0], &models[0]) || !filter_model(o, names[1], &models[1])) {
		model_free(&models[0]);
		model_free(&models[1]);
		return EXIT_BAD_INPUT;
	}
	keys_from_terminal(o);
	const char *const files[2] = { names[0], names[1] };
	struct model *sides[2] = { &models[0], &models[1] };
	int status = tui_run_compare(files, sides, &o->tui);
	model_free(&models[0]);
	model_free(&models[1]);
	return status;
}

/* A differential folded file read as one profile is its BASE column. */
static void note_differential(const struct options *o, const struct model *m)
{
	if (strcmp(m->format, FORMAT_FOLDED_DIFFERENTIAL))
		return;
	char safe[1024];
	escape_text(o->file, safe, sizeof(safe));
	fprintf(stderr, "wprof-tui: note: %s holds two counts per stack: this is the "
			"first (BASE); --report flat --diff or the explorer compares "
			"them\n", safe);
}

/* What the command line allocated, freed on every way out of main. */
static void free_options(struct options *o)
{
	transform_stack_free(&o->filters);
	free(o->tui.source.dirs);
	free(o->tui.source.trims);
}

/* The command line's work; its exit status. */
static int run(struct options *o)
{
	if (o->diff)
		return compare_profiles(o);
	if (o->new_file)
		return explore_two(o, NULL);

	struct model m;
	char engine[4096];
	struct live_source *source = NULL;
	if (o->live_url || o->inspect || o->listen || o->connect) {
		bool explorer = !o->report && !o->exporting;
		if (!(source = open_source(o, explorer)))
			return EXIT_BAD_INPUT;
		if (explorer) {
			int status = tui_run_live(source, &o->tui);
			source->ops->free(source);
			return status;
		}
		if (!collect_profile(source, &m, engine, sizeof(engine))) {
			close_source(source);
			return EXIT_BAD_INPUT;
		}
		o->file = engine;
	} else if (!load_profile(o->file, &o->load, &m)) {
		return EXIT_BAD_INPUT;
	} else if (!strcmp(m.format, FORMAT_FOLDED_DIFFERENTIAL) && !o->report &&
		   !o->exporting && !o->bench_keys) {
		return explore_two(o, &m);
	}
	note_differential(o, &m);
	int status;
	unsigned type;
	char range[160] = "";
	if (o->range_text && !cut_to_range(o, &m, range, sizeof(range))) {
		status = EXIT_BAD_INPUT;
	} else if (!pick_sample_type(&m, o->load.sample_type, &type)) {
		status = bad_sample_type(o, &m);
	} else if ((o->exporting || o->report) && !filter_model(o, o->file, &m)) {
		status = EXIT_BAD_INPUT;
	} else if (o->exporting && !o->svg) {
		status = export_profile(o, &m, type);
	} else if (o->svg) {
		status = print_report(o, &m, type, NULL);
	} else if (o->tags_report) {
		status = print_tags(o, &m, type);
	} else if (o->lines_report) {
		status = print_lines(o, &m, type);
	} else if (o->report) {
		status = print_report(o, &m, type, range[0] ? range : NULL);
	} else if (o->bench_keys) {
		o->tui.sample_type = type;
		o->tui.filters = &o->filters;
		o->tui.load = &o->load;
		status = tui_bench_keys(o->bench_keys, o->file, &m, &o->tui);
	} else {
		o->tui.sample_type = type;
		o->tui.filters = &o->filters;
		o->tui.load = &o->load;
		keys_from_terminal(o);
		status = tui_run(o->file, &m, &o->tui);
	}
	model_free(&m);
	if (source) {
		fflush(stdout); /* the report is out before the others end */
		close_source(source);
	}
	return status;
}

int main(int argc, char **argv)
{
	/* Only the character type: numbers are read and written the C way. */
	setlocale(LC_CTYPE, "");
	struct options o;
	parse_options(argc, argv, &o);
	int status = run(&o);
	free_options(&o);
	return status;
}
