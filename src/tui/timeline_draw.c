#include "timeline_draw.h"

#include <string.h>

#include "base/units.h"

/* Where the strip was drawn last, for the mouse, and a drag under way. */
static struct {
	int y, x, cols;
	long drag_from, drag_to; /* -1: no drag */
} strip = { -1, 0, 0, -1, -1 };

bool timeline_shown(const struct app *a, int lines)
{
	return app_has_timeline(a) && !a->strip.hidden && lines >= 12;
}

static const enum theme_element kind_element[KIND_COUNT] = {
	[KIND_JS] = EL_KIND_JS, [KIND_NATIVE] = EL_KIND_NATIVE,
	[KIND_WASM] = EL_KIND_WASM, [KIND_GC] = EL_KIND_GC,
	[KIND_IDLE] = EL_KIND_IDLE, [KIND_PROGRAM] = EL_KIND_PROGRAM,
	[KIND_ROOT] = EL_KIND_PROGRAM,
};

/* Eight heights of a cell, empty first. */
static const char *const blocks_utf8[9] = {
	" ", "▁", "▂", "▃", "▄", "▅", "▆", "▇", "█",
};
static const char blocks_ascii[] = " ..::+*##";

static void put_cell(const struct screen *s, int y, int x, int level)
{
	if (s->utf8)
		mvaddstr(y, x, blocks_utf8[level]);
	else
		mvaddch(y, x, (chtype)(unsigned char)blocks_ascii[level]);
}

/* The cells [first, end) the range covers on the strip. */
static void range_cells(struct app *a, const struct timeline *t, long *first,
			long *end)
{
	if (strip.drag_from >= 0) {
		*first = strip.drag_from < strip.drag_to ? strip.drag_from : strip.drag_to;
		*end = (strip.drag_from < strip.drag_to ? strip.drag_to : strip.drag_from) + 1;
		return;
	}
	if (a->range.samples.end == 0) { /* a range whose samples have left the strip */
		*first = *end = 0;
		return;
	}
	*first = (long)timeline_bin_of(t, a->range.samples.first);
	size_t last = a->range.samples.end ? timeline_bin_of(t, a->range.samples.end - 1) : 0;
	*end = (long)last + 1;
}

static void draw_ruler(struct app *a, const struct screen *s, int y, int x,
		       int cols, long first, long end)
{
	for (int c = 0; c < cols; c++) {
		bool in = c >= first && c < end;
		attrset(in ? s->attr[EL_RANGE] : s->attr[EL_DIM]);
		if (s->utf8)
			mvaddstr(y, x + c, in ? "━" : "─");
		else
			mvaddch(y, x + c, in ? '=' : '-');
	}
	char text[160];
	if (a->range.cut && strip.drag_from < 0)
		app_describe_range(a, !s->utf8, text, sizeof(text));
	else if (strip.drag_from >= 0)
		range_describe(a->loaded, a->range.samples, !s->utf8, text, sizeof(text));
	else if (a->loaded->live.nwindows)
		snprintf(text, sizeof(text), "timeline: a cell a window, newest at the right "
			 "(no sample times inside one)");
	else if (app_timeline_scrolls(a))
		snprintf(text, sizeof(text), "timeline: the last %.1fs, newest at the "
			 "right (drag or [ ] { } to pin a range)",
			 app_timeline(a, (size_t)cols)->span / 1e6);
	else
		snprintf(text, sizeof(text), "timeline: the whole profile (drag or [ ] { } "
			 "to choose a range)");
	if (strip.drag_from >= 0)
		snprintf(text, sizeof(text), "release to choose this range");
	int len = (int)strlen(text) + 2; /* bytes: a few more than columns */
	if (len < cols) {
		attrset(s->attr[EL_NORMAL]);
		mvaddstr(y, x + 1, " ");
		addstr(text);
		addstr(" ");
	}
}

void timeline_draw(struct app *a, const struct screen *s, int y, int x, int cols)
{
	if (cols < 1)
		return;
	a->strip.cells = (size_t)cols;
	const struct timeline *t = app_timeline(a, (size_t)cols);
	strip.y = y;
	strip.x = x;
	strip.cols = cols;
	long first, end;
	range_cells(a, t, &first, &end);
	for (int c = 0; c < cols; c++) {
		bool in = c >= first && c < end;
		bool empty = t->first_sample[c] == t->first_sample[c + 1];
		int level = empty ? 0 : 1 + (int)(timeline_busy_share(t, (size_t)c) * 7.999);
		enum frame_kind kind = timeline_main_kind(t, (size_t)c);
		attr_t attr = in ? s->attr[kind_element[kind]] : s->attr[EL_DIM];
		/* Without colour the range is in reverse video. */
		attrset(attr | (in && !s->colour ? A_REVERSE : 0));
		put_cell(s, y, x + c, level);
	}
	/* The ruler marks a range only when there is one to mark. */
	if (!a->range.cut && strip.drag_from < 0)
		first = end = 0;
	draw_ruler(a, s, y + 1, x, cols, first, end);
	attrset(A_NORMAL);
}

long timeline_cell_at(int y, int x)
{
	if (strip.y < 0 || y < strip.y || y >= strip.y + TIMELINE_LINES ||
	    x < strip.x || x >= strip.x + strip.cols)
		return -1;
	return x - strip.x;
}

long timeline_cell_near(int x)
{
	long cell = x - strip.x;
	return cell < 0 ? 0 : cell >= strip.cols ? strip.cols - 1 : cell;
}

void timeline_drag(struct app *a, long from, long to, bool dragging)
{
	if (dragging) {
		strip.drag_from = from;
		strip.drag_to = to;
		return;
	}
	strip.drag_from = strip.drag_to = -1;
	if (from < 0 || to < 0 || !app_has_timeline(a))
		return;
	const struct timeline *t = app_timeline(a, a->strip.cells);
	size_t lo = (size_t)(from < to ? from : to), hi = (size_t)(from < to ? to : from);
	if (hi >= t->nbins)
		hi = t->nbins - 1;
	size_t first = t->first_sample[lo], end = t->first_sample[hi + 1];
	if (first >= end) {
		app_message(a, "no sample there: drag over the strip's marks");
		return;
	}
	app_set_range(a, first, end);
}
