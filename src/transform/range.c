#include "range.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/background.h"
#include "model/sample_counts.h"
#include "transform_lines.h"
#include "base/units.h"
#include "base/util.h"

/* ---- parsing ----------------------------------------------------------- */

/* Digits with at most one point: no sign, no exponent, so that the '-'
 * between the ends is never read as part of a number. */
static const char *read_number(const char *s, double *value)
{
	const char *p = s;
	bool digits = false, point = false;
	for (; (*p >= '0' && *p <= '9') || (*p == '.' && !point); p++) {
		point |= *p == '.';
		digits |= *p != '.';
	}
	if (!digits)
		return NULL;
	char buf[64];
	size_t len = (size_t)(p - s);
	if (len >= sizeof(buf))
		return NULL;
	memcpy(buf, s, len);
	buf[len] = 0;
	*value = strtod(buf, NULL);
	return p;
}

static const struct {
	const char *suffix;
	double us;
} time_units[] = {
	{ "us", 1 }, { "µs", 1 }, { "ms", 1e3 }, { "s", 1e6 }, { "m", 60e6 },
};

/* One end, [s, end): "", "1.2s", "200ms", "20%", "#100". */
static bool parse_point(const char *s, const char *end, struct range_point *pt,
			char *why, size_t cap)
{
	pt->kind = RANGE_OPEN;
	pt->value = 0;
	if (s == end)
		return true;
	bool sample = *s == '#';
	const char *after = read_number(s + sample, &pt->value);
	if (!after || after > end) {
		snprintf(why, cap, "'%.*s' is not a time (1.2s, 200ms), a percentage "
			 "(20%%) or a sample number (#100)", (int)(end - s), s);
		return false;
	}
	size_t rest = (size_t)(end - after);
	if (sample && rest == 0) {
		pt->kind = RANGE_SAMPLE;
		if (pt->value < 1 || pt->value != floor(pt->value)) {
			snprintf(why, cap, "sample numbers start at #1: '%.*s'",
				 (int)(end - s), s);
			return false;
		}
		return true;
	}
	if (!sample && rest == 1 && *after == '%') {
		pt->kind = RANGE_PERCENT;
		if (pt->value > 100) {
			snprintf(why, cap, "'%.*s' is past 100%%", (int)(end - s), s);
			return false;
		}
		return true;
	}
	if (!sample && rest == 0 && pt->value == 0) { /* zero needs no unit */
		pt->kind = RANGE_TIME;
		return true;
	}
	for (size_t i = 0; !sample && i < ARRAY_LEN(time_units); i++)
		if (rest == strlen(time_units[i].suffix) &&
		    !memcmp(after, time_units[i].suffix, rest)) {
			pt->kind = RANGE_TIME;
			pt->value *= time_units[i].us;
			return true;
		}
	snprintf(why, cap, "'%.*s' needs a unit: s, ms, us, %% (or # before a "
		 "sample number)", (int)(end - s), s);
	return false;
}

bool range_parse(const char *text, struct range_spec *out, char *why,
		 size_t cap)
{
	const char *dash = strchr(text, '-');
	if (!dash || strchr(dash + 1, '-')) {
		snprintf(why, cap, "a range is START-END (1.2s-3.4s, 20%%-40%%, "
			 "#100-#500), not '%s'", text);
		return false;
	}
	return parse_point(text, dash, &out->start, why, cap) &&
	       parse_point(dash + 1, dash + strlen(dash), &out->end, why, cap);
}

/* ---- resolving ----------------------------------------------------------- */

double range_timeline_span(const struct model *m)
{
	return range_sample_offset(m, m->nsamples);
}

