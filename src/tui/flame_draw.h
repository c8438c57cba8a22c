/* Pane 5, the flame graph: its drawing.  The graph itself is data from
 * views/flame.c; the selection and zoom drawn are explorer/flame_nav.h's. */
#ifndef WPROF_TUI_FLAME_DRAW_H
#define WPROF_TUI_FLAME_DRAW_H

#include "explorer/app.h"
#include "explorer/compare.h"
#include "screen.h"

/* Draws the pane in lines [top, top + lines) and columns [left, left +
 * cols) of the screen; `diff` (or NULL) colours NEW's frames by their
 * change against BASE.  Writes what the status line says into `note`. */
void flame_draw(struct app *a, const struct screen *s, int top, int left,
		int lines, int cols, struct compare *diff, char *note, size_t cap);

#endif
