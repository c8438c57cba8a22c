/* --export (see export.h).  The model's stacks are its tree: a node's
 * stack is the path from its root down to it, and its self value is the
 * value of the samples that ended there.  Data without whole stacks (an
 * XS node graph, gprof's per-function times) is written as one-frame
 * stacks of each function's self value, and the user is told. */
#include "export.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <zlib.h>

#include "base/escape.h"
#include "profile.pb-c.h"
#include "base/util.h"

typedef Perftools__Profiles__Profile pb_profile;
typedef Perftools__Profiles__ValueType pb_value_type;
typedef Perftools__Profiles__Sample pb_sample;
typedef Perftools__Profiles__Location pb_location;
typedef Perftools__Profiles__Line pb_line;
typedef Perftools__Profiles__Function pb_function;

static const char *const format_names[EXPORT_FORMAT_COUNT] = {
	[EXPORT_PPROF] = "pprof",
	[EXPORT_CPUPROFILE] = "cpuprofile",
	[EXPORT_FOLDED] = "folded",
	[EXPORT_TRACE] = "trace",
};

bool export_format_parse(const char *name, enum export_format *out)
{
	int i = name_index(format_names, EXPORT_FORMAT_COUNT, name);
	if (i < 0)
		return false;
	*out = (enum export_format)i;
	return true;
}

struct exporter {
	const struct model *m;
	unsigned type;
	FILE *out;
	FILE *notes;
	const char *format;
	bool whole_stacks; /* else one-frame stacks of each function's self */
	double *frame_self; /* [frame * ntypes + type], without whole stacks */
};

static double self_value(const struct exporter *x, uint32_t item, unsigned type)
{
	return x->whole_stacks ? node_value(x->m, item, type)
			       : x->frame_self[(size_t)item * x->m->ntypes + type];
}

static size_t item_count(const struct exporter *x)
{
	return x->whole_stacks ? x->m->nnodes : x->m->nframes;
}

/* What every format loses the same way, said once. */
static void note_common_losses(const struct exporter *x)
{
	const struct model *m = x->m;
	if (!x->whole_stacks && (m->caps & HAS_NODES))
		fprintf(x->notes, "wprof-tui: note: the profile has no whole stacks (a "
			"function graph): %s gets each function's self value as a "
			"one-frame stack; callers and totals are not in it\n", x->format);
	else if (!x->whole_stacks)
		fprintf(x->notes, "wprof-tui: note: the profile has no call tree: %s "
			"gets each function's self value as a one-frame stack\n", x->format);
	if (m->caps & HAS_CALL_COUNTS)
		fprintf(x->notes, "wprof-tui: note: call counts cannot be expressed in "
			"%s: left out\n", x->format);
	if (m->nlabels)
		fprintf(x->notes, "wprof-tui: note: sample labels are not exported (%s "
			"gets one sample per stack)\n", x->format);
}

static void note_one_type(const struct exporter *x)
{
	const struct model *m = x->m;
	char name[256];
	escape_text(model_str(m, m->types[x->type].name), name, sizeof(name));
	if (m->ntypes > 1)
		fprintf(x->notes, "wprof-tui: note: %s holds one value per sample: "
			"writing sample type '%s' (--sample-type picks another)\n",
			x->format, name);
}

/* ---- folded stacks --------------------------------------------------------------- */

/* Folded lines have no quoting: ';' would split a frame, so it becomes a
 * look-alike; newlines and every other control are spelled out (\n, \e,
 * \u202e) as on screen, since flame graph tools show the text as is. */
static void folded_name(FILE *out, const char *name)
{
	char *plain = xstrdup(name);
	for (char *c = plain; (c = strchr(c, ';')); c++)
		*c = ':';
	escape_text_to(out, plain);
	free(plain);
}

