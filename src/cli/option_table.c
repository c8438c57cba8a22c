/* wprof-tui's options, one row each (option_table.h), and the handlers
 * that read their values into struct options.  A value that does not
 * parse is a usage error that names the option. */
#include "option_table.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/util.h"
#include "live/xs.h"
#include "tui/keys.h"

#define FIELD(o, spec, type) ((type *)((char *)(o) + (spec)->field))

static void set_string(struct options *o, const struct option_spec *spec, const char *v)
{
	*FIELD(o, spec, const char *) = v;
}

static void set_flag(struct options *o, const struct option_spec *spec, const char *v)
{
	(void)v;
	*FIELD(o, spec, bool) = true;
}

static uint32_t parse_count(const struct option_spec *spec, const char *v)
{
	char *end;
	errno = 0;
	unsigned long long n = strtoull(v, &end, 10);
	if (errno || *end || !*v || *v == '-' || n > UINT32_MAX)
		usage_error("--%s takes a whole number, not '%s'", spec->name, v);
	return (uint32_t)n;
}

/* --max-size: bytes, or a number with K, M, G or T (powers of 1024). */
static uint64_t parse_size(const struct option_spec *spec, const char *v)
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
	if (errno || *end || end == v || *v == '-' || n == 0 || n > (UINT64_MAX >> shift))
		usage_error("--%s takes a size such as 4G, 500M or 1048576, not '%s'",
			    spec->name, v);
	return (uint64_t)n << shift;
}

/* "10s", "500ms", "2m" or a bare number of seconds. */
static void parse_duration(struct options *o, const struct option_spec *spec, const char *v)
{
	(void)spec;
	char *end;
	errno = 0;
	double d = strtod(v, &end);
	double scale = !strcmp(end, "ms") ? 1e-3 : !strcmp(end, "m") ? 60
		     : (!*end || !strcmp(end, "s")) ? 1 : -1;
	if (errno || end == v || scale < 0 || !(d > 0) || d * scale > 86400)
		usage_error("--duration takes a time like 10s or 500ms, not '%s'", v);
	o->duration = d * scale;
}

static void show_help(struct options *o, const struct option_spec *spec, const char *v)
{
	(void)o, (void)spec, (void)v;
	print_help(stdout);
	exit(0);
}

static void show_version(struct options *o, const struct option_spec *spec, const char *v)
{
	(void)o, (void)spec, (void)v;
	printf("wprof-tui %s\n", WPROF_VERSION);
	exit(0);
}

static void show_keys(struct options *o, const struct option_spec *spec, const char *v)
{
	(void)o, (void)spec, (void)v;
	key_table_print(stdout);
	exit(0);
}

static void show_all_options(struct options *o, const struct option_spec *spec,
			     const char *v)
{
	(void)o, (void)spec, (void)v;
	list_options(stdout);
	exit(0);
}

static void parse_report(struct options *o, const struct option_spec *spec, const char *v)
{
	(void)spec;
	o->report = true;
	o->tags_report = !strcmp(v, "tags");
	o->lines_report = !strcmp(v, "lines");
	if (!o->tags_report && !o->lines_report && !view_kind_parse(v, &o->view))
		usage_error("unknown view '%s' (flat, top-down, bottom-up, "
			    "callgraph, flame, sandwich, tags, lines)", v);
}

static void parse_rule(struct options *o, const struct option_spec *spec, const char *v)
{
	(void)spec;
	if (!rule_parse(v, &o->rule))
		usage_error("unknown rule '%s' (exact, additive, divided, gprof)", v);
	o->rule_given = true;
}

static void parse_sample_time(struct options *o, const struct option_spec *spec,
			      const char *v)
{
	(void)spec;
	if (!strcmp(v, "next"))
		o->load.sample_time = SAMPLE_TIME_NEXT;
	else if (!strcmp(v, "own"))
		o->load.sample_time = SAMPLE_TIME_OWN;
	else
		usage_error("unknown sample time '%s' (next, own)", v);
}

static void parse_format(struct options *o, const struct option_spec *spec, const char *v)
{
	(void)spec;
	if (!report_format_parse(v, &o->format))
		usage_error("unknown format '%s' (text, csv, json)", v);
}