double range_sample_offset(const struct model *m, size_t index)
{
	if (index > m->nsamples)
		index = m->nsamples;
	size_t k = index / SAMPLE_OFFSET_STEP;
	if (k >= m->nsample_offsets)
		k = m->nsample_offsets ? m->nsample_offsets - 1 : 0;
	double t = m->nsample_offsets ? m->sample_offsets[k] : 0;
	for (size_t i = m->nsample_offsets ? k * SAMPLE_OFFSET_STEP : 0; i < index; i++)
		t += m->sample_duration[i];
	return t;
}

/* The first sample starting at or after `t`; `is_end` and a sample
 * number: the sample after it (numbers take both ends). */
static size_t point_sample(const struct model *m, const struct range_point *pt,
			   double span, bool is_end)
{
	if (pt->kind == RANGE_OPEN)
		return is_end ? m->nsamples : 0;
	if (pt->kind == RANGE_SAMPLE) {
		double index = pt->value - 1 + is_end;
		return index < (double)m->nsamples ? (size_t)index : m->nsamples;
	}
	double t = pt->kind == RANGE_TIME ? pt->value : pt->value / 100 * span;
	double offset = 0;
	for (size_t i = 0; i < m->nsamples; i++) {
		if (offset >= t)
			return i;
		offset += m->sample_duration[i];
	}
	return m->nsamples;
}

bool range_resolve(const struct model *m, const struct range_spec *spec,
		   struct sample_range *out, char *why, size_t cap)
{
	if (!(m->caps & HAS_TIMELINE)) {
		snprintf(why, cap, "--range needs sample times, and this profile "
			 "has none (only totals)");
		return false;
	}
	bool time = spec->start.kind == RANGE_TIME || spec->end.kind == RANGE_TIME;
	if (time && !unit_is_time(m, 0)) {
		snprintf(why, cap, "this profile's timeline counts %s, not time: "
			 "give the range in %% or sample numbers (#N)",
			 model_str(m, m->types[0].unit));
		return false;
	}
	double span = range_timeline_span(m);
	out->first = point_sample(m, &spec->start, span, false);
	out->end = point_sample(m, &spec->end, span, true);
	if (out->end <= out->first) {
		char length[32]; /* in the profile's own unit, as its header says */
		format_value(m, 0, span, length, sizeof(length));
		snprintf(why, cap, "the range holds no sample (the profile has %zu "
			 "samples over %s)", m->nsamples, length);
		return false;
	}
	return true;
}

/* ---- cutting ------------------------------------------------------------- */

/* Frame ids are kept (model_copy_frames); times are the cut's own. */
static void copy_frames_and_types(const struct model *src, struct model *out)
{
	model_copy_frames(src, out);
	for (unsigned t = 0; t < src->ntypes; t++)
		model_add_sample_type(out, model_str(src, src->types[t].name),
				      model_str(src, src->types[t].unit));
	out->default_type = src->default_type;
	out->period = src->period;
	out->comment = model_copy_string(src, out, src->comment);
	model_copy_threads(src, out);
	out->lines_zero_based = src->lines_zero_based;
	out->sample_time = src->sample_time;
}

/* needed[v]: a sample of the range is at v or below it (through any of
 * v's children, for a node graph).  The samples' own nodes are marked
 * by the caller or, without `needed`, here. */
static uint8_t *mark_needed(const struct model *src, struct sample_range r,
			    uint8_t *needed)
{
	if (!needed) {
		needed = xcalloc(src->nnodes + 1, 1);
		for (size_t i = r.first; i < r.end; i++)
			needed[src->sample_node[i]] = 1;
	}
	for (size_t k = src->nnodes; k-- > 0;) {
		uint32_t v = node_parents_first(src, k);
		if (!needed[v])
			continue;
		for (uint32_t p = src->parents_start[v]; p < src->parents_start[v + 1]; p++)
			needed[src->parent_ids[p]] = 1;
	}
	return needed;
}

/* Nodes in the source's id order and children in its order: the divided
 * rule walks callees in the order the data shows them. */