static void write_number(FILE *out, double v)
{
	char buf[40];
	snprintf(buf, sizeof(buf), "%.15g", v);
	if (strtod(buf, NULL) != v)
		snprintf(buf, sizeof(buf), "%.17g", v);
	fputs(buf, out);
}

/* The stack from the root down to `node`, ';' between frames.  Without
 * recursion: a stack may be a million frames deep.  *path is scratch
 * space kept across calls. */
static void folded_path(const struct exporter *x, uint32_t node, uint32_t **path,
			size_t *cap)
{
	const struct model *m = x->m;
	size_t depth = 0;
	for (uint32_t at = node; at != NO_ID; at = m->nodes[at].parent) {
		GROW(*path, *cap, depth + 1);
		(*path)[depth++] = at;
	}
	while (depth--) {
		folded_name(x->out, model_str(m, m->frames[m->nodes[(*path)[depth]].frame].name));
		if (depth)
			fputc(';', x->out);
	}
}

static void write_folded(struct exporter *x)
{
	const struct model *m = x->m;
	note_one_type(x);
	size_t negative = 0, path_cap = 0;
	uint32_t *path = NULL;
	for (uint32_t i = 0; i < item_count(x); i++) {
		double v = self_value(x, i, x->type);
		negative += v < 0;
		if (!(v > 0)) /* flame graph tools take no negative widths */
			continue;
		if (x->whole_stacks)
			folded_path(x, i, &path, &path_cap);
		else
			folded_name(x->out, model_str(m, m->frames[i].name));
		fputc(' ', x->out);
		write_number(x->out, v);
		fputc('\n', x->out);
	}
	free(path);
	if (negative)
		fprintf(x->notes, "wprof-tui: note: %zu negative self value%s cannot be "
			"expressed in folded stacks: left out\n", negative, negative == 1 ? "" : "s");
}

/* ---- .cpuprofile ----------------------------------------------------------------- */

/* .cpuprofile lines and columns count from 0. */
static int32_t zero_based(const struct model *m, int32_t n)
{
	if (n < 0)
		return -1;
	return m->lines_zero_based ? n : n > 0 ? n - 1 : 0;
}

static void cpu_node(const struct exporter *x, uint32_t id, uint32_t frame,
		     double hits, const uint32_t *children, size_t nchildren,
		     uint32_t child_id_base)
{
	const struct model *m = x->m;
	const struct frame *f = &m->frames[frame];
	fprintf(x->out, "{\"id\":%u,\"callFrame\":{\"functionName\":", id);
	json_escape_to(x->out, model_str(m, f->name));
	fputs(",\"scriptId\":\"0\",\"url\":", x->out);
	json_escape_to(x->out, model_str(m, f->url));
	fprintf(x->out, ",\"lineNumber\":%d,\"columnNumber\":%d},\"hitCount\":%.0f",
		zero_based(m, f->line), zero_based(m, f->column), hits);
	if (nchildren) {
		fputs(",\"children\":[", x->out);
		for (size_t i = 0; i < nchildren; i++)
			fprintf(x->out, "%s%u", i ? "," : "", children[i] + child_id_base);
		fputc(']', x->out);
	}
	fputc('}', x->out);
}

/* Do the model's samples carry the exported values: the first type's,
 * every sample kept (a live window that let older ones go does not)? */
static bool real_timeline(const struct exporter *x)
{
	return x->whole_stacks && model_holds_every_sample(x->m) && x->type == 0;
}

/* The timeline the model has (samples in time order with their
 * durations), or one made up: a sample per stack lasting its self value,
 * which is what keeps every total. */
struct timeline {
	uint32_t *item;
	double *duration;
	size_t n;
	double *hits; /* per item */
};

