/* `wprof-tui BASE NEW`: two explorers side by side that follow each
 * other (the same pane, rule and sort; the cursor on the same function;
 * the same rows open), and the delta layout: one table of base, new and
 * delta from compare/diff.h.  No curses here, like app.c. */
#ifndef WPROF_TUI_COMPARE_H
#define WPROF_TUI_COMPARE_H

#include "compare/diff.h"
#include "app.h"

struct compare {
	struct app side[DIFF_SIDES];
	struct diff diff;
	enum diff_side active; /* the side the keys move */
	bool delta_layout;
	size_t selected, top, page_rows; /* the delta layout's cursor */
};

/* What the active side looked like before a key, to see what changed. */
struct compare_before {
	enum diff_side active;
	enum view_kind pane;
	size_t selected, nrows;
	uint32_t focus_frame;
};

void compare_init(struct compare *c, const char *const files[DIFF_SIDES],
		  struct model *models[DIFF_SIDES]);
void compare_free(struct compare *c);
struct app *compare_active(struct compare *c);

void compare_remember(struct compare *c, struct compare_before *before);
/* After a key on the active side: the other side does the same. */
void compare_follow(struct compare *c, const struct compare_before *before);

void compare_other_side(struct compare *c);
void compare_toggle_layout(struct compare *c);

/* The delta layout's keys. */
void compare_move(struct compare *c, long delta);
void compare_move_to(struct compare *c, size_t index);
void compare_page(struct compare *c, int direction);
void compare_cycle_sort(struct compare *c);
void compare_reverse_sort(struct compare *c);
void compare_toggle_normalize(struct compare *c);
void compare_cycle_rule(struct compare *c);

#endif
