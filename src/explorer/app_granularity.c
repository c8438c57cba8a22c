/* The granularity key: the profile by functions, files or lines (pprof's
 * -granularity) as another model in place of the one shown, kept once
 * made (granularity_cache.h). */
#include "app.h"

#include <stdlib.h>

#include "loaders/loaders.h"
#include "base/escape.h"
#include "filters.h"
#include "granularity_cache.h"
#include "model/sample_counts.h"
#include "transform/granularity.h"
#include "transform/symbolize.h"
#include "base/util.h"

/* The key's next granularity.  A live session has no file to read again:
 * it goes on to the next one made from its model. */
static enum granularity key_next(const struct app *a, const struct model *base)
{
	enum granularity g = granularity_next((enum granularity)a->granularity, base);
	while (a->live && granularity_read_again(base, g))
		g = granularity_next(g, base);
	return g;
}

/* A new model for granularity g (not functions): one made from `base`,
 * or (pprof by lines, addresses) the file read again by line or address,
 * exact for every rule.  NULL, with a message, when it cannot be made. */
static struct model *model_at(struct app *a, struct model *base,
			      const struct load_options *load, enum granularity g)
{
	struct model *m = xmalloc(sizeof(*m));
	const char *why = NULL;
	struct load_error err;
	bool ok;
	if (granularity_read_again(base, g)) {
		struct load_options opt = load ? *load : (struct load_options){ .session = -1 };
		opt.by_line = g == GRANULARITY_LINES;
		opt.by_address = g == GRANULARITY_ADDRESSES;
		ok = load_file(a->file, &opt, m, &err, NULL);
		why = err.message;
		if (ok && a->symbolize) {
			struct symbolize_options with = *a->symbolize;
			with.source = a->source_options;
			/* The same file with the same modules: they fitted at start. */
			ok = symbolize_loaded(m, &with, err.message, sizeof(err.message));
			if (!ok)
				model_free(m);
		}
	} else {
		ok = model_by_granularity(base, g, m, &why);
		/* A live base gains samples in place and is replaced. */
		if (ok && a->live)
			model_own_timeline(m);
	}
	if (ok)
		return m;
	free(m);
	char safe[sizeof(err.message)];
	escape_text(why, safe, sizeof(safe));
	app_message(a, "%s: %s", granularity_name(g), safe);
	return NULL;
}

void app_drop_model(struct model **m)
{
	if (*m) {
		model_free(*m);
		free(*m);
		*m = NULL;
	}
}

/* Filters by pattern mean the same at any granularity; those on one
 * function name a frame of the model they were made on. */
static size_t keep_patterns(const struct transform_stack *from, struct transform_stack *to)
{
	size_t dropped = 0;
	char err[256];
	for (size_t i = 0; i < from->n; i++) {
		const struct transform *t = &from->items[i];
		if (t->frame != NO_ID)
			dropped++;
		else
			transform_push(to, t->kind, NO_ID, t->text, err, sizeof(err));
	}
	return dropped;
}

/* What the app worked out for the model it shows, put aside for when its
 * granularity is shown again: only for the whole model (a time range
 * shows a view of it), without divided's thread, which would take the
 * cores from the granularity shown next. */
static void put_aside(struct app *a, struct granularity_cache *models)
{
	enum granularity g = (enum granularity)a->granularity;
	if (a->original != granularity_cache_model(models, g))
		return;
	rules_stop_divided(&a->original_rules);
	granularity_cache_put_aside(models, g, &a->original_rules, app_range_take_sums(a));
	rules_init(&a->original_rules, a->original);
}

/* The kept model for g, or one made now and kept. */
static struct model *model_for(struct app *a, struct granularity_cache *models,
			       const struct load_options *load, enum granularity g)
{
	struct model *m = granularity_cache_take(models, g);
	if (!m) {
		m = model_at(a, models->base, load, g);
		if (m)
			granularity_cache_keep(models, g, m);
	}
	return m;
}