static void parse_granularity(struct options *o, const struct option_spec *spec,
			      const char *v)
{
	(void)spec;
	if (!granularity_parse(v, &o->granularity))
		usage_error("unknown granularity '%s' (functions, files, lines, addresses)", v);
}

static void parse_depth(struct options *o, const struct option_spec *spec, const char *v)
{
	o->depth = strcmp(v, "all") ? parse_count(spec, v) : REPORT_NO_LIMIT;
}

static void parse_max_rows(struct options *o, const struct option_spec *spec, const char *v)
{
	o->max_rows = strcmp(v, "all") ? parse_count(spec, v) : SIZE_MAX;
}

static void parse_width(struct options *o, const struct option_spec *spec, const char *v)
{
	uint32_t w = parse_count(spec, v);
	if (w < 10 || w > 10000)
		usage_error("--width takes a number of columns from 10 to 10000, not '%s'", v);
	o->width = w;
}

static void parse_export(struct options *o, const struct option_spec *spec, const char *v)
{
	(void)spec;
	o->svg = !strcmp(v, "svg");
	if (!o->svg && !export_format_parse(v, &o->export_format))
		usage_error("unknown export format '%s' (pprof, cpuprofile, trace, folded, svg)", v);
	o->exporting = true;
}

static void parse_range(struct options *o, const struct option_spec *spec, const char *v)
{
	(void)spec;
	char why[256];
	o->range_text = v;
	if (!range_parse(v, &o->range, why, sizeof(why)))
		usage_error("--range: %s", why);
}

static void append_path(const char ***list, size_t *n, const char *path)
{
	*list = xrealloc(*list, (*n + 1) * sizeof(**list));
	(*list)[(*n)++] = path;
}

static void add_source_path(struct options *o, const struct option_spec *spec, const char *v)
{
	(void)spec;
	append_path(&o->tui.source.dirs, &o->tui.source.ndirs, v);
}

static void add_base(struct options *o, const struct option_spec *spec, const char *v)
{
	(void)spec;
	append_path(&o->base_files, &o->nbase_files, v);
}

/* --fail-if-slower PCT or PCT:REGEX. */
static void parse_fail_if_slower(struct options *o, const struct option_spec *spec,
				 const char *v)
{
	char *end;
	errno = 0;
	double pct = strtod(v, &end);
	if (errno || end == v || (*end && *end != ':') || !(pct >= 0) || isinf(pct))
		usage_error("--%s takes PCT or PCT:REGEX (PCT a number >= 0), not '%s'",
			    spec->name, v);
	o->fail_pct = pct;
	o->fail_regex = *end == ':' ? end + 1 : NULL;
}

static void add_source_map(struct options *o, const struct option_spec *spec, const char *v)
{
	(void)spec;
	append_path(&o->tui.symbolize.source_maps, &o->tui.symbolize.nsource_maps, v);
}

static void add_symbols(struct options *o, const struct option_spec *spec, const char *v)
{
	(void)spec;
	append_path(&o->tui.symbolize.symbols, &o->tui.symbolize.nsymbols, v);
}

static void add_trim_path(struct options *o, const struct option_spec *spec, const char *v)
{
	(void)spec;
	append_path(&o->tui.source.trims, &o->tui.source.ntrims, v);
}

static void parse_session(struct options *o, const struct option_spec *spec, const char *v)
{
	uint32_t n = parse_count(spec, v);
	if (n < 1 || n > INT32_MAX)
		usage_error("--session takes a number from 1, not '%s'", v);
	o->load.session = (int)n;
}

static void parse_max_size(struct options *o, const struct option_spec *spec, const char *v)
{
	o->load.max_size = parse_size(spec, v);
}

/* The address is optional (XS engines dial 5002 by default). */
static void set_listen(struct options *o, const struct option_spec *spec, const char *v)
{
	(void)spec;
	o->listen = v ? v : XS_DEFAULT_ADDRESS;
}

static void set_connect(struct options *o, const struct option_spec *spec, const char *v)
{
	(void)spec;
	o->connect = v;
	if (!strncmp(v, "ws://", 5)) {
		o->inspect = true;
		o->cdp.connect_url = v;
	}
}

