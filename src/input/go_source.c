#include "go_source.h"

#include <ctype.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "base/util.h"

/* A directory to look under; for a module root, its module path too
 * (empty when its go.mod has no module line). */
struct place {
	char *dir;
	char *module;
};

struct place_list {
	struct place *items;
	size_t n, cap;
};

struct go_search {
	go_try_fn try;
	void *ctx;
	struct place_list goroots, caches, roots, gopaths;
};

/* Takes `dir` and `module` over; a directory already listed is dropped. */
static void add_place(struct place_list *l, char *dir, char *module)
{
	for (size_t i = 0; i < l->n; i++) {
		if (!strcmp(l->items[i].dir, dir)) {
			free(dir);
			free(module);
			return;
		}
	}
	GROW(l->items, l->cap, l->n + 1);
	l->items[l->n++] = (struct place){ dir, module };
}

static void free_places(struct place_list *l)
{
	for (size_t i = 0; i < l->n; i++)
		FREE_ALL(l->items[i].dir, l->items[i].module);
	free(l->items);
}

/* The first alen bytes of a, then "/", b and c. */
static char *joined(const char *a, size_t alen, const char *b, const char *c)
{
	char *out = xmalloc(alen + strlen(b) + strlen(c) + 2);
	sprintf(out, "%.*s/%s%s", (int)alen, a, b, c);
	return out;
}

static bool ends_with(const char *s, const char *tail)
{
	size_t n = strlen(s), k = strlen(tail);
	return n >= k && !strcmp(s + n - k, tail);
}

/* The GOROOT of the `go` first found on PATH: the directory above the
 * bin/ that holds it, once symbolic links are followed (Debian's
 * /usr/bin/go is a link into /usr/lib/go-1.N/bin). */
static char *path_go_root(void)
{
	const char *p = getenv("PATH");
	while (p && *p) {
		size_t n = strcspn(p, ":");
		char *exe = joined(p, n, "go", "");
		char real[PATH_MAX];
		bool found = n && !access(exe, X_OK) && realpath(exe, real);
		free(exe);
		if (found) {
			for (int up = 0; up < 2; up++) {
				char *slash = strrchr(real, '/');
				if (!slash || slash == real)
					return NULL;
				*slash = 0;
			}
			return xstrdup(real);
		}
		p += n + (p[n] == ':');
	}
	return NULL;
}

/* The file `go env -w` writes: $GOENV ("off": none), else
 * $XDG_CONFIG_HOME/go/env, else ~/.config/go/env. */
static char *go_env_file(void)
{
	const char *env = getenv("GOENV"), *config = getenv("XDG_CONFIG_HOME");
	const char *home = getenv("HOME");
	if (env && *env)
		return strcmp(env, "off") ? xstrdup(env) : NULL;
	if (config && *config)
		return joined(config, strlen(config), "go/env", "");
	return home && *home ? joined(home, strlen(home), ".config/go/env", "") : NULL;
}

/* A KEY=VALUE line of the go env file, as the go command reads it. */
static char *go_env_file_value(const char *key)
{
	char *name = go_env_file();
	FILE *f = name ? fopen(name, "r") : NULL;
	free(name);
	if (!f)
		return NULL;
	char line[4096], *value = NULL;
	size_t n = strlen(key);
	while (!value && fgets(line, sizeof(line), f)) {
		line[strcspn(line, "\r\n")] = 0;
		if (!strncmp(line, key, n) && line[n] == '=' && line[n + 1])
			value = xstrdup(line + n + 1);
	}
	fclose(f);
	return value;
}

/* A go setting as the go command has it: the environment's when set and
 * not empty, else the go env file's; NULL when neither says. */
static char *go_setting(const char *key)
{
	const char *env = getenv(key);
	return env && *env ? xstrdup(env) : go_env_file_value(key);
}

static void find_goroots(struct place_list *l)
{
	char *env = go_setting("GOROOT");
	if (env)
		add_place(l, env, NULL);
	char *root = path_go_root();
	if (root)
		add_place(l, root, NULL);
}

/* Each GOPATH entry joined with `sub`; GOPATH defaults to ~/go. */
static void find_in_gopath(struct place_list *l, const char *sub)
{
	char *gopath = go_setting("GOPATH");
	const char *home = getenv("HOME");
	if (!gopath && home && *home)
		gopath = joined(home, strlen(home), "go", "");
	for (const char *p = gopath; p && *p; p += *p == ':') {
		size_t n = strcspn(p, ":");
		if (n)
			add_place(l, joined(p, n, sub, ""), NULL);
		p += n;
	}
	free(gopath);
}

/* As the go command: $GOMODCACHE, else $GOPATH's pkg/mod. */
static void find_caches(struct place_list *l)
{
	char *cache = go_setting("GOMODCACHE");
	if (cache)
		add_place(l, cache, NULL);
	else
		find_in_gopath(l, "pkg/mod");
}

/* The module path of `dir`/go.mod ("" without a module line), NULL when
 * there is no go.mod. */
static char *module_of(const char *dir)
{
	char *name = joined(dir, strlen(dir), "go.mod", "");
	FILE *f = fopen(name, "r");
	free(name);
	if (!f)
		return NULL;
	char line[4096], *module = NULL;
	while (!module && fgets(line, sizeof(line), f)) {
		char *p = line + strspn(line, " \t");
		if (strncmp(p, "module", 6) || !isspace((unsigned char)p[6]))
			continue;
		p += 6 + strspn(p + 6, " \t\"`");
		size_t n = strcspn(p, " \t\r\n\"`");
		module = xmalloc(n + 1);
		memcpy(module, p, n);
		module[n] = 0;
	}
	fclose(f);
	return module ? module : xstrdup("");
}