static void make_timeline(const struct exporter *x, struct timeline *t)
{
	const struct model *m = x->m;
	size_t items = item_count(x);
	t->hits = xcalloc(items + 1, sizeof(double));
	bool real = real_timeline(x);
	size_t cap = real ? m->nsamples : items;
	t->item = xmalloc((cap + 1) * sizeof(uint32_t));
	t->duration = xmalloc((cap + 1) * sizeof(double));
	t->n = 0;
	if (real) {
		for (size_t i = 0; i < m->nsamples; i++) {
			t->item[t->n] = m->sample_node[i];
			t->duration[t->n++] = m->sample_duration[i];
			t->hits[m->sample_node[i]]++;
		}
		return;
	}
	size_t negative = 0;
	for (uint32_t i = 0; i < items; i++) {
		double v = self_value(x, i, x->type);
		negative += v < 0;
		if (!(v > 0))
			continue;
		t->item[t->n] = i;
		t->duration[t->n++] = v;
		t->hits[i] = 1;
	}
	/* A sample cannot last less than nothing. */
	if (negative)
		fprintf(x->notes, "wprof-tui: note: %zu negative self value%s cannot be "
			"expressed in .cpuprofile: left out, so its total is larger\n",
			negative, negative == 1 ? "" : "s");
}

/* The trace-event form (loaders/trace.c reads it back): one Profile
 * event and one ProfileChunk holding the whole .cpuprofile, as Chrome's
 * Performance panel saves a V8 CPU profile, in pieces around it. */
#define TRACE_EVENT "\"cat\":\"disabled-by-default-v8.cpu_profiler\",\"ph\":\"P\"," \
	"\"pid\":1,\"tid\":1,\"id\":\"0x1\",\"ts\":"

static void write_cpuprofile(struct exporter *x, bool trace)
{
	const struct model *m = x->m;
	note_one_type(x);
	char name[256], unit[64];
	escape_text(model_str(m, m->types[x->type].name), name, sizeof(name));
	escape_text(model_str(m, m->types[x->type].unit), unit, sizeof(unit));
	if (unit_is_time(m, x->type) == false)
		fprintf(x->notes, "wprof-tui: note: .cpuprofile holds times: the values "
			"of '%s' (%s) are written as microseconds\n", name, unit);
	struct timeline t;
	make_timeline(x, &t);
	if (!real_timeline(x))
		fprintf(x->notes, "wprof-tui: note: the profile has no timeline for "
			"this type: .cpuprofile gets one sample per stack, lasting its "
			"self value, so every total is kept\n");

	/* Items are ids 1..n; one (root) above several roots, id n + 1. */
	size_t items = item_count(x);
	uint32_t *roots = xmalloc((items + 1) * sizeof(uint32_t));
	size_t nroots = 0;
	for (uint32_t i = 0; i < items; i++)
		if (!x->whole_stacks || m->nodes[i].nparents == 0)
			roots[nroots++] = i;
	bool own_root = nroots != 1;
	/* Sample i lasts until sample i + 1 starts (the loader's reading);
	 * the made-up timeline starts at 0, where small durations stay exact. */
	double start = t.n && real_timeline(x) ? m->start_time : 0;
	if (trace) {
		fputs("{\"traceEvents\":[{\"name\":\"Profile\"," TRACE_EVENT, x->out);
		write_number(x->out, start);
		fputs(",\"args\":{\"data\":{\"startTime\":", x->out);
		write_number(x->out, start);
		fputs("}}},\n{\"name\":\"ProfileChunk\"," TRACE_EVENT, x->out);
		write_number(x->out, start);
		fputs(",\"args\":{\"data\":{\"cpuProfile\":", x->out);
	}
	fputs("{\"nodes\":[", x->out);
	if (own_root) {
		fprintf(x->out, "{\"id\":%zu,\"callFrame\":{\"functionName\":\"(root)\","
			"\"scriptId\":\"0\",\"url\":\"\",\"lineNumber\":-1,"
			"\"columnNumber\":-1},\"hitCount\":0", items + 1);
		if (nroots) {
			fputs(",\"children\":[", x->out);
			for (size_t i = 0; i < nroots; i++)
				fprintf(x->out, "%s%u", i ? "," : "", roots[i] + 1);
			fputc(']', x->out);
		}
		fputs("}", x->out);
	}
	for (uint32_t i = 0; i < items; i++) {
		fputs(own_root || i ? "," : "", x->out);
		if (x->whole_stacks) {
			const struct node *n = &m->nodes[i];
			cpu_node(x, i + 1, n->frame, t.hits[i], m->child_ids + n->child_start,
				 n->child_end - n->child_start, 1);
		} else {
			cpu_node(x, i + 1, i, t.hits[i], NULL, 0, 1);
		}
	}
	double end = start;
	if (!trace) {
		fprintf(x->out, "],\"startTime\":");
		write_number(x->out, start);
		fputs(",\"samples\":[", x->out);
	} else {
		fputs("],\"samples\":[", x->out);
	}
	for (size_t i = 0; i < t.n; i++)
		fprintf(x->out, "%s%u", i ? "," : "", t.item[i] + 1);
	fputs(trace ? "]},\"timeDeltas\":[" : "],\"timeDeltas\":[", x->out);
	for (size_t i = 0; i < t.n; i++) {
		fputs(i ? "," : "", x->out);
		write_number(x->out, i ? t.duration[i - 1] : 0);
		end += t.duration[i];
	}
	fputs("],\"endTime\":", x->out);
	write_number(x->out, end);
	fputs(trace ? "}}}]}\n" : "}\n", x->out);
	free(roots);
	free(t.item);
	free(t.duration);
	free(t.hits);
}

