/* What the tests over random models share: a generator with a fixed seed,
 * so that a failure repeats, and frames named f0, f1 ... */
#ifndef WPROF_TESTS_RANDOM_MODEL_H
#define WPROF_TESTS_RANDOM_MODEL_H

#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "model/model.h"

static uint32_t rng = 12345;

static inline uint32_t next_random(uint32_t below)
{
	rng = rng * 1103515245u + 12345u;
	return (rng >> 8) % below;
}

static inline void add_frames(struct model *m, uint32_t nf)
{
	for (uint32_t f = 0; f < nf; f++) {
		char name[16];
		snprintf(name, sizeof(name), "f%u", f);
		struct frame fr = { .name = model_string(m, name, strlen(name)),
				    .url = STR_NONE, .extra = STR_NONE,
				    .line = -1, .column = -1 };
		model_intern_frame(m, &fr);
	}
}

#endif
