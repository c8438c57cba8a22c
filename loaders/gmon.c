/* GNU gmon.out (binutils gprof/gmon_out.h), read as gprof reads it.
 *
 * The file is a 20-byte header ("gmon", a 4-byte version, 12 spare) and
 * records, each a tag byte:
 *   0  time histogram: low_pc, high_pc (target words), bin count and
 *      profiling rate (4 bytes each), a 15-byte dimension name and a
 *      1-byte abbreviation, then one 16-bit count per bin;
 *   1  call-graph arc: from_pc, self_pc (target words), 4-byte count;
 *   2  basic-block counts: a 4-byte record count, then address and count
 *      (target words) per block.
 * Words have the executable's size and byte order, so the executable is
 * read first (libelf).  Addresses are link-time addresses: glibc already
 * takes the load address of a PIE off them, so gprof (and this loader)
 * uses the symbol values unchanged. */
#include <errno.h>
#include <fcntl.h>
#include <gelf.h>
#include <libelf.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "base/util.h"
#include "demangle.h"
#include "elf_symbols.h"

#define FORMAT "gmon.out"
#define GMON_HEADER_SIZE 20
#define GMON_TAG_TIME_HIST 0
#define GMON_TAG_CG_ARC 1
#define GMON_TAG_BB_COUNT 2
#define GMON_FILE_LIMIT ((size_t)1 << 30)

/* gprof's histogram unit: bins are counted in 2-byte steps of text. */
#define UNIT_BYTES 2

bool sniff_gmon(const uint8_t *head, size_t len)
{
	return len >= 4 && !memcmp(head, "gmon", 4);
}

/* ---- the records ----------------------------------------------------- */

struct reader {
	const uint8_t *data;
	size_t len, pos;
	const struct executable *x;
};

static bool have(const struct reader *r, size_t n)
{
	return r->len - r->pos >= n;
}

static uint64_t read_uint(struct reader *r, size_t n)
{
	uint64_t v = 0;
	for (size_t i = 0; i < n; i++) {
		size_t k = r->x->big_endian ? i : n - 1 - i;
		v = v << 8 | r->data[r->pos + k];
	}
	r->pos += n;
	return v;
}

static size_t word_size(const struct reader *r)
{
	return r->x->is64 ? 8 : 4;
}

struct histogram {
	uint64_t low, high;
	uint32_t nbins;
	size_t at;      /* file offset of the record */
	size_t bins_at; /* file offset of the 16-bit counts */
};

struct gmon_data {
	struct histogram *hists;
	size_t nhists, hists_cap;
	uint32_t rate;
	char dimension[16];
	double scale; /* units per bin, gprof's hist_scale */
	double samples; /* every bin's count, in or out of a function */
};

static bool read_histogram(struct reader *r, struct gmon_data *d,
			   struct load_error *err)
{
	size_t at = r->pos - 1, w = word_size(r);
	if (!have(r, 2 * w + 8 + 16))
		return load_fail_at(err, FORMAT, at, "histogram header cut short");
	struct histogram h;
	h.low = read_uint(r, w);
	h.high = read_uint(r, w);
	h.nbins = (uint32_t)read_uint(r, 4);
	uint32_t rate = (uint32_t)read_uint(r, 4);
	char dimension[16] = { 0 };
	memcpy(dimension, r->data + r->pos, 15);
	r->pos += 16;
	if (h.high <= h.low || h.nbins == 0)
		return load_fail_at(err, FORMAT, at, "histogram range 0x%llx-0x%llx with %u bins is empty",
				    (unsigned long long)h.low, (unsigned long long)h.high, h.nbins);
	if (rate == 0)
		return load_fail_at(err, FORMAT, at, "histogram sampling rate is 0");
	if ((r->len - r->pos) / 2 < h.nbins)
		return load_fail_at(err, FORMAT, at, "histogram of %u bins needs %llu bytes, the file has %zu left",
				    h.nbins, 2ull * h.nbins, r->len - r->pos);
	double scale = (double)((h.high - h.low) / UNIT_BYTES) / h.nbins;
	if (!d->nhists) {
		d->rate = rate;
		d->scale = scale;
		memcpy(d->dimension, dimension, sizeof(dimension));
	} else if (fabs(scale - d->scale) > 1e-6 || strcmp(dimension, d->dimension)) {
		return load_fail_at(err, FORMAT, at, "histogram scale or dimension differs from the first one");
	}
	h.at = at;
	h.bins_at = r->pos;
	r->pos += 2ull * h.nbins;
	GROW(d->hists, d->hists_cap, d->nhists + 1);
	d->hists[d->nhists++] = h;
	return true;
}