/* ---- pprof ---------------------------------------------------------------------------- */

/* The string table being built: each distinct string once, "" first. */
struct strings_out {
	char **table;
	size_t n, cap;
	uint32_t *index; /* open addressing over table positions */
	size_t index_size;
};

static int64_t string_index(struct strings_out *s, const char *text)
{
	if ((s->n + 1) * 2 > s->index_size) {
		free(s->index);
		s->index_size = s->index_size ? s->index_size * 2 : 1024;
		s->index = xmalloc(s->index_size * sizeof(uint32_t));
		memset(s->index, 0xff, s->index_size * sizeof(uint32_t));
		for (uint32_t i = 0; i < s->n; i++) {
			size_t h = hash_bytes(s->table[i], strlen(s->table[i]), 0) & (s->index_size - 1);
			while (s->index[h] != NO_ID)
				h = (h + 1) & (s->index_size - 1);
			s->index[h] = i;
		}
	}
	size_t h = hash_bytes(text, strlen(text), 0) & (s->index_size - 1);
	for (; s->index[h] != NO_ID; h = (h + 1) & (s->index_size - 1))
		if (!strcmp(s->table[s->index[h]], text))
			return s->index[h];
	GROW(s->table, s->cap, s->n + 1);
	s->table[s->n] = xstrdup(text);
	s->index[h] = (uint32_t)s->n;
	return (int64_t)s->n++;
}

/* A location per chain of inlined frames and the frame they are inlined
 * into; most chains are one frame, whose location id is frame + 1. */
struct locations_out {
	pb_location **list;
	size_t n, cap;
	uint32_t *index;
	size_t index_size;
};

static uint64_t chain_hash(const uint32_t *frames, size_t n)
{
	return hash_bytes(frames, n * sizeof(uint32_t), 0x70726f66);
}

static pb_location *new_location(const uint32_t *frames, size_t n, uint64_t id,
				 const struct model *m)
{
	pb_location *loc = xmalloc(sizeof(*loc));
	perftools__profiles__location__init(loc);
	loc->id = id;
	loc->n_line = n;
	loc->line = xmalloc(n * sizeof(pb_line *));
	for (size_t i = 0; i < n; i++) {
		pb_line *line = xmalloc(sizeof(*line));
		perftools__profiles__line__init(line);
		line->function_id = frames[i] + 1;
		int32_t l = m->frames[frames[i]].line;
		line->line = l < 0 ? 0 : l + (m->lines_zero_based ? 1 : 0);
		loc->line[i] = line;
	}
	return loc;
}

