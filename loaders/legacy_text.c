/* What the legacy pprof loaders share (see legacy_text.h). */
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/units.h"
#include "base/util.h"
#include "legacy_drop.h"
#include "legacy_text.h"

static bool blank(char c)
{
	return c == ' ' || c == '\t' || c == '\r' || c == '\n' || c == '\v' ||
	       c == '\f';
}

bool next_line(struct text_reader *r, const char **line, size_t *len)
{
	if (r->pos >= r->len)
		return false;
	const char *start = r->data + r->pos;
	const char *nl = memchr(start, '\n', r->len - r->pos);
	size_t n = nl ? (size_t)(nl - start) : r->len - r->pos;
	r->line_at = r->pos;
	r->pos += n + (nl != NULL);
	while (n && blank(*start)) {
		start++;
		n--;
		r->line_at++;
	}
	while (n && blank(start[n - 1]))
		n--;
	*line = start;
	*len = n;
	return true;
}

bool legacy_fail(struct legacy_profile *p, size_t at, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	load_vfail_at(p->err, p->format, at, fmt, ap);
	va_end(ap);
	return false;
}

bool legacy_init(struct legacy_profile *p, struct model *m,
		 const struct load_options *opt, struct load_error *err)
{
	*p = (struct legacy_profile){ .m = m, .err = err };
	return address_frames_init(&p->af, m, opt, err);
}

void legacy_free(struct legacy_profile *p)
{
	address_frames_free(&p->af);
	free(p->addrs);
	free(p->samples);
	free(p->java);
}

struct legacy_sample *legacy_sample(struct legacy_profile *p)
{
	GROW(p->samples, p->samples_cap, p->nsamples + 1);
	struct legacy_sample *s = &p->samples[p->nsamples++];
	*s = (struct legacy_sample){ .first = p->naddrs };
	return s;
}

void legacy_address(struct legacy_profile *p, uint64_t addr)
{
	GROW(p->addrs, p->addrs_cap, p->naddrs + 1);
	p->addrs[p->naddrs++] = addr;
	p->samples[p->nsamples - 1].depth++;
}

static bool is_trigger(const char *line, size_t len)
{
	static const char *const triggers[] = { "--- Memory map: ---",
						"MAPPED_LIBRARIES:" };
	for (size_t i = 0; i < ARRAY_LEN(triggers); i++)
		if (memmem(line, len, triggers[i], strlen(triggers[i])))
			return true;
	return false;
}

/* As pprof: lines that are not mappings are skipped, whatever they are. */
void legacy_read_maps(struct legacy_profile *p, struct text_reader *r)
{
	const char *line;
	size_t len;
	while (next_line(r, &line, &len))
		if (len && !is_trigger(line, len))
			address_frames_add_maps_line(&p->af, line, len);
}

/* ---- Java locations ------------------------------------------------------ */

static const char *last_blank_paren(const char *s, const char *end)
{
	for (const char *q = end; q > s; q--)
		if (q[-1] == '(' && q - 1 > s && blank(q[-2]))
			return q - 1;
	return NULL;
}

/* pprof's javaLocation rules: "f (file:line)", "f (path)" (a shared
 * library: its base name), "... generated stub/JIT ..." or a name. */
static uint32_t java_frame(struct legacy_profile *p, const char *text,
			   size_t len)
{
	const char *end = text + len, *name_end = end;
	const char *file = "", *file_end = file;
	const char *paren = len && end[-1] == ')' ? last_blank_paren(text, end - 1) : NULL;
	if (paren) {
		name_end = paren;
		while (name_end > text && blank(name_end[-1]))
			name_end--;
		file = paren + 1;
		file_end = end - 1;
		const char *colon = memrchr(file, ':', (size_t)(file_end - file));
		const char *digits = colon ? colon + 1 : file_end;
		if (digits < file_end && *digits == '-')
			digits++;
		while (digits < file_end && *digits >= '0' && *digits <= '9')
			digits++;
		if (colon && colon > file && digits == file_end && digits > colon + 1) {
			file_end = colon;
		} else {
			const char *slash = memrchr(file, '/', (size_t)(file_end - file));
			if (slash)
				file = slash + 1;
		}
	} else if (memmem(text, len, "generated stub/JIT", 18)) {
		text = "STUB";
		name_end = text + 4;
	}
	struct frame f = {
		.name = model_string(p->m, text, (size_t)(name_end - text)),
		.url = model_string(p->m, file, (size_t)(file_end - file)),
		.extra = STR_NONE, .line = -1, .column = -1, .kind = KIND_NATIVE,
	};
	return model_intern_frame(p->m, &f);
}

void legacy_read_java_locations(struct legacy_profile *p,
				struct text_reader *r)
{
	const char *line;
	size_t len;
	while (next_line(r, &line, &len)) {
		if (len < 3 || line[0] != '0' || line[1] != 'x')
			continue;
		uint64_t addr = 0;
		size_t i = 2;
		for (; i < len && !blank(line[i]); i++) {
			char c = line[i];
			int d = c >= '0' && c <= '9' ? c - '0'
				: c >= 'a' && c <= 'f' ? c - 'a' + 10
				: c >= 'A' && c <= 'F' ? c - 'A' + 10 : -1;
			if (d < 0 || addr >> 60)
				break;
			addr = addr << 4 | (uint64_t)d;
		}
		if (i == 2 || i == len || !blank(line[i]))
			continue;
		while (i < len && blank(line[i]))
			i++;
		GROW(p->java, p->java_cap, p->njava + 1);
		p->java[p->njava++] = (struct java_location){
			addr, java_frame(p, line + i, len - i) };
	}
}

