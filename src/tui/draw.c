#include "draw.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <wchar.h>

#include "base/escape.h"
#include "base/units.h"
#include "base/util.h"
#include "flame_draw.h"
#include "keys.h"
#include "transform/granularity.h"
#include "timeline_draw.h"
#include "transform/symbolize.h"

/* Narrower than this, the split screen stacks its sides. */
#define SIDE_BY_SIDE_COLS 120
#define DELTA_WIDTH 10

#define VALUE_WIDTH 9
/* "100.00%" and two spaces: every column keeps a gap. */
#define PERCENT_WIDTH 9

static const char *const tab_titles[VIEW_COUNT] = {
	"1 top-down", "2 bottom-up", "3 flat", "4 call graph", "5 flame", "6 sandwich",
};
/* Compact tabs (80 columns) leave the sort note room beside six tabs. */
static const char *const short_tab_titles[VIEW_COUNT] = {
	"1 top-down", "2 bottom-up", "3 flat", "4 graph", "5 flame", "6 sandwich",
};

static const char *tab_title(int kind, bool compact)
{
	return compact ? short_tab_titles[kind] : tab_titles[kind];
}

/* The part of the screen being drawn: all of it, or one side of the
 * split screen.  Lines and columns below count from its corner. */
static struct area {
	int y, x, lines, cols;
} area;

static void set_area(int y, int x, int lines, int cols)
{
	area = (struct area){ y, x, lines, cols };
}

/* Writes text at (y, x) in at most `max` columns; returns the columns
 * used.  Text is already escaped; bytes the locale cannot show are '?'. */
static int put_text(int y, int x, const char *s, int max, attr_t attr)
{
	int used = 0;
	mbstate_t st;
	memset(&st, 0, sizeof(st));
	attrset(attr);
	while (*s && used < max) {
		wchar_t wc;
		size_t n = mbrtowc(&wc, s, MB_CUR_MAX, &st);
		int width = n == (size_t)-1 || n == (size_t)-2 || n == 0 ? -1 : wcwidth(wc);
		if (width < 0) {
			memset(&st, 0, sizeof(st));
			mvaddch(area.y + y, area.x + x + used, '?');
			used++;
			s++;
			continue;
		}
		if (used + width > max)
			break;
		mvaddnwstr(area.y + y, area.x + x + used, &wc, 1);
		used += width;
		s += n;
	}
	return used;
}

/* Columns `s` takes on screen (a byte the locale cannot show: one). */
static int text_width(const char *s)
{
	int width = 0;
	mbstate_t st;
	memset(&st, 0, sizeof(st));
	while (*s) {
		wchar_t wc;
		size_t n = mbrtowc(&wc, s, MB_CUR_MAX, &st);
		int w = n == (size_t)-1 || n == (size_t)-2 || n == 0 ? -1 : wcwidth(wc);
		if (w < 0) {
			memset(&st, 0, sizeof(st));
			width++;
			s++;
			continue;
		}
		width += w;
		s += n;
	}
	return width;
}

/* put_text, with an ellipsis in the last column when the text is cut
 * ('>' where the terminal has no UTF-8), so that a cut name never passes
 * for a whole one. */
static int put_text_cut(int y, int x, const char *s, int max, attr_t attr, bool utf8)
{
	if (max <= 0)
		return 0;
	if (text_width(s) <= max)
		return put_text(y, x, s, max, attr);
	int used = put_text(y, x, s, max - 1, attr);
	return used + put_text(y, x + used, utf8 ? "\u2026" : ">", 1, attr);
}

static void fill_line(int y, attr_t attr)
{
	attrset(attr);
	mvhline(area.y + y, area.x, ' ', area.cols);
}

static const char *rule_state(const struct app *a, const struct totals **t)
{
	*t = rules_totals(a->ctx.rules, a->ctx.rule, a->ctx.type);
	return rule_name(a->ctx.rule);
}

/* "sample time: own delta (XS file profiler)", as reports say it, in
 * `room` columns: without its parenthesis, then its label, then not at
 * all where the line has no room for it. */
static void sample_time_fact(const struct model *m, char *buf, size_t cap, int room)
{
	const char *text = sample_time_text(m->sample_time);
	if (!text)
		return;
	const char *paren = strstr(text, " (");
	int brief = paren ? (int)(paren - text) : (int)strlen(text);
	if (snprintf(buf, cap, "  sample time: %s", text) <= room)
		return;
	if (snprintf(buf, cap, "  sample time: %.*s", brief, text) <= room)
		return;
	if (snprintf(buf, cap, "  %.*s", brief, text) <= room)
		return;
	buf[0] = '\0';
}

/* The header's file, in `room` columns beside the facts: the whole path,
 * or `…` and its end, the file's name whole.  Where not even the name
 * fits, it keeps up to a third of the line (the facts are cut at the
 * edge instead) and its start, ending in `…`.  A live session's label
 * ("live: app.js, streaming ...") says the most at its end: it keeps
 * that, after `…`, in the room the facts leave.  Returns the columns
 * used. */
static int draw_header_file(const struct screen *s, const char *file, const char *name,
			    int room, bool label)
{
	int least = area.cols / 3 < 12 ? 12 : area.cols / 3;
	int name_width = text_width(name) + (name != file ? 1 : 0);
	if (label) { /* all of it a path whose end to keep */
		name = file + strlen(file);
		name_width = room > 4 ? room : 4;
	}
	if (room < name_width)
		room = name_width < least ? name_width : least;
	if (room > area.cols - 1)
		room = area.cols - 1;
	attr_t attr = s->attr[EL_HEADER];
	if (text_width(file) <= room)
		return put_text(0, 1, file, room, attr);
	if (name_width > room)
		return put_text_cut(0, 1, name, room, attr, s->utf8);
	/* the end of the path, from a byte that starts a character */
	const char *tail = name;
	while (tail > file && text_width(tail - 1) < room)
		tail--;
	while (tail > file && ((unsigned char)*tail & 0xc0) == 0x80)
		tail++;
	int x = put_text(0, 1, s->utf8 ? "\u2026" : "<", 1, attr);
	return x + put_text(0, 1 + x, tail, room - x, attr);
}

