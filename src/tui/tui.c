#include "tui.h"

#include <curses.h>
#include <malloc.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "explorer/save_view.h"
#include "loaders/loaders.h"
#include "base/background.h"
#include "base/complain.h"
#include "base/escape.h"
#include "transform/granularity.h"
#include "base/util.h"
#include "explorer/app.h"
#include "explorer/granularity_cache.h"
#include "draw.h"
#include "keys.h"
#include "timeline_draw.h"
#include "live_view.h"
#include "screen.h"

#define EXIT_BAD_INPUT 2
#define KEY_ESCAPE 27

void tui_keep_freed_memory(void)
{
	mallopt(M_MMAP_THRESHOLD, 32 << 20); /* glibc's largest */
	mallopt(M_TRIM_THRESHOLD, 1 << 30);
	mallopt(M_ARENA_MAX, 1);
}

/* The theme named on the command line or in WPROF_THEME must exist; the
 * default falls back to attributes alone when no theme is installed. */
static bool pick_theme(const struct tui_options *o, struct theme *t)
{
	const char *name = o->theme ? o->theme : getenv("WPROF_THEME");
	char err[512];
	if (name && *name) {
		if (theme_load(name, t, err, sizeof(err)))
			return true;
		fprintf(stderr, "wprof-tui: %s\n", err);
		return false;
	}
	if (!theme_load("dark", t, err, sizeof(err)))
		theme_plain(t);
	return true;
}

static bool colour_wanted(void)
{
	const char *no_color = getenv("NO_COLOR");
	return !no_color || !*no_color; /* no-color.org: set and not empty */
}

/* What every explorer does before it starts: the theme, the allocator
 * and, unless `needing` is NULL (the benchmark draws into /dev/null), a
 * terminal, which `needing` needs and `instead` prints without.  False:
 * said why on stderr. */
static bool start_up(const struct tui_options *o, struct theme *theme,
		     const char *needing, const char *instead)
{
	if (!pick_theme(o, theme))
		return false;
	tui_keep_freed_memory(); /* for the explorers whose caller did not */
	if (needing && (!isatty(STDIN_FILENO) || !isatty(STDOUT_FILENO))) {
		fprintf(stderr, "wprof-tui: %s needs a terminal; %s prints without one\n",
			needing, instead);
		return false;
	}
	return true;
}

/* The explorer of one profile as the command line asks. */
static void app_from_options(struct app *a, const char *file, struct model *m,
			     const struct tui_options *o)
{
	app_init(a, file, m, VIEW_TOPDOWN);
	app_set_value_type(a, o->sample_type);
	app_push_filters(a, o->filters);
	a->source_options = &o->source;
	if (o->relative)
		app_set_relative(a, true);
	a->symbolize = &o->symbolize;
	if (o->min_share > 0)
		app_set_min_share(a, o->min_share);
}

/* The terminal taken over, or false and said why on stderr. */
static bool open_terminal(struct screen *s, const struct theme *theme)
{
	char err[256];
	if (screen_open(s, theme, colour_wanted(), stdin, stdout, err, sizeof(err)))
		return true;
	fprintf(stderr, "wprof-tui: %s\n", err);
	return false;
}

static void search_key(struct app *a, int key)
{
	size_t len = strlen(a->prompts.search);
	if (key == '\n' || key == '\r' || key == KEY_ENTER) {
		a->prompts.searching = false;
	} else if (key == KEY_ESCAPE) {
		a->prompts.searching = false;
		a->prompts.search[0] = 0;
		app_pane(a)->selected = a->prompts.search_origin;
	} else if (key == KEY_BACKSPACE || key == 127 || key == 8) {
		if (len)
			a->prompts.search[len - 1] = 0;
		app_search_update(a);
	} else if (key >= ' ' && key < 256 && len + 1 < sizeof(a->prompts.search)) {
		a->prompts.search[len] = (char)key;
		a->prompts.search[len + 1] = 0;
		app_search_update(a);
	}
}

/* A press on the timeline strip starts a drag, moves extend it, the
 * release chooses the range; true when the event was the strip's. */
