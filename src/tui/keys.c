#include "keys.h"

#include <curses.h>

#include "explorer/flame_job.h"
#include "explorer/flame_nav.h"
#include "explorer/lines_pane.h"
#include "explorer/save_view.h"
#include "live_view.h"

#define CONTROL_KEY(c) ((c) & 0x1f)

/* Keys that differ only in which way or which pane share one binding,
 * so that the help fits 80x24: the action is given the key pressed. */
static void pane_by_digit(struct app *a, int key)
{
	static const enum view_kind by_digit[] = { VIEW_TOPDOWN, VIEW_BOTTOMUP, VIEW_FLAT,
						    VIEW_CALLGRAPH, VIEW_FLAME };
	app_show_pane(a, by_digit[key - '1']);
}
static void next_or_previous_pane(struct app *a, int key)
{
	if (key == KEY_BTAB)
		app_prev_pane(a);
	else
		app_next_pane(a);
}
static bool key_goes_up(int key)
{
	return key == KEY_UP || key == 'k' || key == CONTROL_KEY('p') || key == KEY_PPAGE ||
	       key == CONTROL_KEY('b') || key == KEY_HOME || key == 'g';
}
static void move_row(struct app *a, int key) { app_move(a, key_goes_up(key) ? -1 : 1); }
static void move_page(struct app *a, int key) { app_page(a, key_goes_up(key) ? -1 : 1); }
static void first_or_last(struct app *a, int key)
{
	if (key_goes_up(key))
		app_home(a);
	else
		app_end(a);
}
static void expand_or_collapse(struct app *a, int key)
{
	if (key == KEY_RIGHT)
		app_expand(a);
	else
		app_collapse(a);
}
static void search_forward(struct app *a) { app_search_next(a, 1, false); }
static void search_backward(struct app *a) { app_search_next(a, -1, false); }
static void open_in_pane(struct app *a, int key)
{
	app_open_in(a, key == 'b' ? VIEW_BOTTOMUP : VIEW_CALLGRAPH);
}
static void open_sandwich(struct app *a) { app_open_in(a, VIEW_SANDWICH); }
/* w: a live session writes its engine's files, as before; any other
 * explorer saves what it shows under the name asked for. */
static void write_files(struct app *a)
{
	if (a->live)
		live_view_write(a);
	else
		app_save_start(a);
}
static void toggle_help(struct app *a) { a->show_help = !a->show_help; }
static void quit(struct app *a) { a->quit = true; }
/* A range step is a cell of the strip; the braces go ten. */
static void range_start_later(struct app *a, int key)
{
	app_range_move_start(a, key == '{' ? 10 : 1);
}

static void range_end_earlier(struct app *a, int key)
{
	app_range_move_end(a, key == '}' ? -10 : -1);
}

/* The filter keys share bindings, so that the help fits 80x24. */
static void filter_key(struct app *a, int key)
{
	switch (key) {
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
	default: /* Backspace: the call graph's previous centre first */
		if (!app_graph_back(a))
			app_undo_filter(a);
		break;
	}
}

