/* The one key table: the input loop dispatches through it, the help
 * screen is printed from it, and the key benchmark replays it. */
#ifndef WPROF_TUI_KEYS_H
#define WPROF_TUI_KEYS_H

#include <stddef.h>
#include <stdio.h>

#include "explorer/app.h"
#include "explorer/compare.h"

#define KEYS_PER_BINDING 8

struct key_binding {
	int keys[KEYS_PER_BINDING]; /* curses key codes, 0 ends the list */
	const char *names;          /* as the help screen shows them */
	const char *help;
	void (*action)(struct app *a);
	/* What it does in the delta layout of `wprof-tui BASE NEW`; NULL:
	 * nothing there. */
	void (*delta_action)(struct compare *c);
	bool one_profile; /* filters the model: not while comparing */
	/* Instead of the two above, for the keys that share a binding and
	 * differ only in which way or which pane (so that the help fits
	 * 80x24): they are given the key pressed. */
	void (*keyed_action)(struct app *a, int key);
	void (*keyed_delta_action)(struct compare *c, int key);
};

extern const struct key_binding key_table[];
extern const size_t key_table_len;

/* The table as the help shows it, a binding a line ("names<TAB>help"),
 * for --list-keys: the docs test checks the README and the man page
 * against it. */
void key_table_print(FILE *out);

/* Runs the key's action; false when the key is not bound. */
bool key_dispatch(struct app *a, int key);
/* With the help shown: the scrolling keys move it; any other closes it. */
void key_in_help(struct app *a, int key);
/* The same for `wprof-tui BASE NEW`: the key goes to the active side or
 * the delta layout, and the other side follows. */
bool key_dispatch_compare(struct compare *c, int key);

#endif