/* gprof's hist_assign_samples: a bin's count goes to the symbols its
 * address range overlaps, in proportion to the overlap, in 2-byte units
 * truncated as gprof truncates them. */
static void assign_histogram(struct reader *r, const struct histogram *h,
			     struct gmon_data *d, struct executable *x)
{
	double scale = d->scale;
	uint64_t low = h->low / UNIT_BYTES;
	/* Bins rise, so the symbols wholly below a bin only grow in number:
	 * `first` skips them once, not once per bin (nor per histogram: a
	 * binary search finds where the first bin starts). */
	size_t first = 0, end = x->nsyms ? x->nsyms - 1 : 0;
	while (first < end) {
		size_t mid = first + (end - first) / 2;
		if (x->syms[mid + 1].addr / UNIT_BYTES <= low)
			first = mid + 1;
		else
			end = mid;
	}
	for (uint32_t i = 0; i < h->nbins; i++) {
		r->pos = h->bins_at + 2 * (size_t)i;
		unsigned count = (unsigned)read_uint(r, 2);
		if (!count)
			continue;
		d->samples += count;
		uint64_t bin_low = low + (uint64_t)(scale * i);
		uint64_t bin_high = low + (uint64_t)(scale * (i + 1));
		while (first + 1 < x->nsyms && bin_low >= x->syms[first + 1].addr / UNIT_BYTES)
			first++;
		/* A symbol's range ends where the next begins; gprof's table
		 * ends in a zero sentinel, so the last symbol gets nothing. */
		for (size_t j = first; j + 1 < x->nsyms; j++) {
			uint64_t sym_low = x->syms[j].addr / UNIT_BYTES;
			uint64_t sym_high = x->syms[j + 1].addr / UNIT_BYTES;
			if (bin_high < sym_low)
				break;
			if (bin_low >= sym_high)
				continue;
			uint64_t top = bin_high < sym_high ? bin_high : sym_high;
			uint64_t bottom = bin_low > sym_low ? bin_low : sym_low;
			if (top > bottom)
				x->syms[j].ticks += (double)(top - bottom) * count / scale;
		}
	}
}

struct raw_arc {
	struct symbol *from, *to;
	uint32_t count;
};

static bool read_arc(struct reader *r, struct executable *x,
		     struct raw_arc **arcs, size_t *n, size_t *cap,
		     struct load_error *err)
{
	size_t at = r->pos - 1, w = word_size(r);
	if (!have(r, 2 * w + 4))
		return load_fail_at(err, FORMAT, at, "call-graph arc cut short");
	uint64_t from_pc = read_uint(r, w), self_pc = read_uint(r, w);
	uint32_t count = (uint32_t)read_uint(r, 4);
	struct symbol *from = symbol_at(x, from_pc), *to = symbol_at(x, self_pc);
	if (!from || !to)
		return load_fail_at(err, FORMAT, at, "arc address 0x%llx is outside every function of %s (is it the program that wrote this file?)",
				    (unsigned long long)(from ? self_pc : from_pc), x->path);
	GROW(*arcs, *cap, *n + 1);
	(*arcs)[(*n)++] = (struct raw_arc){ from, to, count };
	return true;
}

/* Basic-block counts only matter for gprof's line-level reports; they
 * are checked and skipped. */
