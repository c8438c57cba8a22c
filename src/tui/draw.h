/* Drawing the explorer: header, pane tabs, column titles, rows, status
 * line and help, all from the app's views. */
#ifndef WPROF_TUI_DRAW_H
#define WPROF_TUI_DRAW_H

#include "explorer/app.h"
#include "explorer/compare.h"
#include "screen.h"

#define DRAW_FIRST_ROW_LINE 3 /* header, tabs, column titles above */

void draw_app(struct app *a, const struct screen *s);
/* `wprof-tui BASE NEW`: both sides, or the delta layout. */
void draw_compare(struct compare *c, const struct screen *s);
/* The view row shown on screen line y, or SIZE_MAX. */
size_t draw_row_at(const struct app *a, int y);
/* The screen line of the pane tabs drawn last (below the strip). */
int draw_tabs_line(void);
/* The pane whose tab covers column x of the tabs line, or -1. */
int draw_tab_at(int x);

/* For panes drawn elsewhere, on the whole screen: escaped text at (y, x)
 * in at most `max` columns (returns the columns used), a blank line. */
int draw_text(int y, int x, const char *s, int max, attr_t attr);
void draw_blank_line(int y, attr_t attr);
/* The first row of a list to show on a page of `page` rows so that row
 * `selected` is on it: the page moves only as far as it must. */
size_t draw_top_showing(size_t top, size_t selected, size_t page);
/* `top`, moved up so that the page is full when the list has the rows. */
size_t draw_top_filling(size_t top, size_t page, size_t nrows);
/* The source pane (lines_draw.c) in place of the panes; false when it
 * closed because its function is gone. */
bool draw_lines_pane(struct app *a, const struct screen *s);

#endif
