/* The timeline strip's numbers, without curses: a model's samples put in
 * equal bins of time (bin b holds the samples that start in it), with
 * each bin's time split by the kind of the samples' leaf frames. */
#ifndef WPROF_TIMELINE_H
#define WPROF_TIMELINE_H

#include <stddef.h>

#include "model/model.h"

struct timeline {
	size_t nbins;
	double span;          /* the whole timeline, in the first type's unit */
	double *value;        /* [bin * KIND_COUNT + kind] */
	size_t *first_sample; /* nbins + 1: the first sample of each bin */
};

void timeline_build(struct timeline *t, const struct model *m, size_t nbins);
/* Live mode's scrolling strip: bins of `bin_time` each, at fixed
 * multiples of it from the first sample, the newest bin (holding the
 * last sample) at the right; samples older than the first bin are in
 * none (first_sample[0] is the first one inside).  `span` is the
 * window's time. */
void timeline_build_window(struct timeline *t, const struct model *m, size_t nbins,
			   double bin_time);
/* Live mode's strip over a model of windows without sample times
 * (model.live.window_first): a bin a window, the newest at the right;
 * samples of windows further back are in none. */
void timeline_build_windows(struct timeline *t, const struct model *m, size_t nbins);
void timeline_free(struct timeline *t);

/* The bin sample `index` starts in (nbins for the end). */
size_t timeline_bin_of(const struct timeline *t, size_t index);

/* The share of a bin's time spent busy (every kind but idle), 0..1. */
double timeline_busy_share(const struct timeline *t, size_t bin);
/* The kind with the most time in a bin, idle last. */
enum frame_kind timeline_main_kind(const struct timeline *t, size_t bin);

#endif