static bool skip_basic_blocks(struct reader *r, struct load_error *err)
{
	size_t at = r->pos - 1, w = word_size(r);
	if (!have(r, 4))
		return load_fail_at(err, FORMAT, at, "basic-block record cut short");
	uint64_t nblocks = read_uint(r, 4);
	if ((r->len - r->pos) / (2 * w) < nblocks)
		return load_fail_at(err, FORMAT, at, "%llu basic-block counts run past the end of the file",
				    (unsigned long long)nblocks);
	r->pos += nblocks * 2 * w;
	return true;
}

static bool read_records(struct reader *r, struct executable *x,
			 struct gmon_data *d, struct raw_arc **arcs,
			 size_t *narcs, struct load_error *err)
{
	size_t arcs_cap = 0;
	if (r->len < GMON_HEADER_SIZE || memcmp(r->data, "gmon", 4))
		return load_fail(err, "not a gmon.out file (no 20-byte \"gmon\" header)");
	r->pos = 4;
	uint64_t version = read_uint(r, 4);
	if (version != 1)
		return load_fail_at(err, FORMAT, 4, "version %llu (only version 1 is known)",
				    (unsigned long long)version);
	r->pos = GMON_HEADER_SIZE;
	while (r->pos < r->len) {
		uint8_t tag = r->data[r->pos++];
		bool ok = tag == GMON_TAG_TIME_HIST ? read_histogram(r, d, err)
			: tag == GMON_TAG_CG_ARC ? read_arc(r, x, arcs, narcs, &arcs_cap, err)
			: tag == GMON_TAG_BB_COUNT ? skip_basic_blocks(r, err)
			: load_fail_at(err, FORMAT, r->pos - 1, "unknown record tag %u", tag);
		if (!ok)
			return false;
	}
	return true;
}

static int by_range(const void *a, const void *b)
{
	const struct histogram *x = *(const struct histogram *const *)a;
	const struct histogram *y = *(const struct histogram *const *)b;
	if (x->low != y->low)
		return x->low < y->low ? -1 : 1;
	if (x->high != y->high)
		return x->high < y->high ? -1 : 1;
	return (x->at > y->at) - (x->at < y->at);
}

/* Histograms of the same range add up; others must not overlap.  Sorted
 * by range, a histogram overlaps one before it exactly when it starts
 * below the highest end so far: n log n for any number of records. */
static bool check_overlaps(const struct gmon_data *d, struct load_error *err)
{
	const struct histogram **sorted = xmalloc((d->nhists + 1) * sizeof(*sorted));
	for (size_t i = 0; i < d->nhists; i++)
		sorted[i] = &d->hists[i];
	qsort(sorted, d->nhists, sizeof(*sorted), by_range);
	const struct histogram *reach = NULL; /* the highest end so far */
	bool ok = true;
	for (size_t i = 0; ok && i < d->nhists; i++) {
		const struct histogram *h = sorted[i];
		bool same = i && h->low == sorted[i - 1]->low && h->high == sorted[i - 1]->high;
		if (!same && reach && h->low < reach->high) {
			size_t later = h->at > reach->at ? h->at : reach->at;
			size_t earlier = h->at > reach->at ? reach->at : h->at;
			ok = load_fail_at(err, FORMAT, later, "histogram overlaps the one at byte %zu", earlier);
		}
		if (!reach || h->high > reach->high)
			reach = h;
	}
	free(sorted);
	return ok;
}

/* glibc's histogram ends at `etext` rounded up a little: one that ends
 * elsewhere, or lies past every symbol, was written by another program
 * (or another build of it). */
static bool check_histograms(const struct executable *x,
			     const struct gmon_data *d, struct load_error *err)
{
	for (size_t i = 0; i < d->nhists; i++)
		if (x->etext && (d->hists[i].high < x->etext ||
				 d->hists[i].high - x->etext > 64))
			return load_fail(err, "the histogram ends at 0x%llx but the text of %s ends at 0x%llx (is it the program that wrote this file?)",
					 (unsigned long long)d->hists[i].high, x->path,
					 (unsigned long long)x->etext);
	for (size_t i = 0; i < d->nhists; i++)
		if (d->hists[i].low > x->syms[x->nsyms - 1].end ||
		    d->hists[i].high < x->syms[0].addr)
			return load_fail(err, "histogram 0x%llx-0x%llx lies outside the functions of %s (is it the program that wrote this file?)",
					 (unsigned long long)d->hists[i].low,
					 (unsigned long long)d->hists[i].high, x->path);
	return true;
}

