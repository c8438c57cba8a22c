/* wprof-tui: the command line.  Reads the options, loads the profile
 * (bytes -> loader -> model), and hands it to the report printer or the
 * interactive explorer. */
#include <errno.h>
#include <limits.h>
#include <locale.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "../loaders/loaders.h"
#include "../views/diff.h"
#include "../views/view.h"
#include "diff_report.h"
#include "escape.h"
#include "export.h"
#include "granularity.h"
#include "live.h"
#include "report.h"
#include "report_lines.h"
#include "rules.h"
#include "tui/tui.h"
#include "util.h"

#define EXIT_BAD_INPUT 2

struct options {
	const char *file;
	const char *new_file; /* with --diff: the second profile */
	bool diff;
	bool normalize;
	const char *sort_name; /* parsed once we know whether it is a diff */
	enum diff_sort diff_sort;
	bool report;
	bool lines_report;        /* --report lines */
	const char *function;     /* --function REGEX */
	enum granularity granularity;
	enum view_kind view;
	bool rule_given;
	enum rule rule;
	enum report_format format;
	enum sort_key sort;
	bool reversed;
	uint32_t depth;
	bool exporting;
	enum export_format export_format;
	const char *output;
	const char *bench_keys;
	struct tui_options tui;
	struct load_options load;
	const char *listen;  /* --listen: the address, or NULL */
	const char *connect; /* --connect: the address, or NULL */
};

static const char usage_text[] =
	"usage: wprof-tui [options] FILE\n"
	"       wprof-tui [options] BASE NEW\n"
	"       wprof-tui --report flat --diff [options] BASE NEW\n"
	"       wprof-tui --listen [HOST:]PORT [--report VIEW] [options]\n"
	"       wprof-tui --connect HOST:PORT [--report VIEW] [options]\n"
	"\n"
	"Explore a CPU profile in the terminal: V8/Chrome/Node/XS .cpuprofile,\n"
	"pprof (profile.proto, gzipped or not), GNU gmon.out (gprof), WasmProf\n"
	"call arcs.\n"
	"\n"
	"  --report VIEW     print VIEW without a terminal and exit:\n"
	"                    flat, top-down, bottom-up, callgraph, or lines\n"
	"                    (with --function)\n"
	"  --function REGEX  --report lines: the functions to list, line by\n"
	"                    line, as go tool pprof -list REGEX\n"
	"  --granularity G   functions (default), files or lines: the frames\n"
	"                    panes and reports group by, as pprof's\n"
	"                    -granularity (the L key in the explorer)\n"
	"  --source-path DIR where to look for source files (repeatable)\n"
	"  --trim-path PREFIX  take PREFIX off source paths before looking\n"
	"                    under each --source-path (repeatable)\n"
	"  --rule RULE       exact, additive, divided or gprof (default: exact\n"
	"                    where the data has whole stacks)\n"
	"  --format FORMAT   text, csv or json (with --report; default text)\n"
	"  --sort KEY        total, self, calls or name (default total); with\n"
	"                    --diff: delta (|delta|, the default), regression,\n"
	"                    total, self or name\n"
	"  --reverse         sort the other way round\n"
	"  --depth N         expand tree views N levels deep (default: all)\n"
	"  --diff            compare BASE with NEW, function by function (with\n"
	"                    --report flat); delta = new total - base total\n"
	"  --normalize       with --diff: compare shares of each profile (%)\n"
	"  --sample-type T   the values to show, by name or index (like pprof's\n"
	"                    -sample_index; default: the file's default, else\n"
	"                    the last)\n"
	"  --export FORMAT   write the profile as pprof (gzipped profile.proto),\n"
	"                    cpuprofile (V8 JSON) or folded (flame graph stacks)\n"
	"  -o FILE           where --export writes\n"
	"  --exe PROGRAM     gmon.out: the program that wrote it (default:\n"
	"                    a.out beside the file, as gprof); gperftools and\n"
	"                    legacy pprof profiles: names for their addresses\n"
	"  --listen [HOST:]PORT  wait for XS engines (xsbug protocol; default\n"
	"                    127.0.0.1:5002, a bare port is loopback only) and\n"
	"                    explore them live; with --report: profile the\n"
	"                    first engine that logs in until it stops\n"
	"                    profiling or disconnects\n"
	"  --connect HOST:PORT   read the stream of a program that serves it\n"
	"  --session N       xsbug captures: the Nth profile (default: the\n"
	"                    last one that stopped)\n"
	"  --thread NAME|TID  traces: the thread whose profile to show, by\n"
	"                    name, tid or profile id (default: the busiest\n"
	"                    CrRendererMain, else the busiest thread);\n"
	"                    speedscope files: the profile of that name, or\n"
	"                    the Nth (default: activeProfileIndex, else the\n"
	"                    first)\n"
	"  --theme NAME      colours from themes/NAME.theme (dark, light, mono)\n"
	"                    or a theme file's path; also $WPROF_THEME\n"
	"  --bench-keys SCRIPT  replay the keys in SCRIPT without a terminal\n"
	"                    and print the time each one takes\n"
	"  -h, --help        show this help\n"
	"  --version         show the version\n"
	"\n"
	"Exit status: 0 on success, 2 for unreadable or invalid input or usage.\n";