static void heaviest_or_close_all(struct app *a, int key)
{
	if (key == 'H')
		app_open_heaviest(a);
	else
		app_collapse_all(a);
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

/* In the split screen too: the delta layout (d) shows it. */
static void toggle_noise(struct app *a)
{
	if (comparing(a))
		compare_toggle_noise(a->compare);
}

static void delta_row(struct compare *c, int key) { compare_move(c, key_goes_up(key) ? -1 : 1); }
static void delta_page(struct compare *c, int key) { compare_page(c, key_goes_up(key) ? -1 : 1); }
static void delta_first_or_last(struct compare *c, int key)
{
	compare_move_to(c, key_goes_up(key) ? 0 : SIZE_MAX);
}
static void delta_help(struct compare *c) { toggle_help(compare_active(c)); }
static void delta_quit(struct compare *c) { quit(compare_active(c)); }

const struct key_binding key_table[] = {
	{ { '1', '2', '3', '4', '5' }, "1-5", "top-down, bottom-up, flat, graph, flame",
	  .keyed_action = pane_by_digit },
	{ { '\t', KEY_BTAB }, "Tab S-Tab", "next / previous pane",
	  .keyed_action = next_or_previous_pane },
	{ { KEY_DOWN, 'j', CONTROL_KEY('n'), KEY_UP, 'k', CONTROL_KEY('p') }, "Down Up j k",
	  "next / previous row",
	  .keyed_action = move_row, .keyed_delta_action = delta_row },
	{ { KEY_NPAGE, ' ', CONTROL_KEY('f'), KEY_PPAGE, CONTROL_KEY('b') }, "PgDn PgUp",
	  "next / previous page",
	  .keyed_action = move_page, .keyed_delta_action = delta_page },
	{ { KEY_HOME, 'g', KEY_END, 'G' }, "Home End g G", "first / last row",
	  .keyed_action = first_or_last, .keyed_delta_action = delta_first_or_last },
	{ { KEY_RIGHT, KEY_LEFT, 'h' }, "Right Left h", "expand / collapse, to parent",
	  .keyed_action = expand_or_collapse },
	{ { 'l' }, "l", "source lines (n/N: hot lines)",
	  .action = app_open_lines },
	{ { 'a' }, "a", "by functions, files, lines, addresses",
	  .action = app_next_granularity, .one_profile = true },
	{ { '\n', '\r', KEY_ENTER }, "Enter Bksp",
	  "open, zoom; Bksp goes back",
	  .action = app_enter },
	{ { '*' }, "*", "expand whole subtree",
	  .action = app_expand_subtree },
	{ { 's' }, "s", "sort by the next column",
	  .action = app_cycle_sort, .delta_action = compare_cycle_sort },
	{ { 'S' }, "S", "reverse the sort",
	  .action = app_reverse_sort, .delta_action = compare_reverse_sort },
	{ { 'r' }, "r", "next rule (both sides)",
	  .action = app_cycle_rule, .delta_action = compare_cycle_rule },
	{ { 'u' }, "u", "units: time, %, samples",
	  .action = app_cycle_units },
	{ { '%' }, "%", "% of the whole / of what is left",
	  .action = app_toggle_relative },
	{ { 't' }, "t", "next sample type (pprof)",
	  .action = app_cycle_sample_type },
	{ { 'T' }, "T", "next thread (traces, Firefox)",
	  .action = app_next_thread, .one_profile = true },
	{ { '/' }, "/", "search as you type",
	  .action = app_search_start },
	{ { 'n' }, "n", "next match; compare: shares",
	  .action = search_forward, .delta_action = compare_toggle_normalize },
	{ { 'N' }, "N", "previous match",
	  .action = search_backward },
	{ { 'f', 'i', 'x' }, "f i x", "focus, ignore, hide it",
	  .keyed_action = filter_key, .one_profile = true },
	{ { '[', '{' }, "[ {", "range start later (1/10)",
	  .keyed_action = range_start_later },
	{ { ']', '}' }, "] }", "range end earlier (1/10)",
	  .keyed_action = range_end_earlier },
	{ { '0' }, "0", "range: the whole profile",
	  .action = app_range_whole },
	{ { '_' }, "_", "show/hide the timeline strip",
	  .action = app_toggle_timeline },
	{ { '=', 'P' }, "= P", "show only it, prune above",
	  .keyed_action = filter_key, .one_profile = true },
	{ { 'm', 'R', 'C' }, "m R C", "merge/recursion/file",
	  .keyed_action = filter_key, .one_profile = true },
	{ { 'M', ':' }, "M :", "my code; type a filter",
	  .keyed_action = filter_key, .one_profile = true },
	{ { KEY_BACKSPACE, 127, 8, 'F' }, "Backspace F", "undo filter; clear all",
	  .keyed_action = filter_key, .one_profile = true },
	{ { '#' }, "#", "labels (pprof tags)",
	  .action = app_list_tags },
	{ { 'c', 'b' }, "c b", "open in call graph, bottom-up",
	  .keyed_action = open_in_pane },
	/* habits: what users of other profilers reach for */
	{ { '6', 'y' }, "6 y", "sandwich: callers/callees",
	  .action = open_sandwich },
	{ { '>' }, ">", "hide rows <0.5, 1, 5%",
	  .action = app_cycle_min_share },
	{ { 'p' }, "p", "live: start/stop profiling (URL: pause)",
	  .action = live_view_toggle_profiling, .one_profile = true },
	{ { 'z' }, "z", "live: freeze/follow",
	  .action = live_view_toggle_freeze, .one_profile = true },
	{ { 'w' }, "w", "save view (live: session)",
	  .action = write_files, .one_profile = true },
	{ { 'e' }, "e", "live: next engine/target",
	  .action = live_view_next_target, .one_profile = true },
	{ { 'L' }, "L", "live: the engine's log",
	  .action = live_view_toggle_log, .one_profile = true },
	{ { 'B' }, "B", "live: pin complete windows (B unpins)",
	  .action = live_view_toggle_pin, .one_profile = true },
	/* Pane 5's own keys (flame_key, there before the table): x its
	 * order, v flips it, C switches its colours, Backspace/Esc zoom out. */
	{ { 0 }, "x v C", "flame: order/flip/colour",
	  .action = flame_toggle_order },
	{ { '?', KEY_F(1) }, "? F1", "this help",
	  .action = toggle_help, .delta_action = delta_help },
	{ { 'q', 'Q' }, "q", "quit",
	  .action = quit, .delta_action = delta_quit },
	/* Navigation (issue 26): the hottest path, closing all.  Pane 4's
	 * history is Backspace's (filter_key, the Enter Bksp row). */
	{ { 'H', '-' }, "H -", "heaviest path; close all",
	  .keyed_action = heaviest_or_close_all },
	{ { 'o' }, "o", "compare: other side",
	  .action = other_side },
	{ { 'd' }, "d", "compare: delta layout",
	  .action = toggle_layout, .delta_action = compare_toggle_layout },
	{ { '!' }, "!", "compare runs: hide the noise",
	  .action = toggle_noise, .delta_action = compare_toggle_noise },
};
const size_t key_table_len = sizeof(key_table) / sizeof(key_table[0]);

void key_table_print(FILE *out)
{
	for (size_t i = 0; i < key_table_len; i++)
		fprintf(out, "%s\t%s\n", key_table[i].names, key_table[i].help);
}

/* The binding of a key, or NULL. */
static const struct key_binding *key_lookup(int key)
{
	for (size_t i = 0; i < key_table_len; i++)
		for (int k = 0; k < KEYS_PER_BINDING && key_table[i].keys[k]; k++)
			if (key_table[i].keys[k] == key)
				return &key_table[i];
	return NULL;
}

#define KEY_ESCAPE 27
/* Columns a Right or Left moves the source text. */
#define SOURCE_SHIFT 8

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
	/* Sideways as less does; Left at the left edge goes back. */
	case KEY_RIGHT: lines_pane_shift(a, SOURCE_SHIFT); break;
	case KEY_LEFT:
		if (!lines_pane_shift(a, -SOURCE_SHIFT))
			app_close_lines(a);
		break;
	case 'q': case 'Q': case 'l': case 'h': case KEY_ESCAPE:
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

static void run_action(const struct key_binding *b, struct app *a, int key)
{
	if (b->keyed_action)
		b->keyed_action(a, key);
	else
		b->action(a);
}

void key_in_help(struct app *a, int key)
{
	size_t page = a->page_rows > 1 ? a->page_rows - 1 : 1;
	switch (key) {
	case KEY_DOWN: case 'j':
		a->help_top++; /* the drawing keeps it on the list */
		break;
	case KEY_UP: case 'k':
		a->help_top -= a->help_top > 0;
		break;
	case KEY_NPAGE: case ' ':
		a->help_top += page;
		break;
	case KEY_PPAGE:
		a->help_top -= a->help_top > page ? page : a->help_top;
		break;
	case KEY_RESIZE:
		break;
	default:
		a->show_help = false;
		a->help_top = 0;
	}
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
	run_action(b, a, key);
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
		if (b->keyed_delta_action)
			b->keyed_delta_action(c, key);
		else if (b->delta_action)
			b->delta_action(c);
		else
			app_message(a, "%s does nothing in the delta layout (d leaves it)",
				    b->names);
	} else if (b->one_profile && b->keyed_action == filter_key) {
		app_message(a, "%s filters one profile at a time: --focus, --ignore, --hide "
			    "... filter both sides (wprof-tui --focus RE BASE NEW)", b->names);
	} else if (b->one_profile) {
		app_message(a, "%s works on one profile at a time", b->names);
	} else if (key == 'n' && a->current == VIEW_FLAME) {
		/* NEW's flame graph is coloured by change: `n` compares
		 * shares, so that a short profile is not all blue. */
		compare_toggle_normalize(c);
	} else {
		struct compare_before before;
		compare_remember(c, &before);
		if (!flame_key(a, key))
			run_action(b, a, key);
		compare_follow(c, &before);
	}
	return true;
}
