#include "keys.h"

#include <curses.h>

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

const struct key_binding key_table[] = {
	{ { '1' }, "1", "top-down (call tree)", pane_topdown },
	{ { '2' }, "2", "bottom-up (callers)", pane_bottomup },
	{ { '3' }, "3", "flat (a row a function)", pane_flat },
	{ { '4' }, "4", "call graph", pane_callgraph },
	{ { '\t' }, "Tab", "next pane", app_next_pane },
	{ { KEY_BTAB }, "Shift-Tab", "previous pane", app_prev_pane },
	{ { KEY_DOWN, 'j', CONTROL_KEY('n') }, "Down j", "next row", move_down },
	{ { KEY_UP, 'k', CONTROL_KEY('p') }, "Up k", "previous row", move_up },
	{ { KEY_NPAGE, ' ', CONTROL_KEY('f') }, "PgDn Space", "next page", page_down },
	{ { KEY_PPAGE, CONTROL_KEY('b') }, "PgUp", "previous page", page_up },
	{ { KEY_HOME, 'g' }, "Home g", "first row", app_home },
	{ { KEY_END, 'G' }, "End G", "last row", app_end },
	{ { KEY_RIGHT, 'l' }, "Right l", "expand", app_expand },
	{ { KEY_LEFT, 'h' }, "Left h", "collapse / go to parent", app_collapse },
	{ { '\n', '\r', KEY_ENTER }, "Enter",
	  "toggle, or open in graph", app_enter },
	{ { '*' }, "*", "expand whole subtree", app_expand_subtree },
	{ { 's' }, "s", "sort by the next column", app_cycle_sort },
	{ { 'S' }, "S", "reverse the sort", app_reverse_sort },
	{ { 'r' }, "r", "next rule", app_cycle_rule },
	{ { 'u' }, "u", "units: time, %, samples", app_cycle_units },
	{ { 't' }, "t", "next sample type (pprof)", app_cycle_sample_type },
	{ { '/' }, "/", "search as you type", app_search_start },
	{ { 'n' }, "n", "next match", search_forward },
	{ { 'N' }, "N", "previous match", search_backward },
	{ { 'f' }, "f", "focus: stacks through it", app_focus },
	{ { 'i' }, "i", "hide it from all stacks", app_hide },
	{ { 'F' }, "F", "clear focus and hide", app_clear_filters },
	{ { 'c' }, "c", "open in call graph", open_callgraph },
	{ { 'b' }, "b", "open in bottom-up", open_bottomup },
	{ { 'p' }, "p", "live: start/stop profiling", live_view_toggle_profiling },
	{ { 'z' }, "z", "live: freeze/follow", live_view_toggle_freeze },
	{ { 'w' }, "w", "live: write .xsbug+.cpuprofile", live_view_write },
	{ { 'e' }, "e", "live: next engine", live_view_next_engine },
	{ { '?', KEY_F(1) }, "? F1", "this help", toggle_help },
	{ { 'q', 'Q' }, "q", "quit", quit },
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

bool key_dispatch(struct app *a, int key)
{
	const struct key_binding *b = key_lookup(key);
	if (!b)
		return false;
	a->message[0] = 0;
	b->action(a);
	return true;
}
