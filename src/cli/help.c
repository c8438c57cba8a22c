/* --help and --all-options, made from the option table: the usage lines
 * and the description above it, the exit status below it. */
#include "option_table.h"

#include <stdio.h>
#include <string.h>

static const char usage_head[] =
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
	"\n";

static const char usage_tail[] =
	"\n"
	"Exit status: 0 on success, 2 for unreadable or invalid input or usage.\n";

/* The column where the help of every option starts, and the least gap
 * between the names and their help when they reach past it. */
enum { HELP_COLUMN = 20, GAP = 2 };

/* "-r, --rule RULE", "--listen[=[HOST:]PORT]" or "--reverse". */
static int print_names(FILE *out, const struct option_spec *spec)
{
	int n = 0;
	if (spec->letter)
		n += fprintf(out, "-%c, ", spec->letter);
	n += fprintf(out, "--%s", spec->name);
	if (spec->arg)
		n += fprintf(out, spec->arg_optional ? "[=%s]" : " %s", spec->arg);
	return n;
}

/* The help's first line beside the names (past them when they are too
 * long), the others under it. */
static void print_option(FILE *out, const struct option_spec *spec)
{
	fputs("  ", out);
	int width = 2 + print_names(out, spec);
	fprintf(out, "%*s", width + GAP <= HELP_COLUMN ? HELP_COLUMN - width : GAP, "");
	for (const char *line = spec->help; *line;) {
		size_t len = strcspn(line, "\n");
		if (line != spec->help)
			fprintf(out, "%*s", HELP_COLUMN, "");
		fwrite(line, 1, len, out);
		fputc('\n', out);
		line += len + (line[len] == '\n');
	}
}

void print_help(FILE *out)
{
	fputs(usage_head, out);
	for (size_t i = 0; i < option_table_len; i++) {
		const struct option_spec *spec = &option_table[i];
		if (!spec->name)
			fprintf(out, "\n%s%s", spec->help, *spec->help ? "\n" : "");
		else if (spec->help)
			print_option(out, spec);
	}
	fputs(usage_tail, out);
}

void list_options(FILE *out)
{
	for (size_t i = 0; i < option_table_len; i++) {
		const struct option_spec *spec = &option_table[i];
		if (!spec->name || !spec->help)
			continue;
		fprintf(out, "--%s%s%s", spec->name, spec->arg ? " " : "",
			spec->arg ? spec->arg : "");
		if (spec->letter)
			fprintf(out, ", -%c", spec->letter);
		fputc('\n', out);
	}
}
