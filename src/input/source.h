/* Finding and reading the source file of a function, as pprof does:
 * file:// URLs and absolute paths as they are, paths with a --trim-path
 * prefix taken off, and each --source-path directory tried with the path
 * and with each shorter tail of it; then where Go keeps sources
 * (input/go_source.h: GOROOT, the module cache, vendor/, -trimpath). */
#ifndef WPROF_SOURCE_H
#define WPROF_SOURCE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct source_options {
	const char **dirs;  /* --source-path, in order */
	size_t ndirs;
	const char **trims; /* --trim-path */
	size_t ntrims;
};

struct source_file {
	char *path;        /* the file read, NULL when none was found */
	char *text;
	size_t *line_start; /* offsets of lines 1..nlines at [0..nlines) */
	size_t nlines;
	char *tried;       /* the paths tried, "a, b, c", for the status line */
};

bool source_find(const struct source_options *o, const char *url,
		 struct source_file *out);
/* The path as pprof prints it: without a --trim-path prefix. */
const char *source_shown_path(const struct source_options *o, const char *url);
/* Line `line` (1-based) without its line break, NULL past the end. */
const char *source_line(const struct source_file *f, int32_t line, size_t *len);
void source_file_free(struct source_file *f);

#endif
