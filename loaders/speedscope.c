/* speedscope's own JSON format (src/lib/file-format-spec.ts upstream),
 * what py-spy, rbspy, dotnet-trace and others write:
 *
 *   { "$schema": "https://www.speedscope.app/file-format-schema.json",
 *     "shared": { "frames": [ { "name", "file"?, "line"?, "col"? } ] },
 *     "profiles": [ sampled or evented ], "activeProfileIndex"?: N,
 *     "name"?, "exporter"? }
 *   sampled: { "type": "sampled", "name", "unit", "startValue", "endValue",
 *              "samples": [[frame index, ... root first]], "weights": [w] }
 *   evented: { "type": "evented", "name", "unit", "startValue", "endValue",
 *              "events": [ { "type": "O"|"C", "at": t, "frame": i } ] }
 *
 * Keys come in any order (py-spy writes "profiles" before "shared"), so
 * every profile is read, then one becomes the model: the one --thread
 * names (a profile name, or its number from 1), else activeProfileIndex
 * (what speedscope shows first), else the first.
 *
 * Units nanoseconds..seconds become one "time" type in µs; a sampled
 * profile in time has a timeline (each sample lasts its weight, in file
 * order).  An evented profile gives exact stacks: the time between two
 * events belongs to the frame open on top; time with nothing open is not
 * shown.  "bytes" is a bytes type, "none" a count. */
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/units.h"
#include "base/util.h"
#include "json.h"
#include "loaders.h"

#define SCHEMA "https://www.speedscope.app/file-format-schema.json"
#define FORMAT "speedscope JSON"
#define MAX_INDEX 4294967294.0

struct ss_frame {
	str_t name, file;
	int32_t line, col;
};

struct ss_event {
	double at;
	uint32_t frame;
	bool open;
	uint64_t offset;
};

struct ss_profile {
	char *name;
	bool evented;
	char unit[16];
	double start, end;
	bool have_start, have_end;
	uint64_t offset;
	/* Stacks, root first, end to end: sample i is
	 * frames[starts[i]..starts[i + 1]). */
	uint32_t *frames;
	size_t nframes, frames_cap;
	size_t *starts;
	uint64_t *sample_offsets;
	size_t nsamples, starts_cap, offsets_cap;
	double *weights;
	size_t nweights, weights_cap;
	uint64_t weights_offset;
	struct ss_event *events;
	size_t nevents, events_cap;
};

struct ss_loader {
	struct json j;
	struct json_sink sink;
	struct model *m;
	struct ss_frame *frames;
	size_t nframes, frames_cap;
	struct ss_profile *profiles;
	size_t nprofiles, profiles_cap;
	bool have_schema;
	double active;
	str_t exporter;
};

bool sniff_speedscope(const uint8_t *head, size_t len)
{
	return memmem(head, len, "\"$schema\"", 9) &&
	       memmem(head, len, "speedscope.app/file-format-schema.json", 38);
}

static bool index_value(struct ss_loader *L, enum json_token t, const char *what,
			uint32_t *out)
{
	double v = L->j.num;
	if (t != JSON_NUMBER || v < 0 || v > MAX_INDEX || v != floor(v))
		return json_sink_fail_here(&L->sink, "%s is not a frame index", what);
	*out = (uint32_t)v;
	return true;
}

/* A string into buf (cut to its size); JSON null is "". */
static bool string(struct ss_loader *L, const char *what, char *buf, size_t cap)
{
	enum json_token t;
	if (!json_sink_next(&L->sink, &t))
		return false;
	if (t == JSON_NULL) {
		buf[0] = '\0';
		return true;
	}
	if (t != JSON_STRING)
		return json_sink_fail_here(&L->sink, "%s is not a string", what);
	snprintf(buf, cap, "%.*s", (int)(L->j.str_len < cap ? L->j.str_len : cap - 1), L->j.str);
	return true;
}

static bool model_text(struct ss_loader *L, const char *what, str_t *out)
{
	enum json_token t;
	if (!json_sink_next(&L->sink, &t))
		return false;
	if (t == JSON_NULL) {
		*out = model_string(L->m, "", 0);
		return true;
	}
	if (t != JSON_STRING)
		return json_sink_fail_here(&L->sink, "%s is not a string", what);
	*out = model_string(L->m, L->j.str, L->j.str_len);
	return true;
}

/* ---- shared.frames ---------------------------------------------------------- */

