/* The legacy text profiles `go tool pprof` reads, read as pprof's
 * profile/legacy_profile.go and legacy_java_profile.go read them:
 *
 *   heap profile: 4: 256 [10: 640] @ heap/1048576     Go and gperftools heap
 *   1: 64 [2: 128] @ 0x401a2b 0x4019f0               (also heap_v2/N,
 *                                                      heapprofile, growthz,
 *                                                      fragmentationz)
 *   --- contention ---  (--- contentionz 1 ---,        lock contention
 *   cycles/second = 2000000000   --- mutex:)           (Go, gperftools)
 *   sampling period = 100
 *   1000 3 @ 0x4a0b1c 0x4a0a00
 *   --- threadz 1 ---                                  C++ threadz
 *   --- Thread 7f79 (name: main/14748) stack: ---
 *     PC: 0x00bc8f1c: helper                            (each 0x... a frame)
 *   threadcreate profile: total 5                      Go count profiles
 *   5 @ 0x43a1b0 0x401000
 *   --- heapz 1 --- / --- contentionz 1 ---            Java (a contentionz
 *   format = java                                      profile with a format
 *   resolution = microseconds                          or resolution)
 *
 * Stacks are leaf-first return addresses, each taken one back onto its
 * call (Java's are not addresses, and stay).  After the samples may come a memory map
 * (`--- Memory map: ---` or `MAPPED_LIBRARIES:`, then /proc/self/maps
 * lines).  Addresses get names from --exe or from a `--- symbol` section
 * before the profile (pprof's --raw form: `0xADDR name` lines, `---`,
 * then a `--- KIND` line); otherwise they are named by their hex value.
 * Values are unsampled as pprof does (heap: 1/(1-exp(-size/rate)) per
 * sample; contention: times the sampling period, cycles to ns). */
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/util.h"
#include "legacy_text.h"

struct cursor {
	const char *p, *end;
};

static void skip_blanks(struct cursor *c)
{
	while (c->p < c->end && (*c->p == ' ' || *c->p == '\t'))
		c->p++;
}

static bool literal(struct cursor *c, const char *s)
{
	size_t n = strlen(s);
	if ((size_t)(c->end - c->p) < n || memcmp(c->p, s, n))
		return false;
	c->p += n;
	return true;
}

/* A decimal integer (a '-' first if `sign`); false on none or overflow. */
static bool integer(struct cursor *c, bool sign, int64_t *out)
{
	bool negative = sign && c->p < c->end && *c->p == '-';
	const char *start = c->p + negative;
	const char *q = start;
	int64_t v = 0;
	for (; q < c->end && *q >= '0' && *q <= '9'; q++) {
		if (v > (INT64_MAX - (*q - '0')) / 10)
			return false;
		v = v * 10 + (*q - '0');
	}
	if (q == start)
		return false;
	c->p = q;
	*out = negative ? -v : v;
	return true;
}

/* pprof's hexNumberRE over the rest: " 0x1 0x2 ..." until something else.
 * Go's pprof (1.19's, which `go tool pprof` is) takes every address of
 * these text forms one back, the leaf too: they are all return addresses
 * from runtime.Callers. */
static void addresses(struct legacy_profile *p, struct cursor *c, bool adjust)
{
	for (;;) {
		skip_blanks(c);
		if (!literal(c, "0x"))
			return;
		uint64_t v = 0;
		const char *start = c->p;
		for (; c->p < c->end; c->p++) {
			char ch = *c->p;
			int d = ch >= '0' && ch <= '9' ? ch - '0'
				: ch >= 'a' && ch <= 'f' ? ch - 'a' + 10 : -1;
			if (d < 0)
				break;
			v = v << 4 | (uint64_t)d;
		}
		if (c->p == start)
			return;
		legacy_address(p, adjust ? v - 1 : v);
	}
}

static bool starts(const char *line, size_t len, const char *prefix)
{
	size_t n = strlen(prefix);
	return len >= n && !memcmp(line, prefix, n);
}

static bool is_map_trigger(const char *line, size_t len)
{
	return memmem(line, len, "--- Memory map: ---", 19) ||
	       memmem(line, len, "MAPPED_LIBRARIES:", 17);
}

/* pprof's parseAdditionalSections: anything up to a memory map is
 * skipped; the map names the addresses. */