static uint64_t chain_location(struct locations_out *L, const struct model *m,
			       const uint32_t *frames, size_t n)
{
	if (n == 1)
		return frames[0] + 1;
	if ((L->n + 1) * 2 > L->index_size) {
		free(L->index);
		L->index_size = L->index_size ? L->index_size * 2 : 256;
		L->index = xmalloc(L->index_size * sizeof(uint32_t));
		memset(L->index, 0xff, L->index_size * sizeof(uint32_t));
		for (uint32_t i = 0; i < L->n; i++) {
			const pb_location *loc = L->list[i];
			uint32_t *f = xmalloc(loc->n_line * sizeof(uint32_t));
			for (size_t k = 0; k < loc->n_line; k++)
				f[k] = (uint32_t)loc->line[k]->function_id - 1;
			size_t h = chain_hash(f, loc->n_line) & (L->index_size - 1);
			free(f);
			while (L->index[h] != NO_ID)
				h = (h + 1) & (L->index_size - 1);
			L->index[h] = i;
		}
	}
	size_t h = chain_hash(frames, n) & (L->index_size - 1);
	for (; L->index[h] != NO_ID; h = (h + 1) & (L->index_size - 1)) {
		const pb_location *loc = L->list[L->index[h]];
		bool same = loc->n_line == n;
		for (size_t k = 0; same && k < n; k++)
			same = loc->line[k]->function_id == frames[k] + 1;
		if (same)
			return loc->id;
	}
	GROW(L->list, L->cap, L->n + 1);
	L->list[L->n] = new_location(frames, n, m->nframes + 1 + L->n, m);
	L->index[h] = (uint32_t)L->n;
	return L->list[L->n++]->id;
}

/* A pprof name: the "(inline)" mark is the file's structure, not a name. */
static const char *plain_name(const struct model *m, uint32_t frame, char *buf,
			      size_t cap)
{
	const char *name = model_str(m, m->frames[frame].name);
	size_t n = strlen(name);
	const char mark[] = " (inline)";
	if ((m->frames[frame].flags & FRAME_INLINED) && n >= sizeof(mark) - 1 &&
	    !strcmp(name + n - (sizeof(mark) - 1), mark) && n - (sizeof(mark) - 1) < cap) {
		memcpy(buf, name, n - (sizeof(mark) - 1));
		buf[n - (sizeof(mark) - 1)] = '\0';
		return buf;
	}
	return name;
}

struct pprof_out {
	struct strings_out strings;
	struct locations_out locations;
	pb_function *functions;
	pb_function **function_ptrs;
	pb_location **location_ptrs;
	pb_sample *samples;
	pb_sample **sample_ptrs;
	size_t nsamples;
	uint64_t *ids;   /* every sample's location ids, back to back */
	int64_t *values; /* every sample's values, back to back */
	pb_value_type *types;
	pb_value_type **type_ptrs;
	pb_value_type period_type;
	int64_t *comments;
	char *comment_text;
};

/* The file's unit for each model unit: time goes back to nanoseconds. */
static const char *file_unit(const struct model *m, unsigned type, double *mul)
{
	*mul = 1;
	if (unit_is_time(m, type)) {
		*mul = 1000;
		return "nanoseconds";
	}
	return model_str(m, m->types[type].unit);
}