static void draw_header(const struct app *a, const struct screen *s)
{
	const struct model *m = a->ctx.model;
	const struct totals *t;
	const char *rule = rule_state(a, &t);
	unsigned type = a->ctx.type;
	char duration[32], facts[512], file[1024], type_name[128], unit[64];
	format_duration(m, duration, sizeof(duration));
	char thread[160] = "";
	if (m->thread != STR_NONE) {
		thread[0] = ' ';
		escape_text(model_str(m, m->thread), thread + 1, sizeof(thread) - 1);
	}
	char range[160] = "";
	if (a->range.cut) {
		range[0] = range[1] = ' ';
		app_describe_range(a, !s->utf8, range + 2, sizeof(range) - 2);
	}
	escape_text(model_str(m, m->types[type].name), type_name, sizeof(type_name));
	escape_text(model_str(m, m->types[type].unit), unit, sizeof(unit));
	char by[32] = "";
	if (a->granularity != GRANULARITY_FUNCTIONS)
		snprintf(by, sizeof(by), "  by %s", granularity_name(a->granularity));
	char symbols[200] = "";
	if (m->symbols != STR_NONE) {
		symbols[0] = symbols[1] = ' ';
		escape_text(model_str(m, m->symbols), symbols + 2, sizeof(symbols) - 2);
	}
	char hidden[48] = ""; /* --min-share, > */
	if (a->ctx.min_share > 0)
		snprintf(hidden, sizeof(hidden), "  hiding <%g%%", a->ctx.min_share);
	int len = snprintf(facts, sizeof(facts), "  %s%s%s  %s%s  %s (%s)  rule: %s%s%s%s",
			   m->format, by, thread, duration, range, type_name, unit, rule,
			   t->total ? "" : t->computing ? " (computing)" : " (n/a)", hidden,
			   symbols);
	escape_text(a->file, file, sizeof(file));
	/* The file's name matters more than how its samples were timed. */
	const char *name = strrchr(file, '/') ? strrchr(file, '/') + 1 : file;
	sample_time_fact(m, facts + len, sizeof(facts) - (size_t)len,
			 area.cols - 2 - len - (int)strlen(name));
	fill_line(0, s->attr[EL_HEADER]);
	int x = 1 + draw_header_file(s, file, name, area.cols - (int)strlen(facts) - 1,
				     a->live != NULL);
	put_text(0, x, facts, area.cols - x, t->total ? s->attr[EL_HEADER]
						  : s->attr[EL_NOT_APPLICABLE]);
}

/* Tabs lose their padding when the sort, focus and hide notes would not
 * fit beside them (six tabs at 80 columns); clicks follow the same. */
static bool compact_tabs;

/* Compact tabs keep the padded ones' margin at the left. */
#define COMPACT_TABS_MARGIN 1

static int tabs_width(bool compact)
{
	int width = compact ? COMPACT_TABS_MARGIN : 0;
	for (int k = 0; k < VIEW_COUNT; k++)
		width += (int)strlen(tab_title(k, compact)) + (compact ? 0 : 2) + 1;
	return width;
}

static void draw_tabs(const struct app *a, const struct screen *s)
{
	fill_line(1, s->attr[EL_TAB]);
	/* The filter stack as a breadcrumb, before the sort when both do
	 * not fit, its newest end kept when it alone does not. */
	char extra[1024], crumb[900];
	app_breadcrumb(a, crumb, sizeof(crumb));
	int n = snprintf(extra, sizeof(extra), "sort: %s%s",
			 sort_key_name(a->ctx.sort), a->ctx.reversed ? " reversed" : "");
	if (crumb[0]) {
		int room = area.cols - tabs_width(true) - 3;
		size_t len = strlen(crumb);
		if (n + 2 + (int)strlen("filters: ") + (int)len <= room)
			snprintf(extra + n, sizeof(extra) - (size_t)n, "  filters: %s", crumb);
		else if ((int)(strlen("filters: ") + len) <= room)
			snprintf(extra, sizeof(extra), "filters: %s", crumb);
		else if (room > 16)
			snprintf(extra, sizeof(extra), "filters: ...%s",
				 crumb + len - (size_t)(room - 12));
	}
	int width = (int)strlen(extra);
	compact_tabs = tabs_width(false) + 2 + width >= area.cols;
	int x = compact_tabs ? COMPACT_TABS_MARGIN : 0;
	for (int k = 0; k < VIEW_COUNT; k++) {
		attr_t attr = k == (int)a->current ? s->attr[EL_TAB_ACTIVE] : s->attr[EL_TAB];
		char title[32];
		snprintf(title, sizeof(title), compact_tabs ? "%s" : " %s ",
			 tab_title(k, compact_tabs));
		x += put_text(1, x, title, area.cols - x, attr) + 1;
	}
	if (x + 2 + width < area.cols)
		put_text(1, area.cols - width - 1, extra, width, s->attr[EL_TAB]);
}

static bool show_calls(const struct app *a)
{
	return a->ctx.model->caps & HAS_CALL_COUNTS;
}

/* The flat pane's sum% (pprof's): the self % of its row and every row
 * above it, in the order shown. */
static bool show_sum(const struct app *a)
{
	return a->current == VIEW_FLAT;
}

/* The value columns of a pane, left to right: both shares show, as in
 * the text reports, and the flat pane's running sum% after them. */
enum column { COL_SELF, COL_SELF_PERCENT, COL_TOTAL, COL_TOTAL_PERCENT, COL_SUM_PERCENT,
	      COL_CALLS, COL_COUNT };

static const int column_widths[COL_COUNT] = {
	VALUE_WIDTH, PERCENT_WIDTH - 1, VALUE_WIDTH, PERCENT_WIDTH - 1, PERCENT_WIDTH - 1,
	VALUE_WIDTH,
};

/* What the name keeps at least: narrow, columns give way to it, calls
 * first, then the shares, then self; total stays. */
#define NAME_ROOM 16

static const enum column give_way_order[] = {
	COL_CALLS, COL_SUM_PERCENT, COL_SELF_PERCENT, COL_TOTAL_PERCENT, COL_SELF,
};