static bool strip_mouse(struct app *a, const MEVENT *ev)
{
	static long drag_from = -1;
	long cell = timeline_cell_at(ev->y, ev->x);
	if ((ev->bstate & BUTTON1_PRESSED) && cell >= 0) {
		drag_from = cell;
		timeline_drag(a, drag_from, cell, true);
		return true;
	}
	if (drag_from < 0)
		return cell >= 0; /* a click on the strip selects no row */
	long to = timeline_cell_near(ev->x);
	bool released = ev->bstate & (BUTTON1_RELEASED | BUTTON1_CLICKED);
	timeline_drag(a, drag_from, to, !released);
	if (released)
		drag_from = -1;
	return true;
}

/* What a key did to a prompt's line. */
enum line_key { LINE_EDITED, LINE_ENTERED, LINE_CANCELLED };

/* A prompt's line, edited as a shell's (line_edit.h): Enter enters it
 * (into the history), Escape, or Backspace on an empty line, cancels. */
static enum line_key line_key(struct line_edit *e, int key)
{
	switch (key) {
	case '\n': case '\r': case KEY_ENTER:
		line_edit_remember(e);
		return LINE_ENTERED;
	case KEY_ESCAPE:
		return LINE_CANCELLED;
	case KEY_BACKSPACE: case 127: case 8:
		if (!line_edit_backspace(e) && !e->text[0])
			return LINE_CANCELLED;
		break;
	case KEY_DC: line_edit_delete(e); break;
	case KEY_LEFT: line_edit_left(e); break;
	case KEY_RIGHT: line_edit_right(e); break;
	case KEY_HOME: line_edit_home(e); break;
	case KEY_END: line_edit_end(e); break;
	case KEY_UP: line_edit_older(e); break;
	case KEY_DOWN: line_edit_newer(e); break;
	default:
		if (key >= ' ' && key < 256)
			line_edit_insert(e, (char)key);
	}
	return LINE_EDITED;
}

/* The : prompt: Enter pushes the filter typed. */
static void command_key(struct app *a, int key)
{
	enum line_key done = line_key(&a->prompts.command, key);
	if (done != LINE_EDITED)
		a->prompts.commanding = false;
	if (done == LINE_ENTERED)
		app_command_run(a, a->prompts.command.text);
}

/* w's prompt: Enter writes the file named. */
static void save_key(struct app *a, int key)
{
	enum line_key done = line_key(&a->prompts.save, key);
	if (done != LINE_EDITED)
		a->prompts.saving = false;
	if (done == LINE_ENTERED)
		app_save_view(a, a->prompts.save.text);
}

static void mouse_event(struct app *a)
{
	MEVENT ev;
	if (getmouse(&ev) != OK)
		return;
	if (strip_mouse(a, &ev)) {
		return;
	} else if (ev.bstate & BUTTON4_PRESSED) {
		app_move(a, -3);
	} else if (ev.bstate & BUTTON5_PRESSED) {
		app_move(a, 3);
	} else if (ev.y == draw_tabs_line() &&
		   (ev.bstate & (BUTTON1_CLICKED | BUTTON1_DOUBLE_CLICKED))) {
		int tab = draw_tab_at(ev.x);
		if (tab >= 0)
			app_show_pane(a, (enum view_kind)tab);
	} else if (ev.bstate & (BUTTON1_CLICKED | BUTTON1_DOUBLE_CLICKED)) {
		size_t index = draw_row_at(a, ev.y);
		if (index == SIZE_MAX)
			return;
		app_move_to(a, index);
		if (ev.bstate & BUTTON1_DOUBLE_CLICKED)
			app_enter(a);
	}
}

static void handle_key(struct app *a, int key)
{
	if (a->show_help) {
		key_in_help(a, key);
	} else if (a->prompts.searching) {
		search_key(a, key);
	} else if (a->prompts.commanding) {
		command_key(a, key);
	} else if (a->prompts.saving) {
		save_key(a, key);
	} else if (key == KEY_MOUSE) {
		mouse_event(a);
	} else if (key != KEY_RESIZE && !key_dispatch(a, key)) {
		const char *name = keyname(key);
		char safe[64];
		escape_text(name ? name : "?", safe, sizeof(safe));
		app_message(a, "%s is not a key here (? lists the keys)", safe);
	}
}

/* T: the next thread the header lists (the first of the others) is
 * loaded from the file again and replaces the model on screen. */
