/* JavaScript source maps (src/transform/js_source_maps.h, source_map.h)
 * on a real esbuild bundle profiled by Node (testdata/sourcemap/README.md):
 * every frame with self time mapped to the name and place Mozilla's
 * source-map library gives (the reference files), self per original
 * function the sum of its generated frames' (summed here from the
 * profile's own samples), the inline data: map alike, a broken map a
 * warning, x_google_ignoreList third-party, and the parser's own rules. */
#include <string.h>

#include "tests/check.h"
#include "base/util.h"
#include "input/source.h"
#include "loaders/loaders.h"
#include "transform/js_source_maps.h"
#include "transform/source_map.h"
#include "transform/symbolize.h"

struct ref {
	char generated[128];   /* "name L:C", 1-based */
	char name[64], source[192];
	int line, column;      /* 1-based, 0 when the library found none */
};

static size_t read_refs(const char *path, struct ref *refs, size_t cap)
{
	char *text = check_read_file(path, NULL);
	CHECK_MSG(text != NULL, "%s not readable", path);
	size_t n = 0;
	for (char *line = text ? strtok(text, "\n") : NULL; line && n < cap;
	     line = strtok(NULL, "\n")) {
		struct ref *r = &refs[n];
		char gen_name[64], gen_place[32], place[160];
		if (sscanf(line, "%63s %31s -> %63s %159s", gen_name, gen_place, r->name, place) != 4)
			continue;
		snprintf(r->generated, sizeof(r->generated), "%s %s", gen_name, gen_place);
		char *colon = strchr(place, ':');
		*colon = 0;
		snprintf(r->source, sizeof(r->source), "%s", place);
		r->line = r->column = 0;
		sscanf(colon + 1, "%d:%d", &r->line, &r->column);
		n++;
	}
	free(text);
	return n;
}

/* Self time per frame, from the samples. */
static double *self_by_frame(const struct model *m)
{
	double *self = xcalloc(m->nframes + 1, sizeof(double));
	for (size_t i = 0; i < m->nsamples; i++)
		self[m->nodes[m->sample_node[i]].frame] += m->sample_duration[i];
	return self;
}

/* The reference of frame f: by its name and place ("name L:C", 1-based
 * as the model shows them), or by its place alone where the profile's
 * names are not the generated functions' (Firefox's "u/<", its script's
 * "(root scope) URL"). */
static const struct ref *find_ref(const struct model *m, uint32_t f, const struct ref *refs,
				  size_t n, bool by_place)
{
	const struct frame *fr = &m->frames[f];
	const char *name = model_str(m, fr->name);
	char key[160], place[32];
	snprintf(place, sizeof(place), "%d:%d", symbol_place_shown(m, fr->line),
		 symbol_place_shown(m, fr->column));
	snprintf(key, sizeof(key), "%s %s", *name ? name : "(anonymous)", place);
	for (size_t i = 0; i < n; i++)
		if (by_place ? !strcmp(strrchr(refs[i].generated, ' ') + 1, place)
			     : !strcmp(refs[i].generated, key))
			return &refs[i];
	return NULL;
}

static const struct ref *ref_of(const struct model *m, uint32_t f, const struct ref *refs,
				size_t n)
{
	return find_ref(m, f, refs, n, false);
}

static bool ends_with(const char *s, const char *tail)
{
	size_t a = strlen(s), b = strlen(tail);
	return a >= b && !strcmp(s + a - b, tail) && (a == b || s[a - b - 1] == '/');
}

/* The frame the library's answer names: "(anonymous)" where it has no
 * name (the generated function is anonymous too: js_source_maps.h). */
