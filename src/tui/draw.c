#include "draw.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <wchar.h>

#include "../escape.h"
#include "../units.h"
#include "../util.h"
#include "keys.h"

#define VALUE_WIDTH 9
#define PERCENT_WIDTH 8

static const char *const tab_titles[VIEW_COUNT] = {
	"1 top-down", "2 bottom-up", "3 flat", "4 call graph",
};

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
			mvaddch(y, x + used, '?');
			used++;
			s++;
			continue;
		}
		if (used + width > max)
			break;
		mvaddnwstr(y, x + used, &wc, 1);
		used += width;
		s += n;
	}
	return used;
}

static void fill_line(int y, attr_t attr)
{
	attrset(attr);
	mvhline(y, 0, ' ', COLS);
}

static const char *rule_state(const struct app *a, const struct totals **t)
{
	*t = rules_totals(a->ctx.rules, a->ctx.rule, a->ctx.type);
	return rule_name(a->ctx.rule);
}

static void draw_header(const struct app *a, const struct screen *s)
{
	const struct model *m = a->ctx.model;
	const struct totals *t;
	const char *rule = rule_state(a, &t);
	unsigned type = a->ctx.type;
	char duration[32], facts[512], file[1024];
	format_value(m, 0, unit_kind_of(m, 0) == UNIT_TIME_US ? m->duration : NAN,
		     duration, sizeof(duration));
	snprintf(facts, sizeof(facts), "  %s  %s  %s (%s)  rule: %s%s", m->format,
		 duration, model_str(m, m->types[type].name),
		 model_str(m, m->types[type].unit), rule, t->total ? "" : " (n/a)");
	escape_text(a->file, file, sizeof(file));
	fill_line(0, s->attr[EL_HEADER]);
	int facts_width = (int)strlen(facts);
	int room = COLS - facts_width - 1;
	const char *shown = file;
	/* A long path loses its beginning: the file name matters most. */
	while (room > 3 && (int)strlen(shown) > room)
		shown++;
	int x = 1;
	if (room > 3)
		x += put_text(0, x, shown, room, s->attr[EL_HEADER]);
	put_text(0, x, facts, COLS - x, t->total ? s->attr[EL_HEADER]
						  : s->attr[EL_NOT_APPLICABLE]);
}

static void draw_tabs(const struct app *a, const struct screen *s)
{
	fill_line(1, s->attr[EL_TAB]);
	int x = 0;
	for (int k = 0; k < VIEW_COUNT; k++) {
		attr_t attr = k == (int)a->current ? s->attr[EL_TAB_ACTIVE] : s->attr[EL_TAB];
		char title[32];
		snprintf(title, sizeof(title), " %s ", tab_titles[k]);
		x += put_text(1, x, title, COLS - x, attr) + 1;
	}
	char extra[512], name[200];
	int n = snprintf(extra, sizeof(extra), "sort: %s%s",
			 sort_key_name(a->ctx.sort), a->ctx.reversed ? " reversed" : "");
	if (a->focus != NO_ID)
		n += snprintf(extra + n, sizeof(extra) - (size_t)n, "  focus: %s",
			      app_frame_name(a, a->focus, name, sizeof(name)));
	if (a->nhidden)
		snprintf(extra + n, sizeof(extra) - (size_t)n, "  hidden: %zu", a->nhidden);
	int width = (int)strlen(extra);
	if (x + 2 + width < COLS)
		put_text(1, COLS - width - 1, extra, width, s->attr[EL_TAB]);
}

static bool show_calls(const struct app *a)
{
	return a->ctx.model->caps & HAS_CALL_COUNTS;
}

static int name_column(const struct app *a)
{
	return 2 * (VALUE_WIDTH + 1) + PERCENT_WIDTH + 1 +
	       (show_calls(a) ? VALUE_WIDTH + 1 : 0);
}

