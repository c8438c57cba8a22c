/* The one key table: the input loop dispatches through it, the help
 * screen is printed from it, and the key benchmark replays it. */
#ifndef WPROF_TUI_KEYS_H
#define WPROF_TUI_KEYS_H

#include <stddef.h>

#include "app.h"

#define KEYS_PER_BINDING 4

struct key_binding {
	int keys[KEYS_PER_BINDING]; /* curses key codes, 0 ends the list */
	const char *names;          /* as the help screen shows them */
	const char *help;
	void (*action)(struct app *a);
};

extern const struct key_binding key_table[];
extern const size_t key_table_len;

/* The binding of a key, or NULL. */
const struct key_binding *key_lookup(int key);
/* Runs the key's action; false when the key is not bound. */
bool key_dispatch(struct app *a, int key);

#endif
