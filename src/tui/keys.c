#include "keys.h"

#include <curses.h>

#include "lines_pane.h"
#include "live_view.h"

#define CONTROL_KEY(c) ((c) & 0x1f)

static void pane_topdown(struct app *a) { app_show_pane(a, VIEW_TOPDOWN); }
static void pane_bottomup(struct app *a) { app_show_pane(a, VIEW_BOTTOMUP); }
static void pane_flat(struct app *a) { app_show_pane(a, VIEW_FLAT); }
static void pane_callgraph(struct app *a) { app_show_pane(a, VIEW_CALLGRAPH); }
static void move_down(struct app *a) { app_move(a, 1); }
static void move_up(struct app *a) { app_move(a, -1); }
static void page_down(struct app *a) { app_page(a, 1); }
static void page_up(struct app *a) { app_page(a, -1); }
static void search_forward(struct app *a) { app_search_next(a, 1, false); }
static void search_backward(struct app *a) { app_search_next(a, -1, false); }
static void open_callgraph(struct app *a) { app_open_in(a, VIEW_CALLGRAPH); }
static void open_bottomup(struct app *a) { app_open_in(a, VIEW_BOTTOMUP); }
static void toggle_help(struct app *a) { a->show_help = !a->show_help; }
static void quit(struct app *a) { a->quit = true; }

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

static void delta_down(struct compare *c) { compare_move(c, 1); }
static void delta_up(struct compare *c) { compare_move(c, -1); }
static void delta_page_down(struct compare *c) { compare_page(c, 1); }
static void delta_page_up(struct compare *c) { compare_page(c, -1); }
static void delta_home(struct compare *c) { compare_move_to(c, 0); }
static void delta_end(struct compare *c) { compare_move_to(c, SIZE_MAX); }
static void delta_help(struct compare *c) { toggle_help(compare_active(c)); }
static void delta_quit(struct compare *c) { quit(compare_active(c)); }

const struct key_binding key_table[] = {
	{ { '1' }, "1", "top-down (call tree)", pane_topdown, NULL, false },
	{ { '2' }, "2", "bottom-up (callers)", pane_bottomup, NULL, false },
	{ { '3' }, "3", "flat (a row a function)", pane_flat, NULL, false },
	{ { '4' }, "4", "call graph", pane_callgraph, NULL, false },
	{ { '\t' }, "Tab", "next pane", app_next_pane, NULL, false },
	{ { KEY_BTAB }, "Shift-Tab", "previous pane", app_prev_pane, NULL, false },
	{ { KEY_DOWN, 'j', CONTROL_KEY('n') }, "Down j", "next row", move_down,
	  delta_down, false },
	{ { KEY_UP, 'k', CONTROL_KEY('p') }, "Up k", "previous row", move_up,
	  delta_up, false },
	{ { KEY_NPAGE, ' ', CONTROL_KEY('f') }, "PgDn Space", "next page", page_down,
	  delta_page_down, false },
	{ { KEY_PPAGE, CONTROL_KEY('b') }, "PgUp", "previous page", page_up,
	  delta_page_up, false },
	{ { KEY_HOME, 'g' }, "Home g", "first row", app_home, delta_home, false },
	{ { KEY_END, 'G' }, "End G", "last row", app_end, delta_end, false },
	{ { KEY_RIGHT }, "Right", "expand", app_expand, NULL, false },
	{ { 'l' }, "l", "source lines (n/N hot, q back)", app_open_lines, NULL,
	  false },
	{ { KEY_LEFT, 'h' }, "Left h", "collapse / go to parent", app_collapse,
	  NULL, false },
	{ { '\n', '\r', KEY_ENTER }, "Enter",
	  "toggle, or open in graph", app_enter, NULL, false },
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
	{ { 'T' }, "T", "next thread (traces)", app_next_thread, NULL, true },
	{ { 'L' }, "L", "by functions, files, lines", app_next_granularity, NULL,
	  true },
	{ { '/' }, "/", "search as you type", app_search_start, NULL, false },
	{ { 'n' }, "n", "next match / normalize",
	  search_forward, compare_toggle_normalize, false },
	{ { 'N' }, "N", "previous match", search_backward, NULL, false },
	{ { 'f' }, "f", "focus: stacks through it", app_focus, NULL, true },
	{ { 'i' }, "i", "hide it from all stacks", app_hide, NULL, true },
	{ { 'F' }, "F", "clear focus and hide", app_clear_filters, NULL,
	  true },
	{ { 'c' }, "c", "open in call graph", open_callgraph, NULL, false },
	{ { 'b' }, "b", "open in bottom-up", open_bottomup, NULL, false },
	{ { 'p' }, "p", "live: start/stop profiling", live_view_toggle_profiling,
	  NULL, true },
	{ { 'z' }, "z", "live: freeze/follow", live_view_toggle_freeze, NULL, true },
	{ { 'w' }, "w", "live: write .xsbug+.cpuprofile", live_view_write, NULL,
	  true },
	{ { 'e' }, "e", "live: next engine", live_view_next_engine, NULL, true },
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

bool key_dispatch(struct app *a, int key)
{
	if (a->lines) {
		a->message[0] = 0;
		if (lines_pane_key(a, key))
			return true;
		if (key != '?' && key != KEY_F(1))
			app_close_lines(a);
	}
	const struct key_binding *b = key_lookup(key);
	if (!b)
		return false;
	a->message[0] = 0;
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
	if (c->delta_layout) {
		if (b->delta_action)
			b->delta_action(c);
		else
			app_message(a, "%s does nothing in the delta layout (d leaves it)",
				    b->names);
	} else if (b->one_profile) {
		app_message(a, "focus and hide work on one profile at a time");
	} else {
		struct compare_before before;
		compare_remember(c, &before);
		b->action(a);
		compare_follow(c, &before);
	}
	return true;
}