static void pprof_types(struct pprof_out *p, const struct exporter *x, pb_profile *prof)
{
	const struct model *m = x->m;
	p->types = xmalloc(m->ntypes * sizeof(pb_value_type));
	p->type_ptrs = xmalloc(m->ntypes * sizeof(pb_value_type *));
	for (unsigned t = 0; t < m->ntypes; t++) {
		double mul;
		perftools__profiles__value_type__init(&p->types[t]);
		p->types[t].type = string_index(&p->strings, model_str(m, m->types[t].name));
		p->types[t].unit = string_index(&p->strings, file_unit(m, t, &mul));
		p->type_ptrs[t] = &p->types[t];
	}
	prof->n_sample_type = m->ntypes;
	prof->sample_type = p->type_ptrs;
	prof->default_sample_type = p->types[x->type].type;
	double mul;
	perftools__profiles__value_type__init(&p->period_type);
	p->period_type = p->types[x->type];
	prof->period_type = &p->period_type;
	file_unit(m, x->type, &mul);
	prof->period = llround(m->period * mul);
}

static void pprof_functions(struct pprof_out *p, const struct model *m, pb_profile *prof)
{
	p->functions = xmalloc((m->nframes + 1) * sizeof(pb_function));
	p->function_ptrs = xmalloc((m->nframes + 1) * sizeof(pb_function *));
	for (uint32_t f = 0; f < m->nframes; f++) {
		const struct frame *fr = &m->frames[f];
		pb_function *fn = &p->functions[f];
		char buf[4096];
		perftools__profiles__function__init(fn);
		fn->id = f + 1;
		fn->name = string_index(&p->strings, plain_name(m, f, buf, sizeof(buf)));
		fn->system_name = string_index(&p->strings, model_str(m, fr->extra));
		fn->filename = string_index(&p->strings, model_str(m, fr->url));
		fn->start_line = fr->line < 0 ? 0 : fr->line + (m->lines_zero_based ? 1 : 0);
		p->function_ptrs[f] = fn;
	}
	prof->n_function = m->nframes;
	prof->function = p->function_ptrs;
}

/* The location ids of one stack, leaf first. */
static size_t stack_locations(struct pprof_out *p, const struct exporter *x,
			      uint32_t item, uint64_t **ids, size_t *cap, size_t used)
{
	const struct model *m = x->m;
	size_t n = 0;
	uint32_t chain[64];
	if (!x->whole_stacks) {
		GROW(*ids, *cap, used + 1);
		(*ids)[used] = item + 1;
		return 1;
	}
	for (uint32_t v = item; v != NO_ID;) {
		size_t len = 0;
		/* Inlined frames join the location of the frame they are in. */
		for (;;) {
			chain[len++] = m->nodes[v].frame;
			uint32_t parent = m->nodes[v].parent;
			bool inlined = m->frames[m->nodes[v].frame].flags & FRAME_INLINED;
			v = parent;
			if (!inlined || parent == NO_ID || len == ARRAY_LEN(chain))
				break;
		}
		GROW(*ids, *cap, used + n + 1);
		(*ids)[used + n++] = chain_location(&p->locations, m, chain, len);
	}
	return n;
}

/* The samples with no stack, one of the positive values and one of the
 * negative, so that pprof's total (their absolute values) is kept; false
 * when there is none of that sign. */
static bool stackless_sample(struct pprof_out *p, const struct model *m, bool negative)
{
	const double *sums = negative ? m->stackless_negative : m->stackless_positive;
	bool any = false;
	for (unsigned t = 0; t < m->ntypes; t++) {
		double mul;
		file_unit(m, t, &mul);
		int64_t v = llround(sums[t] * mul);
		p->values[p->nsamples * m->ntypes + t] = v;
		any |= v != 0;
	}
	return any;
}

