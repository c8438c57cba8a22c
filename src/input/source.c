#include "source.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "base/util.h"
#include "input/go_source.h"

#define MAX_SOURCE_BYTES ((size_t)64 << 20)
#define MAX_TRIED_SHOWN 6

static bool read_whole(const char *path, struct source_file *out)
{
	struct stat st;
	if (stat(path, &st) || !S_ISREG(st.st_mode) || (size_t)st.st_size > MAX_SOURCE_BYTES)
		return false;
	FILE *f = fopen(path, "rb");
	if (!f)
		return false;
	size_t n = (size_t)st.st_size;
	char *text = xmalloc(n + 1);
	size_t got = fread(text, 1, n, f);
	fclose(f);
	text[got] = 0;
	size_t cap = 0;
	out->nlines = 0;
	for (size_t i = 0; i < got; i++) {
		if (i == 0 || text[i - 1] == '\n') {
			GROW(out->line_start, cap, out->nlines + 1);
			out->line_start[out->nlines++] = i;
		}
	}
	GROW(out->line_start, cap, out->nlines + 1);
	/* One past the last line's break, real or not. */
	out->line_start[out->nlines] = got && text[got - 1] == '\n' ? got : got + 1;
	out->text = text;
	out->path = xstrdup(path);
	return true;
}

static void note_tried(struct source_file *out, size_t *ntried, const char *path)
{
	size_t old = out->tried ? strlen(out->tried) : 0;
	if (++*ntried > MAX_TRIED_SHOWN) {
		if (*ntried == MAX_TRIED_SHOWN + 1) {
			out->tried = xrealloc(out->tried, old + 6);
			strcpy(out->tried + old, ", ...");
		}
		return;
	}
	out->tried = xrealloc(out->tried, old + strlen(path) + 3);
	sprintf(out->tried + old, "%s%s", old ? ", " : "", path);
}

static bool try_path(struct source_file *out, size_t *ntried, const char *path)
{
	note_tried(out, ntried, path);
	return read_whole(path, out);
}

struct search {
	struct source_file *out;
	size_t *ntried;
};

static bool try_go_place(void *ctx, const char *path)
{
	struct search *s = ctx;
	return try_path(s->out, s->ntried, path);
}

/* dir/rel, then dir/ each shorter tail of rel. */
static bool try_under(struct source_file *out, size_t *ntried, const char *dir,
		      const char *rel)
{
	while (*rel == '/')
		rel++;
	for (const char *tail = rel; tail && *tail;) {
		char *path = xmalloc(strlen(dir) + strlen(tail) + 2);
		sprintf(path, "%s/%s", dir, tail);
		bool ok = try_path(out, ntried, path);
		free(path);
		if (ok)
			return true;
		tail = strchr(tail, '/');
		if (tail)
			tail++;
	}
	return false;
}

/* "file:///a/b.js" -> "/a/b.js"; "http://host/a/b.js" -> "/a/b.js". */
static const char *path_of(const char *url)
{
	if (!strncmp(url, "file://", 7))
		return url + 7;
	const char *scheme = strstr(url, "://");
	if (scheme && scheme > url) {
		const char *slash = strchr(scheme + 3, '/');
		return slash ? slash : "";
	}
	return url;
}

static const char *trimmed(const struct source_options *o, const char *path)
{
	for (size_t i = 0; i < o->ntrims; i++) {
		size_t n = strlen(o->trims[i]);
		if (n && !strncmp(path, o->trims[i], n))
			return path + n;
	}
	return NULL;
}

const char *source_shown_path(const struct source_options *o, const char *url)
{
	const char *rel = trimmed(o, url);
	if (!rel)
		return url;
	while (*rel == '/')
		rel++;
	return rel;
}

bool source_find(const struct source_options *o, const char *url,
		 struct source_file *out)
{
	memset(out, 0, sizeof(*out));
	const char *path = path_of(url);
	size_t ntried = 0;
	if (!*path)
		return false;
	if (path[0] == '/' && try_path(out, &ntried, path))
		return true;
	const char *rel = trimmed(o, path);
	if (rel && !o->ndirs && try_path(out, &ntried, *rel == '/' ? rel + 1 : rel))
		return true;
	if (path[0] != '/' && !o->ndirs && try_path(out, &ntried, path))
		return true;
	for (size_t i = 0; i < o->ndirs; i++)
		if (try_under(out, &ntried, o->dirs[i], rel ? rel : path))
			return true;
	struct search go = { out, &ntried };
	return go_source_find(path, o->dirs, o->ndirs, try_go_place, &go);
}

const char *source_line(const struct source_file *f, int32_t line, size_t *len)
{
	if (!f->text || line < 1 || (size_t)line > f->nlines)
		return NULL;
	size_t a = f->line_start[line - 1], b = f->line_start[line] - 1;
	/* The last line ends at the end of the text, its break included. */
	if (b > a && f->text[b - 1] == '\n')
		b--;
	if (b > a && f->text[b - 1] == '\r')
		b--;
	*len = b - a;
	return f->text + a;
}

void source_file_free(struct source_file *f)
{
	free(f->path);
	free(f->text);
	free(f->line_start);
	free(f->tried);
	memset(f, 0, sizeof(*f));
}