static int columns_width(const bool shown[COL_COUNT])
{
	int width = 0;
	for (int k = 0; k < COL_COUNT; k++)
		width += shown[k] ? column_widths[k] + 1 : 0;
	return width;
}

static void shown_columns(const struct app *a, bool shown[COL_COUNT])
{
	shown[COL_SELF] = shown[COL_TOTAL] = true;
	shown[COL_SELF_PERCENT] = shown[COL_TOTAL_PERCENT] = true;
	shown[COL_SUM_PERCENT] = show_sum(a);
	shown[COL_CALLS] = show_calls(a);
	for (size_t i = 0; i < ARRAY_LEN(give_way_order); i++)
		if (area.cols - columns_width(shown) < NAME_ROOM)
			shown[give_way_order[i]] = false;
}

static int name_column(const struct app *a)
{
	bool shown[COL_COUNT];
	shown_columns(a, shown);
	return columns_width(shown) + 1;
}

static void draw_column_titles(const struct app *a, const struct screen *s)
{
	fill_line(2, s->attr[EL_COLUMNS]);
	static const char *const titles[COL_COUNT] = { "self", "self%", "total", "total%",
						       "sum%", "calls" };
	static const enum sort_key sorts[COL_COUNT] = {
		[COL_SELF] = SORT_SELF, [COL_TOTAL] = SORT_TOTAL, [COL_CALLS] = SORT_CALLS,
		[COL_SELF_PERCENT] = SORT_COUNT, [COL_TOTAL_PERCENT] = SORT_COUNT,
		[COL_SUM_PERCENT] = SORT_COUNT,
	};
	const char *mark = a->ctx.reversed ? (s->utf8 ? "▲" : "^") : (s->utf8 ? "▼" : "v");
	bool shown[COL_COUNT];
	shown_columns(a, shown);
	char line[256], title[16];
	size_t n = 0;
	for (int k = 0; k < COL_COUNT; k++) {
		if (!shown[k])
			continue;
		bool sorted = a->ctx.sort == sorts[k];
		snprintf(title, sizeof(title), "%s%s", sorted ? mark : "", titles[k]);
		/* the mark is one column of several bytes in UTF-8 */
		int width = column_widths[k] + (int)(strlen(title) - text_width(title));
		n += (size_t)snprintf(line + n, sizeof(line) - n, "%*s ", width, title);
	}
	char name[16];
	snprintf(name, sizeof(name), "%sname", a->ctx.sort == SORT_NAME ? mark : "");
	int x = put_text(2, 0, line, area.cols, s->attr[EL_COLUMNS]);
	put_text(2, x, name, area.cols - x, s->attr[EL_COLUMNS]);
}

static void format_cell(const struct app *a, double value, char *buf, size_t cap)
{
	const struct totals *t;
	rule_state(a, &t);
	if (isnan(value))
		snprintf(buf, cap, "-");
	else if (a->units == UNITS_PERCENT)
		format_percent(value, t->profile_total, buf, cap);
	else /* shortened so that every column keeps a gap */
		format_value_short(a->ctx.model, a->ctx.type, value, buf, cap,
				   VALUE_WIDTH - 1);
}

/* An element drawn over a row's base: on the selected row only its
 * attributes join in, so the selection's colours run the whole line;
 * elsewhere its colour pair replaces the base's (pairs cannot be or-ed). */
static attr_t over(attr_t base, attr_t element, bool keep_base_colour)
{
	if (keep_base_colour || !(element & A_COLOR))
		return base | (element & ~A_COLOR);
	return (base & ~A_COLOR) | element;
}

static const char *tree_marker(const struct row *r, const struct screen *s)
{
	if (r->flags & ROW_EXPANDED)
		return s->utf8 ? "▾ " : "- ";
	if (r->flags & ROW_EXPANDABLE)
		return s->utf8 ? "▸ " : "+ ";
	return s->utf8 ? "· " : "  ";
}

static attr_t name_attr(const struct row *r, const struct screen *s)
{
	return r->flags & ROW_CALLER ? s->attr[EL_CALLER]
	     : r->flags & ROW_PRIMARY ? s->attr[EL_PRIMARY]
	     : r->flags & ROW_CALLEE ? s->attr[EL_CALLEE]
	     : s->attr[EL_NORMAL];
}

/* Whether the selected row's name was cut at the edge when last drawn:
 * then the status line gives it whole. */
static bool selected_name_cut;

static void draw_name(const struct app *a, const struct screen *s, int y, int x,
		      const struct row *r, attr_t base, bool selected)
{
	char name[1024], loc[1024];
	int room = area.cols - x;
	if (a->current == VIEW_CALLGRAPH) {
		const char *prefix = r->flags & ROW_PRIMARY ? "" : "    ";
		x += put_text(y, x, prefix, room, base);
	} else if (a->current != VIEW_FLAT) {
		/* One guide a level, the name never pushed past half the room;
		 * deeper than that, the depth is shown as a number ([37]) so
		 * that deep frames do not pass for siblings. */
		int levels = (int)r->depth, most = room / 4;
		char depth[16] = "";
		if (levels > most) {
			int len = snprintf(depth, sizeof(depth), "[%u] ", r->depth);
			levels = most - (len + 1) / 2;
			if (levels < 0)
				levels = 0;
		}
		attr_t guide = over(base, s->attr[EL_TREE], selected);
		for (int k = 0; k < levels; k++)
			x += put_text(y, x, s->utf8 ? "│ " : "| ", 2, guide);
		x += put_text(y, x, depth, area.cols - x, guide);
		x += put_text(y, x, tree_marker(r, s), area.cols - x, guide);
	}
	attr_t attr = over(base, name_attr(r, s), selected);
	if (app_row_matches(a, r)) /* a match shows even on the selected row */
		attr = over(attr, s->attr[EL_MATCH], false);
	app_frame_name(a, r->frame, name, sizeof(name));
	bool primary = r->flags & ROW_PRIMARY;
	if (primary && a->current == VIEW_SANDWICH) /* which tree each root opens */
		x += put_text(y, x, r->flags & ROW_CALLER ? "callers of " : "callees of ",
			      area.cols - x, attr);
	if (primary)
		x += put_text(y, x, "[", area.cols - x, attr);
	int room_for_name = area.cols - x - (primary ? 1 : 0);
	if (selected)
		selected_name_cut = text_width(name) > room_for_name;
	x += put_text_cut(y, x, name, room_for_name, attr, s->utf8);
	if (primary)
		x += put_text(y, x, "]", area.cols - x, attr);
	/* The file's base name and line, as DevTools shows them; the whole
	 * URL is on the status line for the row under the cursor. */
	format_location_short(a->ctx.model, r->frame, loc, sizeof(loc));
	if (*loc && x + 3 < area.cols) {
		x += put_text(y, x, "  ", area.cols - x, base);
		put_text_cut(y, x, loc, area.cols - x, over(base, s->attr[EL_DIM], selected),
			     s->utf8);
	}
}

