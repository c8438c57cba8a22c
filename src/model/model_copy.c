/* A model made from another (a filter's, a granularity's, a cut's, a
 * live snapshot's): the other's strings, frames, header, threads and
 * timeline copied into it, or borrowed (model.h says which). */
#include "model.h"

#include <stdlib.h>
#include <string.h>

#include "base/background.h"
#include "base/util.h"

str_t model_copy_string(const struct model *src, struct model *out, str_t s)
{
	if (s == STR_NONE)
		return STR_NONE;
	const char *text = model_str(src, s);
	return model_string(out, text, strlen(text));
}

/* Symbolization's origins go with the frames they are of. */
static void copy_origins(const struct model *src, struct model *out)
{
	if (!src->norigins)
		return;
	out->origins = xmalloc(src->norigins * sizeof(*out->origins));
	out->norigins = src->norigins;
	for (size_t i = 0; i < src->norigins; i++) {
		out->origins[i] = src->origins[i];
		out->origins[i].name = model_copy_string(src, out, src->origins[i].name);
		out->origins[i].url = model_copy_string(src, out, src->origins[i].url);
		out->origins[i].why_not = model_copy_string(src, out, src->origins[i].why_not);
	}
}

void model_copy_frames(const struct model *src, struct model *out)
{
	for (size_t i = 0; i < src->nframes; i++) {
		struct frame f = src->frames[i];
		f.name = model_copy_string(src, out, f.name);
		f.url = model_copy_string(src, out, f.url);
		f.extra = model_copy_string(src, out, f.extra);
		model_intern_frame(out, &f);
	}
	copy_origins(src, out);
}

double model_type_total(const struct model *m, unsigned type)
{
	if (m->has_type_totals)
		return m->type_total[type];
	double sum = 0;
	for (uint32_t v = 0; v < m->nnodes; v++)
		sum += node_value(m, v, type);
	for (uint32_t f = 0; m->frame_self && f < m->nframes; f++)
		sum += m->frame_self[(size_t)f * m->ntypes + type];
	return sum;
}

void model_copy_header(const struct model *src, struct model *out)
{
	for (unsigned t = 0; t < src->ntypes; t++)
		model_add_sample_type(out, model_str(src, src->types[t].name),
				      model_str(src, src->types[t].unit));
	out->default_type = src->default_type;
	out->start_time = src->start_time;
	out->end_time = src->end_time;
	out->wall_start = src->wall_start;
	out->main_binary = model_copy_string(src, out, src->main_binary);
	out->duration = src->duration;
	out->period = src->period;
	out->comment = model_copy_string(src, out, src->comment);
	model_copy_threads(src, out);
	out->warning = model_copy_string(src, out, src->warning);
	out->symbols = model_copy_string(src, out, src->symbols);
	/* Percentages stay of the whole profile, as pprof's with -focus. */
	for (unsigned t = 0; t < src->ntypes; t++)
		out->type_total[t] = model_type_total(src, t);
	out->has_type_totals = true;
	/* A derived model has no timeline: the samples it was made from. */
	out->summed_samples = model_sample_count(src);
	out->sample_records = src->sample_records;
	out->lines_zero_based = src->lines_zero_based;
	out->sample_time = src->sample_time;
	out->frames_are_files = src->frames_are_files;
	out->label_stride = src->label_stride;
	if (src->nlabel_rows) {
		size_t n = src->nlabel_rows * src->label_stride;
		out->label_values = xmalloc(n * sizeof(double));
		memcpy(out->label_values, src->label_values, n * sizeof(double));
		out->nlabel_rows = src->nlabel_rows;
		out->label_values_cap = n;
	}
}

void model_copy_threads(const struct model *src, struct model *out)
{
	out->thread = model_copy_string(src, out, src->thread);
	for (size_t i = 0; i < src->nother_threads; i++)
		model_add_other_thread(out, model_str(src, src->other_threads[i]));
}

void model_copy_gaps(const struct model *src, struct model *out)
{
	size_t n = src->live.ngaps;
	free(out->live.gaps);
	out->live.gaps = n ? xmalloc(n * sizeof(*out->live.gaps)) : NULL;
	if (n)
		memcpy(out->live.gaps, src->live.gaps, n * sizeof(*out->live.gaps));
	out->live.ngaps = out->live.gaps_cap = n;
}

/* A copy of `n` items of `size` bytes. */
static void *copy_of(const void *items, size_t n, size_t size)
{
	void *own = xmalloc((n + 1) * size);
	if (n)
		memcpy(own, items, n * size);
	return own;
}

void model_copy_timeline(const struct model *src, struct model *out,
			 const uint32_t *node_map)
{
	size_t n = src->nsamples;
	free(out->sample_node);
	if (!out->durations_borrowed)
		free(out->sample_duration);
	if (node_map) {
		out->sample_node = xmalloc((n + 1) * sizeof(uint32_t));
		for (size_t i = 0; i < n; i++) {
			background_pause_in_loop(i, PAUSE_EVERY_SAMPLES);
			/* Millions of samples read once: fetched ahead past the
			 * cache, which keeps node_map, read at random. */
			if (i % 16 == 0 && i + 256 < n)
				__builtin_prefetch(&src->sample_node[i + 256], 0, 0);
			out->sample_node[i] = node_map[src->sample_node[i]];
		}
	} else {
		out->sample_node = src->sample_node;
	}
	out->sample_nodes_borrowed = !node_map;
	out->sample_duration = src->sample_duration;
	out->durations_borrowed = true;
	out->nsamples = out->samples_cap = n;
	/* The same durations: their offsets are src's, without a pass over
	 * millions of them in model_finish. */
	free(out->sample_offsets);
	out->sample_offsets = copy_of(src->sample_offsets, src->nsample_offsets, sizeof(double));
	out->nsample_offsets = src->nsample_offsets;
	out->integral_samples = src->integral_samples;
	out->live.samples_before = src->live.samples_before;
	out->live.time_before = src->live.time_before;
	for (size_t w = 0; w < src->live.nwindows; w++) {
		GROW(out->live.window_first, out->live.windows_cap, out->live.nwindows + 1);
		out->live.window_first[out->live.nwindows++] = src->live.window_first[w];
	}
	model_copy_gaps(src, out);
}

void model_own_timeline(struct model *m)
{
	if (m->durations_borrowed)
		m->sample_duration = copy_of(m->sample_duration, m->nsamples, sizeof(double));
	if (m->sample_nodes_borrowed)
		m->sample_node = copy_of(m->sample_node, m->nsamples, sizeof(uint32_t));
	m->durations_borrowed = m->sample_nodes_borrowed = false;
}
