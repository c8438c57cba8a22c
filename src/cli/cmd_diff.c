/* --report flat --diff BASE NEW, or --base A1 --base A2 B1 B2: profiles
 * compared function by function and printed, and the --fail-if-slower
 * gate (commands.h). */
#include "commands.h"

#include <math.h>
#include <regex.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/complain.h"
#include "base/units.h"
#include "base/util.h"
#include "output/diff_report.h"
#include "profile.h"

/* The runs of the two sides, read and made ready. */
struct sides {
	struct run_files files;
	struct rules *rules[DIFF_SIDES];
	struct rules **rule_ptrs[DIFF_SIDES];
};

static void sides_alloc(struct sides *sd, const size_t n[DIFF_SIDES])
{
	run_files_alloc(&sd->files, n);
	for (int s = 0; s < DIFF_SIDES; s++) {
		sd->rules[s] = xcalloc(n[s], sizeof(struct rules));
		sd->rule_ptrs[s] = xcalloc(n[s], sizeof(struct rules *));
	}
}

/* The rules exist once prepare() succeeded. */
static void sides_free(struct sides *sd, bool with_rules)
{
	for (int s = 0; s < DIFF_SIDES; s++) {
		for (size_t i = 0; with_rules && i < sd->files.n[s]; i++)
			rules_free(&sd->rules[s][i]);
		FREE_ALL(sd->rules[s], sd->rule_ptrs[s]);
	}
	run_files_free(&sd->files);
}

/* Each run by the command line's granularity and filters, then its rules. */
static bool prepare(const struct options *o, struct sides *sd)
{
	if (!filter_run_files(o, &sd->files))
		return false;
	for (int s = 0; s < DIFF_SIDES; s++)
		for (size_t i = 0; i < sd->files.n[s]; i++) {
			rules_init(&sd->rules[s][i], &sd->files.models[s][i]);
			sd->rule_ptrs[s][i] = &sd->rules[s][i];
		}
	return true;
}

/* Values of different units (time against bytes) only compare as
 * shares: the first run of a unit other than the first base run's. */
static const struct model *other_unit(const struct sides *sd, const struct diff *d)
{
	const struct model *first = d->model[DIFF_BASE];
	const char *unit = model_str(first, first->types[d->type[DIFF_BASE]].unit);
	for (int s = 0; s < DIFF_SIDES; s++)
		for (size_t i = 0; i < sd->files.n[s]; i++) {
			const struct model *m = &sd->files.models[s][i];
			if (strcmp(model_str(m, m->types[m->default_type].unit), unit))
				return m;
		}
	return NULL;
}

static void format_delta(const struct options *o, const struct diff *d, double v,
			 char *buf, size_t cap)
{
	char plain[48];
	if (o->normalize)
		snprintf(plain, sizeof(plain), "%.2f%%", fabs(v));
	else
		format_value(d->model[DIFF_BASE], d->type[DIFF_BASE], fabs(v), plain,
			     sizeof(plain));
	snprintf(buf, cap, "%s%s", v < 0 ? "-" : "+", plain);
}

/* A row the gate fails on: its total rose significantly by more than
 * fail_pct % of its base mean, and its name matches. */
static bool too_slow(const struct options *o, const regex_t *re,
		     const struct runs_diff *rd, const struct runs_row *r)
{
	double base = r->total_stats[DIFF_BASE].mean;
	if (r->significant != 1 || isnan(base) || !(r->test.delta > o->fail_pct / 100 * base))
		return false;
	return !re || !regexec(re, runs_row_name(rd, r), 0, NULL, 0);
}

/* --fail-if-slower: 1 and the functions that failed it on stderr, or 0. */
static int gate(const struct options *o, const regex_t *re, const struct runs_diff *rd)
{
	size_t slower = 0;
	for (size_t i = 0; i < rd->nrows; i++) {
		const struct runs_row *r = &rd->rows[i];
		if (!too_slow(o, re, rd, r))
			continue;
		char delta[64], low[64], high[64];
		format_delta(o, rd->first, r->test.delta, delta, sizeof(delta));
		format_delta(o, rd->first, r->test.low, low, sizeof(low));
		format_delta(o, rd->first, r->test.high, high, sizeof(high));
		complain("slower: %s: total %s (%+.1f%% of its base mean; 95%% interval "
			 "[%s, %s], p = %.3g)", runs_row_name(rd, r), delta, r->delta_pct,
			 low, high, r->test.p);
		slower++;
	}
	if (slower)
		complain("--fail-if-slower %g: %zu function%s slower", o->fail_pct, slower,
			 slower == 1 ? "" : "s");
	return slower ? 1 : 0;
}

static int print_runs(const struct options *o, struct sides *sd, const regex_t *re)
{
	struct diff d;
	diff_init(&d, sd->rule_ptrs[DIFF_BASE][0], sd->rule_ptrs[DIFF_NEW][0]);
	struct runs_diff rd;
	runs_diff_init(&rd, &d, sd->rule_ptrs, sd->files.n);
	if (o->rule_given)
		d.rule = o->rule;
	d.normalize = o->normalize;
	d.sort = o->diff_sort;
	d.reversed = o->reversed;
	int status = EXIT_BAD_INPUT;
	const struct model *other = d.normalize ? NULL : other_unit(sd, &d);
	if (other) {
		const struct model *mb = d.model[DIFF_BASE];
		complain("cannot compare %s with %s; use --normalize to compare shares "
			 "of each profile",
			 model_str(mb, mb->types[d.type[DIFF_BASE]].unit),
			 model_str(other, other->types[other->default_type].unit));
	} else {
		runs_diff_build(&rd);
		struct diff_report rep = { { sd->files.names[DIFF_BASE], sd->files.names[DIFF_NEW] },
					   o->format, &rd };
		diff_report_print(stdout, &rep);
		status = fflush(stdout) == 0 ? 0 : 1;
		if (!status && !isnan(o->fail_pct))
			status = gate(o, re, &rd);
	}
	runs_diff_free(&rd);
	diff_free(&d);
	return status;
}

/* BASE NEW, or one differential folded file. */
static bool load_pair(struct options *o, struct sides *sd, char names[2][1024])
{
	struct model pair[2];
	if (!load_sides(o, pair, names, false))
		return false;
	for (int s = 0; s < DIFF_SIDES; s++) {
		sd->files.models[s][0] = pair[s];
		sd->files.names[s][0] = names[s];
	}
	return true;
}

static bool compile_gate(const struct options *o, regex_t *re)
{
	int rc = regcomp(re, o->fail_regex, REG_EXTENDED | REG_NOSUB);
	if (!rc)
		return true;
	char why[256];
	regerror(rc, re, why, sizeof(why));
	complain("--fail-if-slower %s: %s", o->fail_regex, why);
	return false;
}

int diff_command(struct options *o)
{
	regex_t re;
	if (o->fail_regex && !compile_gate(o, &re))
		return EXIT_BAD_INPUT;
	bool runs = o->nbase_files > 0;
	const size_t n[DIFF_SIDES] = { runs ? o->nbase_files : 1, runs ? o->nnew_files : 1 };
	struct sides sd;
	sides_alloc(&sd, n);
	char names[2][1024];
	int status = EXIT_BAD_INPUT;
	bool ready = (runs ? load_run_files(o, &sd.files) : load_pair(o, &sd, names)) &&
		     prepare(o, &sd);
	if (ready)
		status = print_runs(o, &sd, o->fail_regex ? &re : NULL);
	sides_free(&sd, ready);
	if (o->fail_regex)
		regfree(&re);
	return status;
}
