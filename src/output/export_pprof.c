/* Gzipped pprof (profile.proto), every sample type in one file
 * (export_writers.h). */
#include "export_writers.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <zlib.h>

#include "base/id_table.h"
#include "base/util.h"
#include "profile.pb-c.h"
#include "transform/symbolize.h"

typedef Perftools__Profiles__Profile pb_profile;
typedef Perftools__Profiles__ValueType pb_value_type;
typedef Perftools__Profiles__Sample pb_sample;
typedef Perftools__Profiles__Location pb_location;
typedef Perftools__Profiles__Line pb_line;
typedef Perftools__Profiles__Function pb_function;
typedef Perftools__Profiles__Mapping pb_mapping;

/* Every location is in the one mapping, the main binary's. */
#define MAIN_MAPPING 1

/* The string table being built: each distinct string once, "" first. */
struct strings_out {
	char **table;
	size_t n, cap;
	struct id_table index; /* over table positions */
};

static int64_t string_index(struct strings_out *s, const char *text)
{
	struct id_probe p = id_table_probe(&s->index, hash_bytes(text, strlen(text), 0));
	for (uint32_t i; (i = id_probe_next(&s->index, &p)) != NO_ID;)
		if (!strcmp(s->table[i], text))
			return i;
	GROW(s->table, s->cap, s->n + 1);
	s->table[s->n] = xstrdup(text);
	id_table_add(&s->index, &p, (uint32_t)s->n);
	return (int64_t)s->n++;
}

/* A location per chain of inlined frames and the frame they are inlined
 * into; most chains are one frame, whose location id is frame + 1. */
struct locations_out {
	pb_location **list;
	size_t n, cap;
	struct id_table index; /* over list positions */
};

static pb_location *new_location(const uint32_t *frames, size_t n, uint64_t id,
				 const struct model *m)
{
	pb_location *loc = xmalloc(sizeof(*loc));
	perftools__profiles__location__init(loc);
	loc->id = id;
	loc->mapping_id = MAIN_MAPPING;
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

static bool same_chain(const pb_location *loc, const uint32_t *frames, size_t n)
{
	if (loc->n_line != n)
		return false;
	for (size_t k = 0; k < n; k++)
		if (loc->line[k]->function_id != frames[k] + 1)
			return false;
	return true;
}

static uint64_t chain_location(struct locations_out *L, const struct model *m,
			       const uint32_t *frames, size_t n)
{
	if (n == 1)
		return frames[0] + 1;
	uint64_t hash = hash_bytes(frames, n * sizeof(uint32_t), 0x70726f66);
	struct id_probe p = id_table_probe(&L->index, hash);
	for (uint32_t i; (i = id_probe_next(&L->index, &p)) != NO_ID;)
		if (same_chain(L->list[i], frames, n))
			return L->list[i]->id;
	GROW(L->list, L->cap, L->n + 1);
	L->list[L->n] = new_location(frames, n, m->nframes + 1 + L->n, m);
	id_table_add(&L->index, &p, (uint32_t)L->n);
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

/* The name a symbolized frame had in the profile (source maps, wasm
 * symbols), as pprof keeps a linker's name beside the demangled one;
 * else the frame's own system name. */
static const char *system_name(const struct model *m, uint32_t f)
{
	const struct frame_origin *o = symbol_origin(m, f);
	const struct model *of = m->range.of ? m->range.of : m;
	if (o && o->url != STR_NONE && o->name != STR_NONE)
		return model_str(of, o->name);
	return model_str(m, m->frames[f].extra);
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
		fn->system_name = string_index(&p->strings, system_name(m, f));
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

/* pprof takes the first mapping for the main binary ("File:" in its
 * header) and symbolizes a mapping's locations from its file unless it
 * says they have functions: they have, all that wprof-tui knows. */
static void pprof_mapping(struct pprof_out *p, const struct model *m, pb_mapping *map,
			  pb_mapping **list, pb_profile *prof)
{
	perftools__profiles__mapping__init(map);
	map->id = MAIN_MAPPING;
	map->filename = string_index(&p->strings, model_str(m, m->main_binary));
	map->has_functions = map->has_filenames = map->has_line_numbers =
		map->has_inline_frames = true;
	list[0] = map;
	prof->n_mapping = 1;
	prof->mapping = list;
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
	id_table_free(&p->locations.index);
	for (size_t i = 0; i < p->strings.n; i++)
		free(p->strings.table[i]);
	free(p->strings.table);
	id_table_free(&p->strings.index);
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

bool write_pprof(struct exporter *x)
{
	const struct model *m = x->m;
	pb_profile prof = PERFTOOLS__PROFILES__PROFILE__INIT;
	struct pprof_out p = { 0 };
	id_table_init(&p.strings.index, 0);
	id_table_init(&p.locations.index, 0);
	string_index(&p.strings, "");
	pprof_types(&p, x, &prof);
	pprof_functions(&p, m, &prof);
	pprof_samples(&p, x, &prof);
	pprof_locations(&p, m, &prof);
	pprof_comments(&p, m, &prof);
	pb_mapping main_mapping, *mappings[1];
	pprof_mapping(&p, m, &main_mapping, mappings, &prof);
	prof.time_nanos = llround(m->wall_start * 1000);
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