static uint32_t *copy_nodes(const struct model *src, const uint8_t *needed,
			    struct model *out)
{
	uint32_t *map = xmalloc((src->nnodes + 1) * sizeof(uint32_t));
	/* Sized once: a large cut would otherwise copy its arrays as they grow. */
	size_t count = 0;
	for (uint32_t v = 0; v < src->nnodes; v++)
		count += needed[v];
	model_reserve_nodes(out, count);
	for (uint32_t v = 0; v < src->nnodes; v++)
		map[v] = needed[v] ? model_add_node(out, src->nodes[v].frame) : NO_ID;
	for (uint32_t v = 0; v < src->nnodes; v++) {
		const struct node *n = &src->nodes[v];
		for (uint32_t i = n->child_start; needed[v] && i < n->child_end; i++)
			if (needed[src->child_ids[i]])
				model_add_edge(out, map[v], map[src->child_ids[i]]);
	}
	return map;
}

/* A stream's stacks in the order the range first shows them. */
static void copy_first_leaves(const struct model *src, struct sample_range r,
			      const uint32_t *map, struct model *out)
{
	uint8_t *seen = xcalloc(out->nnodes + 1, 1);
	out->first_leaves = xmalloc((r.end - r.first + 1) * sizeof(uint32_t));
	for (size_t i = r.first; i < r.end; i++) {
		uint32_t v = map[src->sample_node[i]];
		if (!seen[v]) {
			seen[v] = 1;
			out->first_leaves[out->nfirst_leaves++] = v;
		}
	}
	free(seen);
}

/* The samples, each adding its duration to its node's first value, and
 * a count to the sample-count type. */
static void copy_samples(const struct model *src, struct sample_range r,
			 const uint32_t *map, struct model *out)
{
	size_t n = r.end - r.first;
	uint32_t *nodes = xmalloc((n + 1) * sizeof(uint32_t));
	double *durations = xmalloc((n + 1) * sizeof(double));
	for (size_t i = 0; i < n; i++) {
		nodes[i] = map[src->sample_node[r.first + i]];
		durations[i] = src->sample_duration[r.first + i];
	}
	model_adopt_samples(out, nodes, durations, n); /* it may move them */
	uint32_t counts = model_count_type(out);
	if (counts != NO_ID && counts != 0)
		for (size_t i = 0; i < n; i++)
			model_add_node_value(out, out->sample_node[i], counts, 1);
}

/* The same values without keeping the samples. */
static void count_samples(const struct model *src, struct sample_range r,
			  const uint32_t *map, struct model *out)
{
	unsigned nt = out->ntypes, counts = model_count_type(out);
	double *values = out->node_self;
	for (size_t i = r.first; i < r.end; i++) {
		size_t v = map[src->sample_node[i]];
		values[v * nt] += src->sample_duration[i];
		if (counts != 0)
			values[v * nt + counts] += 1;
	}
}

/* V8's positionTicks and trace lines count a node's samples by line,
 * over the whole profile: the cut keeps each node's ticks in the share
 * of its samples in the range. */
static void copy_line_ticks(const struct model *src, struct sample_range r,
			    const uint32_t *map, struct model *out)
{
	uint32_t *all = xcalloc(src->nnodes + 1, sizeof(uint32_t));
	uint32_t *in = xcalloc(src->nnodes + 1, sizeof(uint32_t));
	for (size_t i = 0; i < src->nsamples; i++) {
		all[src->sample_node[i]]++;
		in[src->sample_node[i]] += i >= r.first && i < r.end;
	}
	for (size_t i = 0; i < src->nline_ticks; i++) {
		const struct line_ticks *lt = &src->line_ticks[i];
		if (in[lt->node])
			model_add_line_ticks(out, map[lt->node], lt->line,
					     lt->ticks * in[lt->node] / all[lt->node]);
	}
	free(in);
	free(all);
}

/* pprof's lines (transform_lines.h) in the share of each node's values
 * the range keeps. */
