#include "filters.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "base/background.h"
#include "base/escape.h"
#include "base/util.h"
#include "flame_job.h"
#include "lines_pane.h"
#include "transform/filter_view.h"

/* One level: the model below it after one more filter, with its rules. */
struct filtered {
	struct model model;
	struct rules rules;
};

static void free_filtered(struct filtered *f)
{
	if (!f)
		return;
	rules_free(&f->rules);
	model_free(&f->model);
	free(f);
}

/* A view of the level below (filter_view.h), or for tagroot a copy;
 * `shape` (NULL or the rules of the level below, which outlives it)
 * lends what the tree's shape decides to a view of the same nodes. */
static struct filtered *make_level(const struct model *below, const struct rules *shape,
				   const struct transform *t, const char **why_not)
{
	struct filtered *f = xcalloc(1, sizeof(*f));
	bool made = filter_view_applies(t->kind)
		? filter_view_make(below, t, &f->model, why_not)
		: model_transform(below, t, 1, &f->model, why_not);
	if (!made) {
		free(f);
		return NULL;
	}
	rules_init(&f->rules, &f->model);
	if (shape)
		rules_share_shape(&f->rules, shape);
	return f;
}

static const struct model *top_model(const struct app *a)
{
	return a->filters.nlevels ? &a->filters.levels[a->filters.nlevels - 1]->model : a->original;
}

static const struct rules *top_rules(const struct app *a)
{
	return a->filters.nlevels ? &a->filters.levels[a->filters.nlevels - 1]->rules
				  : &a->original_rules;
}

bool filters_in_force(const struct app *a)
{
	return a->filters.nlevels > 0;
}

/* Keeps app.frame_keys covering the frames of the model in use. */
static void app_cover_frame_keys(struct app *a)
{
	const struct model *m = a->ctx.model;
	if (m->nframes <= a->nframe_keys && m == a->original)
		return;
	if (m->nframes > a->nframe_keys) {
		a->frame_keys = xrealloc(a->frame_keys, (m->nframes + 1) * sizeof(uint64_t));
		a->nframe_keys = m->nframes;
	}
	/* Frames past the original's are the derived model's own. */
	for (size_t id = a->original->nframes; id < m->nframes; id++) {
		const struct frame *f = &m->frames[id];
		const char *name = model_str(m, f->name), *url = model_str(m, f->url);
		a->frame_keys[id] = hash_mix(hash_bytes(url, strlen(url),
							hash_bytes(name, strlen(name), 1)));
	}
}

/* Puts the last level made in force, without rebuilding the panes. */
static void show_top(struct app *a)
{
	const struct filter_levels *fl = &a->filters;
	struct filtered *top = fl->nlevels ? fl->levels[fl->nlevels - 1] : NULL;
	if (top)
		top->rules.background = a->background;
	a->ctx.model = top ? &top->model : a->original;
	a->ctx.rules = top ? &top->rules : &a->original_rules;
	uint32_t counts = model_count_type(a->ctx.model);
	a->ctx.type = a->units == UNITS_SAMPLES && counts != NO_ID ? counts : a->value_type;
	app_cover_frame_keys(a);
}

static void drop_levels(struct app *a, size_t keep)
{
	while (a->filters.nlevels > keep)
		free_filtered(a->filters.levels[--a->filters.nlevels]);
}

/* ---- levels made on a thread of their own ----------------------------------------- */

/* Filtering a model of half a million nodes takes longer than a key may:
 * in the background the level is made on a thread, and the panes keep
 * showing the level below until it is ready.  The thread reads the level
 * below and the transform; both stay until it is joined. */
struct filter_job {
	struct background work;
	const struct model *below;
	/* The rules of the level below, with the shape's arrays made then
	 * (the thread reads only those, which never change). */
	struct rules shape;
	const struct transform *transform;
	enum rule rule; /* computed ahead, so that the level shows at once */
	unsigned type;
	struct filtered *made;
};

/* Long enough that a small profile filters as if at once; a model of
 * more nodes than this is not waited for at all. */
#define FILTER_GRACE_MS 20
#define FILTER_GRACE_NODES 100000

static void run_filter_job(void *arg)
{
	struct filter_job *j = arg;
	const char *why;
	j->made = make_level(j->below, &j->shape, j->transform, &why);
	if (j->made && j->rule != RULE_DIVIDED) /* divided has its own thread */
		rules_totals(&j->made->rules, j->rule, j->type);
}