/* The nearest go.mod at or above `start`. */
static void find_root_above(struct place_list *l, const char *start)
{
	char dir[PATH_MAX];
	if (!realpath(start, dir))
		return;
	for (;;) {
		char *module = module_of(dir);
		if (module) {
			add_place(l, xstrdup(dir), module);
			return;
		}
		char *slash = strrchr(dir, '/');
		if (!slash || slash == dir)
			return;
		*slash = 0;
	}
}

static bool try_under(const struct go_search *s, const char *dir, const char *sub,
		      const char *tail)
{
	char *path = joined(dir, strlen(dir), sub, tail);
	bool ok = s->try(s->ctx, path);
	free(path);
	return ok;
}

static bool try_each(const struct go_search *s, const struct place_list *l,
		     const char *sub, const char *tail)
{
	for (size_t i = 0; i < l->n; i++)
		if (try_under(s, l->items[i].dir, sub, tail))
			return true;
	return false;
}

/* The first `n` bytes of a module path or version as the module cache
 * spells them: each capital as '!' and its small letter (escape), or
 * back (!escape). */
static char *cache_spelling(const char *s, size_t n, bool escape)
{
	char *out = xmalloc(2 * n + 1), *o = out;
	for (size_t i = 0; i < n; i++) {
		if (escape && isupper((unsigned char)s[i])) {
			*o++ = '!';
			*o++ = (char)tolower((unsigned char)s[i]);
		} else if (!escape && s[i] == '!' && i + 1 < n) {
			*o++ = (char)toupper((unsigned char)s[++i]);
		} else {
			*o++ = s[i];
		}
	}
	*o = 0;
	return out;
}

/* "<module>@<version>/<file>" (spelt either way): in the module cache,
 * then vendored under each module root. */
static bool try_versioned(const struct go_search *s, const char *t)
{
	const char *at = strchr(t, '@'), *file = at ? strchr(at, '/') : NULL;
	if (!file)
		return false;
	char *cached = cache_spelling(t, (size_t)(file - t), true);
	bool ok = try_each(s, &s->caches, cached, file);
	free(cached);
	if (ok)
		return true;
	char *module = cache_spelling(t, (size_t)(at - t), false);
	char *vendored = joined("vendor", 6, module, "");
	ok = try_each(s, &s->roots, vendored, file);
	FREE_ALL(module, vendored);
	return ok;
}

/* Standard packages' import paths have no dot in their first element. */
static bool is_std(const char *t)
{
	size_t first = strcspn(t, "/");
	return t[first] == '/' && !memchr(t, '.', first);
}

static const char *after_last(const char *path, const char *mark)
{
	const char *last = NULL;
	for (const char *p = strstr(path, mark); p; p = strstr(p + 1, mark))
		last = p;
	return last ? last + strlen(mark) : NULL;
}

/* A path from the machine that built the program. */
static bool find_absolute(const struct go_search *s, const char *path)
{
	const char *t = after_last(path, "/pkg/mod/");
	if (t && try_versioned(s, t))
		return true;
	t = after_last(path, "/vendor/");
	if (t && try_each(s, &s->roots, "vendor/", t))
		return true;
	t = after_last(path, "/src/");
	if (t && is_std(t) && try_each(s, &s->goroots, "src/", t))
		return true;
	/* GOPATH mode: $GOPATH/src/<import path>/f.go, the GOPATH of the
	 * building machine being any directory before a /src/. */
	for (t = strstr(path, "/src/"); t; t = strstr(t + 1, "/src/"))
		if (try_each(s, &s->gopaths, "", t + 5))
			return true;
	return false;
}

/* A path of a -trimpath build. */
static bool find_trimmed(const struct go_search *s, const char *path)
{
	if (strchr(path, '@'))
		return try_versioned(s, path);
	for (size_t i = 0; i < s->roots.n; i++) {
		const struct place *r = &s->roots.items[i];
		size_t n = strlen(r->module);
		if (n && !strncmp(path, r->module, n) && path[n] == '/' &&
		    try_under(s, r->dir, "", path + n + 1))
			return true;
	}
	if (try_each(s, &s->roots, "vendor/", path))
		return true;
	if (is_std(path) && try_each(s, &s->goroots, "src/", path))
		return true;
	return try_each(s, &s->gopaths, "", path);
}

bool go_source_find(const char *path, const char *const *dirs, size_t ndirs,
		    go_try_fn try, void *ctx)
{
	if (!ends_with(path, ".go") && !ends_with(path, ".s"))
		return false;
	struct go_search s = { .try = try, .ctx = ctx };
	find_goroots(&s.goroots);
	find_caches(&s.caches);
	find_in_gopath(&s.gopaths, "src");
	find_root_above(&s.roots, ".");
	for (size_t i = 0; i < ndirs; i++)
		find_root_above(&s.roots, dirs[i]);
	bool found = path[0] == '/' ? find_absolute(&s, path) : find_trimmed(&s, path);
	free_places(&s.goroots);
	free_places(&s.caches);
	free_places(&s.roots);
	free_places(&s.gopaths);
	return found;
}
