#include "theme.h"

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "model/model.h"
#include "base/util.h"

static const char *const element_names[EL_COUNT] = {
	[EL_NORMAL] = "normal",
	[EL_HEADER] = "header",
	[EL_TAB] = "tab",
	[EL_TAB_ACTIVE] = "tab-active",
	[EL_COLUMNS] = "columns",
	[EL_SELECTED] = "selected",
	[EL_DIM] = "dim",
	[EL_MATCH] = "match",
	[EL_STATUS] = "status",
	[EL_NOT_APPLICABLE] = "not-applicable",
	[EL_CALLER] = "caller",
	[EL_PRIMARY] = "primary",
	[EL_CALLEE] = "callee",
	[EL_TREE] = "tree",
	[EL_KIND_JS] = "kind-js",
	[EL_KIND_NATIVE] = "kind-native",
	[EL_KIND_WASM] = "kind-wasm",
	[EL_KIND_GC] = "kind-gc",
	[EL_KIND_IDLE] = "kind-idle",
	[EL_KIND_PROGRAM] = "kind-program",
	[EL_RANGE] = "range",
};

static const struct {
	const char *name;
	unsigned least, most; /* colours a line must list */
} palette_lines[PALETTE_COUNT] = {
	[PALETTE_KIND] = { "flame-kind", KIND_COUNT, KIND_COUNT },
	[PALETTE_KIND_8] = { "flame-kind-8", KIND_COUNT, KIND_COUNT },
	[PALETTE_FILE] = { "flame-file", 1, PALETTE_MAX },
	[PALETTE_FILE_8] = { "flame-file-8", 1, PALETTE_MAX },
	[PALETTE_DIFF] = { "flame-diff", PALETTE_DIFF_STEPS, PALETTE_DIFF_STEPS },
	[PALETTE_DIFF_8] = { "flame-diff-8", PALETTE_DIFF_STEPS, PALETTE_DIFF_STEPS },
	[PALETTE_TEXT] = { "flame-text", 1, 1 },
	[PALETTE_TEXT_8] = { "flame-text-8", 1, 1 },
	[PALETTE_REMAINDER] = { "flame-remainder", 1, 1 },
	[PALETTE_REMAINDER_8] = { "flame-remainder-8", 1, 1 },
};

static const char *const colour_names[8] = {
	"black", "red", "green", "yellow", "blue", "magenta", "cyan", "white",
};

void theme_plain(struct theme *t)
{
	memset(t, 0, sizeof(*t));
	for (int e = 0; e < EL_COUNT; e++)
		t->style[e].fg = t->style[e].bg = -1;
	t->style[EL_HEADER].attrs = THEME_BOLD;
	t->style[EL_TAB_ACTIVE].attrs = THEME_REVERSE;
	t->style[EL_COLUMNS].attrs = THEME_UNDERLINE;
	t->style[EL_SELECTED].attrs = THEME_REVERSE;
	t->style[EL_DIM].attrs = THEME_DIM;
	t->style[EL_MATCH].attrs = THEME_BOLD | THEME_UNDERLINE;
	t->style[EL_STATUS].attrs = THEME_REVERSE;
	t->style[EL_NOT_APPLICABLE].attrs = THEME_BOLD;
	t->style[EL_PRIMARY].attrs = THEME_BOLD;
	t->style[EL_KIND_GC].attrs = THEME_BOLD;
	t->style[EL_KIND_IDLE].attrs = THEME_DIM;
	t->style[EL_RANGE].attrs = THEME_BOLD;
}

static bool parse_colour(const char *word, short *out)
{
	if (!strcmp(word, "default")) {
		*out = -1;
		return true;
	}
	if (isdigit((unsigned char)word[0])) {
		char *end;
		long n = strtol(word, &end, 10);
		*out = (short)n;
		return !*end && n >= 0 && n <= 255;
	}
	int bright = !strncmp(word, "bright-", 7) ? 8 : 0;
	for (int c = 0; c < 8; c++)
		if (!strcmp(word + (bright ? 7 : 0), colour_names[c])) {
			*out = (short)(c + bright);
			return true;
		}
	return false;
}

static bool parse_attr(const char *word, unsigned *attrs)
{
	static const struct { const char *name; unsigned bit; } names[] = {
		{ "bold", THEME_BOLD }, { "dim", THEME_DIM },
		{ "reverse", THEME_REVERSE }, { "underline", THEME_UNDERLINE },
	};
	for (size_t i = 0; i < ARRAY_LEN(names); i++)
		if (!strcmp(word, names[i].name)) {
			*attrs |= names[i].bit;
			return true;
		}
	return false;
}