void app_switch_granularity(struct app *a, struct granularity_cache *models,
			    const struct load_options *load, unsigned g)
{
	struct model *base = models->base;
	a->next_granularity = false;
	/* Sample counts made before the split go to the lines in whole
	 * samples; counted after, they would all stay on the functions. */
	if (a->units == UNITS_SAMPLES && g != GRANULARITY_FUNCTIONS) {
		filters_finish(a);
		model_add_sample_counts(base);
	}
	struct model *next = model_for(a, models, load, (enum granularity)g);
	if (!next)
		return;
	const char *file = a->file;
	enum view_kind pane = a->current;
	const struct source_options *source = a->source_options;
	const struct symbolize_options *symbolize = a->symbolize;
	struct live_view *live = a->live;
	unsigned type = a->value_type;
	enum unit_mode units = a->units;
	bool root_below = a->flame.root_below, had_range = a->range.cut != NULL;
	bool relative = a->relative;
	struct sample_range range = a->range.samples;
	/* The same samples in the same order: the range carries over. */
	bool keep_range = had_range && next->nsamples == a->loaded->nsamples;
	struct transform_stack filters = { 0 };
	size_t dropped = keep_patterns(&a->filters.applied, &filters);
	struct timeline strip = app_timeline_take(a, next);
	put_aside(a, models);
	app_free(a);
	struct rules kept;
	struct whole_sums *sums;
	bool has_rules = granularity_cache_take_aside(models, (enum granularity)g, &kept, &sums);
	app_init_kept(a, file, next, pane, has_rules ? &kept : NULL);
	a->live = live;
	app_timeline_adopt(a, strip);
	app_range_adopt_sums(a, sums);
	a->source_options = source;
	a->symbolize = symbolize;
	a->granularity = g;
	a->flame.root_below = root_below;
	if (type < next->ntypes)
		app_set_value_type(a, type);
	app_push_filters(a, &filters);
	transform_stack_free(&filters);
	/* Rules put aside keep their setting: the panes are made again only
	 * where it changed (or filters need it). */
	if (relative == a->original_rules.relative && !a->filters.applied.n)
		a->relative = relative;
	else
		app_set_relative(a, relative);
	for (int tries = 0; a->units != units && tries < UNITS_COUNT; tries++)
		app_cycle_units(a);
	if (keep_range)
		app_set_range(a, range.first, range.end);
	app_compute_in_background(a);
	granularity_cache_prepare(models, key_next(a, base), &a->original_rules);
	app_message(a, "granularity: %s%s%s", granularity_name((enum granularity)g),
		    dropped ? " (filters on one function dropped)" : "",
		    had_range && !keep_range ? " (the whole profile)" : "");
}

bool app_granularity_poll(struct app *a, struct granularity_cache *models,
			  const struct load_options *load)
{
	if (!a->next_granularity)
		return false;
	enum granularity g = key_next(a, models->base);
	if (!granularity_cache_ready(models, g)) {
		if (a->granularity_waits)
			return false;
		a->granularity_waits = true;
		app_message(a, "granularity: %s (computing)", granularity_name(g));
		return true;
	}
	a->granularity_waits = false;
	app_switch_granularity(a, models, load, g);
	return true;
}

void app_granularity_refresh(struct app *a, struct granularity_cache *models,
			     struct model *base, bool in_place)
{
	enum granularity g = (enum granularity)a->granularity;
	struct model *next = NULL;
	if (g != GRANULARITY_FUNCTIONS) {
		if (a->units == UNITS_SAMPLES) { /* split with the rest, as the key does */
			filters_finish(a);
			model_add_sample_counts(base);
		}
		next = model_at(a, base, NULL, g);
	}
	if (next) {
		app_replace_model(a, next);
	} else if (in_place && g == GRANULARITY_FUNCTIONS) {
		app_values_changed(a);
	} else { /* a new model by functions, or g's not made (model_at said why) */
		a->granularity = GRANULARITY_FUNCTIONS;
		app_replace_model(a, base);
	}
	/* The app no longer reads the old models by files or lines. */
	granularity_cache_free(models);
	granularity_cache_init(models, base);
	models->when_asked = true;
	if (next)
		granularity_cache_keep(models, g, next);
}