static void start_job(struct app *a)
{
	struct filter_job *j = xcalloc(1, sizeof(*j));
	j->below = top_model(a);
	j->shape = *top_rules(a);
	j->transform = &a->filters.applied.items[a->filters.nlevels];
	j->rule = a->ctx.rule;
	j->type = a->ctx.type;
	a->filters.job = j;
	background_start(&j->work, run_filter_job, j);
}

static void forget_job(struct app *a)
{
	if (!a->filters.job)
		return;
	background_wait(&a->filters.job->work);
	free_filtered(a->filters.job->made);
	free(a->filters.job);
	a->filters.job = NULL;
}

void filters_set_relative(struct app *a)
{
	for (size_t i = 0; i < a->filters.nlevels; i++)
		rules_set_relative(&a->filters.levels[i]->rules, a->relative);
}

static void add_level(struct app *a, struct filtered *f)
{
	rules_set_relative(&f->rules, a->relative);
	GROW(a->filters.levels, a->filters.levels_cap, a->filters.nlevels + 1);
	a->filters.levels[a->filters.nlevels++] = f;
}

/* Makes the levels still missing: at once, or one by one on a thread. */
static void advance(struct app *a)
{
	while (!a->filters.job && a->filters.nlevels < a->filters.applied.n) {
		const struct model *below = top_model(a);
		if (a->background && below->nnodes >= FILTER_GRACE_NODES / 4) {
			start_job(a);
			if (below->nnodes < FILTER_GRACE_NODES &&
			    background_done(&a->filters.job->work, FILTER_GRACE_MS))
				filters_poll(a);
			return;
		}
		const char *why;
		struct filtered *f = make_level(below, top_rules(a),
						&a->filters.applied.items[a->filters.nlevels], &why);
		if (!f) {
			app_message(a, "%s", why);
			while (a->filters.applied.n > a->filters.nlevels)
				transform_pop(&a->filters.applied);
			return;
		}
		add_level(a, f);
	}
}

bool filters_poll(struct app *a)
{
	struct filter_job *j = a->filters.job;
	if (!j || !background_done(&j->work, 0))
		return false;
	struct filtered *made = j->made;
	free(j);
	a->filters.job = NULL;
	if (made) {
		add_level(a, made);
	} else {
		app_message(a, "this profile has no whole stacks to filter");
		while (a->filters.applied.n > a->filters.nlevels)
			transform_pop(&a->filters.applied);
	}
	advance(a);
	show_top(a);
	app_rebuild(a, PANE_NEW_ROWS);
	return true;
}

void filters_finish(struct app *a)
{
	/* Whoever waits for threads reading the model waits for both. */
	flame_job_finish(a);
	if (!a->filters.job)
		return;
	background_wait(&a->filters.job->work);
	filters_poll(a);
}

bool filters_busy(const struct app *a)
{
	if (a->filters.job)
		return true;
	for (size_t i = 0; i < a->filters.nlevels; i++)
		if (rules_busy(&a->filters.levels[i]->rules))
			return true;
	return false;
}

void filters_background(struct app *a)
{
	for (size_t i = 0; i < a->filters.nlevels; i++)
		a->filters.levels[i]->rules.background = true;
}

void filters_free(struct app *a)
{
	forget_job(a);
	drop_levels(a, 0);
	free(a->filters.levels);
	a->filters.levels = NULL;
	transform_stack_free(&a->filters.applied);
}

void filters_drop(struct app *a)
{
	forget_job(a);
	drop_levels(a, 0);
	show_top(a);
}

bool filters_remake(struct app *a)
{
	forget_job(a);
	drop_levels(a, 0);
	bool background = a->background;
	a->background = false; /* at once: the panes show the new model next */
	size_t wanted = a->filters.applied.n;
	advance(a);
	a->background = background;
	bool ok = a->filters.nlevels == wanted;
	if (!ok)
		transform_stack_free(&a->filters.applied);
	show_top(a);
	return ok;
}

void filters_carry(struct app *a, const struct model *next,
		   uint32_t (*same)(const struct model *, const struct model *, uint32_t))
{
	for (size_t i = 0; i < a->filters.applied.n; i++) {
		struct transform *t = &a->filters.applied.items[i];
		if (t->frame != NO_ID)
			t->frame = same(a->original, next, t->frame);
	}
	/* A function the new snapshot lacks takes its filter with it. */
	size_t kept = 0;
	for (size_t i = 0; i < a->filters.applied.n; i++) {
		struct transform *t = &a->filters.applied.items[i];
		bool gone = t->frame == NO_ID && !t->text &&
			    t->kind != TF_COLLAPSE_RECURSION && t->kind != TF_MINE;
		if (gone) {
			if (t->has_regex)
				regfree(&t->regex);
			free(t->tag_key);
		} else {
			a->filters.applied.items[kept++] = *t;
		}
	}
	a->filters.applied.n = kept;
}