static uint32_t mapped_frame(const struct model *m, const struct ref *r)
{
	const char *source = r->source;
	while (!strncmp(source, "../", 3))
		source += 3;
	const char *name = strcmp(r->name, "null") ? r->name : "(anonymous)";
	for (uint32_t f = 0; f < m->nframes; f++) {
		const struct frame *fr = &m->frames[f];
		if (!strcmp(model_str(m, fr->name), name) &&
		    ends_with(model_str(m, fr->url), source) &&
		    symbol_place_shown(m, fr->line) == r->line &&
		    symbol_place_shown(m, fr->column) == r->column)
			return f;
	}
	return NO_ID;
}

static int warnings;
static char last_warning[512];

static void count_warning(void *ctx, const char *message)
{
	(void)ctx;
	warnings++;
	snprintf(last_warning, sizeof(last_warning), "%s", message);
}

static bool load_from(const char *dir, const char *sub, const char *name, struct model *m);

/* The profile with its scripts' urls where no machine has them (the
 * material it was made from may be on this one): the scripts are found
 * under --source-path only. */
static bool load(const char *dir, const char *name, struct model *m)
{
	return load_from(dir, "dist", name, m);
}

static bool load_from(const char *dir, const char *sub, const char *name, struct model *m)
{
	static const char made_at[] = "file:///work/material/sm/";
	static const char nowhere[] = "file:///nowhere/elses/sm/";
	char path[512];
	snprintf(path, sizeof(path), "%s/sourcemap/%s/%s", dir, sub, name);
	size_t len;
	char *text = check_read_file(path, &len);
	CHECK_MSG(text != NULL, "%s not readable", path);
	if (!text)
		return false;
	for (char *at = text; (at = strstr(at, made_at));)
		memcpy(at, nowhere, strlen(nowhere));
	struct load_options opt = { .session = -1 };
	struct load_error err;
	bool ok = load_memory(text, len, path, &opt, m, &err);
	CHECK_MSG(ok, "%s: %s", path, err.message);
	free(text);
	return ok;
}

static void apply(const char *dir, struct model *m, const char *map)
{
	char root[512];
	snprintf(root, sizeof(root), "%s/sourcemap", dir);
	const char *dirs[] = { root };
	struct source_options source = { dirs, 1, NULL, 0 };
	const char *maps[] = { map };
	struct symbolize_options o = { .source_maps = maps, .nsource_maps = map ? 1 : 0,
				       .source = &source, .warn = count_warning };
	js_source_maps_apply(m, &o);
}

/* Which frames of a profile are checked, and how they are known. */
struct checked {
	const char *sub;     /* under testdata/sourcemap */
	size_t nrefs;        /* lines of the reference */
	size_t frames;       /* at least this many frames checked */
	bool self_only;      /* only frames with self time, else every one
			      * of the bundle with a place */
	bool by_place;       /* references found by place alone */
	const char *summary; /* the header's note */
};

static void check_frames(const char *dir, const char *profile, const char *reference,
			 const struct checked *c);

static void check_profile(const char *dir, const char *profile, const char *reference)
{
	check_frames(dir, profile, reference,
		     &(struct checked){ "dist", 10, 8, true, false,
					     "source maps: 1 of 1 scripts" });
}