static void format_share(const struct app *a, double value, char *buf, size_t cap)
{
	const struct totals *t;
	rule_state(a, &t);
	if (isnan(value))
		snprintf(buf, cap, "-");
	else
		format_percent(value, t->profile_total, buf, cap);
}

/* `sum`: the self of this row and those above it (show_sum). */
static void format_column(const struct app *a, const struct row *r, double sum,
			  enum column k, char *buf, size_t cap)
{
	switch (k) {
	case COL_SELF:
		format_cell(a, r->self, buf, cap);
		break;
	case COL_SELF_PERCENT:
		format_share(a, r->self, buf, cap);
		break;
	case COL_TOTAL:
		format_cell(a, r->total, buf, cap);
		break;
	case COL_TOTAL_PERCENT:
		format_share(a, r->total, buf, cap);
		break;
	case COL_SUM_PERCENT:
		format_share(a, sum, buf, cap);
		break;
	default:
		if (isnan(r->calls))
			snprintf(buf, cap, "-");
		else
			format_count_short(r->calls, buf, cap);
	}
}

static void draw_row(const struct app *a, const struct screen *s, int y,
		     const struct row *r, double sum, bool selected)
{
	attr_t base = selected ? s->attr[EL_SELECTED] : s->attr[EL_NORMAL];
	fill_line(y, base);
	bool shown[COL_COUNT];
	shown_columns(a, shown);
	char cell[32], cells[160];
	size_t n = 0;
	for (int k = 0; k < COL_COUNT; k++) {
		if (!shown[k])
			continue;
		format_column(a, r, sum, (enum column)k, cell, sizeof(cell));
		n += (size_t)snprintf(cells + n, sizeof(cells) - n, "%*s ", column_widths[k], cell);
	}
	int x = put_text(y, 0, cells, area.cols, base);
	if (x < name_column(a))
		x = name_column(a);
	if (selected) /* no room for it at all */
		selected_name_cut = true;
	if (x < area.cols)
		draw_name(a, s, y, x, r, base, selected);
}

static int page_lines(void)
{
	int lines = area.lines - DRAW_FIRST_ROW_LINE - 1;
	return lines > 0 ? lines : 0;
}

size_t draw_top_showing(size_t top, size_t selected, size_t page)
{
	if (selected < top)
		return selected;
	if (page && selected >= top + page)
		return selected - page + 1;
	return top;
}

size_t draw_top_filling(size_t top, size_t page, size_t nrows)
{
	if (top + page > nrows)
		return nrows > page ? nrows - page : 0;
	return top;
}

static void draw_rows(struct app *a, const struct screen *s)
{
	struct pane *p = app_pane(a);
	size_t page = (size_t)page_lines();
	a->page_rows = page ? page : 1;
	p->top = draw_top_showing(p->top, p->selected, page);
	p->top = draw_top_filling(p->top, page, p->view.nrows);
	double sum = 0;
	for (size_t i = 0; show_sum(a) && i < p->top && i < p->view.nrows; i++)
		sum += p->view.rows[i].self;
	for (size_t i = 0; i < page; i++) {
		int y = DRAW_FIRST_ROW_LINE + (int)i;
		size_t index = p->top + i;
		if (index < p->view.nrows) {
			sum += p->view.rows[index].self;
			draw_row(a, s, y, &p->view.rows[index], sum, index == p->selected);
		} else {
			fill_line(y, s->attr[EL_NORMAL]);
		}
	}
	if (!p->view.nrows && page)
		put_text(DRAW_FIRST_ROW_LINE, 2, "(no rows: nothing in this profile passes)",
			 area.cols - 2, s->attr[EL_DIM]);
}

/* The cursor's place: row `selected` of `count`. */
struct place {
	size_t selected, count;
};

static struct place pane_place(const struct app *a)
{
	const struct pane *p = &a->panes[a->current];
	return (struct place){ p->selected, p->view.nrows };
}

/* The : prompt's cursor: the character under it shown reversed (the
 * terminal's own cursor stays hidden). */
static void draw_prompt_cursor(const struct line_edit *e, int y, int x, int max,
			       attr_t attr)
{
	char before[LINE_EDIT_CAP], safe[4 * LINE_EDIT_CAP], under[16] = " ";
	memcpy(before, e->text, e->cursor);
	before[e->cursor] = 0;
	escape_text(before, safe, sizeof(safe));
	x += text_width(safe);
	if (e->text[e->cursor]) {
		size_t len = 1;
		while (((unsigned char)e->text[e->cursor + len] & 0xC0) == 0x80)
			len++;
		memcpy(before, &e->text[e->cursor], len);
		before[len] = 0;
		escape_text(before, under, sizeof(under));
	}
	if (x < max)
		put_text(y, x, under, max - x, attr ^ A_REVERSE);
}

/* The right end of the status line, " 3/40  ? help "; returns its width. */
static int status_place(struct place at, char *buf, size_t cap)
{
	return snprintf(buf, cap, " %zu/%zu  ? help ", at.count ? at.selected + 1 : 0, at.count);
}

/* Columns the status line has for its text. */
static int status_room(struct place at)
{
	char where[64];
	return area.cols - status_place(at, where, sizeof(where)) - 2;
}