static bool read_line_number(struct ss_loader *L, const char *what, int32_t *out)
{
	double v = 0;
	if (!json_sink_number(&L->sink, what, &v))
		return false;
	*out = v >= 0 && v < 2147483647.0 ? (int32_t)v : -1;
	return true;
}

static bool read_frame(struct ss_loader *L)
{
	uint64_t at = L->j.token_offset;
	struct ss_frame f = { STR_NONE, model_string(L->m, "", 0), -1, -1 };
	enum json_token t;
	while ((t = json_each_key(&L->sink)) == JSON_KEY) {
		bool ok = !strcmp(L->j.str, "name") ? model_text(L, "frame name", &f.name)
			: !strcmp(L->j.str, "file") ? model_text(L, "frame file", &f.file)
			: !strcmp(L->j.str, "line") ? read_line_number(L, "frame line", &f.line)
			: !strcmp(L->j.str, "col") ? read_line_number(L, "frame col", &f.col)
			: json_sink_skip(&L->sink);
		if (!ok)
			return false;
	}
	if (t == JSON_ERROR)
		return false;
	if (f.name == STR_NONE)
		return json_sink_fail(&L->sink, at, "frame %zu has no name", L->nframes);
	GROW(L->frames, L->frames_cap, L->nframes + 1);
	L->frames[L->nframes++] = f;
	return true;
}

static bool read_one_frame(void *L)
{
	return read_frame(L);
}

static bool read_shared(struct ss_loader *L)
{
	enum json_token t;
	if (!json_sink_expect(&L->sink, JSON_OBJECT, "an object for \"shared\""))
		return false;
	while ((t = json_each_key(&L->sink)) == JSON_KEY) {
		if (strcmp(L->j.str, "frames")) {
			if (!json_sink_skip(&L->sink))
				return false;
			continue;
		}
		if (!json_read_objects(&L->sink, "an array of frames", "expected a frame object",
				       read_one_frame, L))
			return false;
	}
	return t == JSON_OBJECT_END;
}

/* ---- profiles ------------------------------------------------------------------ */

static bool read_samples(struct ss_loader *L, struct ss_profile *p)
{
	enum json_token t;
	if (!json_sink_expect(&L->sink, JSON_ARRAY, "an array of samples"))
		return false;
	while (json_sink_next(&L->sink, &t) && t == JSON_ARRAY) {
		GROW(p->starts, p->starts_cap, p->nsamples + 2);
		GROW(p->sample_offsets, p->offsets_cap, p->nsamples + 1);
		p->sample_offsets[p->nsamples] = L->j.token_offset;
		p->starts[p->nsamples++] = p->nframes;
		while (json_sink_next(&L->sink, &t) && t != JSON_ARRAY_END) {
			GROW(p->frames, p->frames_cap, p->nframes + 1);
			if (!index_value(L, t, "a sample's frame", &p->frames[p->nframes++]))
				return false;
		}
		if (t == JSON_ERROR)
			return false;
	}
	if (t != JSON_ARRAY_END)
		return t != JSON_ERROR && json_sink_fail_here(&L->sink, "expected a sample (an array of frame indexes)");
	return true;
}

static bool read_weights(struct ss_loader *L, struct ss_profile *p)
{
	enum json_token t;
	p->weights_offset = L->j.token_offset;
	if (!json_sink_expect(&L->sink, JSON_ARRAY, "an array of weights"))
		return false;
	while (json_sink_next(&L->sink, &t) && t == JSON_NUMBER) {
		if (!isfinite(L->j.num) || L->j.num < 0)
			return json_sink_fail_here(&L->sink, "weight %g is not a number of 0 or more", L->j.num);
		GROW(p->weights, p->weights_cap, p->nweights + 1);
		p->weights[p->nweights++] = L->j.num;
	}
	if (t != JSON_ARRAY_END)
		return t != JSON_ERROR && json_sink_fail_here(&L->sink, "expected a weight (a number)");
	return true;
}

