#include "keys.h"

#include <curses.h>

#include "explorer/flame_job.h"
#include "explorer/flame_nav.h"
#include "explorer/lines_pane.h"
#include "live_view.h"

#define CONTROL_KEY(c) ((c) & 0x1f)

/* Keys that differ only in which way or which pane share one binding,
 * so that the help fits 80x24: the action reads the key pressed. */
static void pane_by_digit(struct app *a)
{
	static const enum view_kind by_digit[] = { VIEW_TOPDOWN, VIEW_BOTTOMUP, VIEW_FLAT,
						    VIEW_CALLGRAPH, VIEW_FLAME };
	app_show_pane(a, by_digit[a->key - '1']);
}
static void next_or_previous_pane(struct app *a)
{
	if (a->key == KEY_BTAB)
		app_prev_pane(a);
	else
		app_next_pane(a);
}
static bool key_goes_up(int key)
{
	return key == KEY_UP || key == 'k' || key == CONTROL_KEY('p') || key == KEY_PPAGE ||
	       key == CONTROL_KEY('b') || key == KEY_HOME || key == 'g';
}
static void move_row(struct app *a) { app_move(a, key_goes_up(a->key) ? -1 : 1); }
static void move_page(struct app *a) { app_page(a, key_goes_up(a->key) ? -1 : 1); }
static void first_or_last(struct app *a)
{
	if (key_goes_up(a->key))
		app_home(a);
	else
		app_end(a);
}
static void expand_or_collapse(struct app *a)
{
	if (a->key == KEY_RIGHT)
		app_expand(a);
	else
		app_collapse(a);
}
static void search_forward(struct app *a) { app_search_next(a, 1, false); }
static void search_backward(struct app *a) { app_search_next(a, -1, false); }
static void open_in_pane(struct app *a)
{
	app_open_in(a, a->key == 'b' ? VIEW_BOTTOMUP : VIEW_CALLGRAPH);
}
static void toggle_help(struct app *a) { a->show_help = !a->show_help; }
static void quit(struct app *a) { a->quit = true; }
/* A range step is a cell of the strip; the braces go ten. */
static void range_start_later(struct app *a)
{
	app_range_move_start(a, a->key == '{' ? 10 : 1);
}

static void range_end_earlier(struct app *a)
{
	app_range_move_end(a, a->key == '}' ? -10 : -1);
}

/* The filter keys share bindings, so that the help fits 80x24. */
static void filter_key(struct app *a)
{
	switch (a->key) {
	case 'f': app_focus(a); break;
	case 'i': app_ignore(a); break;
	case 'x': app_hide(a); break;
	case '=': app_show_only(a); break;
	case 'P': app_prune_from(a); break;
	case 'm': app_merge(a); break;
	case 'R': app_collapse_recursion(a); break;
	case 'C': app_collapse_file(a); break;
	case 'M': app_mine(a); break;
	case ':': app_command_start(a); break;
	case 'F': app_clear_filters(a); break;
	default: app_undo_filter(a); break; /* Backspace */
	}
}

static bool comparing(struct app *a)
{
	if (!a->compare)
		app_message(a, "this key compares two profiles: wprof-tui BASE NEW");
	return a->compare;
}

static void other_side(struct app *a)
{
	if (comparing(a))
		compare_other_side(a->compare);
}

static void toggle_layout(struct app *a)
{
	if (comparing(a))
		compare_toggle_layout(a->compare);
}

static bool delta_up(struct compare *c) { return key_goes_up(compare_active(c)->key); }
static void delta_row(struct compare *c) { compare_move(c, delta_up(c) ? -1 : 1); }
static void delta_page(struct compare *c) { compare_page(c, delta_up(c) ? -1 : 1); }
static void delta_first_or_last(struct compare *c)
{
	compare_move_to(c, delta_up(c) ? 0 : SIZE_MAX);
}
static void delta_help(struct compare *c) { toggle_help(compare_active(c)); }
static void delta_quit(struct compare *c) { quit(compare_active(c)); }