/* `note`: what to say when there is nothing else to say, or NULL. */
static void draw_status(const struct app *a, const struct screen *s,
			struct place at, const char *note, bool note_is_place)
{
	int y = area.lines - 1;
	fill_line(y, s->attr[EL_STATUS]);
	char where[64], text[600];
	int right = status_place(at, where, sizeof(where));
	const struct totals *t;
	rule_state(a, &t);
	attr_t attr = s->attr[EL_STATUS];
	if (a->prompts.searching) {
		char safe[512];
		escape_text(a->prompts.search, safe, sizeof(safe));
		snprintf(text, sizeof(text), "/%s", safe);
	} else if (a->prompts.commanding) {
		char safe[512];
		escape_text(a->prompts.command.text, safe, sizeof(safe));
		snprintf(text, sizeof(text), "filter (KIND PATTERN): %s", safe);
	} else if (a->prompts.saving) {
		char safe[512];
		escape_text(a->prompts.save.text, safe, sizeof(safe));
		snprintf(text, sizeof(text), "save as: %s", safe);
	} else if (a->message[0]) {
		screen_text(s, a->message, text, sizeof(text));
	} else if (!t->total && t->computing) {
		snprintf(text, sizeof(text), "%s", t->why_not);
	} else if (!t->total) {
		snprintf(text, sizeof(text), "%s gives no totals here: %s",
			 rule_name(a->ctx.rule), t->why_not);
		attr = over(s->attr[EL_STATUS], s->attr[EL_NOT_APPLICABLE], false);
	} else if (note && !note_is_place) {
		snprintf(text, sizeof(text), "%s", note);
	} else if (note) {
		/* A location too long for the line loses its beginning: the
		 * file name and line at its end matter most. */
		const char *tail = note;
		int room = area.cols - right - 2;
		while (*tail && text_width(tail) > room - 1)
			tail++;
		snprintf(text, sizeof(text), "%s%s", tail == note ? "" : s->utf8 ? "\u2026" : "<",
			 tail);
	} else {
		text[0] = '\0';
	}
	put_text(y, 1, text, area.cols - right - 2, attr);
	if (a->prompts.commanding)
		draw_prompt_cursor(&a->prompts.command, y, 1 + (int)strlen("filter (KIND PATTERN): "),
				   area.cols - right - 2, attr);
	else if (a->prompts.saving)
		draw_prompt_cursor(&a->prompts.save, y, 1 + (int)strlen("save as: "),
				   area.cols - right - 2, attr);
	if (right < area.cols)
		put_text(y, area.cols - right, where, right, s->attr[EL_STATUS]);
}

static int widest(bool names)
{
	int most = 0;
	for (size_t i = 0; i < key_table_len; i++) {
		int w = text_width(names ? key_table[i].names : key_table[i].help);
		most = w > most ? w : most;
	}
	return most;
}

/* The keys in as many columns as fit whole, scrolling (help_top) when
 * they do not fit the height; a text cut at the edge ends in `…`. */
static void draw_help(struct app *a, const struct screen *s)
{
	int top = 1, lines = area.lines - top - 2;
	for (int y = top; y < area.lines - 1; y++)
		fill_line(y, s->attr[EL_NORMAL]);
	if (lines <= 0)
		return;
	int names = widest(true), width = names + 2 + widest(false) + 2;
	int columns = area.cols / width > 1 ? area.cols / width : 1;
	size_t rows = (key_table_len + (size_t)columns - 1) / (size_t)columns;
	size_t last_top = rows > (size_t)lines ? rows - (size_t)lines : 0;
	if (a->help_top > last_top)
		a->help_top = last_top;
	char title[160], shown[160];
	snprintf(title, sizeof(title), "Keys%s (any other key closes this help)",
		 last_top ? " — j/k, PgDn/PgUp scroll" : "");
	if (last_top)
		snprintf(title + strlen(title), sizeof(title) - strlen(title), "  %zu–%zu of %zu",
			 a->help_top + 1, a->help_top + (size_t)lines, rows);
	screen_text(s, title, shown, sizeof(shown)); /* its dashes, under LANG=C */
	put_text_cut(top, 1, shown, area.cols - 1, s->attr[EL_HEADER], s->utf8);
	a->page_rows = (size_t)lines;
	for (int y = 0; y < lines; y++)
		for (int col = 0; col < columns; col++) {
			size_t i = (size_t)col * rows + a->help_top + (size_t)y;
			if (a->help_top + (size_t)y >= rows || i >= key_table_len)
				continue;
			int x = col * width + 1;
			put_text_cut(top + 1 + y, x, key_table[i].names, area.cols - x,
				     s->attr[EL_PRIMARY], s->utf8);
			x += names + 2;
			put_text_cut(top + 1 + y, x, key_table[i].help, area.cols - x,
				     s->attr[EL_NORMAL], s->utf8);
		}
}

/* The strip under the header, and the rest of the area below it. */
static void draw_timeline(struct app *a, const struct screen *s)
{
	if (!timeline_shown(a, area.lines))
		return;
	timeline_draw(a, s, area.y + 1, area.x, area.cols);
	set_area(area.y + TIMELINE_LINES, area.x, area.lines - TIMELINE_LINES, area.cols);
}

/* Pane 5 draws itself below the tabs (flame_draw.c). */
static void draw_flame(struct app *a, const struct screen *s,
		       struct compare *diff, char *note, size_t cap)
{
	flame_draw(a, s, area.y + DRAW_FIRST_ROW_LINE - 1, area.x,
		   area.lines - DRAW_FIRST_ROW_LINE, area.cols, diff, note, cap);
}

/* A symbolized frame's generated place, or why it kept its own. */
static void append_origin(const struct model *m, uint32_t frame, char *note, size_t cap)
{
	char origin[600];
	symbol_origin_text(m, frame, origin, sizeof(origin));
	size_t n = strlen(note);
	if (origin[0])
		snprintf(note + n, cap - n, "%s%s", n ? "  " : "", origin);
}

