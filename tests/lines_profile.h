/* The hand-worked profile of the granularity tests (test_granularity.c,
 * test_granularity_cache.c): (root) -> f, both in f.js, three samples on
 * f of 10, 20 and 30 us, and V8's positionTicks for f of one tick on
 * line 4 and one on line 5. */
#ifndef WPROF_TESTS_LINES_PROFILE_H
#define WPROF_TESTS_LINES_PROFILE_H

#include <stdbool.h>
#include <string.h>

#include "model/model.h"
#include "model/sample_counts.h"

static inline uint32_t add_frame(struct model *m, const char *name, int32_t line)
{
	struct frame f = { .line = line, .column = -1, .kind = KIND_JS };
	f.name = model_string(m, name, strlen(name));
	f.url = model_string(m, "f.js", 4);
	f.extra = STR_NONE;
	return model_intern_frame(m, &f);
}

/* With `counted`, its sample counts added, as the explorer does. */
static inline void build_lines_profile(struct model *m, bool counted)
{
	model_init(m, "cpuprofile");
	model_add_sample_type(m, "time", "us");
	uint32_t root = model_add_child(m, NO_ID, add_frame(m, "(root)", -1));
	uint32_t f = model_add_child(m, root, add_frame(m, "f", 2));
	model_add_sample(m, f, 10);
	model_add_sample(m, f, 20);
	model_add_sample(m, f, 30);
	model_add_line_ticks(m, f, 4, 1);
	model_add_line_ticks(m, f, 5, 1);
	uint32_t cycle;
	model_finish(m, &cycle);
	if (counted)
		model_add_sample_counts(m);
}

/* The node of the frame `name` at `line`. */
static inline uint32_t node_at(const struct model *m, const char *name, int32_t line)
{
	for (uint32_t v = 0; v < m->nnodes; v++) {
		const struct frame *fr = &m->frames[m->nodes[v].frame];
		if (!strcmp(model_str(m, fr->name), name) && fr->line == line)
			return v;
	}
	return NO_ID;
}

#endif
