/* The timeline strip above the panes: the loaded profile's samples over
 * time, a cell a bin, as high as the bin is busy and coloured by the
 * kind of frame that took most of it; the selected range stands out and
 * a ruler below marks it. */
#ifndef WPROF_TUI_TIMELINE_DRAW_H
#define WPROF_TUI_TIMELINE_DRAW_H

#include <stdbool.h>
#include <stddef.h>

#include "explorer/app.h"
#include "screen.h"

#define TIMELINE_LINES 2

/* Whether the strip is drawn on a screen of `lines` lines. */
bool timeline_shown(const struct app *a, int lines);
/* Draws it on screen lines y and y + 1 from column x, `cols` wide. */
void timeline_draw(struct app *a, const struct screen *s, int y, int x, int cols);
/* The strip a mouse is on: the cell of column `x`, or -1 when (y, x) is
 * not on the strip drawn last. */
long timeline_cell_at(int y, int x);
/* The strip's cell nearest column x (a drag may leave the strip). */
long timeline_cell_near(int x);
/* A drag on the strip, cells `from` to `to` in either order, chooses the
 * range; `dragging`: the button is still down (drawn, not applied). */
void timeline_drag(struct app *a, long from, long to, bool dragging);

#endif
