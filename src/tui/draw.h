/* Drawing the explorer: header, pane tabs, column titles, rows, status
 * line and help, all from the app's views. */
#ifndef WPROF_TUI_DRAW_H
#define WPROF_TUI_DRAW_H

#include "app.h"
#include "compare.h"
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

#endif