static void switch_thread(struct app *a, struct model **loaded)
{
	a->next_thread = false;
	char next[256]; /* the model it names goes before the message */
	snprintf(next, sizeof(next), "%s",
		 model_str(a->original, a->original->other_threads[0]));
	struct load_options opt = { .session = -1, .thread = next };
	struct model *m = xmalloc(sizeof(*m));
	struct load_error err;
	if (!load_file(a->file, &opt, m, &err, NULL)) {
		free(m);
		char safe[sizeof(err.message)];
		escape_text(err.message, safe, sizeof(safe));
		app_message(a, "%s", safe);
		return;
	}
	const char *file = a->file;
	enum view_kind pane = a->current;
	const struct source_options *source = a->source_options;
	bool relative = a->relative;
	const struct symbolize_options *symbolize = a->symbolize;
	char why[256] = "";
	if (symbolize) {
		struct symbolize_options with = *symbolize;
		with.source = source;
		/* Modules that do not fit this thread leave its frames as they are. */
		symbolize_loaded(m, &with, why, sizeof(why));
	}
	app_free(a);
	app_drop_model(loaded);
	*loaded = m;
	app_init(a, file, m, pane);
	a->source_options = source;
	app_set_relative(a, relative);
	a->symbolize = symbolize;
	app_compute_in_background(a);
	char safe[sizeof(next)];
	escape_text(next, safe, sizeof(safe));
	if (*why)
		app_message(a, "thread: %s (--symbols %s)", safe, why);
	else
		app_message(a, "thread: %s", safe);
}

/* switch_thread, and the models by files or lines then of the thread's
 * profile.  The old profile may be freed: the thread reading it ends
 * first. */
static void switch_thread_models(struct app *a, struct model **loaded,
				 struct granularity_cache *models)
{
	granularity_cache_quiet(models);
	switch_thread(a, loaded);
	if (a->original == *loaded && models->base != *loaded) {
		granularity_cache_free(models);
		granularity_cache_init(models, *loaded);
	}
}

int tui_run(const char *file, struct model *m, const struct tui_options *o)
{
	struct theme theme;
	if (!start_up(o, &theme, "the explorer", "--report VIEW"))
		return EXIT_BAD_INPUT;
	struct app a;
	struct model *loaded = NULL; /* a thread T loaded, ours to free */
	struct granularity_cache models; /* by files or lines */
	granularity_cache_init(&models, m);
	app_from_options(&a, file, m, o);
	a.flame.root_below = o->flame_up;
	if (o->granularity)
		app_switch_granularity(&a, &models, o->load, o->granularity);
	struct screen s;
	if (!open_terminal(&s, &theme)) {
		app_free(&a);
		granularity_cache_free(&models);
		return EXIT_BAD_INPUT;
	}
	app_start_early(&a);
	/* getch waits at most a moment, so that a quit signal is seen; the
	 * screen is drawn again only when something happened. */
	draw_app(&a, &s);
	refresh();
	app_compute_in_background(&a);
	granularity_cache_prepare(&models, granularity_next(a.granularity, m), &a.original_rules);
	while (!a.quit && !screen_quit_signal) {
		/* Background work shows as soon as it is done. */
		timeout(app_busy(&a) || a.next_granularity ? 15 : SCREEN_WAIT_MS);
		int key = getch();
		/* A key's work and drawing come before the work made ahead
		 * (the loop's polls, a few times a second, do not count). */
		if (key != ERR) {
			background_foreground_begin();
			handle_key(&a, key);
		}
		if (a.next_thread)
			switch_thread_models(&a, &loaded, &models);
		bool switched = app_granularity_poll(&a, &models, o->load);
		if (app_poll(&a) || switched || key != ERR) {
			draw_app(&a, &s);
			refresh();
		}
		if (key != ERR)
			background_foreground_end();
	}
	screen_close();
	app_free(&a);
	granularity_cache_free(&models);
	app_drop_model(&loaded);
	return screen_quit_signal ? 128 + screen_quit_signal : 0;
}

/* While comparing, the wheel scrolls the active side or the delta layout;
 * clicks would need to know which side they fell on, so they do nothing. */
static void compare_mouse_event(struct compare *c)
{
	MEVENT ev;
	if (getmouse(&ev) != OK)
		return;
	int key = ev.bstate & BUTTON4_PRESSED ? KEY_UP
		: ev.bstate & BUTTON5_PRESSED ? KEY_DOWN : 0;
	for (int step = 0; key && step < 3; step++)
		key_dispatch_compare(c, key);
}

