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
#include "../views/view.h"
#include "escape.h"
#include "report.h"
#include "rules.h"
#include "tui/tui.h"
#include "util.h"

#define EXIT_BAD_INPUT 2

struct options {
	const char *file;
	bool report;
	enum view_kind view;
	bool rule_given;
	enum rule rule;
	enum report_format format;
	enum sort_key sort;
	bool reversed;
	uint32_t depth;
	const char *bench_keys;
	struct tui_options tui;
	struct load_options load;
};

static const char usage_text[] =
	"usage: wprof-tui [options] FILE\n"
	"\n"
	"Explore a CPU profile in the terminal: V8/Chrome/Node/XS .cpuprofile.\n"
	"\n"
	"  --report VIEW     print VIEW without a terminal and exit:\n"
	"                    flat, top-down, bottom-up or callgraph\n"
	"  --rule RULE       exact, additive, divided or gprof (default: exact\n"
	"                    where the data has whole stacks)\n"
	"  --format FORMAT   text, csv or json (with --report; default text)\n"
	"  --sort KEY        total, self, calls or name (default total)\n"
	"  --reverse         sort the other way round\n"
	"  --depth N         expand tree views N levels deep (default: all)\n"
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
			if (!view_kind_parse(v, &o->view))
				usage_error("unknown view '%s' (flat, top-down, bottom-up, callgraph)", v);
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
			const char *v = option_value(argc, argv, &i);
			if (!sort_key_parse(v, &o->sort))
				usage_error("unknown sort key '%s' (total, self, calls, name)", v);
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
		} else if (!strcmp(a, "--theme")) {
			o->tui.theme = option_value(argc, argv, &i);
		} else if (!strcmp(a, "--bench-keys")) {
			o->bench_keys = option_value(argc, argv, &i);
		} else if (a[0] == '-' && a[1]) {
			usage_error("unknown option '%s'", a);
		} else if (!o->file) {
			o->file = a;
		} else {
			usage_error("one profile at a time ('%s' is one too many)", a);
		}
	}
	if (!o->file)
		usage_error("%s", "no profile given");
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

static int print_report(const struct options *o, struct model *m)
{
	struct rules rules;
	rules_init(&rules, m);
	struct view_context ctx = {
		.model = m,
		.rules = &rules,
		.rule = o->rule_given ? o->rule : rule_default(m),
		.type = m->default_type,
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

int main(int argc, char **argv)
{
	/* Only the character type: numbers are read and written the C way. */
	setlocale(LC_CTYPE, "");
	struct options o;
	parse_options(argc, argv, &o);

	struct model m;
	struct load_error err;
	if (!load_file(o.file, &o.load, &m, &err, show_progress)) {
		char safe[1024];
		escape_text(o.file, safe, sizeof(safe));
		fprintf(stderr, "wprof-tui: %s: %s\n", safe, err.message);
		return EXIT_BAD_INPUT;
	}
	int status;
	if (o.report) {
		status = print_report(&o, &m);
	} else if (o.bench_keys) {
		status = tui_bench_keys(o.bench_keys, o.file, &m, &o.tui);
	} else {
		status = tui_run(o.file, &m, &o.tui);
	}
	model_free(&m);
	return status;
}