static void trailing_sections(struct legacy_profile *p, struct text_reader *r,
			      const char *line, size_t len, bool have_line)
{
	while (have_line && !is_map_trigger(line, len))
		have_line = next_line(r, &line, &len);
	if (have_line)
		legacy_read_maps(p, r);
}

static bool meaningful(const char *line, size_t len)
{
	return len && line[0] != '#';
}

/* ---- heap profiles ------------------------------------------------------------ */

struct heap_header {
	bool has_alloc, unsample;
	int64_t rate;
};

/* "heap profile: N: N [N: N] @ heap/RATE" and its kin; pprof's
 * heapHeaderRE, growthHeaderRE and fragmentationHeaderRE. */
static bool heap_header(struct legacy_profile *p, const char *line, size_t len,
			size_t at, struct heap_header *h)
{
	struct cursor c = { line, line + len };
	int64_t n[4];
	const char *text[4];
	size_t tlen[4];
	bool ok = literal(&c, "heap profile:");
	for (int i = 0; ok && i < 4; i++) {
		skip_blanks(&c);
		if (i == 2) {
			ok = literal(&c, "[");
			skip_blanks(&c);
		}
		text[i] = c.p;
		ok = ok && integer(&c, false, &n[i]);
		tlen[i] = (size_t)(c.p - text[i]);
		skip_blanks(&c);
		if (ok && i % 2 == 0)
			ok = literal(&c, ":");
	}
	skip_blanks(&c);
	if (!ok || !literal(&c, "]"))
		return legacy_fail(p, at, "expected 'heap profile: N: N [N: N] @ KIND'");
	skip_blanks(&c);
	if (!literal(&c, "@"))
		return legacy_fail(p, at, "expected '@ KIND' after the totals");
	skip_blanks(&c);
	const char *kind = c.p;
	while (c.p < c.end && (*c.p == '_' || (*c.p >= 'a' && *c.p <= 'z') ||
			       (*c.p >= '0' && *c.p <= '9')))
		c.p++;
	size_t klen = (size_t)(c.p - kind);
	*h = (struct heap_header){ 0 };
	if (klen == 7 && (!memcmp(kind, "growthz", 7)))
		return true;
	if (klen == 14 && !memcmp(kind, "fragmentationz", 14))
		return true;
	literal(&c, "/");
	int64_t period = 0;
	if (c.p < c.end && *c.p >= '0' && *c.p <= '9' && !integer(&c, false, &period))
		return legacy_fail(p, at, "sampling period out of range");
	h->has_alloc = (tlen[2] != tlen[0] || memcmp(text[2], text[0], tlen[0])) &&
		       (tlen[2] != 1 || text[2][0] != '0');
	h->has_alloc |= (tlen[3] != tlen[1] || memcmp(text[3], text[1], tlen[1])) &&
			(tlen[3] != 1 || text[3][0] != '0');
#define KIND_IS(s) (klen == strlen(s) && !memcmp(kind, s, klen))
	if (KIND_IS("heapz_v2") || KIND_IS("heap_v2"))
		h->unsample = true, h->rate = period;
	else if (KIND_IS("heap"))
		h->unsample = true, h->rate = period / 2;
	else if (!KIND_IS("heapprofile"))
		return legacy_fail(p, at, "unknown heap profile kind '%.*s'",
				   (int)klen, kind);
#undef KIND_IS
	return true;
}

/* pprof's scaleHeapSample: a sample of average size S was taken with
 * probability 1 - exp(-S/rate). */
static void unsample(int64_t *count, int64_t *size, int64_t rate)
{
	if (*count == 0 || *size == 0) {
		*count = *size = 0;
		return;
	}
	if (rate <= 1)
		return;
	double scale = 1 / (1 - exp(-((double)*size / (double)*count) / (double)rate));
	*count = (int64_t)((double)*count * scale);
	*size = (int64_t)((double)*size * scale);
}

static bool heap_values(struct legacy_profile *p, size_t at,
			const struct heap_header *h, int64_t count, int64_t size,
			double *out, const char *label)
{
	if (count == 0 && size != 0)
		return legacy_fail(p, at, "%s count is 0 but %s bytes is %lld",
				   label, label, (long long)size);
	if (count != 0 && h->unsample)
		unsample(&count, &size, h->rate);
	out[0] = (double)count;
	out[1] = (double)size;
	return true;
}

