/* JavaScript frames through source maps (js_source_maps.h). */
#include "js_source_maps.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "base/base64.h"
#include "base/util.h"
#include "input/source.h"
#include "js_functions.h"
#include "source_map.h"
#include "symbolize.h"

struct script {
	char *url;
	bool looked;   /* its map was looked for (once, in the first model) */
	bool has_map;
	bool borrowed; /* its map is a --source-map's, freed with it */
	struct source_map map;
	char *base;  /* the directory the map's sources are relative to */
	char *why;   /* why its frames are not mapped, NULL when nothing to say */
	struct js_functions *functions; /* per source, scanned when first asked */
	bool *scanned;
};

struct given {
	const char *path;
	bool ok;
	struct source_map map;
};

/* What is kept from model to model: the scripts seen and their maps. */
struct js_source_maps {
	const struct symbolize_options *o;
	struct script *scripts;
	size_t nscripts;
	struct given *given;
};

/* One model's pass. */
struct mapping {
	struct js_source_maps *js;
	struct model *m;
	int32_t *frame_script; /* per frame, -1: not a script's */
	int32_t *frame_source; /* per frame mapped, its original source */
	int32_t *in_model;     /* the scripts of this model */
	size_t nin_model;
};

static void warn(const struct symbolize_options *o, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

static void warn(const struct symbolize_options *o, const char *fmt, ...)
{
	char text[512];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(text, sizeof(text), fmt, ap);
	va_end(ap);
	if (o->warn)
		o->warn(o->ctx, text);
}

static char *format(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

static char *format(const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	int n = vsnprintf(NULL, 0, fmt, ap);
	va_end(ap);
	char *s = xmalloc((size_t)n + 1);
	va_start(ap, fmt);
	vsnprintf(s, (size_t)n + 1, fmt, ap);
	va_end(ap);
	return s;
}

static const char *base_name(const char *path)
{
	const char *slash = strrchr(path, '/');
	return slash ? slash + 1 : path;
}

static char *dir_name(const char *path)
{
	const char *slash = strrchr(path, '/');
	if (!slash)
		return xstrdup(".");
	if (slash == path)
		return xstrdup("/");
	char *dir = xstrdup(path);
	dir[slash - path] = 0;
	return dir;
}

/* dir/rel with "." and "name/.." taken out, as a path a user reads. */
static char *resolved(const char *dir, const char *rel)
{
	if (rel[0] == '/' || strstr(rel, "://"))
		return xstrdup(rel);
	char *path = format("%s/%s", dir, rel);
	bool absolute = path[0] == '/';
	char **parts = xmalloc((strlen(path) + 1) * sizeof(char *));
	size_t n = 0;
	for (char *part = strtok(path, "/"); part; part = strtok(NULL, "/")) {
		if (!strcmp(part, "."))
			continue;
		if (!strcmp(part, "..") && n && strcmp(parts[n - 1], "..")) {
			n--;
			continue;
		}
		if (!strcmp(part, "..") && absolute)
			continue; /* nothing is above the root */
		parts[n++] = part;
	}
	size_t len = strlen(dir) + strlen(rel) + 3;
	char *out = xmalloc(len);
	size_t at = 0;
	out[0] = 0;
	if (absolute)
		out[at++] = '/';
	for (size_t k = 0; k < n; k++)
		at += (size_t)snprintf(out + at, len - at, "%s%s", k ? "/" : "", parts[k]);
	out[at] = 0;
	if (!at)
		snprintf(out, len, "%s", ".");
	free(parts);
	free(path);
	return out;
}

static bool read_file(const char *path, struct source_file *out)
{
	static const struct source_options as_is = { 0 };
	bool ok = source_find(&as_is, path, out);
	if (!ok)
		source_file_free(out);
	return ok;
}

static bool parse(const struct symbolize_options *o, const char *label, const char *text,
		  size_t len, struct source_map *map, char **why)
{
	char reason[256];
	if (source_map_parse(text, len, map, reason, sizeof(reason)))
		return true;
	warn(o, "%s: warning: source map not read: %s", label, reason);
	*why = format("its source map %s did not parse: %s", label, reason);
	return false;
}

static bool parse_file(const struct symbolize_options *o, const char *path,
		       struct source_map *map, char **why)
{
	struct source_file f;
	if (!read_file(path, &f)) {
		warn(o, "%s: warning: source map not found or not readable", path);
		*why = format("its source map %s is not readable", path);
		return false;
	}
	bool ok = parse(o, path, f.text, strlen(f.text), map, why);
	source_file_free(&f);
	return ok;
}

static bool is_dir(const char *path)
{
	struct stat st;
	return !stat(path, &st) && S_ISDIR(st.st_mode);
}

/* The value of the script's last sourceMappingURL comment, or NULL. */
static char *mapping_url(const char *text)
{
	static const char key[] = "sourceMappingURL=";
	const char *found = NULL;
	for (const char *p = text; (p = strstr(p, key)); p++)
		if (p - text >= 4 && (!strncmp(p - 4, "//# ", 4) || !strncmp(p - 4, "//@ ", 4)))
			found = p + strlen(key);
	if (!found)
		return NULL;
	size_t n = strcspn(found, " \t\r\n");
	return n ? format("%.*s", (int)n, found) : NULL;
}

/* An inline map: data:application/json;base64,... */
static bool parse_data_url(const struct symbolize_options *o, const char *script,
			   const char *url, struct source_map *map, char **why)
{
	const char *comma = strchr(url, ',');
	if (!comma || !strstr(url, ";base64") || strstr(url, ";base64") > comma) {
		*why = format("its inline source map is not base64 (%s)", script);
		warn(o, "%s: warning: inline source map not read: only base64 data: URLs are", script);
		return false;
	}
	char *json;
	size_t len;
	if (!base64_decode(comma + 1, strlen(comma + 1), &json, &len)) {
		*why = format("its inline source map is not valid base64 (%s)", script);
		warn(o, "%s: warning: inline source map not read: not valid base64", script);
		return false;
	}
	char *label = format("%s (inline map)", script);
	bool ok = parse(o, label, json, len, map, why);
	free(label);
	free(json);
	return ok;
}

/* The map named by the script's own comment. */
static bool map_of_script(const struct js_source_maps *js, struct script *s)
{
	const char *url = s->url;
	struct source_file f;
	if (!source_find(js->o->source, url, &f)) {
		s->why = format("script not found (tried %s)", f.tried ? f.tried : url);
		source_file_free(&f);
		return false;
	}
	char *ref = mapping_url(f.text);
	char *dir = dir_name(f.path);
	bool ok = false;
	if (!ref) {
		s->why = format("%s has no sourceMappingURL", f.path);
	} else if (!strncmp(ref, "data:", 5)) {
		ok = parse_data_url(js->o, f.path, ref, &s->map, &s->why);
		s->base = ok ? xstrdup(dir) : NULL;
	} else if (strstr(ref, "://") && strncmp(ref, "file://", 7)) {
		s->why = format("its source map %s is not fetched (maps are read offline)", ref);
	} else {
		char *path = resolved(dir, strncmp(ref, "file://", 7) ? ref : ref + 7);
		ok = parse_file(js->o, path, &s->map, &s->why);
		s->base = ok ? dir_name(path) : NULL;
		free(path);
	}
	free(dir);
	free(ref);
	source_file_free(&f);
	return ok;
}

/* A --source-map that names the script: a map file of it, or a
 * directory holding NAME.map. */
static bool map_given(const struct js_source_maps *js, struct script *s)
{
	const char *name = base_name(s->url);
	for (size_t i = 0; i < js->o->nsource_maps; i++) {
		const char *path = js->o->source_maps[i];
		if (is_dir(path)) {
			char *file = format("%s/%s.map", path, name);
			struct stat st;
			bool there = !stat(file, &st);
			bool ok = there && parse_file(js->o, file, &s->map, &s->why);
			s->base = ok ? dir_name(file) : NULL;
			free(file);
			if (there)
				return ok;
			continue;
		}
		const struct given *g = &js->given[i];
		size_t n = strlen(name);
		bool by_file = g->ok && g->map.file && !strcmp(base_name(g->map.file), name);
		bool by_name = !strncmp(base_name(path), name, n) &&
			       !strcmp(base_name(path) + n, ".map");
		if (!by_file && !by_name)
			continue;
		if (!g->ok) {
			s->why = format("its source map %s did not parse", path);
			return false;
		}
		s->map = g->map;
		s->borrowed = true;
		s->base = dir_name(path);
		return true;
	}
	return false;
}

/* Node's built-ins (node:) and Firefox's own code (self-hosted,
 * resource://, chrome://, moz-src://) ship no maps; nor does the console
 * call by which a live inspector session bridges its windows, marked
 * FRAME_PROFILER (src/live/cdp_windows.c): a script of the program's
 * may have its url. */
static bool is_script(const struct model *m, const struct frame *f)
{
	static const char *const builtin[] = { "node:", "self-hosted", "resource://",
					       "chrome://", "moz-src://" };
	const char *url = model_str(m, f->url);
	if (f->kind != KIND_JS || !*url || (f->flags & FRAME_PROFILER))
		return false;
	for (size_t i = 0; i < ARRAY_LEN(builtin); i++)
		if (!strncmp(url, builtin[i], strlen(builtin[i])))
			return false;
	return true;
}

/* The script of that url, added when it is new. */
static int32_t script_of(struct js_source_maps *js, const char *url)
{
	for (size_t i = 0; i < js->nscripts; i++)
		if (!strcmp(js->scripts[i].url, url))
			return (int32_t)i;
	js->scripts = xrealloc(js->scripts, (js->nscripts + 1) * sizeof(*js->scripts));
	js->scripts[js->nscripts] = (struct script){ .url = xstrdup(url) };
	return (int32_t)js->nscripts++;
}

static void find_scripts(struct mapping *mp)
{
	const struct model *m = mp->m;
	str_t *urls = xmalloc((m->nframes + 1) * sizeof(str_t));
	mp->frame_script = xmalloc((m->nframes + 1) * sizeof(int32_t));
	mp->in_model = xmalloc((m->nframes + 1) * sizeof(int32_t));
	for (uint32_t f = 0; f < m->nframes; f++) {
		mp->frame_script[f] = -1;
		if (!is_script(m, &m->frames[f]))
			continue;
		size_t i = 0;
		while (i < mp->nin_model && urls[i] != m->frames[f].url)
			i++;
		if (i == mp->nin_model) {
			urls[i] = m->frames[f].url;
			mp->in_model[mp->nin_model++] =
				script_of(mp->js, model_str(m, m->frames[f].url));
		}
		mp->frame_script[f] = mp->in_model[i];
	}
	free(urls);
}

struct js_source_maps *js_source_maps_new(const struct symbolize_options *o)
{
	struct js_source_maps *js = xcalloc(1, sizeof(*js));
	js->o = o;
	js->given = xcalloc(o->nsource_maps + 1, sizeof(*js->given));
	for (size_t i = 0; i < o->nsource_maps; i++) {
		struct given *g = &js->given[i];
		g->path = o->source_maps[i];
		if (is_dir(g->path))
			continue;
		char *why = NULL;
		g->ok = parse_file(o, g->path, &g->map, &why);
		free(why);
	}
	return js;
}

void js_source_maps_free(struct js_source_maps *js)
{
	for (size_t i = 0; i < js->nscripts; i++) {
		struct script *s = &js->scripts[i];
		for (size_t k = 0; s->scanned && k < s->map.nsources; k++)
			js_functions_free(&s->functions[k]);
		if (s->has_map && !s->borrowed)
			source_map_free(&s->map);
		FREE_ALL(s->url, s->base, s->why, s->functions, s->scanned);
	}
	for (size_t i = 0; i < js->o->nsource_maps; i++)
		if (js->given[i].ok)
			source_map_free(&js->given[i].map);
	FREE_ALL(js->scripts, js->given, js);
}

/* The generated 0-based line and column of a frame's start. */
static bool generated_start(const struct model *m, const struct frame *f,
			    int32_t *line, int32_t *column)
{
	int32_t shift = m->lines_zero_based ? 0 : 1;
	*line = f->line - shift;
	*column = f->column < 0 ? 0 : f->column - shift;
	return f->line >= shift && *column >= 0;
}

static bool anonymous(const char *name)
{
	return !*name || !strcmp(name, "(anonymous)");
}

/* The functions of a script's original source, from its sourcesContent
 * or its file; none when neither is there. */
static const struct js_functions *functions_of(struct script *s, int32_t source)
{
	if (!s->scanned) {
		s->scanned = xcalloc(s->map.nsources + 1, sizeof(bool));
		s->functions = xcalloc(s->map.nsources + 1, sizeof(*s->functions));
	}
	struct js_functions *fns = &s->functions[source];
	if (s->scanned[source])
		return fns;
	s->scanned[source] = true;
	const char *content = s->map.contents[source];
	if (content) {
		js_functions_scan(content, fns);
		return fns;
	}
	char *path = resolved(s->base, s->map.sources[source]);
	struct source_file f;
	if (read_file(path, &f)) {
		js_functions_scan(f.text, fns);
		source_file_free(&f);
	}
	free(path);
	return fns;
}

/* The name of the original function that holds a segment's position,
 * NULL when the source is not at hand or the position is at its top
 * level. */
static const char *enclosing_name(struct script *s, const struct source_map_segment *seg)
{
	const struct js_function *fn = js_function_at(
		functions_of(s, seg->source),
		(struct js_position){ seg->orig_line, seg->orig_column });
	return !fn ? NULL : fn->name ? fn->name : "(anonymous)";
}

/* The original's name: the map's at the frame's start, else the
 * function of the original source that holds it, else the generated
 * name.  A script's own top level (anonymous, at its first character)
 * is no function of the original, whatever the map has there. */
static const char *original_name(struct script *s, const struct source_map_segment *seg,
				 const char *generated, int32_t line, int32_t column)
{
	if (seg->name >= 0)
		return s->map.names[seg->name];
	bool top_level = anonymous(generated) && line == 0 && column == 0;
	const char *enclosing = top_level ? NULL : enclosing_name(s, seg);
	if (enclosing)
		return enclosing;
	return anonymous(generated) ? "(anonymous)" : generated;
}

/* What frame f of a mapped script is, and the strings the symbol
 * points to (freed by the caller, after symbolize_model). */
static void map_frame(struct mapping *mp, uint32_t f, struct symbol *sym, char **owned)
{
	const struct model *m = mp->m;
	const struct frame *fr = &m->frames[f];
	struct script *s = &mp->js->scripts[mp->frame_script[f]];
	int32_t line, column;
	const struct source_map_segment *seg = NULL;
	if (generated_start(m, fr, &line, &column))
		seg = source_map_find(&s->map, line, column);
	if (!seg || seg->source < 0) {
		*owned = format("its source map has no original at %s:%d:%d",
				base_name(model_str(m, fr->url)), line + 1, column + 1);
		sym->why_not = *owned;
		return;
	}
	int32_t shift = m->lines_zero_based ? 0 : 1;
	*owned = resolved(s->base, s->map.sources[seg->source]);
	*sym = (struct symbol){
		.mapped = true,
		.name = original_name(s, seg, model_str(m, fr->name), line, column),
		.url = *owned,
		.line = seg->orig_line + shift,
		.column = seg->orig_column + shift,
		.third_party = s->map.ignored[seg->source],
	};
	mp->frame_source[f] = seg->source;
}

/* A positionTicks line (1-based, generated) of frame f, as an original
 * line of the same source. */
static int32_t tick_line(void *ctx, uint32_t f, int32_t line)
{
	const struct mapping *mp = ctx;
	const struct script *s = &mp->js->scripts[mp->frame_script[f]];
	int32_t start, column;
	const struct source_map_segment *seg;
	if (generated_start(mp->m, &mp->m->frames[f], &start, &column) && start == line - 1)
		seg = source_map_find(&s->map, start, column);
	else
		seg = source_map_first_on_line(&s->map, line - 1);
	return seg && seg->source == mp->frame_source[f] ? seg->orig_line + 1 : -1;
}

/* The maps of this model's scripts, looked for the first time a script
 * is seen; how many of them have one. */
static size_t find_maps(struct mapping *mp)
{
	size_t found = 0;
	for (size_t k = 0; k < mp->nin_model; k++) {
		struct script *s = &mp->js->scripts[mp->in_model[k]];
		if (!s->looked)
			s->has_map = map_given(mp->js, s) || (!s->why && map_of_script(mp->js, s));
		s->looked = true;
		found += s->has_map;
	}
	return found;
}

void js_source_maps_map(struct js_source_maps *js, struct model *m)
{
	struct mapping mp = { .js = js, .m = m };
	find_scripts(&mp);
	size_t found = find_maps(&mp);
	if (!found && !js->o->nsource_maps) {
		FREE_ALL(mp.frame_script, mp.in_model);
		return;
	}
	struct symbols syms;
	symbols_init(&syms, m);
	char **owned = xcalloc(m->nframes + 1, sizeof(char *));
	mp.frame_source = xmalloc((m->nframes + 1) * sizeof(int32_t));
	for (uint32_t f = 0; f < m->nframes; f++) {
		mp.frame_source[f] = -1;
		int32_t i = mp.frame_script[f];
		if (i < 0)
			continue;
		if (js->scripts[i].has_map)
			map_frame(&mp, f, &syms.frames[f], &owned[f]);
		else
			syms.frames[f].why_not = js->scripts[i].why;
	}
	char *summary = format("source maps: %zu of %zu scripts", found, mp.nin_model);
	syms.summary = summary;
	syms.tick_line = tick_line;
	syms.ctx = &mp;
	symbolize_model(m, &syms);
	for (uint32_t f = 0; f < syms.nframes; f++)
		free(owned[f]);
	free(owned);
	free(summary);
	symbols_free(&syms);
	FREE_ALL(mp.frame_script, mp.frame_source, mp.in_model);
}

void js_source_maps_apply(struct model *m, const struct symbolize_options *o)
{
	struct js_source_maps *js = js_source_maps_new(o);
	js_source_maps_map(js, m);
	js_source_maps_free(js);
}
