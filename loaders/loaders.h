/* Every loader has the same shape: bytes from an input in, a finished
 * model out, or false with a message that says what is wrong and where
 * (a byte offset, a node id, an element).  Formats are told apart by
 * their content, never by the file name. */
#ifndef WPROF_LOADERS_H
#define WPROF_LOADERS_H

#include <stdarg.h>
#include <stdbool.h>
#include <stdint.h>

#include "model/model.h"
#include "input/input.h"

struct load_error {
	char message[320];
};

struct load_options {
	const char *exe;         /* gmon.out, gperftools, legacy pprof: the executable */
	const char *sample_type; /* pprof: name or index */
	int session;             /* xsbug captures: which profile, -1 last */
	/* traces: thread name, tid or profile id; speedscope: a profile's
	 * name or number; perf script: a command name or thread id */
	const char *thread;
	int count_column;        /* differential folded stacks: 0 BASE, 1 NEW */
	uint64_t max_size;       /* gzip: largest inflated size; 0 the default */
	/* pprof, --granularity lines: a frame per function and line of each
	 * location, as go tool pprof -lines (other formats are split by
	 * line after loading, src/granularity.h). */
	bool by_line;
	/* .cpuprofile: the reading of sample time --sample-time asked for;
	 * SAMPLE_TIME_FILE: the one the file's writer meant. */
	enum sample_time sample_time;
	/* pprof, legacy pprof, gperftools, --granularity addresses: a frame
	 * per code address, as go tool pprof -addresses. */
	bool by_address;
	/* .cpuprofile: read on the calling thread alone, without reading the
	 * sample arrays ahead on another (tests compare the two). */
	bool one_thread;
};

/* The format of a model read from folded stacks with two counts per line
 * (BASE and NEW): callers compare the two columns. */
#define FORMAT_FOLDED_DIFFERENTIAL "folded stacks (differential)"

/* Fills *m (which it initialises) and finishes it; on failure it frees
 * whatever it built, so the caller frees the model only on success. */
typedef bool load_fn(struct input *in, struct model *m,
		     const struct load_options *opt, struct load_error *err);

struct loader {
	const char *name;
	/* Does this look like our format?  `head` holds the first bytes. */
	bool (*sniff)(const uint8_t *head, size_t len);
	load_fn *load;
};

bool load_fail(struct load_error *err, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
/* A fault at a place in the input, spelled as every loader spells it:
 * "FORMAT, byte N: what".  A second place the message names is in its
 * words ("... (the first at byte M)"). */
bool load_fail_at(struct load_error *err, const char *format, uint64_t at,
		  const char *fmt, ...) __attribute__((format(printf, 4, 5)));
bool load_vfail_at(struct load_error *err, const char *format, uint64_t at,
		   const char *fmt, va_list ap) __attribute__((format(printf, 4, 0)));

/* Opens path ("-": standard input), undoes gzip, picks the loader by
 * content and runs it.  On failure the model is left freed and err says
 * why (without the file name). */
bool load_file(const char *path, const struct load_options *opt,
	       struct model *m, struct load_error *err,
	       void (*on_progress)(const struct input *in));
bool load_memory(const void *data, size_t len, const char *name,
		 const struct load_options *opt, struct model *m,
		 struct load_error *err);

load_fn load_cpuprofile;
bool sniff_cpuprofile(const uint8_t *head, size_t len);
load_fn load_pprof;
bool sniff_pprof(const uint8_t *head, size_t len);
load_fn load_gmon;
bool sniff_gmon(const uint8_t *head, size_t len);
load_fn load_arcs;
bool sniff_arcs(const uint8_t *head, size_t len);
load_fn load_xsbug;
bool sniff_xsbug(const uint8_t *head, size_t len);
load_fn load_speedscope;
bool sniff_speedscope(const uint8_t *head, size_t len);
load_fn load_gperftools;
bool sniff_gperftools(const uint8_t *head, size_t len);
load_fn load_pprof_legacy;
bool sniff_pprof_legacy(const uint8_t *head, size_t len);
load_fn load_trace;
bool sniff_trace(const uint8_t *head, size_t len);
load_fn load_folded;
bool sniff_folded(const uint8_t *head, size_t len);
load_fn load_perf_script;
bool sniff_perf_script(const uint8_t *head, size_t len);
load_fn load_heapprofile;
bool sniff_heapprofile(const uint8_t *head, size_t len);
load_fn load_firefox;
bool sniff_firefox(const uint8_t *head, size_t len);
load_fn load_callgrind;
bool sniff_callgrind(const uint8_t *head, size_t len);

#endif