static void copy_node_lines(const struct model *src, const uint32_t *map,
			    struct model *out)
{
	unsigned nt = src->ntypes;
	double *kept = xmalloc(((size_t)src->nnodes * nt + 1) * sizeof(double));
	for (uint32_t v = 0; v < src->nnodes; v++)
		for (unsigned t = 0; t < nt; t++)
			kept[(size_t)v * nt + t] = map[v] == NO_ID ? 0 : node_value(out, map[v], t);
	struct line_moves mv = { src, map, map, kept, true };
	transform_move_node_lines(&mv, out);
	free(kept);
}

/* Values the timeline carries: the first (durations) and sample counts. */
static bool timeline_carries_values(const struct model *m)
{
	uint32_t counts = model_count_type(m);
	for (unsigned t = 1; t < m->ntypes; t++)
		if (t != counts)
			return false;
	return true;
}

/* Where the range starts and ends, µs after the model's first sample,
 * the gaps before and inside it (model.live.gaps) counted as time. */
static void range_ends(const struct model *m, struct sample_range r, double *start,
		       double *end)
{
	*start = range_sample_offset(m, r.first) + model_gap_time(m, r.first);
	*end = r.end > r.first ? range_sample_offset(m, r.end) + model_gap_time(m, r.end - 1)
			       : *start;
}

/* The range's start, end and duration, in the profile's clock. */
static void set_range_times(const struct model *src, struct sample_range r, struct model *out)
{
	double start, end;
	range_ends(src, r, &start, &end);
	out->start_time = src->start_time + src->live.time_before + start;
	out->end_time = out->start_time + (end - start);
	out->duration = end - start;
}

bool model_cut_range(const struct model *src, struct sample_range r,
		     bool keep_samples, struct model *out, const char **why_not)
{
	if (!(src->caps & HAS_TIMELINE) || !timeline_carries_values(src)) {
		*why_not = "this profile has no timeline that carries its values";
		return false;
	}
	if (r.end > src->nsamples)
		r.end = src->nsamples;
	if (r.first > r.end)
		r.first = r.end;
	model_init(out, src->format);
	copy_frames_and_types(src, out);
	if (!keep_samples && model_count_type(out) == NO_ID)
		model_add_sample_type(out, "samples", "count");
	uint8_t *needed = mark_needed(src, r, NULL);
	uint32_t *map = copy_nodes(src, needed, out);
	if (keep_samples)
		copy_samples(src, r, map, out);
	else
		count_samples(src, r, map, out);
	if (src->first_leaves)
		copy_first_leaves(src, r, map, out);
	if (src->nline_ticks)
		copy_line_ticks(src, r, map, out);
	if (src->nnode_lines)
		copy_node_lines(src, map, out);
	set_range_times(src, r, out);
	free(map);
	free(needed);
	uint32_t cycle;
	model_finish(out, &cycle); /* part of an acyclic graph has no cycle */
	out->caps |= src->caps & HAS_NODE_GRAPH;
	return true;
}

/* ---- a range's view ------------------------------------------------------ */

static void view_first_leaves(const struct model *src, struct sample_range r,
			      struct model *out)
{
	uint8_t *seen = xcalloc(src->nnodes + 1, 1);
	out->first_leaves = xmalloc((r.end - r.first + 1) * sizeof(uint32_t));
	out->nfirst_leaves = 0;
	for (size_t i = r.first; i < r.end; i++) {
		uint32_t v = src->sample_node[i];
		if (!seen[v]) {
			seen[v] = 1;
			out->first_leaves[out->nfirst_leaves++] = v;
		}
	}
	free(seen);
}