static void check_frames(const char *dir, const char *profile, const char *reference,
			 const struct checked *c)
{
	char path[512];
	snprintf(path, sizeof(path), "%s/sourcemap/%s/%s", dir, c->sub, reference);
	struct ref refs[32];
	size_t nrefs = read_refs(path, refs, ARRAY_LEN(refs));
	CHECK(nrefs == c->nrefs);
	struct model m;
	if (!load_from(dir, c->sub, profile, &m))
		return;
	double *before = self_by_frame(&m);
	size_t nsamples = m.nsamples;
	/* Per generated frame checked: the original it is to become. */
	uint32_t generated[64];
	const struct ref *wanted[64];
	size_t n = 0, checked = 0;
	for (uint32_t f = 0; f < m.nframes && n < 64; f++) {
		const struct frame *fr = &m.frames[f];
		if (!strstr(model_str(&m, fr->url), "bundle") || fr->line < 0 ||
		    (c->self_only && !(before[f] > 0)))
			continue;
		checked++;
		const struct ref *r = find_ref(&m, f, refs, nrefs, c->by_place);
		CHECK_MSG(r != NULL, "%s: frame %s has no reference", profile,
			  model_str(&m, fr->name));
		if (r) {
			generated[n] = f;
			wanted[n++] = r;
		}
	}
	CHECK_MSG(checked >= c->frames, "%s: %zu frames checked", profile, checked);
	warnings = 0;
	apply(dir, &m, NULL);
	CHECK(warnings == 0);
	CHECK_MSG(!strcmp(model_str(&m, m.symbols), c->summary), "%s: %s", profile,
		  model_str(&m, m.symbols));
	CHECK(m.nsamples == nsamples);
	double *after = self_by_frame(&m);
	for (size_t i = 0; i < n; i++) {
		const struct ref *r = wanted[i];
		if (!strcmp(r->source, "null")) {
			/* No original: the frame stays, saying why. */
			bool found = false;
			for (uint32_t f = 0; f < m.nframes; f++) {
				const struct frame_origin *o = symbol_origin(&m, f);
				found |= o && o->url == STR_NONE &&
					 (after[f] > 0 || !c->self_only) &&
					 strstr(model_str(&m, o->why_not), "no original") &&
					 strstr(model_str(&m, m.frames[f].url), "bundle");
			}
			CHECK_MSG(found, "%s: %s kept with a reason", profile, r->generated);
			continue;
		}
		uint32_t f = mapped_frame(&m, r);
		CHECK_MSG(f != NO_ID, "%s: %s -> %s %s:%d:%d not found", profile, r->generated,
			  r->name, r->source, r->line, r->column);
		if (f == NO_ID)
			continue;
		double sum = 0;
		for (size_t j = 0; j < n; j++)
			if (mapped_frame(&m, wanted[j]) == f && strcmp(wanted[j]->source, "null"))
				sum += before[generated[j]];
		CHECK_CLOSE(after[f], sum, r->generated);
		const struct frame_origin *o = symbol_origin(&m, f);
		CHECK(o && o->url != STR_NONE && strstr(model_str(&m, o->url), "bundle"));
		CHECK(!(m.frames[f].flags & FRAME_THIRD_PARTY));
	}
	free(before);
	free(after);
	model_free(&m);
}

/* A map that does not parse: a warning naming it and where; the frames
 * keep their names and say why.  The map is cut inside sourcesContent's
 * first string, whose quote Python's json puts at byte 90 ("Unterminated
 * string starting at char 90"): libcjson stops at the byte after. */
static void check_bad_map(const char *dir)
{
	struct model m;
	if (!load(dir, "bundle.cpuprofile", &m))
		return;
	char map[512];
	snprintf(map, sizeof(map), "%s/sourcemap/bad/bundle.min.js.map", dir);
	warnings = 0;
	apply(dir, &m, map);
	CHECK(warnings == 1);
	CHECK_MSG(strstr(last_warning, "bad/bundle.min.js.map") && strstr(last_warning, "byte 91"),
		  "%s", last_warning);
	bool kept = false;
	for (uint32_t f = 0; f < m.nframes; f++) {
		const struct frame_origin *o = symbol_origin(&m, f);
		if (!strcmp(model_str(&m, m.frames[f].name), "p"))
			kept = o && strstr(model_str(&m, o->why_not), "did not parse");
	}
	CHECK(kept);
	CHECK(!strcmp(model_str(&m, m.symbols), "source maps: 0 of 1 scripts"));
	model_free(&m);
}