/* ---- actions ------------------------------------------------------------------------- */

bool app_push_filter(struct app *a, enum transform_kind kind, uint32_t frame,
		     const char *text)
{
	if (!(a->original->caps & HAS_STACKS) || (a->original->caps & HAS_NODE_GRAPH)) {
		app_message(a, "this profile has no whole stacks to filter");
		return false;
	}
	char err[256];
	if (!transform_push(&a->filters.applied, kind, frame, text, err, sizeof(err))) {
		app_message(a, "%s", err);
		return false;
	}
	a->graph_back.n = 0; /* Backspace undoes this filter next */
	size_t before = a->filters.nlevels;
	advance(a);
	if (a->filters.nlevels != before) {
		show_top(a);
		app_rebuild(a, PANE_NEW_ROWS);
	}
	char crumb[512];
	transform_describe(top_model(a), &a->filters.applied.items[a->filters.applied.n - 1], crumb,
			   sizeof(crumb));
	if (a->filters.nlevels == a->filters.applied.n || a->filters.job)
		app_message(a, "%s%s (Backspace undoes, F clears)", crumb,
			    a->filters.job ? " (computing)" : "");
	return true;
}

void app_undo_filter(struct app *a)
{
	if (!a->filters.applied.n) {
		app_message(a, "no filter to undo");
		return;
	}
	forget_job(a); /* it reads the transform going away */
	a->graph_back.n = 0;
	transform_pop(&a->filters.applied);
	size_t before = a->filters.nlevels;
	drop_levels(a, a->filters.applied.n);
	advance(a);
	show_top(a);
	if (a->filters.nlevels != before)
		app_rebuild(a, PANE_NEW_ROWS);
	app_message(a, "filter undone, %zu left", a->filters.applied.n);
}

void app_clear_filters(struct app *a)
{
	if (!a->filters.applied.n)
		return;
	forget_job(a);
	a->graph_back.n = 0;
	bool shown = a->filters.nlevels > 0;
	drop_levels(a, 0);
	transform_stack_free(&a->filters.applied);
	show_top(a);
	if (shown)
		app_rebuild(a, PANE_NEW_ROWS);
	app_message(a, "filters cleared");
}

void app_push_filters(struct app *a, const struct transform_stack *s)
{
	for (size_t i = 0; s && i < s->n; i++)
		if (!app_push_filter(a, s->items[i].kind, s->items[i].frame, s->items[i].text))
			return;
}

static void on_selected(struct app *a, enum transform_kind kind)
{
	const struct row *r = app_selected_row(a);
	if (r)
		app_push_filter(a, kind, r->frame, NULL);
}

void app_focus(struct app *a) { on_selected(a, TF_FOCUS); }
void app_ignore(struct app *a) { on_selected(a, TF_IGNORE); }
void app_hide(struct app *a) { on_selected(a, TF_HIDE); }
void app_show_only(struct app *a) { on_selected(a, TF_SHOW); }
void app_prune_from(struct app *a) { on_selected(a, TF_PRUNE_FROM); }
void app_merge(struct app *a) { on_selected(a, TF_MERGE); }
void app_collapse_recursion(struct app *a) { on_selected(a, TF_COLLAPSE_RECURSION); }
void app_collapse_file(struct app *a) { on_selected(a, TF_COLLAPSE_FILE); }
/* With the default root (here), a profile made on another machine has
 * nothing of mine: say so rather than fold it all into its root. */
void app_mine(struct app *a)
{
	if (transform_mine_in(a->original, NULL)) {
		app_push_filter(a, TF_MINE, NO_ID, NULL);
		return;
	}
	char *cwd = getcwd(NULL, 0);
	char safe[256];
	escape_text(cwd ? cwd : ".", safe, sizeof(safe));
	free(cwd);
	app_message(a, "no function of this profile is under %s (made elsewhere?): "
		    ":mine DIR names the root of your code", safe);
}

/* ---- the : prompt ----------------------------------------------------------------------- */

void app_command_start(struct app *a)
{
	a->prompts.commanding = true;
	line_edit_start(&a->prompts.command);
}