static void pprof_samples(struct pprof_out *p, const struct exporter *x, pb_profile *prof)
{
	const struct model *m = x->m;
	size_t items = item_count(x), ids_cap = 0, nids = 0;
	size_t *first_id = xmalloc((items + 3) * sizeof(size_t));
	size_t *id_count = xmalloc((items + 3) * sizeof(size_t));
	p->values = xmalloc((items + 3) * m->ntypes * sizeof(int64_t));
	p->nsamples = 0;
	for (int sign = 0; sign < 2; sign++)
		if (stackless_sample(p, m, sign)) {
			first_id[p->nsamples] = 0;
			id_count[p->nsamples++] = 0;
		}
	for (uint32_t i = 0; i < items; i++) {
		bool any = false;
		for (unsigned t = 0; t < m->ntypes; t++) {
			double mul;
			file_unit(m, t, &mul);
			int64_t v = llround(self_value(x, i, t) * mul);
			p->values[p->nsamples * m->ntypes + t] = v;
			any |= v != 0;
		}
		if (!any)
			continue;
		first_id[p->nsamples] = nids;
		id_count[p->nsamples] = stack_locations(p, x, i, &p->ids, &ids_cap, nids);
		nids += id_count[p->nsamples++];
	}
	p->samples = xmalloc((p->nsamples + 1) * sizeof(pb_sample));
	p->sample_ptrs = xmalloc((p->nsamples + 1) * sizeof(pb_sample *));
	for (size_t s = 0; s < p->nsamples; s++) {
		pb_sample *sm = &p->samples[s];
		perftools__profiles__sample__init(sm);
		sm->n_location_id = id_count[s];
		/* (no ids: p->ids may be NULL) */
		sm->location_id = id_count[s] ? p->ids + first_id[s] : NULL;
		sm->n_value = m->ntypes;
		sm->value = p->values + s * m->ntypes;
		p->sample_ptrs[s] = sm;
	}
	prof->n_sample = p->nsamples;
	prof->sample = p->sample_ptrs;
	free(first_id);
	free(id_count);
}

/* One single-line location per frame, then the inlined chains. */
static void pprof_locations(struct pprof_out *p, const struct model *m, pb_profile *prof)
{
	size_t n = m->nframes + p->locations.n;
	p->location_ptrs = xmalloc((n + 1) * sizeof(pb_location *));
	for (uint32_t f = 0; f < m->nframes; f++)
		p->location_ptrs[f] = new_location(&f, 1, f + 1, m);
	for (size_t i = 0; i < p->locations.n; i++)
		p->location_ptrs[m->nframes + i] = p->locations.list[i];
	prof->n_location = n;
	prof->location = p->location_ptrs;
}

static void pprof_comments(struct pprof_out *p, const struct model *m, pb_profile *prof)
{
	const char *comment = model_str(m, m->comment);
	if (!*comment)
		return;
	p->comment_text = xstrdup(comment);
	size_t lines = 1;
	for (const char *c = comment; *c; c++)
		lines += *c == '\n';
	p->comments = xmalloc(lines * sizeof(int64_t));
	char *save = NULL;
	size_t n = 0;
	for (char *line = strtok_r(p->comment_text, "\n", &save); line;
	     line = strtok_r(NULL, "\n", &save))
		p->comments[n++] = string_index(&p->strings, line);
	prof->n_comment = n;
	prof->comment = p->comments;
}

static void free_location(pb_location *loc)
{
	for (size_t k = 0; k < loc->n_line; k++)
		free(loc->line[k]);
	free(loc->line);
	free(loc);
}

static void pprof_out_free(struct pprof_out *p, size_t nlocations)
{
	for (size_t i = 0; i < nlocations; i++)
		free_location(p->location_ptrs[i]);
	free(p->location_ptrs);
	free(p->locations.list);
	free(p->locations.index);
	for (size_t i = 0; i < p->strings.n; i++)
		free(p->strings.table[i]);
	free(p->strings.table);
	free(p->strings.index);
	free(p->functions);
	free(p->function_ptrs);
	free(p->samples);
	free(p->sample_ptrs);
	free(p->ids);
	free(p->values);
	free(p->types);
	free(p->type_ptrs);
	free(p->comments);
	free(p->comment_text);
}