/* What a cut would not copy, or would count anew. */
static void forget_whole_profile(struct model *out)
{
	out->frame_self = NULL;
	out->frame_self_cap = 0;
	out->frame_ticks = NULL;
	out->first_leaves = NULL;
	out->nfirst_leaves = 0;
	out->line_ticks = NULL;
	out->nline_ticks = out->line_ticks_cap = 0;
	out->labels = NULL;
	out->nlabels = out->labels_cap = 0;
	out->label_values = NULL;
	out->nlabel_rows = out->label_values_cap = 0;
	out->has_type_totals = false;
	memset(out->type_total, 0, sizeof(out->type_total));
	out->summed_samples = out->sample_records = 0;
	out->sample_offsets = NULL; /* they count from the whole's start */
	out->nsample_offsets = 0;
	out->live = (struct live_window){ 0 }; /* the view's values are its samples' */
	out->warning = STR_NONE;
	out->caps &= HAS_NODES | HAS_STACKS | HAS_NODE_GRAPH | HAS_TIMELINE;
}

/* The range's values by one pass over its samples.  Made ahead (the
 * whole profile's sums), the pass gives its core at every million
 * samples to work ranked before it (a granularity's model) that came to
 * the gate meanwhile, and ends there once no longer wanted. */
static void sum_range(const struct model *src, struct sample_range r,
		      unsigned counts, double *node_self)
{
	unsigned nt = src->ntypes;
	for (size_t from = r.first; from < r.end; from += PAUSE_EVERY_SAMPLES) {
		size_t end = r.end;
		if (end - from > PAUSE_EVERY_SAMPLES)
			end = from + PAUSE_EVERY_SAMPLES;
		for (size_t i = from; i < end; i++) {
			size_t v = src->sample_node[i];
			node_self[v * nt] += src->sample_duration[i];
			if (counts != 0)
				node_self[v * nt + counts] += 1;
		}
		if (!background_pause_point())
			return; /* stopped: so is range_view_make, at its next */
	}
}

/* Samples [first, end) added to (sign 1) or taken from (-1) the sums. */
static void move_sums(const struct model *src, size_t first, size_t end,
		      double sign, unsigned counts, double *node_self)
{
	unsigned nt = src->ntypes;
	for (size_t i = first; i < end; i++) {
		size_t v = src->sample_node[i];
		node_self[v * nt] += sign * src->sample_duration[i];
		node_self[v * nt + counts] += sign;
	}
}

/* The samples `near` (another view of src) holds, when it reads them in
 * src's arrays: a live view owns a copy, which has no place in src's. */
static bool window_of(const struct model *src, const struct model *near,
		      struct sample_range *out)
{
	uintptr_t at = (uintptr_t)near->sample_node, first = (uintptr_t)src->sample_node;
	if (at < first || (at - first) % sizeof(uint32_t))
		return false;
	size_t k = (at - first) / sizeof(uint32_t);
	*out = (struct sample_range){ k, k + near->nsamples };
	return out->end <= src->nsamples && near->sample_duration == src->sample_duration + k;
}

/* A range key moves one end a little: the new range's sums are the
 * nearby view's with the samples between the ends added or taken away,
 * when those are fewer than the range's own.  Only while every sum is
 * exact (integral_samples), so that the numbers are the one pass's to
 * the last bit; and with a count type apart from the durations, which
 * says which nodes have samples left. */
static bool sums_from_near(const struct model *src, struct sample_range r,
			   const struct model *near, unsigned counts,
			   double *node_self)
{
	struct sample_range n;
	if (!near || near->range.of != src || counts == 0 || !window_of(src, near, &n))
		return false;
	size_t hi = r.end > n.end ? r.end : n.end;
	size_t moved = (r.first > n.first ? r.first - n.first : n.first - r.first) +
		       (r.end > n.end ? r.end - n.end : n.end - r.end);
	if (hi > src->integral_samples || moved >= r.end - r.first ||
	    r.first >= n.end || n.first >= r.end)
		return false; /* the one pass is as quick, or the only exact way */
	memcpy(node_self, near->node_self, (size_t)src->nnodes * src->ntypes * sizeof(double));
	if (r.first < n.first)
		move_sums(src, r.first, n.first, 1, counts, node_self);
	else
		move_sums(src, n.first, r.first, -1, counts, node_self);
	if (r.end > n.end)
		move_sums(src, n.end, r.end, 1, counts, node_self);
	else
		move_sums(src, r.end, n.end, -1, counts, node_self);
	return true;
}