static bool read_event(struct ss_loader *L, struct ss_profile *p)
{
	struct ss_event e = { .offset = L->j.token_offset, .at = NAN, .frame = UINT32_MAX };
	char type[4] = "";
	enum json_token t;
	while ((t = json_each_key(&L->sink)) == JSON_KEY) {
		bool ok;
		if (!strcmp(L->j.str, "type"))
			ok = string(L, "event type", type, sizeof(type));
		else if (!strcmp(L->j.str, "at"))
			ok = json_sink_number(&L->sink, "event time", &e.at);
		else if (!strcmp(L->j.str, "frame"))
			ok = json_sink_next(&L->sink, &t) && index_value(L, t, "an event's frame", &e.frame);
		else
			ok = json_sink_skip(&L->sink);
		if (!ok)
			return false;
	}
	if (t == JSON_ERROR)
		return false;
	if (strcmp(type, "O") && strcmp(type, "C"))
		return json_sink_fail(&L->sink, e.offset, "event type '%s' (only \"O\" and \"C\" are known)", type);
	if (isnan(e.at) || e.frame == UINT32_MAX)
		return json_sink_fail(&L->sink, e.offset, "event without \"at\" or \"frame\"");
	e.open = type[0] == 'O';
	GROW(p->events, p->events_cap, p->nevents + 1);
	p->events[p->nevents++] = e;
	return true;
}

static bool read_events(struct ss_loader *L, struct ss_profile *p)
{
	enum json_token t;
	if (!json_sink_expect(&L->sink, JSON_ARRAY, "an array of events"))
		return false;
	while (json_sink_next(&L->sink, &t) && t == JSON_OBJECT)
		if (!read_event(L, p))
			return false;
	if (t != JSON_ARRAY_END)
		return t != JSON_ERROR && json_sink_fail_here(&L->sink, "expected an event object");
	return true;
}

static bool read_profile_key(struct ss_loader *L, struct ss_profile *p,
			     char *type)
{
	const char *key = L->j.str;
	if (!strcmp(key, "type"))
		return string(L, "profile type", type, 16);
	if (!strcmp(key, "name")) {
		char name[256];
		if (!string(L, "profile name", name, sizeof(name)))
			return false;
		free(p->name);
		p->name = xstrdup(name);
		return true;
	}
	if (!strcmp(key, "unit"))
		return string(L, "unit", p->unit, sizeof(p->unit));
	if (!strcmp(key, "startValue"))
		return (p->have_start = true) && json_sink_number(&L->sink, "startValue", &p->start);
	if (!strcmp(key, "endValue"))
		return (p->have_end = true) && json_sink_number(&L->sink, "endValue", &p->end);
	if (!strcmp(key, "samples"))
		return read_samples(L, p);
	if (!strcmp(key, "weights"))
		return read_weights(L, p);
	if (!strcmp(key, "events"))
		return read_events(L, p);
	return json_sink_skip(&L->sink);
}

static bool read_profile(struct ss_loader *L)
{
	GROW(L->profiles, L->profiles_cap, L->nprofiles + 1);
	struct ss_profile *p = &L->profiles[L->nprofiles++];
	*p = (struct ss_profile){ .offset = L->j.token_offset };
	char type[16] = "";
	enum json_token t;
	while ((t = json_each_key(&L->sink)) == JSON_KEY)
		if (!read_profile_key(L, p, type))
			return false;
	if (t == JSON_ERROR)
		return false;
	if (strcmp(type, "sampled") && strcmp(type, "evented"))
		return json_sink_fail(&L->sink, p->offset, "profile %zu: type '%s' (only \"sampled\" and \"evented\" are known)",
				      L->nprofiles, type);
	p->evented = type[0] == 'e';
	if (!p->evented && p->nweights != p->nsamples)
		return json_sink_fail(&L->sink, p->weights_offset, "profile %zu: %zu weights for %zu samples",
				      L->nprofiles, p->nweights, p->nsamples);
	if (p->starts)
		p->starts[p->nsamples] = p->nframes;
	return true;
}

static bool read_one_profile(void *L)
{
	return read_profile(L);
}

static bool read_profiles(struct ss_loader *L)
{
	return json_read_objects(&L->sink, "an array of profiles", "expected a profile object",
				 read_one_profile, L);
}

/* A number, or null for none. */
static bool active_index(struct ss_loader *L)
{
	enum json_token t;
	if (!json_sink_next(&L->sink, &t))
		return false;
	if (t == JSON_NULL)
		return true;
	if (t != JSON_NUMBER || !isfinite(L->j.num))
		return json_sink_fail_here(&L->sink, "activeProfileIndex is not a number");
	L->active = L->j.num;
	return true;
}

