#include "sample_counts.h"

#include <stdlib.h>
#include <string.h>

#include "base/util.h"

uint32_t model_count_type(const struct model *m)
{
	/* pprof CPU profiles carry one; a heap profile's alloc_objects is a
	 * count too, but of objects, not of samples. */
	for (unsigned t = 0; t < m->ntypes; t++)
		if (!strings_cmp(&m->strings, m->types[t].unit, "count") &&
		    !strings_cmp(&m->strings, m->types[t].name, "samples"))
			return t;
	return NO_ID;
}

/* Values are stored [item * ntypes + type]: one more type means new
 * arrays with a wider stride. */
static double *widen(const double *values, size_t items, unsigned ntypes)
{
	double *out = xcalloc(items * (ntypes + 1) + 1, sizeof(double));
	for (size_t i = 0; i < items; i++)
		memcpy(out + i * (ntypes + 1), values + i * ntypes, ntypes * sizeof(double));
	return out;
}

uint32_t model_add_sample_counts(struct model *m)
{
	uint32_t existing = model_count_type(m);
	/* A live window's samples are not all the values count. */
	if (existing != NO_ID || !m->nsamples || m->live.samples_before ||
	    m->ntypes == MAX_SAMPLE_TYPES)
		return existing;
	unsigned nt = m->ntypes;
	double *node_self = widen(m->node_self, m->nnodes, nt);
	free(m->node_self);
	m->node_self = node_self;
	m->node_self_cap = m->nnodes * (nt + 1) + 1;
	if (m->frame_self) {
		double *frame_self = widen(m->frame_self, m->nframes, nt);
		free(m->frame_self);
		m->frame_self = frame_self;
		m->frame_self_cap = m->nframes * (nt + 1) + 1;
	}
	m->types[nt].name = model_string(m, "samples", 7);
	m->types[nt].unit = model_string(m, "count", 5);
	m->ntypes = nt + 1;
	/* Counted apart first: four bytes a node stay in cache, where the
	 * node values' wide rows would not. */
	uint32_t *counts = xcalloc(m->nnodes + 1, sizeof(uint32_t));
	for (size_t s = 0; s < m->nsamples; s++)
		counts[m->sample_node[s]]++;
	for (size_t v = 0; v < m->nnodes; v++)
		m->node_self[v * m->ntypes + nt] = counts[v];
	free(counts);
	return nt;
}