void draw_app(struct app *a, const struct screen *s)
{
	set_area(0, 0, LINES, COLS);
	if (a->lines && !a->show_help && draw_lines_pane(a, s))
		return;
	draw_header(a, s);
	char note[1024] = "";
	if (a->show_help) {
		draw_help(a, s);
	} else {
		draw_timeline(a, s);
		draw_tabs(a, s);
		if (a->current == VIEW_FLAME) {
			draw_flame(a, s, NULL, note, sizeof(note));
		} else {
			draw_column_titles(a, s);
			draw_rows(a, s);
		}
	}
	/* With nothing else to say: where the function under the cursor is. */
	const struct row *r = app_selected_row(a);
	bool whole_name = false;
	if (!note[0] && r && !a->show_help && a->current != VIEW_FLAME) {
		char loc[900];
		format_location(a->ctx.model, r->frame, loc, sizeof(loc));
		append_origin(a->ctx.model, r->frame, loc, sizeof(loc));
		/* A name cut at the edge is read here whole, its place after
		 * it; one too long even for this line leaves it to the place. */
		char name[400];
		app_frame_name(a, r->frame, name, sizeof(name));
		whole_name = selected_name_cut &&
			     text_width(name) <= status_room(pane_place(a));
		if (whole_name) {
			snprintf(note, sizeof(note), "%s%s%s", name, *loc ? "  " : "", loc);
		} else {
			snprintf(note, sizeof(note), "%s", loc);
		}
	}
	draw_status(a, s, pane_place(a), note[0] ? note : NULL,
		    a->current != VIEW_FLAME && !whole_name);
	attrset(A_NORMAL);
	/* The area stays the pane's, for draw_row_at and draw_tabs_line. */
}

/* ---- comparing two profiles ------------------------------------------ */

/* What pane 5 of the active side says of the frame under its cursor. */
static char side_flame_note[1024];

static void draw_side(struct app *a, const struct screen *s, struct compare *c)
{
	draw_header(a, s);
	draw_timeline(a, s);
	draw_tabs(a, s);
	if (a->current == VIEW_FLAME) {
		char note[1024];
		draw_flame(a, s, c, note, sizeof(note));
		if (a == compare_active(c))
			snprintf(side_flame_note, sizeof(side_flame_note), "%s", note);
		return;
	}
	draw_column_titles(a, s);
	draw_rows(a, s);
}

/* A value of the delta layout; a delta carries its sign.  NAN is a value
 * the rule cannot give (n/a); absence is drawn by the caller.  Shares are
 * percent of each profile, so their difference is in points (`-2.67 pt`),
 * not a percentage to be read like delta% beside it. */
static void delta_cell(const struct compare *c, double value, bool is_delta,
		       char *buf, size_t cap)
{
	const struct diff *d = &c->diff;
	if (isnan(value)) {
		snprintf(buf, cap, "n/a");
		return;
	}
	const char *sign = !is_delta ? "" : value > 0 ? "+" : value < 0 ? "-" : "";
	size_t used = (size_t)snprintf(buf, cap, "%s", sign);
	double magnitude = is_delta ? fabs(value) : value;
	if (d->normalize)
		snprintf(buf + used, cap - used, is_delta ? "%.2f pt" : "%.2f%%", magnitude);
	else
		format_value(d->model[DIFF_BASE], d->type[DIFF_BASE], magnitude,
			     buf + used, cap - used);
}

/* A side's mean self or total over its runs (with one run, its value):
 * `-` where no run has the function, n/a where the rule gives that side
 * no totals (diff.h). */
static void side_cell(const struct compare *c, const struct runs_row *r,
		      const struct sample_summary *stats, enum diff_side side,
		      char *buf, size_t cap)
{
	if (r->present[side])
		delta_cell(c, stats[side].mean, false, buf, cap);
	else
		snprintf(buf, cap, "-");
}

/* The half width of the delta's 95 % interval (`±1.23ms`), or why there
 * is none: no run varied on either side, or no totals under the rule. */
static void spread_cell(const struct compare *c, const struct runs_row *r, bool utf8,
			char *buf, size_t cap)
{
	if (isnan(r->test.delta)) {
		snprintf(buf, cap, "n/a");
		return;
	}
	if (isnan(r->test.high)) {
		snprintf(buf, cap, "no spread");
		return;
	}
	char half[24];
	delta_cell(c, fabs(r->test.high - r->test.delta), true, half, sizeof(half));
	snprintf(buf, cap, "%s%s", utf8 ? "\u00b1" : "+-", half[0] == '+' ? half + 1 : half);
}

/* The delta layout's columns, left to right: the selfs only when sorted
 * by them (as the text report shows them first), the interval only with
 * runs to weigh the delta against. */
enum delta_column { DC_BASE_SELF, DC_NEW_SELF, DC_BASE, DC_NEW, DC_DELTA, DC_SPREAD, DC_PCT,
		    DC_COUNT };

static const int delta_widths[DC_COUNT] = {
	VALUE_WIDTH, VALUE_WIDTH, VALUE_WIDTH, VALUE_WIDTH, DELTA_WIDTH, DELTA_WIDTH,
	PERCENT_WIDTH,
};

/* Narrow, columns give way to the name as in the panes: delta% first,
 * then the selfs, then the sides; the delta and its interval stay. */
static const enum delta_column delta_give_way[] = {
	DC_PCT, DC_BASE_SELF, DC_NEW_SELF, DC_BASE, DC_NEW,
};

/* Rows within the noise are dimmed; without colour, where dim may not
 * show, they are marked `~` in a column of their own. */
static bool noise_marked(const struct compare *c, const struct screen *s)
{
	return runs_testable(&c->runs) && !screen_in_colour(s);
}

static int delta_columns_width(const struct compare *c, const struct screen *s,
			       const bool shown[DC_COUNT])
{
	int width = 2 + noise_marked(c, s); /* the marks, a space */
	for (int k = 0; k < DC_COUNT; k++)
		width += shown[k] ? delta_widths[k] + 1 : 0;
	return width;
}

