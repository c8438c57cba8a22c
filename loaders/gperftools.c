/* The gperftools CPU profile (CPUPROFILE=file with libprofiler), the
 * binary "legacy" form `go tool pprof` reads, read as pprof's
 * profile/legacy_profile.go reads it.
 *
 * Words of 32 or 64 bits in either byte order (whichever makes the
 * header read right):
 *   header   0, 3, 0 (1: a Java profile), sampling period in µs, 0
 *   records  count, depth, pc[depth] (leaf first)
 *   trailer  0, 1, 0
 * then text: /proc/self/maps of the profiled process (C++), or the
 * `0xADDR function (file:line)` names of a Java profile.
 *
 * As pprof: return addresses but the leaf are taken one back (C++); a
 * frame that nearly every sample has second (the signal handler's) is
 * dropped, twice at most; a leaf repeated one byte higher is dropped.
 * Sample types: samples (count) and cpu (count × period, µs). */
#include <stdlib.h>
#include <string.h>

#include "base/util.h"
#include "legacy_text.h"

#define FORMAT "gperftools CPU profile"

struct words {
	const uint8_t *data;
	size_t len, pos;
	unsigned size; /* 4 or 8 */
	bool big_endian;
};

static uint64_t word(struct words *w)
{
	uint64_t v = 0;
	for (unsigned i = 0; i < w->size; i++) {
		unsigned k = w->big_endian ? i : w->size - 1 - i;
		v = v << 8 | w->data[w->pos + k];
	}
	w->pos += w->size;
	return v;
}

/* Which word layout makes the five header words 0 3 0|1 period 0; the
 * period, or 0 when none does. */
static uint64_t header(struct words *w, const uint8_t *data, size_t len,
		       bool *java)
{
	static const struct { unsigned size; bool big; } layouts[] = {
		{ 4, false }, { 4, true }, { 8, false }, { 8, true },
	};
	for (size_t i = 0; i < ARRAY_LEN(layouts); i++) {
		*w = (struct words){ data, len, 0, layouts[i].size, layouts[i].big };
		if (len < 5 * w->size)
			continue;
		uint64_t h[5];
		for (int k = 0; k < 5; k++)
			h[k] = word(w);
		if (h[0] == 0 && h[1] == 3 && h[2] <= 1 && h[3] > 0 && h[4] == 0) {
			*java = h[2] == 1;
			return h[3];
		}
	}
	return 0;
}

bool sniff_gperftools(const uint8_t *head, size_t len)
{
	struct words w;
	bool java;
	return header(&w, head, len, &java) != 0;
}

/* Reads records up to the trailer (or the end); false on a record that
 * runs past the end. */
static bool read_records(struct legacy_profile *p, struct words *w,
			 size_t base, uint64_t period, bool adjust)
{
	while (w->pos < w->len) {
		size_t at = w->pos;
		if (w->len - w->pos < 2 * (size_t)w->size)
			return legacy_fail(p, base + at, "record cut short (%zu bytes left)",
					   w->len - w->pos);
		uint64_t count = word(w), depth = word(w);
		if (depth > (w->len - w->pos) / w->size)
			return legacy_fail(p, base + at, "a stack of %llu addresses runs past the end of the file",
					   (unsigned long long)depth);
		if (count == 0 && depth == 1) {
			if (word(w) == 0)
				return true; /* the trailer: 0 1 0 */
			w->pos -= w->size;
		}
		struct legacy_sample *s = legacy_sample(p);
		s->values[0] = (double)count;
		s->values[1] = (double)count * (double)period;
		for (uint64_t k = 0; k < depth; k++) {
			uint64_t pc = word(w);
			legacy_address(p, adjust && k ? pc - 1 : pc);
		}
	}
	return true;
}

static void remove_second(struct legacy_profile *p, struct legacy_sample *s)
{
	uint64_t *a = p->addrs + s->first;
	memmove(a + 1, a + 2, (s->depth - 2) * sizeof(*a));
	s->depth--;
}

static int by_value(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
	return x < y ? -1 : x > y;
}

/* The second frame nearly every sample has (all but one in 32): the
 * signal handler's own frame, which pprof strips. */
static bool common_second(const struct legacy_profile *p, uint64_t *addr)
{
	size_t n = 0, margin = p->nsamples / 32;
	uint64_t *seconds = xmalloc((p->nsamples ? p->nsamples : 1) * sizeof(*seconds));
	for (size_t i = 0; i < p->nsamples; i++)
		if (p->samples[i].depth > 1)
			seconds[n++] = p->addrs[p->samples[i].first + 1];
	qsort(seconds, n, sizeof(*seconds), by_value);
	bool found = false;
	for (size_t i = 0, j; i < n && !found; i = j) {
		for (j = i; j < n && seconds[j] == seconds[i]; j++)
			;
		if (j - i + margin >= p->nsamples) {
			*addr = seconds[i];
			found = true;
		}
	}
	free(seconds);
	return found;
}

static void strip_handler_frames(struct legacy_profile *p)
{
	for (int iteration = 0; iteration < 2; iteration++) {
		uint64_t addr;
		if (!common_second(p, &addr))
			continue;
		for (size_t i = 0; i < p->nsamples; i++) {
			struct legacy_sample *s = &p->samples[i];
			if (s->depth > 1 && p->addrs[s->first + 1] == addr)
				remove_second(p, s);
		}
	}
	for (size_t i = 0; i < p->nsamples; i++) {
		struct legacy_sample *s = &p->samples[i];
		const uint64_t *a = p->addrs + s->first;
		if (s->depth > 1 && a[0] == a[1] + 1)
			remove_second(p, s);
	}
}

bool gperftools_read(struct legacy_profile *p, const uint8_t *data, size_t len,
		     size_t base)
{
	struct words w;
	bool java;
	p->format = FORMAT;
	uint64_t period = header(&w, data, len, &java);
	if (!period)
		return legacy_fail(p, base, "no header (words 0, 3, 0, period, 0)");
	if (!read_records(p, &w, base, period, !java))
		return false;
	struct text_reader r = { (const char *)data + w.pos, len - w.pos, 0, 0 };
	if (java) {
		legacy_read_java_locations(p, &r);
	} else {
		strip_handler_frames(p);
		legacy_read_maps(p, &r);
	}
	static const char *const names[] = { "samples", "cpu" };
	static const char *const units[] = { "count", "microseconds" };
	legacy_build(p, names, units, 2, (double)period);
	double cpu = 0;
	for (size_t i = 0; i < p->nsamples; i++)
		cpu += p->samples[i].values[1];
	p->m->duration = cpu;
	return true;
}

bool load_gperftools(struct input *in, struct model *m,
		     const struct load_options *opt, struct load_error *err)
{
	uint8_t *data = NULL;
	size_t len = 0;
	if (!input_slurp(in, &data, &len, LEGACY_FILE_LIMIT))
		return load_fail(err, FORMAT ": cannot read the file whole (%s)",
				 in->read_errno ? strerror(in->read_errno) : "over 2 GiB");
	model_init(m, "gperftools");
	struct legacy_profile p;
	bool ok = legacy_init(&p, m, opt, err) &&
		  gperftools_read(&p, data, len, 0);
	legacy_free(&p);
	free(data);
	if (!ok)
		model_free(m);
	return ok;
}
