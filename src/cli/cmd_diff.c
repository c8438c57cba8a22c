/* --report flat --diff BASE NEW: two profiles compared function by
 * function and printed (commands.h). */
#include "commands.h"

#include <stdio.h>

#include "base/complain.h"
#include "output/diff_report.h"
#include "profile.h"

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
		complain("cannot compare %s with %s; use --normalize to compare shares "
			 "of each profile",
			 model_str(mb, mb->types[d.type[DIFF_BASE]].unit),
			 model_str(mn, mn->types[d.type[DIFF_NEW]].unit));
	} else {
		diff_build(&d);
		struct diff_report rep = { { o->file, o->new_file }, o->format, &d };
		diff_report_print(stdout, &rep);
		status = fflush(stdout) == 0 ? 0 : 1;
	}
	diff_free(&d);
	return status;
}

int diff_command(struct options *o)
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