static void delta_columns(const struct compare *c, const struct screen *s,
			  bool shown[DC_COUNT])
{
	for (int k = 0; k < DC_COUNT; k++)
		shown[k] = true;
	shown[DC_BASE_SELF] = shown[DC_NEW_SELF] = c->diff.sort == DIFF_SORT_SELF;
	shown[DC_SPREAD] = runs_testable(&c->runs);
	for (size_t i = 0; i < ARRAY_LEN(delta_give_way); i++)
		if (area.cols - delta_columns_width(c, s, shown) < NAME_ROOM)
			shown[delta_give_way[i]] = false;
}

/* `text` right-aligned in `width` columns and a space, whatever its
 * bytes (`±` is two). */
static int put_cell(int y, int x, const char *text, int width, attr_t attr)
{
	char cell[64];
	int pad = width - text_width(text);
	snprintf(cell, sizeof(cell), "%*s%s ", pad > 0 ? pad : 0, "", text);
	return put_text(y, x, cell, area.cols - x, attr);
}

static const char *const side_marks[] = { " ", "-", "+" };

/* '-': only in base, '+': only in new, ' ': in both. */
static const char *one_sided_mark(const struct runs_row *r)
{
	bool base = r->present[DIFF_BASE], new_side = r->present[DIFF_NEW];
	return side_marks[base && !new_side ? 1 : !base && new_side ? 2 : 0];
}

/* The row's function and, dimmed, its file and line as every other pane
 * shows them: three `(anonymous)` rows are three places. */
static void draw_delta_name(const struct compare *c, const struct screen *s, int y,
			    int x, const struct diff_row *r, attr_t base, bool selected)
{
	enum diff_side side = diff_row_side(r);
	const struct model *m = c->diff.model[side];
	char name[1024], loc[1024];
	escape_text(model_str(m, m->frames[r->frame[side]].name), name, sizeof(name));
	x += put_text_cut(y, x, name, area.cols - x, over(base, s->attr[EL_NORMAL], selected),
			  s->utf8);
	format_location_short(m, r->frame[side], loc, sizeof(loc));
	if (*loc && x + 3 < area.cols) {
		x += put_text(y, x, "  ", area.cols - x, base);
		put_text_cut(y, x, loc, area.cols - x, over(base, s->attr[EL_DIM], selected),
			     s->utf8);
	}
}

/* The text of each column of a row. */
static void delta_texts(const struct compare *c, const struct runs_row *r, bool utf8,
			char text[DC_COUNT][32])
{
	side_cell(c, r, r->self_stats, DIFF_BASE, text[DC_BASE_SELF], sizeof(text[0]));
	side_cell(c, r, r->self_stats, DIFF_NEW, text[DC_NEW_SELF], sizeof(text[0]));
	side_cell(c, r, r->total_stats, DIFF_BASE, text[DC_BASE], sizeof(text[0]));
	side_cell(c, r, r->total_stats, DIFF_NEW, text[DC_NEW], sizeof(text[0]));
	delta_cell(c, r->test.delta, true, text[DC_DELTA], sizeof(text[0]));
	spread_cell(c, r, utf8, text[DC_SPREAD], sizeof(text[0]));
	if (isnan(r->delta_pct))
		snprintf(text[DC_PCT], sizeof(text[0]), "%s", isnan(r->test.delta) ? "n/a" : "-");
	else
		snprintf(text[DC_PCT], sizeof(text[0]), "%+.1f%%", r->delta_pct);
}

static void draw_delta_row(const struct compare *c, const struct screen *s, int y,
			   const struct runs_row *r, bool selected)
{
	bool noise = r->significant == 0;
	attr_t base = selected ? s->attr[EL_SELECTED] : s->attr[EL_NORMAL];
	fill_line(y, base);
	if (noise && !noise_marked(c, s))
		base |= A_DIM;
	bool shown[DC_COUNT];
	delta_columns(c, s, shown);
	char text[DC_COUNT][32];
	delta_texts(c, r, s->utf8, text);
	/* A regression in the colour of "not applicable", an improvement in
	 * the callees' green (the themes have no elements of their own yet);
	 * a change within the noise in neither. */
	double delta = r->test.delta;
	attr_t change = !runs_colours_change(r->significant, delta, delta) ? s->attr[EL_NORMAL]
		      : delta > 0 ? s->attr[EL_NOT_APPLICABLE] : s->attr[EL_CALLEE];
	int x = 0;
	for (int k = 0; k < DC_COUNT; k++)
		if (shown[k])
			x += put_cell(y, x, text[k], delta_widths[k],
				      k == DC_DELTA || k == DC_PCT ? over(base, change, selected)
								   : base);
	x += put_text(y, x, one_sided_mark(r), area.cols - x, base);
	if (noise_marked(c, s))
		x += put_text(y, x, noise ? "~" : " ", area.cols - x, base);
	x += put_text(y, x, " ", area.cols - x, base);
	if (x < area.cols)
		draw_delta_name(c, s, y, x, r->row, base, selected);
}

static void draw_delta_titles(const struct compare *c, const struct screen *s)
{
	bool self = c->diff.sort == DIFF_SORT_SELF;
	const char *titles[DC_COUNT] = {
		"base self", "new self", self ? "base tot" : "base", self ? "new tot" : "new",
		"delta", s->utf8 ? "\u00b195%" : "+-95%", "delta%",
	};
	bool shown[DC_COUNT];
	delta_columns(c, s, shown);
	fill_line(2, s->attr[EL_COLUMNS]);
	int x = 0;
	for (int k = 0; k < DC_COUNT; k++)
		if (shown[k])
			x += put_cell(2, x, titles[k], delta_widths[k], s->attr[EL_COLUMNS]);
	put_text(2, x + 2 + noise_marked(c, s), "name", area.cols - x, s->attr[EL_COLUMNS]);
}

/* How many runs the statistics stand on, or why there are none. */
static void runs_note(const struct compare *c, char *buf, size_t cap)
{
	const size_t *n = c->runs.nruns;
	if (!runs_testable(&c->runs))
		snprintf(buf, cap, "%s", n[DIFF_BASE] == 1 && n[DIFF_NEW] == 1
			 ? "1 run a side: no spread" : "a side has one run: no spread");
	else if (n[DIFF_BASE] == n[DIFF_NEW])
		snprintf(buf, cap, "%zu runs a side%s", n[DIFF_BASE],
			 c->hide_noise ? ", noise hidden" : "");
	else
		snprintf(buf, cap, "%zu base runs, %zu new%s", n[DIFF_BASE], n[DIFF_NEW],
			 c->hide_noise ? ", noise hidden" : "");
}