const struct key_binding key_table[] = {
	{ { '1', '2', '3', '4', '5' }, "1-5", "top-down, bottom-up, flat, graph, flame",
	  pane_by_digit, NULL, false },
	{ { '\t', KEY_BTAB }, "Tab S-Tab", "next / previous pane", next_or_previous_pane,
	  NULL, false },
	{ { KEY_DOWN, 'j', CONTROL_KEY('n'), KEY_UP, 'k', CONTROL_KEY('p') }, "Down Up j k",
	  "next / previous row", move_row, delta_row, false },
	{ { KEY_NPAGE, ' ', CONTROL_KEY('f'), KEY_PPAGE, CONTROL_KEY('b') }, "PgDn PgUp",
	  "next / previous page", move_page, delta_page, false },
	{ { KEY_HOME, 'g', KEY_END, 'G' }, "Home End g G", "first / last row",
	  first_or_last, delta_first_or_last, false },
	{ { KEY_RIGHT, KEY_LEFT, 'h' }, "Right Left h", "expand / collapse, to parent",
	  expand_or_collapse, NULL, false },
	{ { 'l' }, "l", "source lines (n/N: hot lines)", app_open_lines, NULL, false },
	{ { 'a' }, "a", "by functions, files, lines", app_next_granularity, NULL, true },
	{ { '\n', '\r', KEY_ENTER }, "Enter Bksp",
	  "toggle/open; flame: zoom", app_enter, NULL, false },
	{ { '*' }, "*", "expand whole subtree", app_expand_subtree, NULL, false },
	{ { 's' }, "s", "sort by the next column", app_cycle_sort,
	  compare_cycle_sort, false },
	{ { 'S' }, "S", "reverse the sort", app_reverse_sort,
	  compare_reverse_sort, false },
	{ { 'r' }, "r", "next rule (both sides)", app_cycle_rule,
	  compare_cycle_rule, false },
	{ { 'u' }, "u", "units: time, %, samples", app_cycle_units, NULL, false },
	{ { 't' }, "t", "next sample type (pprof)", app_cycle_sample_type, NULL,
	  false },
	{ { 'T' }, "T", "next thread (traces, Firefox)", app_next_thread, NULL, true },
	{ { '/' }, "/", "search as you type", app_search_start, NULL, false },
	{ { 'n' }, "n", "next match / normalize",
	  search_forward, compare_toggle_normalize, false },
	{ { 'N' }, "N", "previous match", search_backward, NULL, false },
	{ { 'f', 'i', 'x' }, "f i x", "focus, ignore, hide it", filter_key, NULL,
	  true },
	{ { '[', '{' }, "[ {", "range start later (1/10)", range_start_later,
	  NULL, false },
	{ { ']', '}' }, "] }", "range end earlier (1/10)", range_end_earlier,
	  NULL, false },
	{ { '0' }, "0", "range: the whole profile", app_range_whole, NULL, false },
	{ { '_' }, "_", "show/hide the timeline strip", app_toggle_timeline, NULL,
	  false },
	{ { '=', 'P' }, "= P", "show only it, prune above", filter_key, NULL, true },
	{ { 'm', 'R', 'C' }, "m R C", "merge/recursion/file", filter_key, NULL,
	  true },
	{ { 'M', ':' }, "M :", "my code; type a filter", filter_key, NULL, true },
	{ { KEY_BACKSPACE, 127, 8, 'F' }, "Backspace F", "undo filter; clear all",
	  filter_key, NULL, true },
	{ { '#' }, "#", "labels (pprof tags)", app_list_tags, NULL, false },
	{ { 'c', 'b' }, "c b", "open in call graph, bottom-up", open_in_pane, NULL,
	  false },
	{ { 'p' }, "p", "live: start/stop profiling (URL: pause)", live_view_toggle_profiling,
	  NULL, true },
	{ { 'z' }, "z", "live: freeze/follow", live_view_toggle_freeze, NULL, true },
	{ { 'w' }, "w", "live: write the session's files", live_view_write, NULL,
	  true },
	{ { 'e' }, "e", "live: next engine/target", live_view_next_target, NULL, true },
	{ { 'L' }, "L", "live: the engine's log", live_view_toggle_log, NULL, true },
	/* Pane 5's own keys (flame_key, there before the table): x its
	 * order, v flips it, C switches its colours, Backspace/Esc zoom out. */
	{ { 0 }, "x v C", "flame: order/flip/colour", flame_toggle_order, NULL,
	  false },
	{ { '?', KEY_F(1) }, "? F1", "this help", toggle_help, delta_help, false },
	{ { 'q', 'Q' }, "q", "quit", quit, delta_quit, false },
	{ { 'o' }, "o", "compare: other side", other_side, NULL,
	  false },
	{ { 'd' }, "d", "compare: delta layout", toggle_layout,
	  compare_toggle_layout, false },
};
const size_t key_table_len = sizeof(key_table) / sizeof(key_table[0]);