static bool write_gzip(FILE *out, const uint8_t *data, size_t len)
{
	z_stream z = { 0 };
	if (deflateInit2(&z, 6, Z_DEFLATED, 16 + MAX_WBITS, 8, Z_DEFAULT_STRATEGY) != Z_OK)
		return false;
	uint8_t buf[1 << 16];
	z.next_in = (Bytef *)data;
	int status;
	do {
		uInt chunk = len > (1u << 30) ? (1u << 30) : (uInt)len;
		z.avail_in = chunk;
		len -= chunk;
		do {
			z.next_out = buf;
			z.avail_out = sizeof(buf);
			status = deflate(&z, len ? Z_NO_FLUSH : Z_FINISH);
			fwrite(buf, 1, sizeof(buf) - z.avail_out, out);
		} while (z.avail_out == 0);
	} while (len);
	deflateEnd(&z);
	return status == Z_STREAM_END;
}

static bool write_pprof(struct exporter *x)
{
	const struct model *m = x->m;
	pb_profile prof = PERFTOOLS__PROFILES__PROFILE__INIT;
	struct pprof_out p = { 0 };
	string_index(&p.strings, "");
	pprof_types(&p, x, &prof);
	pprof_functions(&p, m, &prof);
	pprof_samples(&p, x, &prof);
	pprof_locations(&p, m, &prof);
	pprof_comments(&p, m, &prof);
	prof.time_nanos = llround(m->start_time * 1000);
	prof.duration_nanos = llround(m->duration * 1000);
	prof.n_string_table = p.strings.n;
	prof.string_table = p.strings.table;
	size_t len = perftools__profiles__profile__get_packed_size(&prof);
	uint8_t *bytes = xmalloc(len + 1);
	perftools__profiles__profile__pack(&prof, bytes);
	bool ok = write_gzip(x->out, bytes, len);
	free(bytes);
	pprof_out_free(&p, prof.n_location);
	return ok;
}

/* ---- entry ------------------------------------------------------------------------------ */

static double *frame_self_values(const struct model *m)
{
	double *self = xcalloc((size_t)m->nframes * m->ntypes + 1, sizeof(double));
	for (size_t v = 0; v < m->nnodes; v++)
		for (unsigned t = 0; t < m->ntypes; t++)
			self[(size_t)m->nodes[v].frame * m->ntypes + t] += node_value(m, (uint32_t)v, t);
	if (m->frame_self)
		for (size_t i = 0; i < (size_t)m->nframes * m->ntypes; i++)
			self[i] += m->frame_self[i];
	return self;
}

bool export_model(const struct model *m, unsigned type, enum export_format format,
		  const char *path, FILE *notes, char *err, size_t err_cap)
{
	FILE *out = fopen(path, "wb");
	if (!out) {
		snprintf(err, err_cap, "%s", strerror(errno));
		return false;
	}
	struct exporter x = {
		.m = m, .type = type, .out = out, .notes = notes,
		.format = format == EXPORT_PPROF ? "pprof"
			: format == EXPORT_CPUPROFILE ? ".cpuprofile"
			: format == EXPORT_TRACE ? "trace events" : "folded stacks",
		.whole_stacks = (m->caps & HAS_STACKS) && !m->frame_self,
	};
	if (!x.whole_stacks)
		x.frame_self = frame_self_values(m);
	note_common_losses(&x);
	bool ok = true;
	switch (format) {
	case EXPORT_PPROF:
		ok = write_pprof(&x);
		break;
	case EXPORT_CPUPROFILE:
	case EXPORT_TRACE:
		write_cpuprofile(&x, format == EXPORT_TRACE);
		break;
	default:
		write_folded(&x);
		break;
	}
	free(x.frame_self);
	ok = !ferror(out) && ok;
	if (fclose(out) != 0 || !ok) {
		snprintf(err, err_cap, "cannot write: %s", errno ? strerror(errno) : "zlib failed");
		return false;
	}
	return true;
}
