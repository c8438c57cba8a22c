#include "bounded_timeline.h"

#include <stdlib.h>
#include <string.h>

#include "base/util.h"

void bounded_timeline_add(struct bounded_timeline *t, uint32_t stack, double duration,
			  size_t max_entries)
{
	struct timeline_entry sample = { stack, duration };
	if (max_entries < 1)
		max_entries = 1;
	if (t->n >= max_entries) { /* full: the oldest leaves, its slot is the newest's */
		struct timeline_entry *oldest = &t->entries[t->first];
		t->dropped++;
		t->dropped_duration += oldest->duration;
		*oldest = sample;
		t->first = t->first + 1 < t->cap ? t->first + 1 : 0;
		return;
	}
	if (t->n == t->cap) { /* not full yet: nothing has left, first is 0 */
		size_t cap = t->cap ? t->cap * 2 : 256;
		t->cap = cap < max_entries ? cap : max_entries;
		t->entries = xrealloc(t->entries, t->cap * sizeof(*t->entries));
	}
	t->entries[(t->first + t->n++) % t->cap] = sample;
}

void bounded_timeline_follow(struct bounded_timeline *dst,
			     const struct bounded_timeline *src, size_t max_entries)
{
	uint64_t have = bounded_timeline_total(dst), total = bounded_timeline_total(src);
	if (have > total || total - have > src->n) { /* another stream, or too far behind */
		bounded_timeline_clear(dst);
		have = src->dropped;
		dst->dropped = src->dropped;
	}
	for (size_t i = src->n - (size_t)(total - have); i < src->n; i++) {
		const struct timeline_entry *e = bounded_timeline_at(src, i);
		bounded_timeline_add(dst, e->stack, e->duration, max_entries);
	}
	/* The source's own sums: the same samples, summed once. */
	dst->dropped = src->dropped;
	dst->dropped_duration = src->dropped_duration;
}

/* The samples that left the window leave the model's arrays too. */
static void drop_oldest(struct model *m, size_t gone)
{
	if (gone > m->nsamples)
		gone = m->nsamples;
	m->nsamples -= gone;
	if (m->nsamples) {
		memmove(m->sample_node, m->sample_node + gone, m->nsamples * sizeof(uint32_t));
		memmove(m->sample_duration, m->sample_duration + gone,
			m->nsamples * sizeof(double));
	}
	/* model_finish's index of sample times counted from the old first. */
	free(m->sample_offsets);
	m->sample_offsets = NULL;
	m->nsample_offsets = 0;
}

void bounded_timeline_to_model(const struct bounded_timeline *t, const uint32_t *node_of,
			       struct model *m, size_t held)
{
	if (held < m->nsamples)
		m->nsamples = held;
	uint64_t from = m->live.samples_before, to = from + m->nsamples;
	if (from > t->dropped || to < t->dropped || to > bounded_timeline_total(t)) {
		drop_oldest(m, m->nsamples); /* none of its samples is the window's */
	} else if (t->dropped > from) {
		drop_oldest(m, (size_t)(t->dropped - from));
	}
	m->live.samples_before = (size_t)t->dropped;
	m->live.time_before = t->dropped_duration;
	for (size_t i = m->nsamples; i < t->n; i++) {
		const struct timeline_entry *e = bounded_timeline_at(t, i);
		model_add_sample(m, node_of ? node_of[e->stack] : e->stack, e->duration);
	}
	if (m->nsamples)
		m->caps |= HAS_TIMELINE;
}

void bounded_timeline_clear(struct bounded_timeline *t)
{
	t->first = t->n = 0;
	t->dropped = 0;
	t->dropped_duration = 0;
}

void bounded_timeline_free(struct bounded_timeline *t)
{
	free(t->entries);
	*t = BOUNDED_TIMELINE_INIT;
}