static bool read_file_key(void *ctx, const char *key)
{
	struct ss_loader *L = ctx;
	if (!strcmp(key, "$schema")) {
		char schema[96];
		if (!string(L, "$schema", schema, sizeof(schema)))
			return false;
		if (strcmp(schema, SCHEMA))
			return json_sink_fail_here(&L->sink, "$schema is not speedscope's (" SCHEMA ")");
		L->have_schema = true;
		return true;
	}
	if (!strcmp(key, "shared"))
		return read_shared(L);
	if (!strcmp(key, "profiles"))
		return read_profiles(L);
	if (!strcmp(key, "activeProfileIndex"))
		return active_index(L);
	if (!strcmp(key, "exporter"))
		return model_text(L, "exporter", &L->exporter);
	return json_sink_skip(&L->sink);
}

static bool read_file(struct ss_loader *L)
{
	if (!json_read_document(&L->sink, read_file_key, L))
		return false;
	if (!L->have_schema)
		return json_sink_fail(&L->sink, 0, "no \"$schema\" key");
	return L->nprofiles || json_sink_fail(&L->sink, 0, "no profiles");
}

/* ---- the model ------------------------------------------------------------------- */

/* --thread: a profile's name, or its number from 1. */
static bool pick_profile(struct ss_loader *L, const char *wanted, size_t *out)
{
	*out = L->active >= 0 && L->active < (double)L->nprofiles ? (size_t)L->active : 0;
	if (!wanted)
		return true;
	for (size_t i = 0; i < L->nprofiles; i++)
		if (L->profiles[i].name && !strcmp(L->profiles[i].name, wanted)) {
			*out = i;
			return true;
		}
	char *end;
	unsigned long n = strtoul(wanted, &end, 10);
	if (*wanted && !*end && n >= 1 && n <= L->nprofiles) {
		*out = n - 1;
		return true;
	}
	char names[200] = "";
	for (size_t i = 0; i < L->nprofiles && strlen(names) < sizeof(names) - 40; i++)
		snprintf(names + strlen(names), sizeof(names) - strlen(names), "%s%zu '%s'",
			 i ? ", " : "", i + 1, L->profiles[i].name ? L->profiles[i].name : "");
	return load_fail(L->sink.err, FORMAT ": no profile '%s' (--thread takes a name or a number: %s)",
			 wanted, names);
}

static uint32_t frame_id(struct ss_loader *L, uint32_t *ids, uint32_t index)
{
	if (ids[index] == NO_ID) {
		const struct ss_frame *s = &L->frames[index];
		struct frame f = {
			.name = s->name, .url = s->file, .extra = STR_NONE,
			.line = s->line, .column = s->col,
			.kind = *model_str(L->m, s->file) ? KIND_JS : KIND_NATIVE,
		};
		ids[index] = model_intern_frame(L->m, &f);
	}
	return ids[index];
}

static bool check_frames(struct ss_loader *L, const struct ss_profile *p)
{
	for (size_t i = 0; i < p->nsamples; i++)
		for (size_t k = p->starts[i]; k < p->starts[i + 1]; k++)
			if (p->frames[k] >= L->nframes)
				return json_sink_fail(&L->sink, p->sample_offsets[i], "frame %u of a sample is not in shared.frames (%zu frames)",
						      p->frames[k], L->nframes);
	for (size_t i = 0; i < p->nevents; i++)
		if (p->events[i].frame >= L->nframes)
			return json_sink_fail(&L->sink, p->events[i].offset, "frame %u of an event is not in shared.frames (%zu frames)",
					      p->events[i].frame, L->nframes);
	return true;
}

static void build_sampled(struct ss_loader *L, const struct ss_profile *p,
			  uint32_t *ids, const struct unit_scale *scale, bool time)
{
	uint32_t *stack = NULL;
	size_t cap = 0;
	double all = 0, stackless = 0;
	for (size_t i = 0; i < p->nsamples; i++) {
		size_t depth = p->starts[i + 1] - p->starts[i];
		all += unit_scale_apply(scale, p->weights[i]);
		if (!depth) { /* nothing to show it under, but in the total */
			stackless += unit_scale_apply(scale, p->weights[i]);
			continue;
		}
		GROW(stack, cap, depth);
		for (size_t k = 0; k < depth; k++)
			stack[depth - 1 - k] = frame_id(L, ids, p->frames[p->starts[i] + k]);
		uint32_t leaf = model_add_stack(L->m, stack, depth);
		double value = unit_scale_apply(scale, p->weights[i]);
		if (time)
			model_add_sample(L->m, leaf, value);
		else
			model_add_node_value(L->m, leaf, 0, value);
	}
	/* speedscope's total weight counts every sample (StackListProfileBuilder
	 * puts an empty stack on its root). */
	if (stackless > 0) {
		L->m->type_total[0] = all;
		L->m->has_type_totals = true;
	}
	free(stack);
}