/* util.js ignored: its functions are third-party, main.js's are not. */
static void check_ignore_list(const char *dir)
{
	struct model m;
	if (!load(dir, "bundle.cpuprofile", &m))
		return;
	char map[512];
	snprintf(map, sizeof(map), "%s/sourcemap/ignore/bundle.min.js.map", dir);
	apply(dir, &m, map);
	int seen = 0;
	for (uint32_t f = 0; f < m.nframes; f++) {
		const char *name = model_str(&m, m.frames[f].name);
		bool third = m.frames[f].flags & FRAME_THIRD_PARTY;
		if (!strcmp(name, "makeItems") || !strcmp(name, "checksum"))
			seen += third;
		if (!strcmp(name, "sortByKey") || !strcmp(name, "run"))
			seen += !third;
	}
	CHECK(seen == 4);
	model_free(&m);
}

/* A terser bundle whose map has no names (testdata/sourcemap/nonames):
 * each frame with self time named as src/shapes.js names the function
 * holding its place (written here from reading that file: the top level
 * stays anonymous, the sort callback of `assigned` is anonymous), at the
 * place Mozilla's library gives (shapes.reference.txt); alike when only
 * the map's sourcesContent holds the original. */
static void check_no_names(const char *dir, const char *map)
{
	static const struct {
		const char *generated, *name;
	} by_hand[] = {
		{ "(anonymous) 1:1", "(anonymous)" }, { "t 1:11", "declared" },
		{ "e 1:76", "arrowBlock" },           { "n 1:173", "assigned" },
		{ "(anonymous) 1:237", "(anonymous)" }, { "area 1:269", "area" },
		{ "counted 1:351", "counted" },       { "method 1:427", "method" },
	};
	char path[512];
	snprintf(path, sizeof(path), "%s/sourcemap/nonames/dist/shapes.reference.txt", dir);
	struct ref refs[16];
	size_t nrefs = read_refs(path, refs, ARRAY_LEN(refs));
	CHECK(nrefs == ARRAY_LEN(by_hand));
	struct model m;
	if (!load_from(dir, "nonames/dist", "shapes.cpuprofile", &m))
		return;
	double *before = self_by_frame(&m);
	const struct ref *wanted[16];
	size_t n = 0;
	for (uint32_t f = 0; f < m.nframes && n < ARRAY_LEN(wanted); f++) {
		if (!strstr(model_str(&m, m.frames[f].url), "shapes") || !(before[f] > 0))
			continue;
		const struct ref *r = ref_of(&m, f, refs, nrefs);
		CHECK_MSG(r != NULL, "shapes frame %s has no reference",
			  model_str(&m, m.frames[f].name));
		if (r)
			wanted[n++] = r;
	}
	CHECK(n == ARRAY_LEN(by_hand));
	warnings = 0;
	apply(dir, &m, map);
	CHECK(warnings == 0);
	for (size_t i = 0; i < n; i++) {
		struct ref r = *wanted[i];
		for (size_t k = 0; k < ARRAY_LEN(by_hand); k++)
			if (!strcmp(by_hand[k].generated, r.generated))
				snprintf(r.name, sizeof(r.name), "%s", by_hand[k].name);
		CHECK_MSG(strcmp(r.name, "null"), "%s not named by hand", r.generated);
		if (map)
			snprintf(r.source, sizeof(r.source), "%s", "gone/shapes.js");
		uint32_t f = mapped_frame(&m, &r);
		CHECK_MSG(f != NO_ID, "shapes %s -> %s %s:%d:%d not found", r.generated, r.name,
			  r.source, r.line, r.column);
	}
	free(before);
	model_free(&m);
}

static const struct source_map_segment *find(const struct source_map *m, int line, int col)
{
	return source_map_find(m, line, col);
}

/* Mappings worked by hand: "AAAA" is (0, 0, 0, 0); ";" a new line whose
 * column restarts; "CAAC" one column on, the next source... */
