/* What the legacy pprof loaders (pprof_legacy.c: text profiles,
 * gperftools.c: the binary CPU profile) share: a line reader with byte
 * offsets, the samples collected before the memory map that names their
 * addresses comes, and the model they become. */
#ifndef WPROF_LEGACY_TEXT_H
#define WPROF_LEGACY_TEXT_H

#include "addresses.h"

#define LEGACY_FILE_LIMIT ((size_t)1 << 31)
#define LEGACY_MAX_TYPES 4

struct text_reader {
	const char *data;
	size_t len, pos; /* pos: start of the next line */
	size_t line_at;  /* byte offset of the last line returned */
};

/* The next line without its end of line and surrounding blanks; false
 * at the end of the data. */
bool next_line(struct text_reader *r, const char **line, size_t *len);

struct java_location {
	uint64_t addr;
	uint32_t frame;
};

struct legacy_profile {
	struct model *m;
	struct load_error *err;
	const char *format; /* for messages: "legacy heap profile", ... */
	struct address_frames af;
	/* Samples, leaf first; adjusted addresses as pprof makes them (one
	 * less for every frame but the leaf: the call, not the return). */
	uint64_t *addrs;
	size_t naddrs, addrs_cap;
	struct legacy_sample {
		size_t first;
		uint32_t depth;
		double values[LEGACY_MAX_TYPES];
	} *samples;
	size_t nsamples, samples_cap;
	/* Java profiles name their addresses in a section of their own. */
	struct java_location *java;
	size_t njava, java_cap;
	bool java_sorted;
};

bool legacy_init(struct legacy_profile *p, struct model *m,
		 const struct load_options *opt, struct load_error *err);
void legacy_free(struct legacy_profile *p);
/* Starts a sample of `depth` addresses that follow with legacy_address. */
struct legacy_sample *legacy_sample(struct legacy_profile *p);
void legacy_address(struct legacy_profile *p, uint64_t addr);
/* /proc/self/maps lines to the end of the data. */
void legacy_read_maps(struct legacy_profile *p, struct text_reader *r);
/* The `0xADDR function (file:line)` lines of a Java profile. */
void legacy_read_java_locations(struct legacy_profile *p,
				struct text_reader *r);
/* Sample types (name, unit as the file gives it) and the model, finished.
 * The default type is the last, as pprof's. */
void legacy_build(struct legacy_profile *p, const char *const *names,
		  const char *const *units, unsigned ntypes, double period);

/* The binary CPU profile in data (at byte `base` of the file), whole. */
bool gperftools_read(struct legacy_profile *p, const uint8_t *data, size_t len,
		     size_t base);

bool legacy_fail(struct legacy_profile *p, size_t at, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

#endif
