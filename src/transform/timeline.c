#include "timeline.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "base/util.h"

static void alloc_bins(struct timeline *t, size_t nbins)
{
	memset(t, 0, sizeof(*t));
	t->nbins = nbins ? nbins : 1;
	t->value = xcalloc(t->nbins * KIND_COUNT + 1, sizeof(double));
	t->first_sample = xmalloc((t->nbins + 1) * sizeof(size_t));
}

/* A sample's time into the bins it lasts over, each the part that falls
 * in it, so that a long sample (a process stopped for 350 ms charged to
 * the stack it stopped in) fills the cells the panes count it in.
 * `from` and `to` are times from the strip's start, bins `width` long;
 * what falls before the strip is left out. */
static void spread(struct timeline *t, enum frame_kind kind, double from, double to,
		   double width)
{
	if (from < 0)
		from = 0;
	if (!(to > from))
		return;
	/* Bins by number, so that rounding cannot stall the walk. */
	size_t last = t->nbins - 1, b = (size_t)fmin(floor(from / width), (double)last);
	for (; b <= last; b++) {
		double lo = (double)b * width;
		/* The newest sample of a live strip runs on past its right
		 * edge: the last cell takes the rest. */
		double hi = b == last ? INFINITY : (double)(b + 1) * width;
		double part = fmin(to, hi) - fmax(from, lo);
		if (part > 0)
			t->value[b * KIND_COUNT + kind] += part;
		if (to <= hi)
			break;
	}
}

/* The kind of each node's frame, a byte a node: millions of samples then
 * read a table that stays in cache instead of a node and a frame each
 * (a second on 7 million samples spread over 450 000 nodes). */
static uint8_t *node_kinds(const struct model *m)
{
	uint8_t *kinds = xmalloc(m->nnodes + 1);
	for (size_t v = 0; v < m->nnodes; v++)
		kinds[v] = m->frames[m->nodes[v].frame].kind;
	return kinds;
}

/* The gaps just before sample i (model.live.gaps), walked in order:
 * *g is the first not yet passed. */
static double pass_gaps(const struct model *m, size_t i, size_t *g)
{
	double time = 0;
	for (; *g < m->live.ngaps && m->live.gaps[*g].before <= i; (*g)++)
		time += m->live.gaps[*g].duration;
	return time;
}

/* Samples `first` on into bins `width` long from `origin`: a sample
 * belongs to the bin it starts in, clamped, and its time to each bin it
 * lasts over; a gap (from gap *g on) is time in no bin.  `offset`: where
 * the sample before `first` ends, after the first sample; that sample,
 * still running at the strip's start, gives it its rest. */
static void fill_bins(struct timeline *t, const struct model *m, size_t first, size_t g,
		      double offset, double origin, double width)
{
	size_t bin = 0;
	uint8_t *kinds = node_kinds(m);
	const uint32_t *nodes = m->sample_node;
	const double *durations = m->sample_duration;
	if (!(width > 0))
		width = 1; /* no time at all: every sample starts in bin 0 */
	t->first_sample[0] = first;
	if (first > 0 && first <= m->nsamples)
		spread(t, kinds[nodes[first - 1]], offset - durations[first - 1] - origin,
		       offset - origin, width);
	for (size_t i = first; i < m->nsamples; i++) {
		offset += pass_gaps(m, i, &g);
		double at = (offset - origin) / width;
		size_t b = at < 0 ? 0 : at >= (double)t->nbins ? t->nbins - 1 : (size_t)at;
		while (bin < b)
			t->first_sample[++bin] = i;
		double from = offset - origin, to = offset + durations[i] - origin;
		if (from >= (double)b * width &&
		    (b == t->nbins - 1 || to <= (double)(b + 1) * width)) {
			/* Within its bin, as most are: spread's answer at once. */
			if (to > from)
				t->value[b * KIND_COUNT + kinds[nodes[i]]] += to - from;
		} else {
			spread(t, kinds[nodes[i]], from, to, width);
		}
		offset += durations[i];
	}
	while (bin < t->nbins)
		t->first_sample[++bin] = m->nsamples;
	free(kinds);
}