/* "FG [on BG] [attrs]": the words after the '='. */
static bool parse_style(char *value, struct theme_style *s, const char **bad)
{
	*s = (struct theme_style){ .fg = -1, .bg = -1 };
	bool after_on = false, have_fg = false;
	for (char *word = strtok(value, " \t,"); word; word = strtok(NULL, " \t,")) {
		*bad = word;
		short c;
		if (!strcmp(word, "on")) {
			after_on = true;
		} else if (parse_attr(word, &s->attrs)) {
			continue;
		} else if (parse_colour(word, &c)) {
			if (after_on) {
				s->bg = c;
				s->colour_bg = true;
				after_on = false;
			} else if (!have_fg) {
				s->fg = c;
				s->colour_fg = have_fg = true;
			} else {
				return false;
			}
		} else {
			return false;
		}
	}
	return !after_on;
}

/* A palette line's colours; false with the offending word in *bad, or
 * *bad NULL when the count is wrong. */
static bool parse_palette(char *value, enum theme_palette p, struct theme_colours *out,
			  const char **bad)
{
	out->n = 0;
	for (char *word = strtok(value, " \t,"); word; word = strtok(NULL, " \t,")) {
		*bad = word;
		if (out->n == PALETTE_MAX || !parse_colour(word, &out->colour[out->n]))
			return false;
		out->n++;
	}
	*bad = NULL;
	return out->n >= palette_lines[p].least && out->n <= palette_lines[p].most;
}

static int palette_of(const char *name)
{
	for (int p = 0; p < PALETTE_COUNT; p++)
		if (!strcmp(name, palette_lines[p].name))
			return p;
	return -1;
}

static int element_of(const char *name)
{
	for (int e = 0; e < EL_COUNT; e++)
		if (!strcmp(name, element_names[e]))
			return e;
	return -1;
}

static char *trim(char *s)
{
	while (isspace((unsigned char)*s))
		s++;
	char *end = s + strlen(s);
	while (end > s && isspace((unsigned char)end[-1]))
		*--end = 0;
	return s;
}

/* Parses theme text; `origin` names it in messages. */
static bool theme_parse(const char *text, const char *origin, struct theme *t,
			char *err, size_t cap)
{
	theme_plain(t);
	char *copy = xstrdup(text), *next = copy;
	bool ok = true;
	for (int line = 1; ok && next; line++) {
		char *s = next;
		next = strchr(s, '\n');
		if (next)
			*next++ = 0;
		char *hash = strchr(s, '#');
		if (hash)
			*hash = 0;
		s = trim(s);
		if (!*s)
			continue;
		char *eq = strchr(s, '=');
		const char *bad = s;
		int e = -1, p = -1;
		if (eq) {
			*eq = 0;
			e = element_of(trim(s));
			p = palette_of(trim(s));
		}
		if (p >= 0) {
			if (!parse_palette(eq + 1, p, &t->palette[p], &bad)) {
				if (bad)
					snprintf(err, cap, "%s:%d: '%s' is not a colour", origin,
						 line, bad);
				else
					snprintf(err, cap, "%s:%d: %s takes %u to %u colours",
						 origin, line, palette_lines[p].name,
						 palette_lines[p].least, palette_lines[p].most);
				ok = false;
			}
		} else if (!eq || e < 0) {
			snprintf(err, cap, "%s:%d: expected 'element = colour', element one of "
				 "normal, header, tab, tab-active, columns, selected, dim, match, "
				 "status, not-applicable, caller, primary, callee, tree, kind-*, range, "
				 "flame-*", origin, line);
			ok = false;
		} else if (!parse_style(eq + 1, &t->style[e], &bad)) {
			snprintf(err, cap, "%s:%d: '%s' is not a colour or attribute",
				 origin, line, bad);
			ok = false;
		}
	}
	free(copy);
	return ok;
}

static bool read_file(const char *path, char **text)
{
	FILE *f = fopen(path, "r");
	if (!f)
		return false;
	size_t len = 0, cap = 4096;
	*text = xmalloc(cap);
	size_t got;
	while ((got = fread(*text + len, 1, cap - len - 1, f)) > 0) {
		len += got;
		if (len + 1 == cap)
			*text = xrealloc(*text, cap *= 2);
	}
	(*text)[len] = 0;
	fclose(f);
	return true;
}

bool theme_load(const char *name, struct theme *t, char *err, size_t cap)
{
	char path[4096];
	char *text = NULL;
	if (strchr(name, '/')) {
		snprintf(path, sizeof(path), "%s", name);
		read_file(path, &text);
	} else {
		const char *dirs[] = { getenv("WPROF_THEME_DIR"), WPROF_THEMES_DIR,
				       WPROF_SOURCE_THEMES_DIR };
		for (size_t i = 0; i < ARRAY_LEN(dirs) && !text; i++) {
			if (!dirs[i] || !*dirs[i])
				continue;
			snprintf(path, sizeof(path), "%s/%s.theme", dirs[i], name);
			read_file(path, &text);
		}
	}
	if (!text) {
		snprintf(err, cap, "theme '%s' not found (looked in $WPROF_THEME_DIR, %s)",
			 name, WPROF_THEMES_DIR);
		return false;
	}
	bool ok = theme_parse(text, path, t, err, cap);
	free(text);
	return ok;
}
