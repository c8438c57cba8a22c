/* Source map revision 3 (https://tc39.es/ecma426/): the parsed map and
 * the lookup of a generated position.  Read: version, file, sources,
 * sourceRoot, names, mappings (Base64 VLQ), x_google_ignoreList,
 * sourcesContent, and index maps' sections (each section's map shifted
 * by its offset).
 * Every position is 0-based, as the map stores it. */
#ifndef WPROF_SOURCE_MAP_H
#define WPROF_SOURCE_MAP_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct source_map_segment {
	int32_t line, column;           /* generated */
	int32_t source;                 /* index in sources, -1: none */
	int32_t orig_line, orig_column;
	int32_t name;                   /* index in names, -1: none */
};

struct source_map {
	char *file;                 /* the generated file it is of, or NULL */
	char **sources;             /* with sourceRoot put before each */
	bool *ignored;              /* per source: x_google_ignoreList */
	char **contents;            /* per source: sourcesContent, or NULL */
	size_t ncontents;           /* nsources once the map is read */
	size_t nsources;
	char **names;
	size_t nnames;
	struct source_map_segment *segs; /* by generated line, then column */
	size_t nsegs, segs_cap;
};

/* Parses `len` bytes of JSON; on failure returns false with `why` saying
 * what was wrong and at which byte. */
bool source_map_parse(const char *text, size_t len, struct source_map *out,
		      char *why, size_t cap);
void source_map_free(struct source_map *m);

/* The segment for a generated position, as Mozilla's source-map library
 * finds it (greatest lower bound): the last segment of that line at or
 * before the column, NULL when there is none. */
const struct source_map_segment *source_map_find(const struct source_map *m,
						 int32_t line, int32_t column);
/* The first segment of a generated line with a source, NULL when none. */
const struct source_map_segment *source_map_first_on_line(const struct source_map *m,
							   int32_t line);

#endif