static void draw_column_titles(const struct app *a, const struct screen *s)
{
	fill_line(2, s->attr[EL_COLUMNS]);
	const char *mark = a->ctx.reversed ? (s->utf8 ? "▲" : "^") : (s->utf8 ? "▼" : "v");
	char line[256];
	char self[16], total[16], calls[16], name[16];
	snprintf(self, sizeof(self), "%sself", a->ctx.sort == SORT_SELF ? mark : "");
	snprintf(total, sizeof(total), "%stotal", a->ctx.sort == SORT_TOTAL ? mark : "");
	snprintf(calls, sizeof(calls), "%scalls", a->ctx.sort == SORT_CALLS ? mark : "");
	snprintf(name, sizeof(name), "%sname", a->ctx.sort == SORT_NAME ? mark : "");
	int n = snprintf(line, sizeof(line), "%*s %*s %*s ", VALUE_WIDTH + (s->utf8 && a->ctx.sort == SORT_SELF ? 2 : 0), self,
			 VALUE_WIDTH + (s->utf8 && a->ctx.sort == SORT_TOTAL ? 2 : 0), total,
			 PERCENT_WIDTH - 1, "%");
	if (show_calls(a))
		snprintf(line + n, sizeof(line) - (size_t)n, "%*s ",
			 VALUE_WIDTH + (s->utf8 && a->ctx.sort == SORT_CALLS ? 2 : 0), calls);
	int x = put_text(2, 0, line, COLS, s->attr[EL_COLUMNS]);
	put_text(2, x, name, COLS - x, s->attr[EL_COLUMNS]);
}

