/* The explorer's filter stack (transform.h) and the derived models it
 * makes, one per level, so that undo shows the level below at once and a
 * new filter is applied to the level it goes on, not to the original.
 * Internal to app.c and filters.c; keys call the app_filter_* actions in
 * app.h. */
#ifndef WPROF_TUI_FILTERS_H
#define WPROF_TUI_FILTERS_H

#include "app.h"

void filters_free(struct app *a);
/* The rules of every level made so far run on threads from now on. */
void filters_background(struct app *a);
/* True when a level finished in the background and the panes changed. */
bool filters_poll(struct app *a);
bool filters_busy(const struct app *a);
/* Waits for a level being made (it reads the model in use). */
void filters_finish(struct app *a);
/* Every level dropped, the original shown, the stack kept: views borrow
 * the original's arrays, so they go before it changes in a way that may
 * move them (a new sample type); filters_remake then makes them again. */
void filters_drop(struct app *a);
/* Every level made again, at once: the original changed (new values, a
 * count type, a newer snapshot).  False when a level cannot be made;
 * the stack is then emptied. */
bool filters_remake(struct app *a);
/* Live mode: frames chosen in the explorer named again in `next`. */
void filters_carry(struct app *a, const struct model *next,
		   uint32_t (*same)(const struct model *, const struct model *, uint32_t));
/* Every level's percentages follow app.relative. */
void filters_set_relative(struct app *a);
/* The model shown is not the original. */
bool filters_in_force(const struct app *a);

#endif