/* "inuse_count: inuse_bytes [alloc_count: alloc_bytes] @ addresses" */
static bool heap_sample(struct legacy_profile *p, const char *line, size_t len,
			size_t at, const struct heap_header *h)
{
	struct cursor c = { line, line + len };
	int64_t n[4];
	bool ok = integer(&c, true, &n[0]) && (skip_blanks(&c), literal(&c, ":")) &&
		  (skip_blanks(&c), integer(&c, true, &n[1])) &&
		  (skip_blanks(&c), literal(&c, "[")) &&
		  (skip_blanks(&c), integer(&c, false, &n[2])) &&
		  (skip_blanks(&c), literal(&c, ":")) &&
		  (skip_blanks(&c), integer(&c, false, &n[3])) &&
		  (skip_blanks(&c), literal(&c, "]")) &&
		  (skip_blanks(&c), literal(&c, "@"));
	if (!ok)
		return legacy_fail(p, at, "expected 'N: N [N: N] @ 0x...' (a heap sample)");
	struct legacy_sample *s = legacy_sample(p);
	double *v = s->values;
	if (h->has_alloc && !heap_values(p, at, h, n[2], n[3], v, "allocation"))
		return false;
	if (!heap_values(p, at, h, n[0], n[1], v + (h->has_alloc ? 2 : 0), "inuse"))
		return false;
	addresses(p, &c, true);
	return true;
}

static bool read_heap(struct legacy_profile *p, struct text_reader *r,
		      const char *line, size_t len)
{
	struct heap_header h;
	if (!heap_header(p, line, len, r->line_at, &h))
		return false;
	bool have_line;
	while ((have_line = next_line(r, &line, &len))) {
		if (!meaningful(line, len))
			continue;
		if (is_map_trigger(line, len))
			break;
		if (!heap_sample(p, line, len, r->line_at, &h))
			return false;
	}
	trailing_sections(p, r, line, len, have_line);
	static const char *const alloc_names[] = { "alloc_objects", "alloc_space",
						   "inuse_objects", "inuse_space" };
	static const char *const alloc_units[] = { "count", "bytes", "count", "bytes" };
	static const char *const names[] = { "objects", "space" };
	legacy_build(p, h.has_alloc ? alloc_names : names, alloc_units,
		     h.has_alloc ? 4 : 2, h.unsample && h.rate > 1 ? (double)h.rate : 1);
	return true;
}

/* ---- contention ------------------------------------------------------------------ */

struct contention {
	int64_t period, cpu_hz, ms_since_reset;
};

/* "key = value" lines before the samples; false (with err set) on a
 * key pprof does not know, true with *done at the first sample line. */
static bool contention_attribute(struct legacy_profile *p, const char *line,
				 size_t len, size_t at, struct contention *k,
				 bool *done)
{
	const char *eq = memchr(line, '=', len);
	*done = !eq || starts(line, len, "---");
	if (*done)
		return true;
	size_t klen = (size_t)(eq - line);
	while (klen && (line[klen - 1] == ' ' || line[klen - 1] == '\t'))
		klen--;
	char value[64] = "";
	size_t vlen = len - (size_t)(eq + 1 - line);
	if (vlen < sizeof(value))
		memcpy(value, eq + 1, vlen), value[vlen] = '\0';
	char *end;
	long long v = strtoll(value, &end, 0);
	bool number = end != value && !*(end + strspn(end, " \t"));
#define KEY_IS(s) (klen == strlen(s) && !memcmp(line, s, klen))
	if (KEY_IS("discarded samples"))
		return true;
	if (!KEY_IS("cycles/second") && !KEY_IS("sampling period") &&
	    !KEY_IS("ms since reset"))
		return legacy_fail(p, at, "unknown attribute '%.*s'", (int)klen, line);
	if (!number)
		return legacy_fail(p, at, "'%.*s' is not a number", (int)klen, line);
	if (KEY_IS("cycles/second"))
		k->cpu_hz = v;
	else if (KEY_IS("sampling period"))
		k->period = v;
	else
		k->ms_since_reset = v;
#undef KEY_IS
	return true;
}