static void format_cell(const struct app *a, double value, char *buf, size_t cap)
{
	const struct totals *t;
	rule_state(a, &t);
	if (isnan(value))
		snprintf(buf, cap, "-");
	else if (a->units == UNITS_PERCENT)
		format_percent(value, t->profile_total, buf, cap);
	else
		format_value(a->ctx.model, a->ctx.type, value, buf, cap);
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

static void draw_name(const struct app *a, const struct screen *s, int y, int x,
		      const struct row *r, attr_t base, bool selected)
{
	char name[1024], loc[1024];
	int room = COLS - x;
	if (a->current == VIEW_CALLGRAPH) {
		const char *prefix = r->flags & ROW_PRIMARY ? "" : "    ";
		x += put_text(y, x, prefix, room, base);
	} else if (a->current != VIEW_FLAT) {
		/* One guide a level, the name never pushed past half the room. */
		int levels = (int)r->depth;
		if (2 * levels > room / 2)
			levels = room / 4;
		attr_t guide = over(base, s->attr[EL_TREE], selected);
		for (int k = 0; k < levels; k++)
			x += put_text(y, x, s->utf8 ? "│ " : "| ", 2, guide);
		x += put_text(y, x, tree_marker(r, s), COLS - x,
			      over(base, s->attr[EL_TREE], selected));
	}
	attr_t attr = over(base, name_attr(r, s), selected);
	if (app_row_matches(a, r)) /* a match shows even on the selected row */
		attr = over(attr, s->attr[EL_MATCH], false);
	app_frame_name(a, r->frame, name, sizeof(name));
	bool primary = r->flags & ROW_PRIMARY;
	if (primary)
		x += put_text(y, x, "[", COLS - x, attr);
	x += put_text(y, x, name, COLS - x, attr);
	if (primary)
		x += put_text(y, x, "]", COLS - x, attr);
	format_location(a->ctx.model, r->frame, loc, sizeof(loc));
	if (*loc && x + 2 < COLS) {
		char safe[1024];
		escape_text(loc, safe, sizeof(safe));
		x += put_text(y, x, "  ", COLS - x, base);
		put_text(y, x, safe, COLS - x, over(base, s->attr[EL_DIM], selected));
	}
}

static void draw_row(const struct app *a, const struct screen *s, int y,
		     const struct row *r, bool selected)
{
	attr_t base = selected ? s->attr[EL_SELECTED] : s->attr[EL_NORMAL];
	fill_line(y, base);
	const struct totals *t;
	rule_state(a, &t);
	char self[32], total[32], percent[32], calls[32], cells[160];
	format_cell(a, r->self, self, sizeof(self));
	format_cell(a, r->total, total, sizeof(total));
	if (isnan(r->total))
		snprintf(percent, sizeof(percent), "-");
	else
		format_percent(r->total, t->profile_total, percent, sizeof(percent));
	int n = snprintf(cells, sizeof(cells), "%*s %*s %*s ", VALUE_WIDTH, self,
			 VALUE_WIDTH, total, PERCENT_WIDTH - 1, percent);
	if (show_calls(a)) {
		if (isnan(r->calls))
			snprintf(calls, sizeof(calls), "-");
		else
			snprintf(calls, sizeof(calls), "%.0f", r->calls);
		snprintf(cells + n, sizeof(cells) - (size_t)n, "%*s ", VALUE_WIDTH, calls);
	}
	int x = put_text(y, 0, cells, COLS, base);
	if (x < name_column(a))
		x = name_column(a);
	if (x < COLS)
		draw_name(a, s, y, x, r, base, selected);
}

static int page_lines(void)
{
	int lines = LINES - DRAW_FIRST_ROW_LINE - 1;
	return lines > 0 ? lines : 0;
}

static void draw_rows(struct app *a, const struct screen *s)
{
	struct pane *p = app_pane(a);
	size_t page = (size_t)page_lines();
	a->page_rows = page ? page : 1;
	if (p->selected < p->top)
		p->top = p->selected;
	else if (page && p->selected >= p->top + page)
		p->top = p->selected - page + 1;
	if (p->top + page > p->view.nrows)
		p->top = p->view.nrows > page ? p->view.nrows - page : 0;
	for (size_t i = 0; i < page; i++) {
		int y = DRAW_FIRST_ROW_LINE + (int)i;
		size_t index = p->top + i;
		if (index < p->view.nrows)
			draw_row(a, s, y, &p->view.rows[index], index == p->selected);
		else
			fill_line(y, s->attr[EL_NORMAL]);
	}
	if (!p->view.nrows && page)
		put_text(DRAW_FIRST_ROW_LINE, 2, "(no rows: nothing in this profile passes)",
			 COLS - 2, s->attr[EL_DIM]);
}

static void draw_status(const struct app *a, const struct screen *s)
{
	int y = LINES - 1;
	fill_line(y, s->attr[EL_STATUS]);
	const struct pane *p = &a->panes[a->current];
	char where[64], text[600];
	snprintf(where, sizeof(where), " %zu/%zu  ? help ",
		 p->view.nrows ? p->selected + 1 : 0, p->view.nrows);
	int right = (int)strlen(where);
	const struct totals *t;
	rule_state(a, &t);
	attr_t attr = s->attr[EL_STATUS];
	if (a->searching) {
		char safe[512];
		escape_text(a->search, safe, sizeof(safe));
		snprintf(text, sizeof(text), "/%s", safe);
	} else if (a->message[0]) {
		snprintf(text, sizeof(text), "%s", a->message);
	} else if (!t->total) {
		snprintf(text, sizeof(text), "%s gives no totals here: %s",
			 rule_name(a->ctx.rule), t->why_not);
		attr = over(s->attr[EL_STATUS], s->attr[EL_NOT_APPLICABLE], false);
	} else {
		text[0] = 0;
	}
	put_text(y, 1, text, COLS - right - 2, attr);
	if (right < COLS)
		put_text(y, COLS - right, where, right, s->attr[EL_STATUS]);
}

static void draw_help(const struct screen *s)
{
	int top = DRAW_FIRST_ROW_LINE - 1, lines = LINES - top - 1;
	for (int y = top; y < LINES - 1; y++)
		fill_line(y, s->attr[EL_NORMAL]);
	put_text(top, 1, "Keys (any key closes this help)", COLS - 1, s->attr[EL_HEADER]);
	lines--;
	if (lines <= 0)
		return;
	int columns = (int)((key_table_len + (size_t)lines - 1) / (size_t)lines);
	int width = COLS / (columns ? columns : 1);
	for (size_t i = 0; i < key_table_len; i++) {
		int col = (int)(i / (size_t)lines), y = top + 1 + (int)(i % (size_t)lines);
		int x = col * width;
		if (x >= COLS)
			break;
		int used = put_text(y, x + 1, key_table[i].names, 11, s->attr[EL_PRIMARY]);
		(void)used;
		put_text(y, x + 13, key_table[i].help, width - 14, s->attr[EL_NORMAL]);
	}
}

void draw_app(struct app *a, const struct screen *s)
{
	draw_header(a, s);
	draw_tabs(a, s);
	if (a->show_help) {
		draw_help(s);
	} else {
		draw_column_titles(a, s);
		draw_rows(a, s);
	}
	draw_status(a, s);
	attrset(A_NORMAL);
}

size_t draw_row_at(const struct app *a, int y)
{
	const struct pane *p = &a->panes[a->current];
	if (y < DRAW_FIRST_ROW_LINE || y >= LINES - 1)
		return SIZE_MAX;
	size_t index = p->top + (size_t)(y - DRAW_FIRST_ROW_LINE);
	return index < p->view.nrows ? index : SIZE_MAX;
}

int draw_tab_at(int x)
{
	int start = 0;
	for (int k = 0; k < VIEW_COUNT; k++) {
		int end = start + (int)strlen(tab_titles[k]) + 2;
		if (x >= start && x < end)
			return k;
		start = end + 1;
	}
	return -1;
}