static void draw_delta(struct compare *c, const struct screen *s)
{
	const struct diff *d = &c->diff;
	char line[2048], files[2][512], runs[64];
	escape_text(c->side[DIFF_BASE].file, files[0], sizeof(files[0]));
	escape_text(c->side[DIFF_NEW].file, files[1], sizeof(files[1]));
	fill_line(0, s->attr[EL_HEADER]);
	snprintf(line, sizeof(line), " %s -> %s  rule: %s", files[0], files[1],
		 rule_name(d->rule));
	put_text(0, 0, line, area.cols, s->attr[EL_HEADER]);
	fill_line(1, s->attr[EL_TAB]);
	runs_note(c, runs, sizeof(runs));
	snprintf(line, sizeof(line), " delta layout (d: split)  %s  sort: %s%s  %s", runs,
		 diff_sort_name(d->sort), d->reversed ? " reversed" : "",
		 d->normalize ? "shares (% of each profile, delta in points)" : "absolute");
	put_text(1, 0, line, area.cols, s->attr[EL_TAB]);
	draw_delta_titles(c, s);
	size_t page = (size_t)page_lines();
	c->page_rows = page ? page : 1;
	c->top = draw_top_showing(c->top, c->selected, page);
	for (size_t i = 0; i < page; i++) {
		size_t index = c->top + i;
		int y = DRAW_FIRST_ROW_LINE + (int)i;
		if (index < c->nrows)
			draw_delta_row(c, s, y, c->rows[index], index == c->selected);
		else
			fill_line(y, s->attr[EL_NORMAL]);
	}
}

/* The status line of the delta layout: the whole name and place of the
 * row under the cursor, which its row may cut at the edge, and with runs
 * its test's p. */
static void delta_row_note(const struct compare *c, char *note, size_t cap)
{
	note[0] = 0;
	if (c->selected >= c->nrows)
		return;
	const struct runs_row *rr = c->rows[c->selected];
	const struct diff_row *r = rr->row;
	enum diff_side side = diff_row_side(r);
	const struct model *m = c->diff.model[side];
	char name[512], loc[512], safe[512], p[64] = "";
	escape_text(model_str(m, m->frames[r->frame[side]].name), name, sizeof(name));
	format_location(m, r->frame[side], loc, sizeof(loc));
	escape_text(loc, safe, sizeof(safe));
	if (!isnan(rr->test.p))
		snprintf(p, sizeof(p), "  p = %.2g%s", rr->test.p,
			 rr->significant ? "" : ": within the noise");
	snprintf(note, cap, "%s%s%s%s", name, *safe ? "  " : "", safe, p);
}

void draw_compare(struct compare *c, const struct screen *s)
{
	struct app *active = compare_active(c);
	set_area(0, 0, LINES, COLS);
	if (active->show_help) {
		draw_header(active, s);
		draw_help(active, s);
	} else if (c->delta_layout) {
		draw_delta(c, s);
	}
	bool stacked = COLS < SIDE_BY_SIDE_COLS;
	if (!active->show_help && !c->delta_layout) {
		/* Each side gets one line more than it shows: draw_rows keeps
		 * the last line of its area for a status line. */
		int rows = LINES - 1, cols = COLS;
		int first_lines = stacked ? rows / 2 : rows;
		int first_cols = stacked ? cols : (cols - 1) / 2;
		set_area(0, 0, first_lines + 1, first_cols);
		draw_side(&c->side[DIFF_BASE], s, c);
		if (!stacked) {
			attrset(s->attr[EL_TREE]);
			mvvline(0, first_cols, ACS_VLINE, rows);
		}
		set_area(stacked ? first_lines : 0, stacked ? 0 : first_cols + 1,
			 (stacked ? rows - first_lines : rows) + 1,
			 stacked ? cols : cols - first_cols - 1);
		draw_side(&c->side[DIFF_NEW], s, c);
		set_area(0, 0, LINES, COLS);
	}
	char note[1200];
	bool flame = !c->delta_layout && active->current == VIEW_FLAME;
	if (c->delta_layout)
		delta_row_note(c, note, sizeof(note));
	else
		snprintf(note, sizeof(note), "%s side%s%s",
			 c->active == DIFF_BASE ? "base" : "new",
			 flame ? ": " : stacked ? "; too narrow for side by side: stacked "
						 "(d: delta layout)" : "",
			 flame ? side_flame_note : "");
	struct place at = c->delta_layout ? (struct place){ c->selected, c->nrows }
					  : pane_place(active);
	draw_status(active, s, at, note, false);
	attrset(A_NORMAL);
}

size_t draw_row_at(const struct app *a, int y)
{
	const struct pane *p = &a->panes[a->current];
	y -= area.y;
	if (y < DRAW_FIRST_ROW_LINE || y >= area.lines - 1 || a->current == VIEW_FLAME)
		return SIZE_MAX; /* the flame graph's lines are not rows */
	size_t index = p->top + (size_t)(y - DRAW_FIRST_ROW_LINE);
	return index < p->view.nrows ? index : SIZE_MAX;
}

int draw_tabs_line(void)
{
	return area.y + 1;
}

int draw_tab_at(int x)
{
	int start = compact_tabs ? COMPACT_TABS_MARGIN : 0;
	for (int k = 0; k < VIEW_COUNT; k++) {
		int end = start + (int)strlen(tab_title(k, compact_tabs)) + (compact_tabs ? 0 : 2);
		if (x >= start && x < end)
			return k;
		start = end + 1;
	}
	return -1;
}

/* ---- for other panes' drawing (lines_draw.c) ----------------------------- */

int draw_text(int y, int x, const char *s, int max, attr_t attr)
{
	return put_text(y, x, s, max, attr);
}

void draw_blank_line(int y, attr_t attr)
{
	fill_line(y, attr);
}