static void check_parser(void)
{
	static const char map[] =
		"{\"version\":3,\"sourceRoot\":\"lib\",\"sources\":[\"a.js\",\"b.js\"],"
		"\"names\":[\"f\"],\"mappings\":\"AAAA,EAAEA;ACCA,KAAK\"}";
	struct source_map m;
	char why[256];
	CHECK(source_map_parse(map, strlen(map), &m, why, sizeof(why)));
	CHECK(m.nsources == 2 && !strcmp(m.sources[0], "lib/a.js"));
	CHECK(m.nsegs == 4);
	/* Line 0: (0,0)->a.js 0:0; (2,0)->a.js 0:2 named f.  Line 1: (0)->
	 * b.js 1:2 (source +1, line +1, the column kept); (5)->b.js 1:7. */
	const struct source_map_segment *s = find(&m, 0, 1);
	CHECK(s && s->column == 0 && s->source == 0 && s->orig_column == 0 && s->name < 0);
	s = find(&m, 0, 9);
	CHECK(s && s->column == 2 && s->orig_column == 2 && s->name == 0);
	s = find(&m, 1, 6);
	CHECK(s && s->column == 5 && s->source == 1 && s->orig_line == 1 && s->orig_column == 7);
	CHECK(find(&m, 2, 0) == NULL);
	source_map_free(&m);

	static const char sections[] =
		"{\"version\":3,\"sections\":[{\"offset\":{\"line\":0,\"column\":10},"
		"\"map\":{\"version\":3,\"sources\":[\"x.js\"],\"names\":[],\"mappings\":\"AAAA\"}},"
		"{\"offset\":{\"line\":3,\"column\":0},\"map\":{\"version\":3,"
		"\"sources\":[\"y.js\"],\"names\":[],\"mappings\":\"AACA\"}}]}";
	CHECK(source_map_parse(sections, strlen(sections), &m, why, sizeof(why)));
	s = find(&m, 0, 12);
	CHECK(s && s->column == 10 && !strcmp(m.sources[s->source], "x.js"));
	CHECK(find(&m, 0, 5) == NULL);
	s = find(&m, 3, 0);
	CHECK(s && !strcmp(m.sources[s->source], "y.js") && s->orig_line == 1);
	source_map_free(&m);

	static const char *const bad[] = {
		"{\"version\":2,\"mappings\":\"\"}",
		"{\"version\":3,\"sources\":[],\"mappings\":\"AAAA\"}",
		"{\"version\":3,\"sources\":[\"a\"],\"mappings\":\"A!\"}",
		"{\"version\":3,\"sources\":[\"a\"],\"mappings\":\"AA\"}",
		"{\"version\":3,\"sources\":[\"a\"],\"mappings\":\"AAAA\",\"x_google_ignoreList\":[4]}",
		"[1,2",
	};
	for (size_t i = 0; i < ARRAY_LEN(bad); i++) {
		bool ok = source_map_parse(bad[i], strlen(bad[i]), &m, why, sizeof(why));
		CHECK_MSG(!ok && why[0], "bad map %zu parsed", i);
	}
}

int main(int argc, char **argv)
{
	const char *dir = argc > 1 ? argv[1] : "testdata";
	check_parser();
	check_profile(dir, "bundle.cpuprofile", "bundle.reference.txt");
	check_profile(dir, "bundle.inline.cpuprofile", "bundle.inline.reference.txt");
	/* The browsers: every bundle frame of a real Chromium trace and a real
	 * Firefox profile (testdata/sourcemap/browser/README.md). */
	check_frames(dir, "chrome-trace.json", "chrome-trace.reference.txt",
		     &(struct checked){ "browser", 9, 9, false, false,
					     "source maps: 1 of 1 scripts" });
	check_frames(dir, "firefox-profile.json", "firefox-profile.reference.txt",
		     &(struct checked){ "browser", 9, 9, false, true,
					     "source maps: 1 of 1 scripts" });
	check_bad_map(dir);
	check_no_names(dir, NULL);
	char content[512];
	snprintf(content, sizeof(content), "%s/sourcemap/nonames/content/shapes.min.js.map", dir);
	check_no_names(dir, content);
	check_ignore_list(dir);
	return check_done();
}
