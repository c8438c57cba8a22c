/* --report VIEW and --export FORMAT: one profile printed or written
 * without a terminal (commands.h). */
#include "commands.h"

#include <errno.h>
#include <langinfo.h>
#include <math.h>
#include <regex.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <unistd.h>

#include "base/complain.h"
#include "base/util.h"
#include "output/export.h"
#include "output/report.h"
#include "output/report_flame.h"
#include "output/report_lines.h"
#include "output/tags_report.h"

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
		complain("%s", err);
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

/* --report sandwich: of the functions whose names match --function, the
 * one with the largest total (self where the rule gives no total). */
static bool sandwich_centre(const struct options *o, struct view_context *ctx)
{
	regex_t re;
	int rc = regcomp(&re, o->function, REG_EXTENDED | REG_NOSUB);
	if (rc) {
		char why[256];
		regerror(rc, &re, why, sizeof(why));
		complain("--function: %s", why);
		return false;
	}
	const struct model *m = ctx->model;
	const struct totals *t = rules_totals(ctx->rules, ctx->rule, ctx->type);
	double best = -INFINITY;
	for (uint32_t f = 0; f < m->nframes; f++) {
		double weight = t->total ? t->total[f] : t->self[f];
		if (weight > best &&
		    !regexec(&re, model_str(m, m->frames[f].name), 0, NULL, 0)) {
			best = weight;
			ctx->focus_frame = f;
		}
	}
	regfree(&re);
	if (ctx->focus_frame == NO_ID)
		complain("--function: no function matches '%s'", o->function);
	return ctx->focus_frame != NO_ID;
}

static int print_report(const struct options *o, struct model *m, unsigned type,
			const char *range)
{
	struct rules rules;
	rules_init(&rules, m);
	rules_set_relative(&rules, o->tui.relative);
	struct view_context ctx = {
		.model = m,
		.rules = &rules,
		.rule = o->rule_given ? o->rule : rule_default(m),
		.type = type,
		.sort = o->sort,
		.reversed = o->reversed,
		.focus_frame = NO_ID,
		.min_share = o->tui.min_share,
	};
	if (o->svg || (o->view == VIEW_FLAME && o->format == REPORT_TEXT)) {
		int status = print_flame(o, &ctx);
		rules_free(&rules);
		return status;
	}
	if (o->view == VIEW_SANDWICH && !sandwich_centre(o, &ctx)) {
		rules_free(&rules);
		return EXIT_BAD_INPUT;
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

static int export_profile(const struct options *o, const struct model *m,
			  unsigned type)
{
	char err[256];
	if (export_model(m, type, o->export_format, o->output, stderr, err, sizeof(err)))
		return 0;
	complain("%s: %s", o->output, err);
	return 1;
}

int report_command(const struct options *o, struct model *m, unsigned type,
		   const char *range)
{
	if (o->exporting && !o->svg)
		return export_profile(o, m, type);
	if (o->svg)
		return print_report(o, m, type, NULL);
	if (o->tags_report)
		return print_tags(o, m, type);
	if (o->lines_report)
		return print_lines(o, m, type);
	return print_report(o, m, type, range[0] ? range : NULL);
}
