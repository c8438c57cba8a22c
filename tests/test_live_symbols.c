/* Live models through the symbolization pass (src/cli/live_symbols.h),
 * with a fake source that gives the real esbuild bundle's profile
 * (testdata/sourcemap) and then new numbers in place (each node's value
 * doubled), as a live source does: the explorer's models are mapped
 * (sortByKey, never the minified p) at every refresh, the doubled
 * numbers come through a new mapped model, and the source keeps updating
 * its own model in place.  A profile whose scripts have no map passes as
 * the source gives it (new numbers in place). */
#include <string.h>

#include "tests/check.h"
#include "tests/model_checks.h"
#include "base/util.h"
#include "cli/live_symbols.h"
#include "input/source.h"
#include "loaders/loaders.h"
#include "transform/symbolize.h"

struct fake {
	struct live_source base;
	const char *path;   /* the profile it gives */
	const char *from, *to; /* its urls' prefix replaced */
	const struct model *built; /* the model it gave last */
	int in_place;       /* snapshots answered with new numbers in place */
	bool freed;
};

static struct fake *fake_of(struct live_source *s)
{
	return (struct fake *)s;
}

static bool load_fake(const struct fake *f, struct model *m)
{
	size_t len;
	char *text = check_read_file(f->path, &len);
	CHECK_MSG(text != NULL, "%s not readable", f->path);
	if (!text)
		return false;
	for (char *at = text; f->from && (at = strstr(at, f->from));)
		memcpy(at, f->to, strlen(f->to));
	struct load_options opt = { .session = -1 };
	struct load_error err;
	bool ok = load_memory(text, len, f->path, &opt, m, &err);
	CHECK_MSG(ok, "%s: %s", f->path, err.message);
	free(text);
	return ok;
}

static enum live_refresh fake_snapshot(struct live_source *s, struct model *shown,
				       struct model *fresh)
{
	struct fake *f = fake_of(s);
	if (shown && shown == f->built) {
		for (uint32_t v = 0; v < shown->nnodes; v++)
			model_set_node_value(shown, v, 0, 2 * node_value(shown, v, 0));
		f->in_place++;
		return LIVE_NEW_VALUES;
	}
	if (!load_fake(f, fresh))
		return LIVE_NO_PROFILE;
	f->built = fresh;
	return LIVE_NEW_MODEL;
}

static void fake_free(struct live_source *s)
{
	fake_of(s)->freed = true;
}

static const struct live_source_ops fake_ops = {
	.snapshot = fake_snapshot,
	.free = fake_free,
};

static bool has_frame(const struct model *m, const char *name)
{
	for (uint32_t f = 0; f < m->nframes; f++)
		if (!strcmp(model_str(m, m->frames[f].name), name))
			return true;
	return false;
}

static struct live_source *wrap(struct fake *f, const char *dir)
{
	static char root[512];
	snprintf(root, sizeof(root), "%s/sourcemap", dir);
	static const char *dirs[1];
	dirs[0] = root;
	static struct source_options source = { dirs, 1, NULL, 0 };
	struct symbolize_options o = { .source = &source };
	char err[256];
	f->base.ops = &fake_ops;
	struct live_source *s = live_symbolized(&f->base, &o, NULL, err, sizeof(err));
	CHECK_MSG(s != NULL, "%s", err);
	return s;
}

static void check_mapped(const char *dir)
{
	char path[512];
	snprintf(path, sizeof(path), "%s/sourcemap/dist/bundle.cpuprofile", dir);
	struct fake f = { .path = path, .from = "file:///work/material/sm/",
			  .to = "file:///nowhere/elses/sm/" };
	struct live_source *s = wrap(&f, dir);
	if (!s)
		return;
	struct model raw;
	if (!load_fake(&f, &raw))
		return;
	double p_self = nodes_self(&raw, "p", 0);
	model_free(&raw);
	CHECK(p_self > 0);
	/* The explorer's two models, as src/tui/live_view.c keeps them. */
	struct model models[2];
	CHECK(s->ops->snapshot(s, NULL, &models[0]) == LIVE_NEW_MODEL);
	CHECK(!strcmp(model_str(&models[0], models[0].symbols), "source maps: 1 of 1 scripts"));
	CHECK(!has_frame(&models[0], "p") && has_frame(&models[0], "sortByKey"));
	CHECK_CLOSE(nodes_self(&models[0], "sortByKey", 0), p_self, "sortByKey's self, mapped");
	/* New numbers: the source's own model in place, a new mapped one out. */
	for (int k = 1; k <= 2; k++) {
		CHECK(s->ops->snapshot(s, &models[(k - 1) % 2], &models[k % 2]) == LIVE_NEW_MODEL);
		model_free(&models[(k - 1) % 2]);
		CHECK(!has_frame(&models[k % 2], "p"));
		CHECK_CLOSE(nodes_self(&models[k % 2], "sortByKey", 0), p_self * (1 << (k - 1)),
			    "sortByKey's self after a refresh");
	}
	/* The first refresh was a new model of the source's (its model moved
	 * into the wrapper), the second new numbers in place. */
	CHECK(f.in_place == 1);
	s->ops->free(s);
	CHECK(f.freed);
	model_free(&models[0]);
}

static void check_passing(const char *dir)
{
	char path[512];
	snprintf(path, sizeof(path), "%s/wasm/hot.cpuprofile", dir);
	struct fake f = { .path = path };
	struct live_source *s = wrap(&f, dir);
	if (!s)
		return;
	struct model m;
	CHECK(s->ops->snapshot(s, NULL, &m) == LIVE_NEW_MODEL);
	CHECK(m.symbols == STR_NONE);
	CHECK(s->ops->snapshot(s, &m, NULL) == LIVE_NEW_VALUES);
	CHECK(f.in_place == 1);
	s->ops->free(s);
	model_free(&m);
}

int main(int argc, char **argv)
{
	const char *dir = argc > 1 ? argv[1] : "testdata";
	check_mapped(dir);
	check_passing(dir);
	return check_done();
}