/* A key of a comparison: the help's, the search prompt's, the mouse's,
 * or the table's for the active side or the delta layout. */
static void compare_key(struct compare *c, int key)
{
	struct app *active = compare_active(c);
	if (active->show_help) {
		key_in_help(active, key);
	} else if (active->prompts.searching) {
		struct compare_before before;
		compare_remember(c, &before);
		search_key(active, key);
		compare_follow(c, &before);
	} else if (key == KEY_MOUSE) {
		compare_mouse_event(c);
	} else if (key != KEY_RESIZE && !key_dispatch_compare(c, key)) {
		app_message(active, "not a key here (? lists the keys)");
	}
}

/* ---- live mode --------------------------------------------------------- */

static double now_ms(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec * 1e3 + (double)ts.tv_nsec / 1e6;
}

/* The source has a thread of its own: this one waits for
 * keys only, and a short while, so that a due refresh, an engine that
 * logs in and a quit signal are seen. */
static void wait_for_keys(void)
{
	struct pollfd in = { .fd = STDIN_FILENO, .events = POLLIN };
	poll(&in, 1, LIVE_REFRESH_MS / 5);
}

/* While a pinned comparison shows (B), the keys are the comparison's
 * but these, which still go to the session: B unpins, p pauses, z
 * freezes (no new window then), w writes the session, L its log.  (e
 * would start another session under the pin.) */
static bool pinned_session_key(int key)
{
	return key == 'B' || key == 'p' || key == 'z' || key == 'w' || key == 'L';
}

/* q asks first while engines are connected (live_view_may_quit); the
 * log, like the help, closes with any key. */
static bool live_key(struct app *a, struct live_view *v, int key)
{
	bool asked = v->quit_asked;
	v->quit_asked = false;
	if (key == KEY_RESIZE)
		return true;
	if (v->show_log && !a->prompts.searching) {
		v->show_log = false;
		return true;
	}
	if ((key == 'q' || key == 'Q') && !a->prompts.searching && !a->show_help) {
		v->quit_asked = asked;
		a->quit = live_view_may_quit(v, a);
		return true;
	}
	if (asked)
		a->message[0] = 0;
	if (!v->started) {
		if (key == 'B') /* the waiting screen: no sample at all yet */
			app_message(a, "%s", LIVE_PIN_TOO_EARLY);
		return asked || key == 'B';
	}
	if (v->pin.compare && !pinned_session_key(key)) {
		compare_key(v->pin.compare, key);
		return true;
	}
	handle_key(a, key);
	if (v->pin.compare) /* what the key said, on the comparison's status line */
		snprintf(compare_active(v->pin.compare)->message, sizeof(a->message), "%s",
			 a->message);
	return true;
}

static void draw_live(struct app *a, const struct live_view *v,
		      const struct screen *s)
{
	if (v->pin.compare)
		draw_compare(v->pin.compare, s);
	else if (v->started)
		draw_app(a, s);
	else
		live_view_draw_waiting(v, a->message);
	if (v->show_log)
		live_view_draw_log(v);
	refresh();
}

int tui_run_live(struct live_source *source, const struct tui_options *o)
{
	struct theme theme;
	if (!start_up(o, &theme, "the live view", "--report VIEW"))
		return EXIT_BAD_INPUT;
	struct screen s;
	char err[600];
	if (!source->ops->start(source, err, sizeof(err)) ||
	    !screen_open(&s, &theme, colour_wanted(), stdin, stdout, err, sizeof(err))) {
		complain("%s", err);
		return EXIT_BAD_INPUT;
	}
	timeout(0); /* poll() does the waiting */
	struct live_view v;
	live_view_init(&v, source);
	struct app a = { .quit = false };
	draw_live(&a, &v, &s);
	while (!a.quit && !screen_quit_signal) {
		wait_for_keys();
		bool changed = live_view_update(&v, &a, now_ms());
		for (int key; !a.quit && (key = getch()) != ERR;)
			changed |= live_key(&a, &v, key);
		if (v.started) /* a: made from the snapshot shown, at once */
			changed |= app_granularity_poll(&a, &v.grouped, NULL);
		if (changed)
			draw_live(&a, &v, &s);
	}
	screen_close();
	if (v.started)
		app_free(&a);
	live_view_free(&v);
	return screen_quit_signal ? 128 + screen_quit_signal : 0;
}

