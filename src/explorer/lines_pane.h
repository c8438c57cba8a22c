/* The source pane (`l`): the selected function's lines with their self
 * and total beside its source text, hot lines shaded, n/N between them.
 * State and actions without curses (keys.c maps keys to them,
 * lines_draw.c draws them). */
#ifndef WPROF_TUI_LINES_PANE_H
#define WPROF_TUI_LINES_PANE_H

#include <stdint.h>

#include "views/lines.h"
#include "app.h"

struct lines_pane {
	const struct model *model; /* the model it was made from */
	unsigned type;
	struct lines_view view;
	size_t selected, top; /* top LINES_PANE_CENTRE: the selected row in the
			       * middle of the screen, with its context */
	size_t shift; /* columns of source text scrolled off to the left */
};

#define LINES_PANE_CENTRE SIZE_MAX

/* `l`: opens the pane on the selected row's function. */
void app_open_lines(struct app *a);
void app_close_lines(struct app *a);
/* After the model or sample type changed under it (a filter done in the
 * background, a live refresh): the same function again, or closed. */
void lines_pane_sync(struct app *a);
void lines_pane_move(struct app *a, long delta);
void lines_pane_move_to(struct app *a, size_t row);
void lines_pane_next_hot(struct app *a, int dir);
/* Scrolls the source text sideways by `columns` (to the left when
 * negative); false when already at its left edge and asked to go left. */
bool lines_pane_shift(struct app *a, long columns);
/* `:source-path DIR`: one more directory to look for source files in, as
 * --source-path, for the rest of the session; the open pane looks again. */
void app_add_source_path(struct app *a, const char *dir);
/* What the status line says: the source file read, or the paths tried. */
void lines_pane_status(const struct app *a, char *buf, size_t cap);

#endif