static int by_java_addr(const void *a, const void *b)
{
	const struct java_location *x = a, *y = b;
	return x->addr < y->addr ? -1 : x->addr > y->addr;
}

static uint32_t java_frame_at(const struct legacy_profile *p, uint64_t addr)
{
	size_t lo = 0, hi = p->njava;
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		if (p->java[mid].addr == addr)
			return p->java[mid].frame;
		if (p->java[mid].addr < addr)
			lo = mid + 1;
		else
			hi = mid;
	}
	return NO_ID;
}

static uint32_t frame_of(struct legacy_profile *p, uint64_t addr)
{
	uint32_t f = java_frame_at(p, addr);
	return f != NO_ID ? f : address_frame(&p->af, addr);
}

/* ---- pprof's drop_frames ------------------------------------------------------ */

enum { DROP_UNKNOWN, DROP_NOT, DROP_YES };

/* Is the frame of addr dropped?  Decided once a frame (its function, or
 * its address by --granularity addresses), in `decided`. */
static bool dropped(struct legacy_profile *p, const struct legacy_drop *d,
		    uint8_t **decided, size_t *cap, uint32_t frame, uint64_t addr)
{
	if (frame >= *cap) {
		size_t old = *cap;
		GROW(*decided, *cap, (size_t)frame + 1);
		memset(*decided + old, DROP_UNKNOWN, *cap - old);
	}
	if ((*decided)[frame] == DROP_UNKNOWN) {
		char buf[1024];
		const char *function = java_frame_at(p, addr) != NO_ID
			? model_str(p->m, p->m->frames[frame].name)
			: address_function(&p->af, addr, buf, sizeof(buf));
		(*decided)[frame] = function && legacy_drops(d, function) ? DROP_YES : DROP_NOT;
	}
	return (*decided)[frame] == DROP_YES;
}

/* pprof's Prune: from the root, the first dropped frame after one that
 * is kept goes with every frame beneath it (a stack of dropped frames
 * only stays whole).  Where the stack (leaf first) starts. */
static uint32_t pruned_start(const uint8_t *drop, uint32_t depth)
{
	bool kept = false;
	for (uint32_t k = depth; k-- > 0;) {
		if (!drop[k])
			kept = true;
		else if (kept)
			return k + 1;
	}
	return 0;
}

/* ---- the model ------------------------------------------------------------- */

void legacy_build(struct legacy_profile *p, const char *const *names,
		  const char *const *units, unsigned ntypes, double period)
{
	struct model *m = p->m;
	struct unit_scale scale[LEGACY_MAX_TYPES];
	for (unsigned t = 0; t < ntypes; t++) {
		scale[t] = unit_scale_of(units[t]);
		model_add_sample_type(m, names[t], scale[t].unit ? scale[t].unit : units[t]);
	}
	m->default_type = ntypes - 1;
	m->period = unit_scale_apply(&scale[ntypes - 1], period);
	/* pprof's main binary: the one given, else the first mapping. */
	const char *main_binary = p->af.exe.path ? p->af.exe.path
		: p->af.nmaps ? p->af.maps[0].file : NULL;
	if (main_binary)
		m->main_binary = model_string(m, main_binary, strlen(main_binary));
	if (p->njava > 1)
		qsort(p->java, p->njava, sizeof(*p->java), by_java_addr);
	/* pprof's total counts every sample, a stackless one too (it has no
	 * row), by absolute value. */
	for (size_t i = 0; i < p->nsamples; i++)
		for (unsigned t = 0; t < ntypes; t++)
			m->type_total[t] += fabs(unit_scale_apply(&scale[t], p->samples[i].values[t]));
	m->has_type_totals = true;
	m->summed_samples = p->nsamples;
	struct legacy_drop d;
	legacy_drop_init(&d, names, ntypes);
	uint32_t *frames = NULL;
	uint8_t *drop = NULL, *decided = NULL;
	size_t frames_cap = 0, drop_cap = 0, decided_cap = 0;
	for (size_t i = 0; i < p->nsamples; i++) {
		const struct legacy_sample *s = &p->samples[i];
		if (!s->depth)
			continue; /* no row in pprof either */
		GROW(frames, frames_cap, s->depth);
		GROW(drop, drop_cap, s->depth);
		for (uint32_t k = 0; k < s->depth; k++) {
			uint64_t addr = p->addrs[s->first + k];
			frames[k] = frame_of(p, addr);
			drop[k] = dropped(p, &d, &decided, &decided_cap, frames[k], addr);
		}
		uint32_t start = pruned_start(drop, s->depth);
		uint32_t leaf = model_add_stack(m, frames + start, s->depth - start);
		for (unsigned t = 0; t < ntypes; t++)
			model_add_node_value(m, leaf, t,
					     unit_scale_apply(&scale[t], s->values[t]));
	}
	free(frames);
	free(drop);
	free(decided);
	legacy_drop_free(&d);
	uint32_t unused;
	model_finish(m, &unused); /* a tree made of stacks: cannot fail */
}
