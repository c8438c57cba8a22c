/* The Firefox Profiler's processed format: what profiler.firefox.com
 * uploads and downloads, and what samply and wasmtime --profile=guest
 * write (src/types/profile.ts and docs-developer/CHANGELOG-formats.md
 * upstream).  Column tables, each an object of arrays of one length:
 *
 *   { "meta": { "interval": ms, "preprocessedProfileVersion": N, ... },
 *     "shared": { "stringArray": [...],              version 56 on
 *                 "sources": { "filename": [string index] },   58 on
 *                 "stackTable", "frameTable", "funcTable" },   60 on
 *     "threads": [ { "name", "processName", "pid", "tid",
 *       "samples": { "stack": [stack | null], "time": [ms] or
 *                    "timeDeltas": [ms], "weight": [w] | null,
 *                    "weightType": "samples" | "tracing-ms" | "bytes" },
 *       "stackTable": { "frame": [frame], "prefix": [stack | null] or
 *                       "prefixOffset": [0 root | k: stack i - k] },
 *       "frameTable": { "func": [func], "line", "column" },
 *       "funcTable": { "name": [string], "fileName": [string | null] or
 *                      "source": [source | null], "lineNumber",
 *                      "columnNumber", "isJS": [bool] },
 *       "stringArray": [...] } ] }          (the tables: before 60)
 *
 * Keys come in any order, so the whole file is read before one thread
 * becomes the model: the one --thread names (its name, tid, or the
 * description the header shows), else meta.initialSelectedThreads, else
 * the most active "GeckoMain" of a tab process, else the most active
 * thread, as the Firefox Profiler selects.  A function is the funcTable's row:
 * name, file, line and column; a frame's own line is not part of it.
 * Durations: see docs/formats.md (the profiler's traced timing). */
#ifndef WPROF_FIREFOX_H
#define WPROF_FIREFOX_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "json.h"
#include "loaders.h"

#define FF_FORMAT "Firefox Profiler"

/* A column of numbers; null is NAN, true and false 1 and 0. */
struct ff_column {
	double *v;
	size_t n, cap;
	uint64_t offset; /* where its array begins, for messages */
	bool present;
};

struct ff_tables {
	struct ff_column stack_frame, stack_prefix, stack_prefix_offset;
	struct ff_column frame_func, frame_location, frame_line; /* location: Gecko */
	struct ff_column func_name, func_file, func_source, func_line, func_column, func_js;
	str_t *strings;
	size_t nstrings, strings_cap;
	bool have_strings;
};

struct ff_thread {
	char name[128], process[128], process_type[32], pid[32], tid[32];
	uint64_t offset;
	struct ff_column stack, time, deltas, weight, cpu_delta;
	char weight_type[16];
	struct ff_tables t;
	double busy; /* samples with a stack, weighted */
	double activity; /* the profiler's score: see choose() */
};

struct ff_loader {
	struct json j;
	struct json_sink sink; /* "Firefox Profiler, byte N: what" */
	struct model *m;
	double interval;
	struct ff_column initial_threads;
	struct ff_tables shared;
	struct ff_column source_file; /* shared.sources.filename */
	struct ff_thread *threads;
	size_t nthreads, threads_cap;
};

/* The thread `wanted` names (NULL: the profiler's choice) made the
 * model, which it finishes. */
bool ff_build_model(struct ff_loader *L, const char *wanted);

#endif
