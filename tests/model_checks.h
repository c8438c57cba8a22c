/* Checks on a loaded model shared by the tests of the loaders that read
 * files from testdata/ and of the live sessions: a file loaded (its
 * message in the failure), a function found by name, its self and total
 * under the exact rule, its nodes' own self. */
#ifndef WPROF_MODEL_CHECKS_H
#define WPROF_MODEL_CHECKS_H

#include <stdio.h>
#include <string.h>

#include "tests/check.h"
#include "loaders/loaders.h"
#include "rules/rules.h"
#include "base/util.h"

static inline uint32_t frame_named(const struct model *m, const char *name)
{
	for (uint32_t f = 0; f < m->nframes; f++)
		if (!strcmp(model_str(m, m->frames[f].name), name))
			return f;
	return NO_ID;
}

/* The self of the nodes of the frames named `name`, sample type `type`,
 * summed: straight from the tree, no rule. */
static inline double nodes_self(const struct model *m, const char *name, unsigned type)
{
	double sum = 0;
	for (uint32_t v = 0; v < m->nnodes; v++)
		if (!strcmp(model_str(m, m->frames[m->nodes[v].frame].name), name))
			sum += node_value(m, v, type);
	return sum;
}

/* DIR/SUB/FILE loaded into m with --thread `thread` (NULL: none). */
static inline bool load_testdata(const char *dir, const char *sub, const char *file,
				 const char *thread, struct model *m)
{
	char path[512];
	snprintf(path, sizeof(path), "%s/%s/%s", dir, sub, file);
	struct load_options opt = { .session = -1, .thread = thread };
	struct load_error err;
	bool ok = load_file(path, &opt, m, &err, NULL);
	CHECK_MSG(ok, "%s: %s", path, err.message);
	return ok;
}

/* Self and total of a function under the exact rule (self < 0: not
 * checked). */
static inline void check_function(const struct model *m, const char *name, double self,
				  double total)
{
	struct rules r;
	rules_init(&r, m);
	const struct totals *t = rules_totals(&r, RULE_EXACT, 0);
	uint32_t f = frame_named(m, name);
	CHECK_MSG(f != NO_ID, "no function %s", name);
	if (f != NO_ID) {
		CHECK_MSG(self < 0 || close_enough(t->self[f], self), "%s: self %g, want %g",
			  name, t->self[f], self);
		CHECK_MSG(close_enough(t->total[f], total), "%s: total %g, want %g", name,
			  t->total[f], total);
	}
	rules_free(&r);
}

#endif