/* "delay_cycles count @ addresses" */
static bool contention_sample(struct legacy_profile *p, const char *line,
			      size_t len, size_t at, const struct contention *k)
{
	struct cursor c = { line, line + len };
	int64_t delay, count;
	if (!integer(&c, false, &delay) || (skip_blanks(&c), !integer(&c, false, &count)) ||
	    (skip_blanks(&c), !literal(&c, "@")))
		return legacy_fail(p, at, "expected 'N N @ 0x...' (a contention sample)");
	if (k->period > 0) {
		if (k->cpu_hz > 0)
			delay = (int64_t)((double)delay * (double)k->period /
					  ((double)k->cpu_hz / 1e9));
		count *= k->period;
	}
	struct legacy_sample *s = legacy_sample(p);
	s->values[0] = (double)count;
	s->values[1] = (double)delay;
	addresses(p, &c, true);
	return true;
}

static bool read_contention(struct legacy_profile *p, struct text_reader *r)
{
	struct contention k = { .period = 1 };
	const char *line;
	size_t len;
	bool have_line = false, done = false;
	while (!done && (have_line = next_line(r, &line, &len)))
		if (len && !contention_attribute(p, line, len, r->line_at, &k, &done))
			return false;
	/* Comment lines (Go writes symbols in them) are skipped, as elsewhere. */
	for (; have_line && !starts(line, len, "---"); have_line = next_line(r, &line, &len))
		if (meaningful(line, len) &&
		    !contention_sample(p, line, len, r->line_at, &k))
			return false;
	trailing_sections(p, r, line, len, have_line);
	static const char *const names[] = { "contentions", "delay" };
	static const char *const units[] = { "count", "nanoseconds" };
	p->m->duration = (double)k.ms_since_reset * 1000;
	legacy_build(p, names, units, 2, (double)k.period);
	return true;
}

/* ---- threadz ------------------------------------------------------------------------------ */

/* "--- Thread HEX (name: NAME/NUM) stack: ---", as pprof's threadStartRE. */
static bool thread_start(const char *line, size_t len)
{
	struct cursor c = { line, line + len };
	if (!literal(&c, "--- Thread "))
		return false;
	const char *hex = c.p;
	while (c.p < c.end && strchr("0123456789abcdefABCDEF", *c.p))
		c.p++;
	const char *slash = memrchr(line, '/', len);
	return c.p > hex && literal(&c, " (name: ") && slash && slash > c.p &&
	       memmem(slash, (size_t)(c.end - slash), ") stack: ---", 12);
}

/* Every 0x... of a line, as pprof's hexNumberRE finds them. */
static void all_addresses(struct legacy_profile *p, const char *line, size_t len)
{
	const char *end = line + len;
	for (const char *q = line; (q = memmem(q, (size_t)(end - q), "0x", 2));) {
		q += 2;
		uint64_t v = 0;
		const char *digits = q;
		for (; q < end && ((*q >= '0' && *q <= '9') || (*q >= 'a' && *q <= 'f')); q++)
			v = v << 4 | (uint64_t)(*q <= '9' ? *q - '0' : *q - 'a' + 10);
		if (q > digits)
			legacy_address(p, p->samples[p->nsamples - 1].depth ? v - 1 : v);
	}
}

/* One thread's stack, up to the next "---" line (in *line); a stack that
 * is "same as previous thread", or empty, counts once more for the one
 * before, as pprof does. */
static bool thread_stack(struct legacy_profile *p, struct text_reader *r,
			 const char **line, size_t *len)
{
	struct legacy_sample *s = legacy_sample(p);
	s->values[0] = 1;
	bool same = false, have_line;
	while ((have_line = next_line(r, line, len)) && !starts(*line, *len, "---")) {
		if (memmem(*line, *len, "same as previous thread", 23))
			same = true;
		else
			all_addresses(p, *line, *len);
	}
	if (same || !s->depth) {
		p->naddrs = s->first;
		p->nsamples--;
		if (p->nsamples)
			p->samples[p->nsamples - 1].values[0]++;
	}
	return have_line;
}