/* ---- the key benchmark ---------------------------------------------------- */

/* A key by its name ("Enter", "S-Tab", "End") or a single character.
 * The key table's names are for the help screen (several keys a line,
 * not in its keys' order), so the named keys are listed here. */
static const struct {
	const char *name;
	int key;
} named_keys[] = {
	{ "Enter", '\n' }, { "Bksp", KEY_BACKSPACE }, { "Backspace", KEY_BACKSPACE },
	{ "Esc", KEY_ESCAPE }, { "Tab", '\t' }, { "S-Tab", KEY_BTAB },
	{ "Shift-Tab", KEY_BTAB }, { "Down", KEY_DOWN }, { "Up", KEY_UP },
	{ "Left", KEY_LEFT }, { "Right", KEY_RIGHT }, { "PgDn", KEY_NPAGE },
	{ "PgUp", KEY_PPAGE }, { "Home", KEY_HOME }, { "End", KEY_END },
	{ "F1", KEY_F(1) },
};

static int key_by_name(const char *name)
{
	if (name[0] && !name[1])
		return (unsigned char)name[0];
	for (size_t i = 0; i < ARRAY_LEN(named_keys); i++)
		if (!strcmp(name, named_keys[i].name))
			return named_keys[i].key;
	return ERR;
}

/* What the benchmark's granularity key switches between (tui_run's). */
struct bench_models {
	struct granularity_cache models;
	const struct load_options *load;
};

/* The granularity key as tui_run answers it, timed to its result: the
 * old panes with "computing" while the thread makes the model, then the
 * new ones.  As in tui_run, the model is waited for and switched to
 * between keys, not as a key's work: the main thread idle meanwhile
 * takes no core from the work ahead. */
static void bench_granularity(struct app *a, const struct screen *s, struct bench_models *bm)
{
	struct timespec ms = { 0, 1000000 };
	if (app_granularity_poll(a, &bm->models, bm->load) && a->next_granularity) {
		draw_app(a, s);
		refresh();
	}
	if (!a->next_granularity)
		return;
	background_foreground_end();
	while (a->next_granularity) {
		nanosleep(&ms, NULL);
		app_granularity_poll(a, &bm->models, bm->load);
	}
	background_foreground_begin();
}

/* What a `wait` line waits for, chosen when it starts: the level of a
 * filter being made; after the rule key, the numbers of the rule shown
 * (divided's, from its thread), at once when they are there; else the
 * end of every background job, those made ahead of any need (range
 * sums) included. */
enum bench_wait { WAIT_LEVEL, WAIT_RULE, WAIT_ALL };

static bool rule_computing(struct app *a)
{
	const struct totals *t = rules_totals(a->ctx.rules, a->ctx.rule, a->ctx.type);
	return t && t->computing;
}

static enum bench_wait bench_wait_for(const struct app *a, const char *after)
{
	if (a->filters.nlevels < a->filters.applied.n)
		return WAIT_LEVEL;
	return !strcmp(after, "r") ? WAIT_RULE : WAIT_ALL;
}

static bool bench_waiting(struct app *a, enum bench_wait what)
{
	switch (what) {
	case WAIT_LEVEL:
		return a->filters.nlevels < a->filters.applied.n;
	case WAIT_RULE:
		return rule_computing(a);
	default:
		return app_busy(a);
	}
}

/* False for a line that names no key of the pane on screen: a script
 * that went wrong times other keys than it says.  `after`: the line
 * before it that was not a wait. */
static bool bench_line(struct app *a, const struct screen *s, const char *line,
		       const char *after, int number, struct bench_models *bm)
{
	double start = now_ms();
	/* As tui_run's keys; not a wait, which waits for work behind too
	 * (the range sums). */
	bool waiting = !strcmp(line, "wait");
	if (!waiting)
		background_foreground_begin();
	if (waiting) {
		struct timespec ms = { 0, 1000000 };
		enum bench_wait what = bench_wait_for(a, after);
		while (bench_waiting(a, what)) {
			nanosleep(&ms, NULL);
			app_poll(a);
		}
	} else if (line[0] == '/' && line[1]) {
		app_search_start(a);
		app_search_set(a, line + 1);
		app_search_update(a);
		a->prompts.searching = false;
	} else if (line[0] == ':' && line[1]) { /* a filter by pattern */
		app_command_run(a, line + 1);
	} else {
		int key = key_by_name(line);
		if (key == ERR || !key_dispatch(a, key)) {
			fprintf(stderr, "wprof-tui: line %d: '%s' is not a key here\n",
				number, line);
			background_foreground_end();
			return false;
		}
		bench_granularity(a, s, bm);
	}
	app_poll(a);
	draw_app(a, s);
	refresh();
	if (!waiting)
		background_foreground_end();
	printf("%-16s %9.3f ms  %zu rows\n", line, now_ms() - start,
	       app_pane(a)->view.nrows);
	return true;
}

