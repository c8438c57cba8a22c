/* Drawing the source pane: a header naming the function and its file,
 * then one row a line (shade, self, total, line number, source text),
 * then a status line naming the file read or the paths tried. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "base/escape.h"
#include "base/units.h"
#include "base/util.h"
#include "draw.h"
#include "explorer/lines_pane.h"

#define VALUE_WIDTH 10
#define TAB_STOP 4

static void draw_lines_header(const struct app *a, const struct screen *s)
{
	const struct lines_view *v = &a->lines->view;
	const struct model *m = v->model;
	char name[512], file[1024], text[2048], range[64] = "";
	escape_text(model_str(m, m->frames[v->frame].name), name, sizeof(name));
	escape_text(model_str(m, m->frames[v->frame].url), file, sizeof(file));
	if (v->prof.start_line > 0)
		snprintf(range, sizeof(range), "  from line %d", v->prof.start_line);
	snprintf(text, sizeof(text), "source: %s  %s%s  %s (%s)", name, file, range,
		 model_str(m, m->types[v->type].name), model_str(m, m->types[v->type].unit));
	draw_blank_line(0, s->attr[EL_HEADER]);
	draw_text(0, 1, text, COLS - 1, s->attr[EL_HEADER]);
	draw_blank_line(1, s->attr[EL_COLUMNS]);
	char source[64] = "source";
	if (a->lines->shift)
		snprintf(source, sizeof(source), "source from column %zu (Left, Right)",
			 a->lines->shift + 1);
	snprintf(text, sizeof(text), "   %*s %*s %6s  %s", VALUE_WIDTH, "self", VALUE_WIDTH,
		 v->prof.has_total ? "total" : "total n/a", "line", source);
	draw_text(1, 0, text, COLS, s->attr[EL_COLUMNS]);
}

static const char *cell(const struct lines_view *v, double value, bool has_value,
			char *buf, size_t cap)
{
	if (!has_value || value == 0)
		return ".";
	format_value(v->model, v->type, value, buf, cap);
	return buf;
}

/* Tabs to spaces, then escaped: the row is drawn column by column. */
static void source_text(const struct source_row *r, char *out, size_t cap)
{
	size_t n = 0;
	char *plain = xmalloc(r->text_len * TAB_STOP + 1);
	for (size_t i = 0; r->text && i < r->text_len; i++) {
		if (r->text[i] == '\t') {
			do
				plain[n++] = ' ';
			while (n % TAB_STOP);
		} else {
			plain[n++] = r->text[i];
		}
	}
	plain[n] = 0;
	escape_text(plain, out, cap);
	free(plain);
}

/* The text without its first `columns` characters (a UTF-8 character
 * one column, as the source is drawn). */
static const char *shifted(const char *text, size_t columns)
{
	for (; *text && columns; columns--)
		do
			text++;
		while (((unsigned char)*text & 0xc0) == 0x80);
	return text;
}

static const char *heat_mark(int heat, const struct screen *s)
{
	static const char *const utf8[] = { "  ", "░░", "▒▒", "▓▓" };
	static const char *const ascii[] = { "  ", ". ", "+ ", "##" };
	return s->utf8 ? utf8[heat] : ascii[heat];
}

static attr_t row_attr(const struct lines_view *v, size_t i, bool selected,
		       const struct screen *s)
{
	int heat = lines_view_heat(v, i);
	if (selected)
		return s->attr[EL_SELECTED];
	if (heat == 3)
		return s->attr[EL_MATCH] | A_BOLD;
	if (heat == 2)
		return s->attr[EL_NORMAL] | A_BOLD;
	if (v->prof.start_line > 0 && !v->rows[i].in_function)
		return s->attr[EL_DIM];
	return s->attr[EL_NORMAL];
}

static void draw_source_row(const struct app *a, const struct screen *s, int y,
			    size_t i)
{
	const struct lines_view *v = &a->lines->view;
	const struct source_row *r = &v->rows[i];
	attr_t attr = row_attr(v, i, i == a->lines->selected, s);
	char self[32], total[32], text[4096], head[128];
	snprintf(head, sizeof(head), " %s%*s %*s %6d  ", heat_mark(lines_view_heat(v, i), s),
		 VALUE_WIDTH, cell(v, r->self, r->has_value, self, sizeof(self)), VALUE_WIDTH,
		 cell(v, r->total, r->has_value, total, sizeof(total)), r->line);
	draw_blank_line(y, attr);
	int x = draw_text(y, 0, head, COLS, attr);
	source_text(r, text, sizeof(text));
	draw_text(y, x, shifted(text, a->lines->shift), COLS - x, attr);
}

static void draw_lines_rows(struct app *a, const struct screen *s)
{
	struct lines_pane *p = a->lines;
	size_t page = LINES > 3 ? (size_t)(LINES - 3) : 0;
	a->page_rows = page ? page : 1;
	if (p->top == LINES_PANE_CENTRE)
		p->top = p->selected > page / 2 ? p->selected - page / 2 : 0;
	else
		p->top = draw_top_showing(p->top, p->selected, page);
	p->top = draw_top_filling(p->top, page, p->view.nrows);
	for (size_t k = 0; k < page; k++) {
		size_t i = p->top + k;
		if (i < p->view.nrows)
			draw_source_row(a, s, 2 + (int)k, i);
		else
			draw_blank_line(2 + (int)k, s->attr[EL_NORMAL]);
	}
}

static void draw_lines_status(const struct app *a, const struct screen *s)
{
	int y = LINES - 1;
	char text[1200], where[96];
	snprintf(where, sizeof(where), " %zu/%zu  n/N hot lines  q back  ? help ",
		 a->lines->view.nrows ? a->lines->selected + 1 : 0, a->lines->view.nrows);
	if (a->message[0])
		screen_text(s, a->message, text, sizeof(text));
	else
		lines_pane_status(a, text, sizeof(text));
	int right = (int)strlen(where);
	draw_blank_line(y, s->attr[EL_STATUS]);
	draw_text(y, 1, text, COLS - right - 2, a->lines->view.source.path
						? s->attr[EL_STATUS]
						: s->attr[EL_STATUS] | A_BOLD);
	if (right < COLS)
		draw_text(y, COLS - right, where, right, s->attr[EL_STATUS]);
}

bool draw_lines_pane(struct app *a, const struct screen *s)
{
	lines_pane_sync(a);
	if (!a->lines)
		return false;
	draw_lines_header(a, s);
	draw_lines_rows(a, s);
	draw_lines_status(a, s);
	attrset(A_NORMAL);
	return true;
}