void timeline_build(struct timeline *t, const struct model *m, size_t nbins)
{
	alloc_bins(t, nbins);
	t->span = model_gap_time(m, m->nsamples);
	for (size_t i = 0; i < m->nsamples; i++)
		t->span += m->sample_duration[i];
	fill_bins(t, m, 0, 0, 0, 0, t->span / (double)t->nbins);
}

void timeline_build_window(struct timeline *t, const struct model *m, size_t nbins,
			   double bin_time)
{
	alloc_bins(t, nbins);
	t->span = (double)t->nbins * bin_time;
	/* The window ends with the bin the last sample starts in.  Times
	 * count from the session's first sample, those that left a live
	 * window and the gaps included, so that a cell keeps its samples as
	 * it slides. */
	double start_of_last = m->live.time_before;
	if (m->nsamples)
		start_of_last += model_gap_time(m, m->nsamples - 1);
	for (size_t i = 0; i + 1 < m->nsamples; i++)
		start_of_last += m->sample_duration[i];
	double last_bin = floor(start_of_last / bin_time);
	double window_start = (last_bin + 1 - (double)t->nbins) * bin_time;
	/* The first sample starting in the window, where the one before
	 * it ends, and the first gap not passed. */
	size_t first = 0, g = 0;
	double end_before = m->live.time_before;
	for (; first < m->nsamples; first++) {
		size_t next_gap = g;
		double at = end_before + pass_gaps(m, first, &next_gap);
		if (at >= window_start)
			break;
		g = next_gap;
		end_before = at + m->sample_duration[first];
	}
	fill_bins(t, m, first, g, end_before, window_start, bin_time);
}

void timeline_build_windows(struct timeline *t, const struct model *m, size_t nbins)
{
	alloc_bins(t, nbins);
	size_t shown = m->live.nwindows < t->nbins ? m->live.nwindows : t->nbins;
	size_t first_window = m->live.nwindows - shown, empty = t->nbins - shown;
	for (size_t b = 0; b <= t->nbins; b++) {
		size_t k = b < empty ? 0 : b - empty; /* the k-th window shown */
		t->first_sample[b] = k < shown ? m->live.window_first[first_window + k] : m->nsamples;
	}
	for (size_t b = empty; b < t->nbins; b++)
		for (size_t i = t->first_sample[b]; i < t->first_sample[b + 1]; i++) {
			uint32_t frame = m->nodes[m->sample_node[i]].frame;
			t->value[b * KIND_COUNT + m->frames[frame].kind] += m->sample_duration[i];
			t->span += m->sample_duration[i];
		}
}

void timeline_free(struct timeline *t)
{
	free(t->value);
	free(t->first_sample);
	memset(t, 0, sizeof(*t));
}

size_t timeline_bin_of(const struct timeline *t, size_t index)
{
	if (index >= t->first_sample[t->nbins])
		return t->nbins;
	/* The last bin whose first sample is at or before `index`. */
	size_t lo = 0, hi = t->nbins;
	while (hi - lo > 1) {
		size_t mid = lo + (hi - lo) / 2;
		if (t->first_sample[mid] <= index)
			lo = mid;
		else
			hi = mid;
	}
	return lo;
}

double timeline_busy_share(const struct timeline *t, size_t bin)
{
	const double *v = t->value + bin * KIND_COUNT;
	double all = 0;
	for (int k = 0; k < KIND_COUNT; k++)
		all += v[k];
	return all > 0 ? (all - v[KIND_IDLE]) / all : 0;
}

enum frame_kind timeline_main_kind(const struct timeline *t, size_t bin)
{
	const double *v = t->value + bin * KIND_COUNT;
	enum frame_kind best = KIND_IDLE;
	for (int k = 0; k < KIND_COUNT; k++)
		if (k != KIND_IDLE && v[k] > 0 && (best == KIND_IDLE || v[k] > v[best]))
			best = (enum frame_kind)k;
	return best;
}