struct open_frame {
	uint32_t frame, node;
};

static bool build_evented(struct ss_loader *L, const struct ss_profile *p,
			  uint32_t *ids, const struct unit_scale *scale, bool time)
{
	struct open_frame *stack = NULL;
	size_t depth = 0, cap = 0;
	double last = p->nevents ? p->events[0].at : 0;
	bool ok = true;
	for (size_t i = 0; ok && i < p->nevents; i++) {
		const struct ss_event *e = &p->events[i];
		if (e->at < last) {
			ok = json_sink_fail(&L->sink, e->offset, "event at %g comes after one at %g", e->at, last);
			break;
		}
		double value = unit_scale_apply(scale, e->at - last);
		if (depth && value > 0) {
			if (time)
				model_add_sample(L->m, stack[depth - 1].node, value);
			else
				model_add_node_value(L->m, stack[depth - 1].node, 0, value);
		}
		last = e->at;
		if (e->open) {
			GROW(stack, cap, depth + 1);
			uint32_t frame = frame_id(L, ids, e->frame);
			stack[depth] = (struct open_frame){
				frame, model_add_child(L->m, depth ? stack[depth - 1].node : NO_ID, frame) };
			depth++;
		} else if (!depth || stack[depth - 1].frame != frame_id(L, ids, e->frame)) {
			ok = json_sink_fail(&L->sink, e->offset, "closes frame %u, which is not the innermost open frame",
					    e->frame);
		} else {
			depth--;
		}
	}
	/* Frames still open at the end last until endValue. */
	if (ok && depth && p->have_end && p->end > last) {
		double value = unit_scale_apply(scale, p->end - last);
		if (time)
			model_add_sample(L->m, stack[depth - 1].node, value);
		else
			model_add_node_value(L->m, stack[depth - 1].node, 0, value);
	}
	free(stack);
	return ok;
}

static bool build_model(struct ss_loader *L, const char *wanted)
{
	size_t which;
	if (!pick_profile(L, wanted, &which))
		return false;
	const struct ss_profile *p = &L->profiles[which];
	if (!check_frames(L, p))
		return false;
	struct unit_scale scale = unit_scale_of(p->unit);
	bool time = scale.unit && !strcmp(scale.unit, "us");
	if (scale.unit)
		model_add_sample_type(L->m, time ? "time" : "space", scale.unit);
	else
		model_add_sample_type(L->m, p->evented ? "value" : "samples", "count");
	uint32_t *ids = xmalloc((L->nframes ? L->nframes : 1) * sizeof(*ids));
	memset(ids, 0xff, (L->nframes ? L->nframes : 1) * sizeof(*ids));
	bool ok = true;
	if (p->evented)
		ok = build_evented(L, p, ids, &scale, time);
	else
		build_sampled(L, p, ids, &scale, time);
	free(ids);
	if (!ok)
		return false;
	if (time && p->have_start && p->have_end && p->end >= p->start) {
		L->m->start_time = unit_scale_apply(&scale, p->start);
		L->m->end_time = unit_scale_apply(&scale, p->end);
	}
	if (L->exporter != STR_NONE)
		L->m->comment = L->exporter;
	uint32_t unused;
	model_finish(L->m, &unused); /* a tree made of stacks: cannot fail */
	return true;
}

static void loader_free(struct ss_loader *L)
{
	json_free(&L->j);
	free(L->frames);
	for (size_t i = 0; i < L->nprofiles; i++) {
		struct ss_profile *p = &L->profiles[i];
		free(p->name);
		free(p->frames);
		free(p->starts);
		free(p->sample_offsets);
		free(p->weights);
		free(p->events);
	}
	free(L->profiles);
}

bool load_speedscope(struct input *in, struct model *m,
		     const struct load_options *opt, struct load_error *err)
{
	struct ss_loader L = { .m = m, .active = -1, .exporter = STR_NONE };
	L.sink = (struct json_sink){ .j = &L.j, .err = err, .format = FORMAT };
	model_init(m, "speedscope");
	json_init(&L.j, in);
	bool ok = read_file(&L) && build_model(&L, opt->thread);
	loader_free(&L);
	if (!ok)
		model_free(m);
	return ok;
}