static bool read_threadz(struct legacy_profile *p, struct text_reader *r,
			 const char *line, size_t len)
{
	bool have_line = true;
	if (!thread_start(line, len)) /* "--- threadz N ---": comments up to a stack */
		while ((have_line = next_line(r, &line, &len)) &&
		       !is_map_trigger(line, len) && !(len && line[0] == '-'))
			;
	/* After "---- no stack trace for", only a memory map is read. */
	while (have_line && !is_map_trigger(line, len) &&
	       !starts(line, len, "---- no stack trace for")) {
		if (!thread_start(line, len))
			return legacy_fail(p, r->line_at, "expected '--- Thread ID (name: NAME/N) stack: ---'");
		have_line = thread_stack(p, r, &line, &len);
		if (!have_line)
			return legacy_fail(p, r->len, "no memory map or '---- no stack trace for' "
					   "line after the last thread");
	}
	trailing_sections(p, r, line, len, have_line);
	static const char *const names[] = { "thread" }, *const units[] = { "count" };
	legacy_build(p, names, units, 1, 1);
	return true;
}

/* ---- Go count profiles (threadcreate, goroutine) -------------------------------------- */

static bool read_count(struct legacy_profile *p, struct text_reader *r,
		       const char *header, size_t header_len)
{
	char type[64];
	size_t tlen = (size_t)((const char *)memchr(header, ' ', header_len) - header);
	snprintf(type, sizeof(type), "%.*s", (int)(tlen < 63 ? tlen : 63), header);
	const char *line;
	size_t len;
	bool have_line;
	while ((have_line = next_line(r, &line, &len)) && !starts(line, len, "---")) {
		if (!meaningful(line, len))
			continue;
		struct cursor c = { line, line + len };
		int64_t n;
		if (!integer(&c, false, &n) || (skip_blanks(&c), !literal(&c, "@")))
			return legacy_fail(p, r->line_at, "expected 'N @ 0x...' (a %s sample)", type);
		legacy_sample(p)->values[0] = (double)n;
		addresses(p, &c, true);
	}
	trailing_sections(p, r, line, len, have_line);
	const char *names[] = { type }, *units[] = { "count" };
	legacy_build(p, names, units, 1, 1);
	return true;
}

/* "WORD profile: total N" */
static bool count_header(const char *line, size_t len)
{
	size_t i = 0;
	while (i < len && (line[i] == '_' || (line[i] >= 'a' && line[i] <= 'z') ||
			   (line[i] >= 'A' && line[i] <= 'Z') ||
			   (line[i] >= '0' && line[i] <= '9')))
		i++;
	struct cursor c = { line + i, line + len };
	int64_t n;
	return i > 0 && literal(&c, " profile: total ") && integer(&c, false, &n) &&
	       c.p == c.end;
}

/* ---- Java heapz / contentionz ------------------------------------------------------------ */

struct java {
	bool heap;
	char unit[32];
	int64_t period;
};

/* "key = value": false at the first line that is not one. */
static bool java_attribute(struct legacy_profile *p, const char *line,
			   size_t len, size_t at, struct java *j, bool *ok)
{
	*ok = true;
	const char *eq = memchr(line, '=', len);
	if (!eq)
		return false;
	size_t klen = (size_t)(eq - line);
	while (klen && (line[klen - 1] == ' ' || line[klen - 1] == '\t'))
		klen--;
	const char *v = eq + 1;
	while (v < line + len && (*v == ' ' || *v == '\t'))
		v++;
	int vlen = (int)(line + len - v);
#define KEY_IS(s) (klen == strlen(s) && !memcmp(line, s, klen))
	if (KEY_IS("format")) {
		if (vlen != 4 || memcmp(v, "java", 4))
			*ok = legacy_fail(p, at, "format '%.*s' (only java is known)", vlen, v);
	} else if (KEY_IS("resolution")) {
		snprintf(j->unit, sizeof(j->unit), "%.*s", vlen, v);
	} else if (!j->heap && KEY_IS("sampling period")) {
		char *end, buf[32];
		snprintf(buf, sizeof(buf), "%.*s", vlen, v);
		j->period = strtoll(buf, &end, 0);
		if (end == buf || *end)
			*ok = legacy_fail(p, at, "sampling period '%.*s' is not a number", vlen, v);
	} else if (j->heap || !KEY_IS("ms since reset")) {
		*ok = legacy_fail(p, at, "unknown attribute '%.*s'", (int)klen, line);
	}
#undef KEY_IS
	return true;
}