int tui_bench_keys(const char *script, const char *file, struct model *m,
		   const struct tui_options *o)
{
	double start = now_ms();
	FILE *keys = fopen(script, "r");
	if (!keys) {
		fprintf(stderr, "wprof-tui: %s: cannot read the key script\n", script);
		return EXIT_BAD_INPUT;
	}
	struct theme theme;
	if (!start_up(o, &theme, NULL, NULL)) {
		fclose(keys);
		return EXIT_BAD_INPUT;
	}
	/* A real curses screen, drawn into /dev/null at 200x50. */
	FILE *null_out = fopen("/dev/null", "w"), *null_in = fopen("/dev/null", "r");
	setenv("LINES", "50", 1);
	setenv("COLUMNS", "200", 1);
	setenv("TERM", "xterm-256color", 1);
	struct screen s;
	char err[256];
	struct app a;
	struct bench_models bm = { .load = o->load };
	granularity_cache_init(&bm.models, m);
	app_from_options(&a, file, m, o);
	if (!null_out || !null_in ||
	    !screen_open(&s, &theme, true, null_in, null_out, err, sizeof(err))) {
		fprintf(stderr, "wprof-tui: cannot open a screen for the benchmark\n");
		app_free(&a);
		granularity_cache_free(&bm.models);
		fclose(keys);
		return EXIT_BAD_INPUT;
	}
	app_start_early(&a);
	draw_app(&a, &s);
	refresh();
	printf("%-16s %9.3f ms  %zu rows\n", "first-screen", now_ms() - start,
	       app_pane(&a)->view.nrows);
	app_compute_in_background(&a);
	granularity_cache_prepare(&bm.models, granularity_next(a.granularity, m),
				  &a.original_rules);
	char line[512], after[512] = "";
	bool keys_ok = true;
	for (int number = 1; keys_ok && fgets(line, sizeof(line), keys); number++) {
		line[strcspn(line, "\r\n")] = 0;
		if (!line[0] || line[0] == '#')
			continue;
		keys_ok = bench_line(&a, &s, line, after, number, &bm);
		if (strcmp(line, "wait"))
			memcpy(after, line, sizeof(after));
	}
	screen_close();
	app_free(&a);
	granularity_cache_free(&bm.models);
	fclose(keys);
	fclose(null_out);
	fclose(null_in);
	return keys_ok ? 0 : EXIT_BAD_INPUT;
}

int tui_run_compare(const char *const files[2], struct model *models[2],
		    const size_t nruns[2], const struct tui_options *o)
{
	struct theme theme;
	if (!start_up(o, &theme, "the explorer", "--report flat --diff"))
		return EXIT_BAD_INPUT;
	struct compare c;
	compare_init(&c, files, models, nruns, o->normalize);
	c.side[DIFF_BASE].flame.root_below = c.side[DIFF_NEW].flame.root_below = o->flame_up;
	for (int side = 0; side < 2 && o->min_share > 0; side++)
		app_set_min_share(&c.side[side], o->min_share);
	struct screen s;
	if (!open_terminal(&s, &theme)) {
		compare_free(&c);
		return EXIT_BAD_INPUT;
	}
	draw_compare(&c, &s);
	refresh();
	while (!compare_active(&c)->quit && !screen_quit_signal) {
		int key = getch();
		if (key == ERR)
			continue;
		background_foreground_begin(); /* as tui_run's keys */
		compare_key(&c, key);
		draw_compare(&c, &s);
		refresh();
		background_foreground_end();
	}
	screen_close();
	compare_free(&c);
	return screen_quit_signal ? 128 + screen_quit_signal : 0;
}