/* ---- the model --------------------------------------------------------- */

/* A function named as gprof prints it, demangled. */
static uint32_t symbol_frame(struct model *m, const char *symbol)
{
	struct frame f = { .url = model_string(m, "", 0), .extra = STR_NONE,
			   .line = -1, .column = -1, .kind = KIND_NATIVE };
	name_frame_by_symbol(m, &f, symbol);
	return model_intern_frame(m, &f);
}

static void build_model(struct model *m, struct executable *x,
			const struct gmon_data *d, const struct raw_arc *arcs,
			size_t narcs)
{
	model_init(m, "gmon");
	model_add_sample_type(m, "time", "us");
	double us_per_tick = d->rate ? 1e6 / d->rate : 0;
	/* Frames in address order: gprof numbers cycles that way.  Every
	 * function is one, with or without time or calls: gprof gives each
	 * an index of its call graph, printed or not. */
	for (size_t i = 0; i < x->nsyms; i++) {
		struct symbol *s = &x->syms[i];
		s->frame = symbol_frame(m, s->name);
		model_add_frame_value(m, s->frame, 0, s->ticks * us_per_tick);
	}
	for (size_t i = 0; i < narcs; i++)
		model_add_arc(m, arcs[i].from->frame, arcs[i].to->frame,
			      arcs[i].count, 0);
	m->period = us_per_tick;
	m->duration = d->samples * us_per_tick;
	m->summed_samples = (size_t)d->samples; /* "Each sample counts as ..." */
	uint32_t unused;
	model_finish(m, &unused); /* no nodes: cannot fail */
	m->caps |= HAS_CALL_COUNTS;
	m->frame_ticks = xcalloc(m->nframes + 1, sizeof(double));
	for (size_t i = 0; i < x->nsyms; i++)
		m->frame_ticks[x->syms[i].frame] += x->syms[i].ticks;
}

/* gprof's default: a.out in the directory it runs in; ours is the
 * directory of the profile, which is the same when run beside it. */
static char *default_exe(const char *profile)
{
	const char *slash = strrchr(profile, '/');
	size_t dir = slash ? (size_t)(slash - profile + 1) : 0;
	char *path = xmalloc(dir + sizeof("a.out"));
	memcpy(path, profile, dir);
	memcpy(path + dir, "a.out", sizeof("a.out"));
	return path;
}

bool load_gmon(struct input *in, struct model *m,
	       const struct load_options *opt, struct load_error *err)
{
	char *fallback = opt->exe ? NULL : default_exe(in->name);
	struct executable x = { .path = opt->exe ? opt->exe : fallback };
	struct gmon_data d = { 0 };
	struct raw_arc *arcs = NULL;
	size_t narcs = 0;
	uint8_t *data = NULL;
	size_t len = 0;
	bool ok = read_executable(&x, err);
	if (ok && !input_slurp(in, &data, &len, GMON_FILE_LIMIT))
		ok = load_fail(err, "cannot read the file whole (%s)",
			       in->read_errno ? strerror(in->read_errno) : "over 1 GiB");
	struct reader r = { data, len, 0, &x };
	if (ok)
		ok = read_records(&r, &x, &d, &arcs, &narcs, err) &&
		     check_overlaps(&d, err) && check_histograms(&x, &d, err);
	if (ok) {
		for (size_t i = 0; i < d.nhists; i++)
			assign_histogram(&r, &d.hists[i], &d, &x);
		build_model(m, &x, &d, arcs, narcs);
	}
	free(data);
	free(arcs);
	free(d.hists);
	executable_free(&x);
	free(fallback);
	return ok;
}