static void set_inspect(struct options *o, const struct option_spec *spec, const char *v)
{
	(void)spec;
	o->inspect = true;
	o->cdp.inspect = v ? v : CDP_DEFAULT_ADDRESS;
}

static void parse_interval(struct options *o, const struct option_spec *spec, const char *v)
{
	uint32_t us = parse_count(spec, v);
	if (!us || us > 1000000)
		usage_error("--interval takes microseconds (1 to 1000000), not '%s'", v);
	o->cdp.interval_us = us;
}

static void parse_pid(struct options *o, const struct option_spec *spec, const char *v)
{
	uint32_t pid = parse_count(spec, v);
	if (!pid)
		usage_error("--pid takes a process id, not '%s'", v);
	o->inspect = true;
	o->cdp.pid = pid;
}

static void parse_wait(struct options *o, const struct option_spec *spec, const char *v)
{
	uint32_t s = parse_count(spec, v);
	if (!s || s > 86400)
		usage_error("--wait takes seconds (1 to 86400), not '%s'", v);
	o->cdp.wait_seconds = s;
}

/* --window and --windows: `field` says which. */
static void parse_windows(struct options *o, const struct option_spec *spec, const char *v)
{
	uint32_t n = parse_count(spec, v);
	if (n < 1 || n > 86400)
		usage_error("--%s takes a whole number from 1 to 86400", spec->name);
	*FIELD(o, spec, unsigned) = n;
}

static void parse_fetch_timeout(struct options *o, const struct option_spec *spec,
				const char *v)
{
	(void)spec;
	char *end;
	double t = strtod(v, &end);
	if (*end || !*v || !(t > 0 && t <= 86400))
		usage_error("--fetch-timeout takes seconds, not '%s'", v);
	o->fetch.timeout = t;
}

static void parse_min_share(struct options *o, const struct option_spec *spec,
			    const char *v)
{
	(void)spec;
	char *end;
	double pct = strtod(v, &end);
	if (*end == '%')
		end++;
	if (*end || !*v || !(pct >= 0 && pct <= 100))
		usage_error("--min-share takes a percentage from 0 to 100, not '%s'", v);
	o->tui.min_share = pct;
}

/* A filter is kept in order and made once --root is known (options.c). */
static void add_filter(struct options *o, const struct option_spec *spec, const char *v)
{
	GROW(o->filter_args, o->filter_args_cap, o->nfilter_args + 1);
	o->filter_args[o->nfilter_args].kind = (enum transform_kind)spec->kind;
	o->filter_args[o->nfilter_args].text = v;
	o->nfilter_args++;
}

#define AT(member) offsetof(struct options, member)
#define GROUP(heading) { .help = heading }
#define FILTER(name_, arg_, kind_, help_)                                       \
	{ .name = name_, .arg = arg_, .help = help_, .apply = add_filter, .kind = kind_ }

