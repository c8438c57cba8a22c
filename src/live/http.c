/* --live URL: windows fetched one after the other, merged on demand
 * (http.h says what the merged model looks like). */
#include "http.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/util.h"

char *http_live_window_url(const char *url, unsigned seconds)
{
	size_t len = strlen(url);
	char *out = xmalloc(len + 32);
	const char *query = strchr(url, '?');
	const char *at = NULL;
	for (const char *p = query; p; p = strchr(p + 1, '&'))
		if (!strncmp(p + 1, "seconds=", 8)) {
			at = p + 1;
			break;
		}
	if (!at) {
		snprintf(out, len + 32, "%s%cseconds=%u", url, query ? '&' : '?', seconds);
		return out;
	}
	const char *rest = at + 8 + strspn(at + 8, "0123456789");
	snprintf(out, len + 32, "%.*sseconds=%u%s", (int)(at - url), url, seconds, rest);
	return out;
}

void http_session_init(struct http_session *s, const char *url, unsigned seconds)
{
	*s = (struct http_session){ .url = url,
				    .window_url = http_live_window_url(url, seconds) };
}

void http_session_free(struct http_session *s)
{
	for (size_t i = 0; i < s->nwindows; i++)
		model_free(&s->windows[i]);
	free(s->windows);
	free(s->window_url);
}

bool http_session_fetch(struct http_session *s, const struct fetch_options *fetch,
			const struct load_options *load, char *err, size_t cap)
{
	uint8_t *data;
	size_t len;
	if (!fetch_url(s->window_url, fetch, &data, &len, err, cap))
		return false;
	struct model m;
	struct load_error lerr;
	bool ok = load_memory(data, len, s->window_url, load, &m, &lerr);
	free(data);
	if (!ok) {
		snprintf(err, cap, "window %zu: %s", s->nwindows + 1, lerr.message);
		return false;
	}
	GROW(s->windows, s->windows_cap, s->nwindows + 1);
	s->windows[s->nwindows++] = m;
	return true;
}

static str_t copy_string(struct model *dst, const struct model *src, str_t s)
{
	if (s == STR_NONE)
		return STR_NONE;
	const char *text = model_str(src, s);
	return model_string(dst, text, strlen(text));
}

/* The session's types: the first window's default type first (the
 * timeline's durations are in it), then the others in their order. */
static void copy_types(struct model *dst, const struct model *first, unsigned *perm)
{
	unsigned n = 0;
	perm[n++] = first->default_type;
	for (unsigned t = 0; t < first->ntypes; t++)
		if (t != first->default_type)
			perm[n++] = t;
	for (unsigned i = 0; i < n; i++)
		model_add_sample_type(dst, model_str(first, first->types[perm[i]].name),
				      model_str(first, first->types[perm[i]].unit));
	dst->default_type = 0;
	dst->period = first->period;
	dst->start_time = first->start_time;
}

/* Window types are matched by name: a window that lacks one adds 0. */
static int type_in(const struct model *w, const struct model *dst, unsigned t)
{
	for (unsigned u = 0; u < w->ntypes; u++)
		if (!strcmp(model_str(w, w->types[u].name), model_str(dst, dst->types[t].name)))
			return (int)u;
	return -1;
}

static void fold_window(struct model *dst, const struct model *w)
{
	uint32_t *frame_map = xmalloc((w->nframes + 1) * sizeof(*frame_map));
	uint32_t *node_map = xmalloc((w->nnodes + 1) * sizeof(*node_map));
	int from[MAX_SAMPLE_TYPES];
	for (unsigned t = 0; t < dst->ntypes; t++)
		from[t] = type_in(w, dst, t);
	model_start_window(dst);
	for (size_t f = 0; f < w->nframes; f++) {
		struct frame copy = w->frames[f];
		copy.name = copy_string(dst, w, copy.name);
		copy.url = copy_string(dst, w, copy.url);
		copy.extra = copy_string(dst, w, copy.extra);
		frame_map[f] = model_intern_frame(dst, &copy);
	}
	for (size_t i = 0; i < w->nnodes; i++) {
		uint32_t n = w->node_order[i];
		uint32_t parent = w->nodes[n].parent;
		node_map[n] = model_add_child(dst, parent == NO_ID ? NO_ID : node_map[parent],
					      frame_map[w->nodes[n].frame]);
		double first = from[0] < 0 ? 0 : node_value(w, n, (unsigned)from[0]);
		if (first != 0)
			model_add_sample(dst, node_map[n], first);
		for (unsigned t = 1; t < dst->ntypes; t++)
			if (from[t] >= 0 && node_value(w, n, (unsigned)from[t]) != 0)
				model_add_node_value(dst, node_map[n], t,
						     node_value(w, n, (unsigned)from[t]));
	}
	for (unsigned t = 0; t < dst->ntypes; t++)
		if (from[t] >= 0 && w->has_type_totals)
			dst->type_total[t] += w->type_total[from[t]];
	dst->summed_samples += w->summed_samples;
	dst->sample_records += w->sample_records;
	dst->duration += w->duration;
	free(frame_map);
	free(node_map);
}

void http_session_model(const struct http_session *s, struct model *out)
{
	const struct model *first = &s->windows[0];
	unsigned perm[MAX_SAMPLE_TYPES];
	model_init(out, first->format);
	copy_types(out, first, perm);
	out->has_type_totals = first->has_type_totals;
	out->wall_start = first->wall_start;
	out->main_binary = copy_string(out, first, first->main_binary);
	for (size_t i = 0; i < s->nwindows; i++)
		fold_window(out, &s->windows[i]);
	out->end_time = out->start_time + out->duration;
	uint32_t cycle;
	model_finish(out, &cycle); /* a tree of stacks has no cycle */
}