const struct key_binding *key_lookup(int key)
{
	for (size_t i = 0; i < key_table_len; i++)
		for (int k = 0; k < KEYS_PER_BINDING && key_table[i].keys[k]; k++)
			if (key_table[i].keys[k] == key)
				return &key_table[i];
	return NULL;
}

#define KEY_ESCAPE 27

/* Keys of the source pane; false for the others (which close it). */
static bool lines_pane_key(struct app *a, int key)
{
	long page = (long)(a->page_rows ? a->page_rows : 1);
	switch (key) {
	case KEY_DOWN: case 'j': case CONTROL_KEY('n'): lines_pane_move(a, 1); break;
	case KEY_UP: case 'k': case CONTROL_KEY('p'): lines_pane_move(a, -1); break;
	case KEY_NPAGE: case ' ': case CONTROL_KEY('f'): lines_pane_move(a, page); break;
	case KEY_PPAGE: case CONTROL_KEY('b'): lines_pane_move(a, -page); break;
	case KEY_HOME: case 'g': lines_pane_move_to(a, 0); break;
	case KEY_END: case 'G': lines_pane_move_to(a, SIZE_MAX); break;
	case 'n': lines_pane_next_hot(a, 1); break;
	case 'N': lines_pane_next_hot(a, -1); break;
	case 'q': case 'Q': case 'l': case 'h': case KEY_LEFT: case KEY_ESCAPE:
	case KEY_BACKSPACE: case 127:
		app_close_lines(a);
		break;
	default:
		return false;
	}
	return true;
}

/* A key of pane 5 (arrows, hjkl, Home g, Enter, Backspace, Esc, x, v,
 * C); false when the key means what it means elsewhere. */
static bool flame_key(struct app *a, int key)
{
	if (!flame_nav_active(a))
		return false;
	switch (key) {
	case KEY_UP: case 'k':
		flame_move(a, FLAME_TO_CALLER);
		break;
	case KEY_DOWN: case 'j':
		flame_move(a, FLAME_TO_CALLEE);
		break;
	case KEY_LEFT: case 'h':
		flame_move(a, FLAME_TO_LEFT);
		break;
	case KEY_RIGHT: /* l opens the source pane, as in every pane */
		flame_move(a, FLAME_TO_RIGHT);
		break;
	case KEY_HOME: case 'g':
		flame_move(a, FLAME_TO_TOP);
		break;
	case '\n': case '\r': case KEY_ENTER:
		flame_zoom_in(a);
		break;
	case KEY_BACKSPACE: case 127: case 8:
		flame_zoom_out(a);
		break;
	case 27: /* Esc */
		flame_zoom_reset(a);
		break;
	case 'x':
		flame_toggle_order(a);
		break;
	case 'v':
		flame_flip(a);
		break;
	case 'C':
		flame_toggle_colours(a);
		break;
	default:
		return false;
	}
	return true;
}

bool key_dispatch(struct app *a, int key)
{
	a->message[0] = 0;
	if (a->lines) {
		if (lines_pane_key(a, key))
			return true;
		if (key != '?' && key != KEY_F(1))
			app_close_lines(a);
	}
	if (flame_key(a, key)) /* arrows, Enter, ... move between frames there */
		return true;
	const struct key_binding *b = key_lookup(key);
	if (!b)
		return false;
	a->key = key;
	b->action(a);
	return true;
}

bool key_dispatch_compare(struct compare *c, int key)
{
	const struct key_binding *b = key_lookup(key);
	if (!b)
		return false;
	struct app *a = compare_active(c);
	a->message[0] = 0;
	a->key = key;
	if (c->delta_layout) {
		if (b->delta_action)
			b->delta_action(c);
		else
			app_message(a, "%s does nothing in the delta layout (d leaves it)",
				    b->names);
	} else if (b->one_profile) {
		app_message(a, "%s works on one profile at a time", b->names);
	} else {
		struct compare_before before;
		compare_remember(c, &before);
		a->key = key;
		if (!flame_key(a, key))
			b->action(a);
		compare_follow(c, &before);
	}
	return true;
}