bool app_command_run(struct app *a, const char *line)
{
	while (*line == ' ')
		line++;
	char kind_name[32];
	size_t n = strcspn(line, " =");
	if (!n || n >= sizeof(kind_name)) {
		app_message(a, "filter: KIND PATTERN, as focus main\\.run or hide=^runtime\\.");
		return false;
	}
	memcpy(kind_name, line, n);
	kind_name[n] = 0;
	if (!strcmp(kind_name, "source-path")) { /* not a filter, but typed here */
		const char *dir = line + n + strspn(line + n, " =");
		if (*dir)
			app_add_source_path(a, dir);
		else
			app_message(a, "source-path needs a directory");
		return *dir != 0;
	}
	enum transform_kind kind;
	if (!transform_kind_parse(kind_name, &kind)) {
		char safe[64];
		escape_text(kind_name, safe, sizeof(safe));
		app_message(a, "no filter '%s' (focus ignore hide show prune_from merge "
			    "collapse collapse_recursion mine tagfocus tagignore tagroot; "
			    "or source-path DIR)", safe);
		return false;
	}
	const char *text = line + n;
	while (*text == ' ' || (*text == '=' && text == line + n))
		text++;
	if (!*text && transform_takes_text(kind)) {
		app_message(a, "%s needs a pattern", transform_name(kind));
		return false;
	}
	return app_push_filter(a, kind, NO_ID, *text ? text : NULL);
}

/* ---- what is in force ---------------------------------------------------------------------- */

void app_breadcrumb(const struct app *a, char *buf, size_t cap)
{
	size_t len = 0;
	buf[0] = 0;
	for (size_t i = 0; i < a->filters.applied.n && len + 1 < cap; i++) {
		char one[300];
		transform_describe(top_model(a), &a->filters.applied.items[i], one, sizeof(one));
		len += (size_t)snprintf(buf + len, cap - len, "%s%s%s", i ? " > " : "", one,
					i >= a->filters.nlevels ? " (computing)" : "");
		if (len >= cap)
			len = cap - 1;
	}
}

/* One value of a label as `#` lists it: the string, or the number and
 * its unit. */
static void label_value_text(const struct model *m, const struct sample_label *l,
			     char *buf, size_t cap)
{
	if (l->str != STR_NONE) {
		escape_text(model_str(m, l->str), buf, cap);
		return;
	}
	char unit[32] = "";
	if (l->num_unit != STR_NONE)
		escape_text(model_str(m, l->num_unit), unit, sizeof(unit));
	snprintf(buf, cap, "%lld%s%s", (long long)l->num, *unit ? " " : "", unit);
}

/* The first few values of `key`, "a, b, c (+4)". */
static void label_values(const struct model *m, str_t key, char *buf, size_t cap)
{
	enum { SHOWN = 3 };
	const struct sample_label *shown[SHOWN];
	size_t nshown = 0, more = 0, len = 0;
	buf[0] = 0;
	for (size_t i = 0; i < m->nlabels; i++) {
		const struct sample_label *l = &m->labels[i];
		if (l->key != key)
			continue;
		bool seen = false;
		for (size_t k = 0; k < nshown && !seen; k++)
			seen = shown[k]->str == l->str && shown[k]->num == l->num;
		if (seen)
			continue;
		if (nshown == SHOWN) {
			more++; /* values past the first few, each counted once a sample */
			continue;
		}
		shown[nshown++] = l;
		char one[64];
		label_value_text(m, l, one, sizeof(one));
		len += (size_t)snprintf(buf + len, cap - len, "%s%s", nshown > 1 ? ", " : "", one);
		if (len >= cap)
			return;
	}
	if (more)
		snprintf(buf + len, cap - len, ", …");
}

void app_list_tags(struct app *a)
{
	const struct model *m = a->ctx.model;
	if (!m->nlabels) {
		app_message(a, "this profile has no labels (pprof tags)");
		return;
	}
	char list[sizeof(a->message)] = "";
	size_t len = 0, nseen = 0;
	str_t seen[32]; /* strings are interned: one id a key */
	for (size_t i = 0; i < m->nlabels && nseen < ARRAY_LEN(seen); i++) {
		str_t key = m->labels[i].key;
		size_t k = 0;
		while (k < nseen && seen[k] != key)
			k++;
		if (k < nseen)
			continue;
		seen[nseen++] = key;
		char safe[64], values[160];
		escape_text(model_str(m, key), safe, sizeof(safe));
		label_values(m, key, values, sizeof(values));
		if (len < sizeof(list))
			len += (size_t)snprintf(list + len, sizeof(list) - len, "%s%s = %s",
						len ? "; " : "", safe, values);
	}
	app_message(a, "labels: %s (: tagfocus KEY=RE; --report tags lists all)", list);
}