static void usage_error(const char *fmt, const char *arg)
{
	fprintf(stderr, "wprof-tui: ");
	fprintf(stderr, fmt, arg);
	fprintf(stderr, "\n(wprof-tui --help lists the options)\n");
	exit(EXIT_BAD_INPUT);
}

static const char *option_value(int argc, char **argv, int *i)
{
	if (*i + 1 >= argc)
		usage_error("%s needs a value", argv[*i]);
	return argv[++*i];
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
	if (!o->diff) {
		if (o->normalize)
			usage_error("%s", "--normalize goes with --diff");
		return;
	}
	if (!o->new_file)
		usage_error("%s", "--diff needs two profiles: BASE NEW");
	if (!o->report || o->view != VIEW_FLAT)
		usage_error("%s", "--diff works with --report flat only");
}

/* A live profile comes from the network, not from a file. */
static void check_live_options(const struct options *o)
{
	if (o->listen && o->connect)
		usage_error("%s", "--listen or --connect, not both");
	if (o->file)
		usage_error("a live profile comes from the network, not '%s'", o->file);
	if (o->diff)
		usage_error("%s", "--diff compares files, not live profiles");
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

static void parse_options(int argc, char **argv, struct options *o)
{
	*o = (struct options){ .depth = UINT32_MAX, .load.session = -1 };
	for (int i = 1; i < argc; i++) {
		const char *a = argv[i];
		if (!strcmp(a, "-h") || !strcmp(a, "--help")) {
			fputs(usage_text, stdout);
			exit(0);
		} else if (!strcmp(a, "--version")) {
			printf("wprof-tui %s\n", WPROF_VERSION);
			exit(0);
		} else if (!strcmp(a, "--report")) {
			o->report = true;
			const char *v = option_value(argc, argv, &i);
			o->lines_report = !strcmp(v, "lines");
			if (!o->lines_report && !view_kind_parse(v, &o->view))
				usage_error("unknown view '%s' (flat, top-down, bottom-up, "
					    "callgraph, lines)", v);
		} else if (!strcmp(a, "--granularity")) {
			const char *v = option_value(argc, argv, &i);
			if (!granularity_parse(v, &o->granularity))
				usage_error("unknown granularity '%s' (functions, files, lines)", v);
		} else if (!strcmp(a, "--function")) {
			o->function = option_value(argc, argv, &i);
		} else if (!strcmp(a, "--source-path")) {
			struct source_options *so = &o->tui.source;
			so->dirs = xrealloc(so->dirs, (so->ndirs + 1) * sizeof(*so->dirs));
			so->dirs[so->ndirs++] = option_value(argc, argv, &i);
		} else if (!strcmp(a, "--trim-path")) {
			struct source_options *so = &o->tui.source;
			so->trims = xrealloc(so->trims, (so->ntrims + 1) * sizeof(*so->trims));
			so->trims[so->ntrims++] = option_value(argc, argv, &i);
		} else if (!strcmp(a, "--rule")) {
			const char *v = option_value(argc, argv, &i);
			if (!rule_parse(v, &o->rule))
				usage_error("unknown rule '%s' (exact, additive, divided, gprof)", v);
			o->rule_given = true;
		} else if (!strcmp(a, "--format")) {
			const char *v = option_value(argc, argv, &i);
			if (!report_format_parse(v, &o->format))
				usage_error("unknown format '%s' (text, csv, json)", v);
		} else if (!strcmp(a, "--sort")) {
			o->sort_name = option_value(argc, argv, &i);
		} else if (!strcmp(a, "--diff")) {
			o->diff = true;
		} else if (!strcmp(a, "--normalize")) {
			o->normalize = true;
		} else if (!strcmp(a, "--exe")) {
			o->load.exe = option_value(argc, argv, &i);
		} else if (!strcmp(a, "--thread")) {
			o->load.thread = option_value(argc, argv, &i);
		} else if (!strcmp(a, "--reverse")) {
			o->reversed = true;
		} else if (!strcmp(a, "--depth")) {
			const char *v = option_value(argc, argv, &i);
			char *end;
			errno = 0;
			unsigned long d = strtoul(v, &end, 10);
			if (errno || *end || !*v || d > UINT32_MAX)
				usage_error("--depth takes a whole number, not '%s'", v);
			o->depth = (uint32_t)d;
		} else if (!strcmp(a, "--listen")) {
			/* The address is optional: XS engines dial 5002 by default. */
			bool given = i + 1 < argc && argv[i + 1][0] != '-';
			o->listen = given ? argv[++i] : LIVE_DEFAULT_ADDRESS;
		} else if (!strcmp(a, "--connect")) {
			o->connect = option_value(argc, argv, &i);
		} else if (!strcmp(a, "--session")) {
			const char *v = option_value(argc, argv, &i);
			char *end;
			errno = 0;
			long n = strtol(v, &end, 10);
			if (errno || *end || !*v || n < 1 || n > INT32_MAX)
				usage_error("--session takes a number from 1, not '%s'", v);
			o->load.session = (int)n;
		} else if (!strcmp(a, "--sample-type")) {
			o->load.sample_type = option_value(argc, argv, &i);
		} else if (!strcmp(a, "--export")) {
			const char *v = option_value(argc, argv, &i);
			if (!export_format_parse(v, &o->export_format))
				usage_error("unknown export format '%s' (pprof, cpuprofile, folded)", v);
			o->exporting = true;
		} else if (!strcmp(a, "-o") || !strcmp(a, "--output")) {
			o->output = option_value(argc, argv, &i);
		} else if (!strcmp(a, "--theme")) {
			o->tui.theme = option_value(argc, argv, &i);
		} else if (!strcmp(a, "--bench-keys")) {
			o->bench_keys = option_value(argc, argv, &i);
		} else if (a[0] == '-' && a[1]) {
			usage_error("unknown option '%s'", a);
		} else if (!o->file) {
			o->file = a;
		} else if (!o->new_file) {
			o->new_file = a;
		} else {
			usage_error("at most two profiles ('%s' is one too many)", a);
		}
	}
	if (o->listen || o->connect)
		check_live_options(o);
	else if (!o->file)
		usage_error("%s", "no profile given");
	check_diff_options(o);
	parse_sort(o);
	o->tui.granularity = o->granularity;
	/* pprof files are read by line; the explorer reads them again when
	 * L asks for lines, and starts from functions. */
	o->load.by_line = o->granularity == GRANULARITY_LINES && (o->report || o->exporting);
	if (o->lines_report != (o->function != NULL))
		usage_error("%s", "--report lines and --function REGEX go together");
	if (o->exporting && !o->output)
		usage_error("%s", "--export needs -o FILE");
	if (o->output && !o->exporting)
		usage_error("%s", "-o goes with --export FORMAT");
}

/* A progress line for files that take more than a moment to read. */
static void show_progress(const struct input *in)
{
	static int last = -1;
	if (in->size < (64u << 20) || !isatty(STDERR_FILENO))
		return;
	int percent = (int)(100.0 * (double)(in->base + in->len) / (double)in->size);
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
	if (!wanted) {
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

static int print_report(const struct options *o, struct model *m, unsigned type)
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
	struct view view;
	view_open(&view, o->view, &ctx);
	view_expand_all(&view, SIZE_MAX, o->depth, SIZE_MAX);
	struct report rep = { o->file, o->view, o->format, &view };
	report_print(stdout, &rep);
	view_close(&view);
	rules_free(&rules);
	return fflush(stdout) == 0 ? 0 : 1;
}

/* --granularity files, or lines where the loader has not read lines. */
static bool apply_granularity(const struct options *o, struct model *m)
{
	if (o->granularity == GRANULARITY_FUNCTIONS || !(o->report || o->exporting) ||
	    (o->granularity == GRANULARITY_LINES && !strcmp(m->format, "pprof")))
		return true;
	struct model by;
	const char *why;
	if (!model_by_granularity(m, o->granularity, &by, &why)) {
		char safe[1024];
		escape_text(o->file, safe, sizeof(safe));
		fprintf(stderr, "wprof-tui: %s: --granularity %s: %s\n", safe,
			granularity_name(o->granularity), why);
		return false;
	}
	model_free(m);
	*m = by;
	return true;
}

static int print_lines_report(const struct options *o, const struct model *m,
			      unsigned type)
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

static bool load_profile(const char *file, const struct load_options *opt,
			 struct model *m)
{
	struct load_error err;
	if (load_file(file, opt, m, &err, show_progress))
		return true;
	char safe[1024];
	escape_text(file, safe, sizeof(safe));
	fprintf(stderr, "wprof-tui: %s: %s\n", safe, err.message);
	return false;
}

/* --listen/--connect without a terminal: the first engine's profile. */
static bool receive_profile(const struct options *o, struct model *m,
			    char *engine, size_t cap)
{
	struct live *l = live_new(stderr);
	char err[512];
	bool ok = o->listen ? live_listen(l, o->listen, err, sizeof(err))
			    : live_connect(l, o->connect, err, sizeof(err));
	if (ok)
		ok = live_wait_profile(l, m, engine, cap, err, sizeof(err));
	live_free(l);
	if (!ok) {
		char safe[600];
		escape_text(err, safe, sizeof(safe));
		fprintf(stderr, "wprof-tui: %s\n", safe);
	}
	return ok;
}

/* --listen/--connect on a terminal: the live explorer. */
static int explore_live(const struct options *o)
{
	struct live *l = live_new(NULL);
	char err[512];
	const char *address = o->listen ? o->listen : o->connect;
	bool ok = o->listen ? live_listen(l, address, err, sizeof(err))
			    : live_connect(l, address, err, sizeof(err));
	int status = EXIT_BAD_INPUT;
	if (ok) {
		status = tui_run_live(l, address, &o->tui);
	} else {
		char safe[600];
		escape_text(err, safe, sizeof(safe));
		fprintf(stderr, "wprof-tui: %s\n", safe);
	}
	live_free(l);
	return status;
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

static int compare_profiles(const struct options *o)
{
	struct model base, new_side;
	if (!load_profile(o->file, &o->load, &base))
		return EXIT_BAD_INPUT;
	if (!load_profile(o->new_file, &o->load, &new_side)) {
		model_free(&base);
		return EXIT_BAD_INPUT;
	}
	struct rules base_rules, new_rules;
	rules_init(&base_rules, &base);
	rules_init(&new_rules, &new_side);
	int status = print_diff(o, &base_rules, &new_rules);
	rules_free(&base_rules);
	rules_free(&new_rules);
	model_free(&base);
	model_free(&new_side);
	return status;
}

/* `wprof-tui BASE NEW`: the explorer's split screen. */
static int explore_two(const struct options *o)
{
	struct model models[2];
	if (!load_profile(o->file, &o->load, &models[0]))
		return EXIT_BAD_INPUT;
	if (!load_profile(o->new_file, &o->load, &models[1])) {
		model_free(&models[0]);
		return EXIT_BAD_INPUT;
	}
	const char *const files[2] = { o->file, o->new_file };
	struct model *sides[2] = { &models[0], &models[1] };
	int status = tui_run_compare(files, sides, &o->tui);
	model_free(&models[0]);
	model_free(&models[1]);
	return status;
}

int main(int argc, char **argv)
{
	/* Only the character type: numbers are read and written the C way. */
	setlocale(LC_CTYPE, "");
	struct options o;
	parse_options(argc, argv, &o);
	if (o.diff)
		return compare_profiles(&o);
	if (o.new_file)
		return explore_two(&o);

	struct model m;
	char engine[256];
	if (o.listen || o.connect) {
		if (!o.report && !o.exporting)
			return explore_live(&o);
		if (!receive_profile(&o, &m, engine, sizeof(engine)))
			return EXIT_BAD_INPUT;
		o.file = engine;
	} else if (!load_profile(o.file, &o.load, &m)) {
		return EXIT_BAD_INPUT;
	}
	if (!apply_granularity(&o, &m)) {
		model_free(&m);
		return EXIT_BAD_INPUT;
	}
	int status;
	unsigned type;
	if (!pick_sample_type(&m, o.load.sample_type, &type)) {
		status = bad_sample_type(&o, &m);
	} else if (o.exporting) {
		status = export_profile(&o, &m, type);
	} else if (o.lines_report) {
		status = print_lines_report(&o, &m, type);
	} else if (o.report) {
		status = print_report(&o, &m, type);
	} else if (o.bench_keys) {
		o.tui.sample_type = type;
		status = tui_bench_keys(o.bench_keys, o.file, &m, &o.tui);
	} else {
		o.tui.sample_type = type;
		status = tui_run(o.file, &m, &o.tui);
	}
	model_free(&m);
	free(o.tui.source.dirs);
	free(o.tui.source.trims);
	return status;
}