const struct option_spec option_table[] = {
	{ .name = "report", .arg = "VIEW", .apply = parse_report,
	  .help = "print VIEW without a terminal and exit:\n"
		  "flat, top-down, bottom-up, callgraph or flame (the\n"
		  "flame graph as text at the terminal's width); tags\n"
		  "lists the labels (pprof tags) and their values;\n"
		  "lines (with --function) a function's source lines;\n"
		  "sandwich (with --function) a function's callers\n"
		  "and callees as trees" },
	{ .name = "function", .arg = "REGEX", .apply = set_string, .field = AT(function),
	  .help = "--report lines: the functions to list, line by\n"
		  "line, as go tool pprof -list REGEX; --report\n"
		  "sandwich: the function shown (of those matching,\n"
		  "the one with the largest total)" },
	{ .name = "granularity", .arg = "G", .apply = parse_granularity,
	  .help = "functions (default), files, lines or addresses\n"
		  "(pprof, gperftools): the frames panes and reports\n"
		  "group by, as pprof's -granularity and -addresses\n"
		  "(the a key in the explorer)" },
	{ .name = "source-path", .arg = "DIR", .apply = add_source_path,
	  .help = "where to look for source files, and for a Go\n"
		  "module by the go.mod at or above DIR (repeatable)" },
	{ .name = "source-map", .arg = "FILE|DIR", .apply = add_source_map,
	  .help = "a JavaScript source map, or a directory of\n"
		  "SCRIPT.map files, for scripts whose own\n"
		  "sourceMappingURL is not found (repeatable)" },
	{ .name = "trim-path", .arg = "PREFIX", .apply = add_trim_path,
	  .help = "take PREFIX off source paths before looking\n"
		  "under each --source-path (repeatable)" },
	{ .name = "symbols", .arg = "FILE|DIR", .apply = add_symbols,
	  .help = "name and place WebAssembly frames from this module\n"
		  "(name section, DWARF) or Emscripten symbol map, or\n"
		  "the .wasm and .symbols files of DIR (repeatable);\n"
		  "a FILE that does not fit the profile is refused" },
	{ .name = "width", .arg = "N", .apply = parse_width,
	  .help = "--report flame: N columns (default: $COLUMNS, the\n"
		  "terminal's width, else 100)" },
	{ .name = "min-share", .arg = "PCT", .apply = parse_min_share,
	  .help = "hide rows whose total is under PCT % of the\n"
		  "profile, in reports and every pane but the flame\n"
		  "graph (as pprof's -nodefraction)" },
	{ .name = "flame-up", .apply = set_flag, .field = AT(tui.flame_up),
	  .help = "flame graph: root at the bottom (default: on top)" },
	{ .name = "rule", .letter = 'r', .arg = "RULE", .apply = parse_rule,
	  .help = "exact, additive, divided or gprof (default: exact\n"
		  "where the data has whole stacks, divided for an\n"
		  "XS .cpuprofile's function graph)" },
	{ .name = "format", .letter = 'f', .arg = "FORMAT", .apply = parse_format,
	  .help = "text, csv or json (with --report; default text)" },
	{ .name = "sort", .letter = 's', .arg = "KEY", .apply = set_string, .field = AT(sort_name),
	  .help = "total, self, calls or name (default total); with\n"
		  "--diff: delta (|delta|, the default), regression,\n"
		  "total, self or name" },
	{ .name = "reverse", .apply = set_flag, .field = AT(reversed),
	  .help = "sort the other way round" },
	{ .name = "depth", .letter = 'd', .arg = "N", .apply = parse_depth,
	  .help = "open tree reports N levels deep (default 256; all:\n"
		  "no limit); deeper rows say so" },
	{ .name = "max-rows", .arg = "N", .apply = parse_max_rows,
	  .help = "print at most N rows of a tree report (default\n"
		  "100000; all: no limit); a cut report says so" },
	{ .name = "diff", .apply = set_flag, .field = AT(diff),
	  .help = "compare BASE with NEW, function by function (with\n"
		  "--report flat); delta = new total - base total;\n"
		  "one differential folded file is BASE and NEW" },
	{ .name = "normalize", .apply = set_flag, .field = AT(normalize),
	  .help = "with --diff or comparing in the explorer:\n"
		  "compare shares of each profile (%)" },
	{ .name = "base", .arg = "FILE", .apply = add_base,
	  .help = "with --diff, or in the explorer: a base run\n"
		  "(repeatable); the other files are the new runs,\n"
		  "and each function's means are compared with\n"
		  "Welch's t-test" },
	{ .name = "fail-if-slower", .arg = "PCT[:REGEX]", .apply = parse_fail_if_slower,
	  .help = "with --diff: exit 1 when a function's total rose\n"
		  "significantly by more than PCT % of its base mean\n"
		  "(only functions matching REGEX); needs two runs a\n"
		  "side or more" },
	{ .name = "sample-type", .letter = 't', .arg = "T", .apply = set_string,
	  .field = AT(load.sample_type),
	  .help = "the values to show, by name or index (like\n"
		  "pprof's -sample_index; default: the file's\n"
		  "default, else the last); callgrind: the event\n"
		  "to read (default: the first)" },
	{ .name = "sample-time", .arg = "next|own", .apply = parse_sample_time,
	  .help = ".cpuprofile: a sample lasts until the next one\n"
		  "(next: DevTools, VS Code and xsbug) or its own\n"
		  "delta (own: the XS file profiler's files, which\n"
		  "are read so by default)" },
	{ .name = "export", .arg = "FORMAT", .apply = parse_export,
	  .help = "write the profile as pprof (gzipped profile.proto),\n"
		  "cpuprofile (V8 JSON), trace (the same as Chrome\n"
		  "trace events), folded (flame graph stacks)\n"
		  "or svg (an interactive flame graph: click to zoom,\n"
		  "search)" },
	{ .name = "output", .letter = 'o', .arg = "FILE", .apply = set_string, .field = AT(output),
	  .help = "where --export writes" },
	{ .name = "range", .arg = "START-END", .apply = parse_range,
	  .help = "only the samples from START to END, for --report,\n"
		  "--export and the explorer: times from the first\n"
		  "sample (1.2s-3.4s, 200ms-3s, 1500us-), shares of\n"
		  "the timeline (20%-40%) or sample numbers from 1\n"
		  "(#100-#500, both included); an end left out is\n"
		  "the profile's" },
	{ .name = "exe", .arg = "PROGRAM", .apply = set_string, .field = AT(load.exe),
	  .help = "gmon.out: the program that wrote it (default:\n"
		  "a.out beside the file, as gprof); gperftools and\n"
		  "legacy pprof profiles: names for their addresses" },
	{ .name = "listen", .arg = "[HOST:]PORT", .arg_optional = true, .apply = set_listen,
	  .help = "wait for XS engines (xsbug protocol; default\n"
		  "127.0.0.1:5002, a bare port is loopback only) and\n"
		  "explore them live; with --report: profile the\n"
		  "first engine that logs in until it stops\n"
		  "profiling or disconnects" },
	{ .name = "connect", .arg = "HOST:PORT", .apply = set_connect,
	  .help = "read the stream of a program that serves it" },
	{ .name = "fetch-timeout", .arg = "S", .apply = parse_fetch_timeout,
	  .help = "a URL's whole request may take S seconds\n"
		  "(default: its seconds=N plus 30)" },
	{ .name = "seconds", .arg = "N", .apply = parse_windows, .field = AT(seconds),
	  .help = "a CPU profile URL's seconds=N, as go tool pprof\n"
		  "-seconds N (also spelled so); with --live, the\n"
		  "seconds per window" },
	{ .name = "live", .arg = "URL", .apply = set_string, .field = AT(live_url),
	  .help = "a Go service's CPU profile (net/http/pprof) in\n"
		  "consecutive windows of --window seconds, folded\n"
		  "into one growing session; p pauses, w writes it" },
	{ .name = "window", .arg = "N", .apply = parse_windows, .field = AT(window),
	  .help = "seconds per --live window (default 5)" },
	{ .name = "windows", .arg = "N", .apply = parse_windows, .field = AT(windows),
	  .help = "--live: stop after N windows (needed with --report\n"
		  "or --export)" },
	{ .name = "inspect", .arg = "[HOST:]PORT", .arg_optional = true, .apply = set_inspect,
	  .help = "profile a Node, Chrome, Deno or Electron\n"
		  "target over the inspector (default 127.0.0.1:9229,\n"
		  "what node --inspect opens); --connect ws://… names\n"
		  "a target's WebSocket directly; on a terminal the\n"
		  "explorer follows it (p, z, w as for XS engines)" },
	{ .name = "target", .arg = "ID|TITLE", .apply = set_string, .field = AT(cdp.target),
	  .help = "--inspect: the target (default: the first page\n"
		  "or node target of /json/list)" },
	{ .name = "pid", .arg = "PID", .apply = parse_pid,
	  .help = "--inspect: the inspector of that process, found\n"
		  "among its loopback listening ports (node\n"
		  "--inspect=0 picks a random one)" },
	{ .name = "wait", .arg = "S", .apply = parse_wait,
	  .help = "--inspect: wait up to S seconds for the inspector\n"
		  "and its target to come (a program started after\n"
		  "wprof-tui); default: fail at once" },
	{ .name = "interval", .arg = "US", .apply = parse_interval,
	  .help = "--inspect: the sampling interval in microseconds" },
	{ .name = "duration", .arg = "TIME", .apply = parse_duration,
	  .help = "--inspect with --report or --export: profile for\n"
		  "TIME of the target's (10s, 500ms; default 10s)" },
	{ .name = "session", .arg = "N", .apply = parse_session,
	  .help = "xsbug captures: the Nth profile (default: the\n"
		  "last one that stopped with samples)" },
	{ .name = "thread", .arg = "NAME|TID", .apply = set_string, .field = AT(load.thread),
	  .help = "traces: the thread whose profile to show, by\n"
		  "name, tid or profile id (default: the busiest\n"
		  "CrRendererMain, else the busiest thread);\n"
		  "speedscope files: the profile of that name, or\n"
		  "the Nth (default: activeProfileIndex, else the\n"
		  "first); perf script: only the samples of this\n"
		  "command or thread (process) id (default: all);\n"
		  "Firefox Profiler: the thread by name, tid or as\n"
		  "the header describes it (default: as the\n"
		  "profiler selects, a tab's GeckoMain)" },

	GROUP("Filters, as pprof's, applied in the order given to every view, report,\n"
	      "export and compared side (REGEX: POSIX extended, on name and file):"),
	FILTER("focus", "REGEX", TF_FOCUS, "keep samples with a frame that matches"),
	FILTER("ignore", "REGEX", TF_IGNORE, "drop samples with a frame that matches"),
	FILTER("hide", "REGEX", TF_HIDE, "remove matching frames from the stacks"),
	FILTER("show", "REGEX", TF_SHOW, "keep only matching frames in the stacks"),
	FILTER("prune-from", "REGEX", TF_PRUNE_FROM, "cut each stack after its deepest match"),
	FILTER("merge", "REGEX", TF_MERGE, "merge matching functions into their callers"),
	FILTER("collapse", "REGEX", TF_COLLAPSE_FILE,
	       "a run of frames whose file matches becomes one\n"
	       "frame named by the match (node_modules/react)"),
	FILTER("collapse-recursion", NULL, TF_COLLAPSE_RECURSION,
	       "remove inner occurrences of recursive calls"),
	FILTER("mine", NULL, TF_MINE,
	       "my code: frames outside --root (node:, node_modules,\n"
	       "Go's runtime and GOROOT too) fold into their callers"),
	{ .name = "root", .arg = "DIR", .apply = set_string, .field = AT(root),
	  .help = "--mine's root (default: the current directory)" },
	FILTER("tagfocus", "KEY=REGEX", TF_TAGFOCUS,
	       "keep samples whose label KEY matches (pprof\n"
	       "tags; REGEX alone: matched against KEY:VALUE;\n"
	       "a number or range, 1 1:12 :64kb 4mb:, is one of\n"
	       "numeric labels, as pprof's)"),
	FILTER("tagignore", "KEY=REGEX", TF_TAGIGNORE, "drop samples whose label KEY matches"),
	FILTER("tagroot", "KEY", TF_TAGROOT, "the values of label KEY as the roots of the tree"),
	{ .name = "relative", .apply = set_flag, .field = AT(tui.relative),
	  .help = "percentages of what the filters leave (pprof's\n"
		  "-relative_percentages; default: of the whole\n"
		  "profile; the % key in the explorer)" },

	GROUP(""),
	{ .name = "theme", .arg = "NAME", .apply = set_string, .field = AT(tui.theme),
	  .help = "colours from themes/NAME.theme (dark, light, mono)\n"
		  "or a theme file's path; also $WPROF_THEME" },
	{ .name = "max-size", .arg = "SIZE", .apply = parse_max_size,
	  .help = "gzip input may inflate to SIZE (K, M, G: powers of\n"
		  "1024; default: 100 times the compressed size, at\n"
		  "least 64M, at most 2G)" },
	{ .name = "bench-keys", .arg = "SCRIPT", .apply = set_string, .field = AT(bench_keys),
	  .help = "replay the keys in SCRIPT without a terminal\n"
		  "and print the time each one takes" },
	{ .name = "help", .letter = 'h', .apply = show_help, .help = "show this help" },
	{ .name = "version", .letter = 'V', .apply = show_version, .help = "show the version" },
	{ .name = "all-options", .apply = show_all_options }, /* hidden: for tests */
	{ .name = "list-keys", .apply = show_keys }, /* hidden: for tests */
};

const size_t option_table_len = ARRAY_LEN(option_table);
