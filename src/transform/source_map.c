/* Reading source maps (source_map.h) with libcjson: maps are small
 * next to profiles, and a tree is what their cross-references need. */
#include "source_map.h"

#include <cjson/cJSON.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/base64.h"
#include "base/util.h"

struct reader {
	struct source_map *map;
	char *why;
	size_t cap;
};

static bool fail(struct reader *r, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

static bool fail(struct reader *r, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(r->why, r->cap, fmt, ap);
	va_end(ap);
	return false;
}

/* One Base64 VLQ number at *p: 5 bits a digit, low first, 0x20 says
 * more follow; the lowest bit of the whole is the sign. */
static bool read_vlq(const char **p, const char *start, struct reader *r, int32_t *out)
{
	uint64_t value = 0;
	for (unsigned shift = 0;; shift += 5) {
		int d = base64_digit(**p);
		if (d < 0)
			return fail(r, "mappings, character %zu: not a Base64 digit",
				    (size_t)(*p - start));
		if (shift > 30)
			return fail(r, "mappings, character %zu: number too large",
				    (size_t)(*p - start));
		(*p)++;
		value |= (uint64_t)(d & 0x1f) << shift;
		if (!(d & 0x20))
			break;
	}
	int64_t v = (int64_t)(value >> 1);
	*out = (int32_t)(value & 1 ? -v : v);
	return true;
}

/* The running values: the generated column per line, the others across
 * the whole mappings string. */
struct vlq_state {
	int32_t line, column, source, orig_line, orig_column, name;
};

struct section {
	int32_t line, column; /* where an index map's section starts */
	size_t first_source, first_name, nsources, nnames;
};

static bool in_range(int64_t v, size_t n)
{
	return v >= 0 && (uint64_t)v < n;
}

static bool add_segment(struct reader *r, const struct section *sec,
			const struct vlq_state *st, int fields, size_t at)
{
	if (fields == 4 || fields == 5) {
		if (!in_range(st->source, sec->nsources))
			return fail(r, "mappings, character %zu: source %d of %zu", at,
				    st->source, sec->nsources);
		if (fields == 5 && !in_range(st->name, sec->nnames))
			return fail(r, "mappings, character %zu: name %d of %zu", at,
				    st->name, sec->nnames);
		if (st->orig_line < 0 || st->orig_column < 0)
			return fail(r, "mappings, character %zu: negative original position", at);
	}
	if (st->column < 0)
		return fail(r, "mappings, character %zu: negative column", at);
	struct source_map *m = r->map;
	GROW(m->segs, m->segs_cap, m->nsegs + 1);
	m->segs[m->nsegs++] = (struct source_map_segment){
		.line = st->line + sec->line,
		.column = st->column + (st->line == 0 ? sec->column : 0),
		.source = fields >= 4 ? (int32_t)sec->first_source + st->source : -1,
		.orig_line = fields >= 4 ? st->orig_line : -1,
		.orig_column = fields >= 4 ? st->orig_column : -1,
		.name = fields == 5 ? (int32_t)sec->first_name + st->name : -1,
	};
	return true;
}

static bool read_mappings(struct reader *r, const struct section *sec, const char *text)
{
	struct vlq_state st = { 0 };
	const char *p = text;
	while (*p) {
		if (*p == ';') {
			st.line++;
			st.column = 0;
			p++;
			continue;
		}
		if (*p == ',') {
			p++;
			continue;
		}
		size_t at = (size_t)(p - text);
		int32_t *fields[] = { &st.column, &st.source, &st.orig_line,
				      &st.orig_column, &st.name };
		int n = 0;
		for (; n < 5 && *p && *p != ',' && *p != ';'; n++) {
			int32_t delta = 0;
			if (!read_vlq(&p, text, r, &delta))
				return false;
			int64_t sum = (int64_t)*fields[n] + delta;
			if (sum < INT32_MIN / 2 || sum > INT32_MAX / 2)
				return fail(r, "mappings, character %zu: out of range", at);
			*fields[n] = (int32_t)sum;
		}
		if (n == 2 || n == 3 || (*p && *p != ',' && *p != ';'))
			return fail(r, "mappings, character %zu: a segment of %d fields", at,
				    n == 5 ? 6 : n);
		if (!add_segment(r, sec, &st, n, at))
			return false;
	}
	return true;
}

static char *joined(const char *root, const char *path)
{
	size_t n = strlen(root), need = n + strlen(path) + 2;
	char *s = xmalloc(need);
	bool slash = n && root[n - 1] != '/';
	snprintf(s, need, "%s%s%s", root, slash ? "/" : "", path);
	return s;
}

static bool read_strings(struct reader *r, const cJSON *array, const char *what,
			 const char *root, char ***list, size_t *n)
{
	if (!array)
		return true;
	if (!cJSON_IsArray(array))
		return fail(r, "'%s' is not an array", what);
	int count = cJSON_GetArraySize(array);
	*list = xrealloc(*list, (*n + (size_t)count + 1) * sizeof(char *));
	const cJSON *item;
	cJSON_ArrayForEach(item, array) {
		/* A null source is allowed: a source without a name. */
		const char *s = cJSON_IsString(item) ? item->valuestring : "";
		if (!cJSON_IsString(item) && !cJSON_IsNull(item))
			return fail(r, "'%s' holds something not a string", what);
		(*list)[(*n)++] = root && *s ? joined(root, s) : xstrdup(s);
	}
	return true;
}

static bool read_ignore_list(struct reader *r, const cJSON *list, const struct section *sec)
{
	struct source_map *m = r->map;
	m->ignored = xrealloc(m->ignored, (m->nsources + 1) * sizeof(bool));
	for (size_t i = sec->first_source; i < m->nsources; i++)
		m->ignored[i] = false;
	if (!list)
		return true;
	if (!cJSON_IsArray(list))
		return fail(r, "'x_google_ignoreList' is not an array");
	const cJSON *item;
	cJSON_ArrayForEach(item, list) {
		if (!cJSON_IsNumber(item) || !in_range((int64_t)item->valuedouble, sec->nsources))
			return fail(r, "'x_google_ignoreList' names no source");
		m->ignored[sec->first_source + (size_t)item->valuedouble] = true;
	}
	return true;
}

/* sourcesContent: per source its text, NULL where it is null or absent. */
static bool read_contents(struct reader *r, const cJSON *list, const struct section *sec)
{
	struct source_map *m = r->map;
	m->contents = xrealloc(m->contents, (m->nsources + 1) * sizeof(char *));
	for (size_t i = sec->first_source; i < m->nsources; i++)
		m->contents[i] = NULL;
	m->ncontents = m->nsources;
	if (!list)
		return true;
	if (!cJSON_IsArray(list))
		return fail(r, "'sourcesContent' is not an array");
	size_t i = sec->first_source;
	const cJSON *item;
	cJSON_ArrayForEach(item, list) {
		if (i == m->nsources)
			break;
		if (cJSON_IsString(item))
			m->contents[i] = xstrdup(item->valuestring);
		else if (!cJSON_IsNull(item))
			return fail(r, "'sourcesContent' holds something not a string");
		i++;
	}
	return true;
}

static bool read_map(struct reader *r, const cJSON *json, int32_t line, int32_t column,
		     int depth);

static bool read_sections(struct reader *r, const cJSON *sections, int depth)
{
	if (!cJSON_IsArray(sections))
		return fail(r, "'sections' is not an array");
	const cJSON *sec;
	cJSON_ArrayForEach(sec, sections) {
		const cJSON *offset = cJSON_GetObjectItemCaseSensitive(sec, "offset");
		const cJSON *l = cJSON_GetObjectItemCaseSensitive(offset, "line");
		const cJSON *c = cJSON_GetObjectItemCaseSensitive(offset, "column");
		const cJSON *map = cJSON_GetObjectItemCaseSensitive(sec, "map");
		if (!cJSON_IsNumber(l) || !cJSON_IsNumber(c) || !cJSON_IsObject(map))
			return fail(r, "a section without an offset and a map "
				       "(a map by 'url' is not read)");
		if (l->valuedouble < 0 || l->valuedouble > INT32_MAX / 2 ||
		    c->valuedouble < 0 || c->valuedouble > INT32_MAX / 2)
			return fail(r, "a section's offset is out of range");
		if (!read_map(r, map, (int32_t)l->valuedouble, (int32_t)c->valuedouble, depth + 1))
			return false;
	}
	return true;
}

static bool read_map(struct reader *r, const cJSON *json, int32_t line, int32_t column,
		     int depth)
{
	struct source_map *m = r->map;
	if (!cJSON_IsObject(json))
		return fail(r, "not a JSON object");
	if (depth > 8)
		return fail(r, "sections nested too deep");
	const cJSON *version = cJSON_GetObjectItemCaseSensitive(json, "version");
	if (!cJSON_IsNumber(version) || version->valuedouble != 3)
		return fail(r, "not a version 3 source map");
	const cJSON *file = cJSON_GetObjectItemCaseSensitive(json, "file");
	if (!m->file && cJSON_IsString(file))
		m->file = xstrdup(file->valuestring);
	const cJSON *sections = cJSON_GetObjectItemCaseSensitive(json, "sections");
	if (sections)
		return read_sections(r, sections, depth);
	const cJSON *root = cJSON_GetObjectItemCaseSensitive(json, "sourceRoot");
	const cJSON *mappings = cJSON_GetObjectItemCaseSensitive(json, "mappings");
	if (!cJSON_IsString(mappings))
		return fail(r, "no 'mappings' string");
	struct section sec = { line, column, m->nsources, m->nnames, 0, 0 };
	if (!read_strings(r, cJSON_GetObjectItemCaseSensitive(json, "sources"), "sources",
			  cJSON_IsString(root) ? root->valuestring : NULL, &m->sources,
			  &m->nsources) ||
	    !read_strings(r, cJSON_GetObjectItemCaseSensitive(json, "names"), "names", NULL,
			  &m->names, &m->nnames))
		return false;
	sec.nsources = m->nsources - sec.first_source;
	sec.nnames = m->nnames - sec.first_name;
	return read_ignore_list(r, cJSON_GetObjectItemCaseSensitive(json, "x_google_ignoreList"),
				&sec) &&
	       read_contents(r, cJSON_GetObjectItemCaseSensitive(json, "sourcesContent"), &sec) &&
	       read_mappings(r, &sec, mappings->valuestring);
}

static int by_position(const void *a, const void *b)
{
	const struct source_map_segment *x = a, *y = b;
	if (x->line != y->line)
		return x->line < y->line ? -1 : 1;
	return x->column < y->column ? -1 : x->column > y->column;
}

static bool sorted(const struct source_map *m)
{
	for (size_t i = 1; i < m->nsegs; i++)
		if (by_position(&m->segs[i - 1], &m->segs[i]) > 0)
			return false;
	return true;
}

bool source_map_parse(const char *text, size_t len, struct source_map *out,
		      char *why, size_t cap)
{
	memset(out, 0, sizeof(*out));
	struct reader r = { out, why, cap };
	const char *end = NULL;
	cJSON *json = cJSON_ParseWithLengthOpts(text, len, &end, false);
	if (!json) {
		size_t at = end && end >= text && end <= text + len ? (size_t)(end - text) : 0;
		snprintf(why, cap, "byte %zu: not valid JSON", at);
		return false;
	}
	bool ok = read_map(&r, json, 0, 0, 0);
	cJSON_Delete(json);
	if (!ok) {
		source_map_free(out);
		return false;
	}
	if (!sorted(out))
		qsort(out->segs, out->nsegs, sizeof(*out->segs), by_position);
	return true;
}

void source_map_free(struct source_map *m)
{
	for (size_t i = 0; i < m->nsources; i++)
		free(m->sources[i]);
	for (size_t i = 0; i < m->ncontents; i++)
		free(m->contents[i]);
	for (size_t i = 0; i < m->nnames; i++)
		free(m->names[i]);
	FREE_ALL(m->file, m->sources, m->ignored, m->contents, m->names, m->segs);
	memset(m, 0, sizeof(*m));
}

/* The first segment after every segment before (line, column). */
static size_t lower_bound(const struct source_map *m, int32_t line, int32_t column)
{
	size_t lo = 0, hi = m->nsegs;
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		const struct source_map_segment *s = &m->segs[mid];
		if (s->line < line || (s->line == line && s->column <= column))
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

const struct source_map_segment *source_map_find(const struct source_map *m,
						 int32_t line, int32_t column)
{
	size_t i = lower_bound(m, line, column);
	return i > 0 && m->segs[i - 1].line == line ? &m->segs[i - 1] : NULL;
}

const struct source_map_segment *source_map_first_on_line(const struct source_map *m,
							   int32_t line)
{
	for (size_t i = lower_bound(m, line, -1); i < m->nsegs && m->segs[i].line == line; i++)
		if (m->segs[i].source >= 0)
			return &m->segs[i];
	return NULL;
}