/* "N N @ addresses", the two values the other way round from Go's. */
static bool java_sample(struct legacy_profile *p, const char *line, size_t len,
			size_t at, const struct java *j, bool *ok)
{
	struct cursor c = { line, line + len };
	int64_t first, second;
	*ok = true;
	if (!integer(&c, false, &first) || (skip_blanks(&c), !integer(&c, false, &second)) ||
	    (skip_blanks(&c), !literal(&c, "@")))
		return false;
	if (j->heap && second == 0) {
		*ok = legacy_fail(p, at, "a heap sample's count must not be 0");
		return true;
	}
	if (j->heap)
		unsample(&second, &first, 524288); /* the Java agent's 512 KiB */
	else if (j->period)
		first *= j->period, second *= j->period;
	struct legacy_sample *s = legacy_sample(p);
	s->values[0] = (double)second;
	s->values[1] = (double)first;
	addresses(p, &c, false);
	return true;
}

static bool read_java(struct legacy_profile *p, struct text_reader *r, bool heap)
{
	struct java j = { .heap = heap };
	const char *line;
	size_t len;
	bool have_line, ok = true;
	while ((have_line = next_line(r, &line, &len)) &&
	       (!len || java_attribute(p, line, len, r->line_at, &j, &ok)))
		if (!ok)
			return false;
	if (!ok)
		return false;
	if (!j.unit[0])
		return legacy_fail(p, r->line_at, "no 'resolution' attribute before the samples");
	for (; have_line; have_line = next_line(r, &line, &len)) {
		if (len && !java_sample(p, line, len, r->line_at, &j, &ok))
			break;
		if (!ok)
			return false;
	}
	if (have_line)
		r->pos = r->line_at; /* the first location line */
	legacy_read_java_locations(p, r);
	const char *names[2] = { heap ? "inuse_objects" : "contentions",
				 heap ? "inuse_space" : "delay" };
	const char *units[2] = { heap ? "count" : j.unit, j.unit };
	legacy_build(p, names, units, 2, heap ? 1 : (double)(j.period ? j.period : 1));
	return true;
}

/* ---- `--- symbol` sections ------------------------------------------------------------------- */

static bool read_symbols(struct legacy_profile *p, struct text_reader *r)
{
	const char *line;
	size_t len;
	while (next_line(r, &line, &len)) {
		if (starts(line, len, "---"))
			break;
		struct cursor c = { line, line + len };
		if (!literal(&c, "0x"))
			continue; /* binary=... and the like */
		uint64_t addr = 0;
		const char *digits = c.p;
		for (; c.p < c.end && strchr("0123456789abcdefABCDEF", *c.p); c.p++)
			addr = addr << 4 | (uint64_t)(*c.p <= '9' ? *c.p - '0' : (*c.p | 0x20) - 'a' + 10);
		size_t ndigits = (size_t)(c.p - digits);
		skip_blanks(&c);
		if (!ndigits || ndigits > 16 || c.p == c.end)
			return legacy_fail(p, r->line_at, "expected '0xADDRESS name' in the symbol section");
		address_frames_add_name(&p->af, addr, c.p, (size_t)(c.end - c.p));
	}
	/* Then "--- heap" or "--- growth" before a text profile (a contention
	 * profile's own header, or "--- profile" before a binary one, stay). */
	size_t at = r->pos;
	if (!next_line(r, &line, &len) || !starts(line, len, "--- "))
		return legacy_fail(p, r->line_at, "expected '--- KIND' after the symbol section");
	if (!starts(line, len, "--- heap") && !starts(line, len, "--- growth"))
		r->pos = at;
	return true;
}

/* ---- the entry points ---------------------------------------------------------------------- */

enum legacy_kind {
	NOT_LEGACY, HEAP, CONTENTION, COUNT, THREADZ, JAVA_HEAP, JAVA_CONTENTION,
	SYMBOLS, BINARY_CPU
};

/* "--- threadz N ---", as pprof's threadzStartRE. */
static bool threadz_header(const char *line, size_t len)
{
	struct cursor c = { line, line + len };
	int64_t n;
	return literal(&c, "--- threadz ") && integer(&c, false, &n) && literal(&c, " ---");
}

/* pprof tries the C++ contention form first: a contentionz header whose
 * attributes before the samples name a format or resolution is Java's. */
