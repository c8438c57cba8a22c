/* Time ranges: a profile cut to the samples of a stretch of its timeline,
 * as a new model (frame ids kept, like filter.h's copies), so that every
 * rule, pane, comparison, report and export simply sees a smaller
 * profile.  A range of samples is [first, end) in timeline order; a
 * sample belongs to a range of time when it starts inside it. */
#ifndef WPROF_RANGE_H
#define WPROF_RANGE_H

#include <stdbool.h>
#include <stddef.h>

#include "model/model.h"

struct sample_range {
	size_t first, end; /* samples [first, end) */
};

/* One end of a --range as written: "1.2s", "200ms", "20%", "#100";
 * RANGE_OPEN for an end left out ("-3s": from the start). */
enum range_point_kind { RANGE_OPEN, RANGE_TIME, RANGE_PERCENT, RANGE_SAMPLE };

struct range_point {
	enum range_point_kind kind;
	double value; /* µs, percent, or the 1-based sample number */
};

struct range_spec {
	struct range_point start, end;
};

/* Parses "START-END"; false with a message in `why` (cap bytes). */
bool range_parse(const char *text, struct range_spec *out, char *why,
		 size_t cap);

/* The samples a spec selects in `m`: times count from the first sample,
 * sample numbers from 1 and take both ends ("#1-#3": three samples). */
bool range_resolve(const struct model *m, const struct range_spec *spec,
		   struct sample_range *out, char *why, size_t cap);

/* The time from the first sample to the end of the last (the sum of the
 * samples' durations). */
double range_timeline_span(const struct model *m);
/* Where sample `index` starts, in µs after the first sample; `index` may
 * be nsamples (the end).  Sums at most SAMPLE_OFFSET_STEP durations past
 * model_finish's index of them. */
double range_sample_offset(const struct model *m, size_t index);

/* Fills `out` (a new model) with the samples `r` selects from `src`: the
 * nodes on their stacks (in the source's order), their values counted
 * from those samples, and with `keep_samples` the samples themselves
 * (without them, a sample-count type when `src` has none): an export
 * needs them, the explorer's panes do not, and copying millions of
 * them would slow every range key down.  Needs a timeline whose samples
 * carry every value; otherwise false and why in *why_not. */
bool model_cut_range(const struct model *src, struct sample_range r,
		     bool keep_samples, struct model *out, const char **why_not);

/* The same numbers as model_cut_range without a copy, for the explorer:
 * `out` reads src's strings, frames, nodes, arcs and samples (src must
 * outlive it and not change), holds the range's values, and hides the
 * nodes and arcs no sample of the range reaches (model.h).  Needs a
 * sample-count type in src (model_add_sample_counts).  model_free frees
 * only what is its own.  `near` (NULL or another view of src, say the
 * range before a key moved it) may lend its sums: the numbers are the
 * same, sooner when few samples lie between the two ranges' ends.
 * False too in a job stopped halfway (base/background.h). */
bool range_view_make(const struct model *src, struct sample_range r,
		     const struct model *near, struct model *out,
		     const char **why_not);

/* "range 1.20s–3.40s of 10.0s" (the dash an ASCII '-' when `ascii`). */
void range_describe(const struct model *whole, struct sample_range r,
		    bool ascii, char *buf, size_t cap);

#endif