bool range_view_make(const struct model *src, struct sample_range r,
		     const struct model *near, struct model *out,
		     const char **why_not)
{
	if (!(src->caps & HAS_TIMELINE) || !timeline_carries_values(src) ||
	    model_count_type(src) == NO_ID || src->range.of) {
		*why_not = "this profile has no timeline that carries its values";
		return false;
	}
	if (r.end > src->nsamples)
		r.end = src->nsamples;
	if (r.first > r.end)
		r.first = r.end;
	*out = *src;
	out->range = (struct range_overlay){ .of = src,
					     .owns = VIEW_OWNS_VALUES | VIEW_OWNS_LEAVES };
	forget_whole_profile(out);
	unsigned nt = src->ntypes, counts = model_count_type(src);
	out->node_self = xcalloc((size_t)src->nnodes * nt + 1, sizeof(double));
	out->node_self_cap = (size_t)src->nnodes * nt + 1;
	uint8_t *needed = xcalloc(src->nnodes + 1, 1);
	if (sums_from_near(src, r, near, counts, out->node_self)) {
		for (size_t v = 0; v < src->nnodes; v++)
			needed[v] = out->node_self[v * nt + counts] != 0;
	} else {
		sum_range(src, r, counts, out->node_self);
		for (size_t i = r.first; i < r.end; i++)
			needed[src->sample_node[i]] = 1;
	}
	out->sample_node = src->sample_node + r.first;
	out->sample_duration = src->sample_duration + r.first;
	out->nsamples = out->samples_cap = r.end - r.first;
	/* The whole profile's sums, made ahead and maybe no longer wanted. */
	if (!background_pause_point()) {
		free(needed);
		model_free(out);
		*why_not = "no longer wanted";
		return false;
	}
	mark_needed(src, r, needed);
	out->range.hidden_arcs = model_hidden_arcs(src, needed);
	for (size_t v = 0; v < src->nnodes; v++)
		needed[v] = !needed[v];
	out->range.hidden_nodes = needed;
	if (src->first_leaves)
		view_first_leaves(src, r, out);
	set_range_times(src, r, out);
	return true;
}

/* ---- describing ---------------------------------------------------------- */

static void format_time(double us, bool ascii, char *buf, size_t cap)
{
	if (us >= 1e6 || us == 0)
		snprintf(buf, cap, "%.2fs", us / 1e6);
	else if (us >= 1e3)
		snprintf(buf, cap, "%.1fms", us / 1e3);
	else
		snprintf(buf, cap, "%.0f%s", us, ascii ? "us" : "µs");
}

/* A live model's samples start after those that left its window
 * (model.live.samples_before): times and numbers count from the session's
 * first. */
void range_describe(const struct model *whole, struct sample_range r,
		    bool ascii, char *buf, size_t cap)
{
	const char *dash = ascii ? "-" : "–";
	size_t gone = whole->live.samples_before;
	if (!unit_is_time(whole, 0)) {
		snprintf(buf, cap, "range #%zu%s#%zu of %zu samples", gone + r.first + 1,
			 dash, gone + r.end, gone + whole->nsamples);
		return;
	}
	char from[32], to[32], all[32];
	double before = whole->live.time_before, start, end;
	range_ends(whole, r, &start, &end);
	format_time(before + start, ascii, from, sizeof(from));
	format_time(before + end, ascii, to, sizeof(to));
	format_time(before + range_timeline_span(whole) + model_gap_time(whole, whole->nsamples),
		    ascii, all, sizeof(all));
	snprintf(buf, cap, "range %s%s%s of %s", from, dash, to, all);
}