static bool java_attributes_follow(const struct text_reader *r)
{
	struct text_reader ahead = *r;
	const char *line;
	size_t len;
	while (next_line(&ahead, &line, &len) && !starts(line, len, "---")) {
		const char *eq = memchr(line, '=', len);
		if (!len)
			continue;
		if (!eq)
			return false;
		size_t klen = (size_t)(eq - line);
		while (klen && (line[klen - 1] == ' ' || line[klen - 1] == '\t'))
			klen--;
		if ((klen == 6 && !memcmp(line, "format", 6)) ||
		    (klen == 10 && !memcmp(line, "resolution", 10)))
			return true;
	}
	return false;
}

static enum legacy_kind kind_of(const char *line, size_t len)
{
	if (starts(line, len, "heap profile:"))
		return HEAP;
	if (len == 15 && !memcmp(line, "--- heapz 1 ---", 15))
		return JAVA_HEAP;
	if (len == 21 && !memcmp(line, "--- contentionz 1 ---", 21))
		return JAVA_CONTENTION;
	if (starts(line, len, "--- contention") || starts(line, len, "--- mutex:"))
		return CONTENTION;
	if (threadz_header(line, len) || thread_start(line, len))
		return THREADZ;
	if (len == 10 && !memcmp(line, "--- symbol", 10))
		return SYMBOLS;
	if (len == 11 && !memcmp(line, "--- profile", 11))
		return BINARY_CPU;
	return count_header(line, len) ? COUNT : NOT_LEGACY;
}

bool sniff_pprof_legacy(const uint8_t *head, size_t len)
{
	struct text_reader r = { (const char *)head, len, 0, 0 };
	const char *line;
	size_t n;
	while (next_line(&r, &line, &n))
		if (meaningful(line, n))
			return kind_of(line, n) != NOT_LEGACY;
	return false;
}

static bool read_profile(struct legacy_profile *p, struct text_reader *r)
{
	const char *line;
	size_t len;
	bool symbols_read = false;
	for (;;) {
		bool have_line;
		while ((have_line = next_line(r, &line, &len)) && !meaningful(line, len))
			;
		if (!have_line)
			return legacy_fail(p, r->len, "no profile after the symbol section");
		enum legacy_kind kind = kind_of(line, len);
		if (kind == JAVA_CONTENTION && !java_attributes_follow(r))
			kind = CONTENTION;
		p->format = kind == HEAP ? "legacy heap profile"
			: kind == CONTENTION ? "legacy contention profile"
			: kind == COUNT ? "legacy count profile"
			: kind == THREADZ ? "legacy threadz profile"
			: kind == JAVA_HEAP ? "Java heapz profile"
			: kind == JAVA_CONTENTION ? "Java contentionz profile"
			: "legacy pprof profile";
		switch (kind) {
		case HEAP: return read_heap(p, r, line, len);
		case CONTENTION: return read_contention(p, r);
		case COUNT: return read_count(p, r, line, len);
		case THREADZ: return read_threadz(p, r, line, len);
		case JAVA_HEAP: return read_java(p, r, true);
		case JAVA_CONTENTION: return read_java(p, r, false);
		case SYMBOLS:
			if (symbols_read)
				return legacy_fail(p, r->line_at, "a second symbol section");
			symbols_read = true;
			if (!read_symbols(p, r))
				return false;
			break;
		case BINARY_CPU: /* after a symbol section: gperftools' binary form */
			if (!symbols_read)
				return legacy_fail(p, r->line_at, "'--- profile' without a symbol section before it");
			return gperftools_read(p, (const uint8_t *)r->data + r->pos,
					       r->len - r->pos, r->pos);
		case NOT_LEGACY:
			return legacy_fail(p, r->line_at, "not a legacy text profile");
		}
	}
}

bool load_pprof_legacy(struct input *in, struct model *m,
		       const struct load_options *opt, struct load_error *err)
{
	uint8_t *data = NULL;
	size_t len = 0;
	if (!input_slurp(in, &data, &len, LEGACY_FILE_LIMIT))
		return load_fail(err, "legacy pprof profile: cannot read the file whole (%s)",
				 in->read_errno ? strerror(in->read_errno) : "over 2 GiB");
	model_init(m, "pprof-legacy");
	struct legacy_profile p;
	bool ok = legacy_init(&p, m, opt, err);
	p.format = "legacy pprof profile";
	struct text_reader r = { (const char *)data, len, 0, 0 };
	ok = ok && read_profile(&p, &r);
	legacy_free(&p);
	free(data);
	if (!ok)
		model_free(m);
	return ok;
}
