/* A line typed at a prompt, edited as a shell edits one: the cursor moves
 * left and right by characters (UTF-8), Home and End, Backspace and
 * Delete at the cursor, and the lines entered before come back with Up
 * and Down (the history lasts as long as the session).  No curses here:
 * the terminal code maps its keys to these calls. */
#ifndef WPROF_EXPLORER_LINE_EDIT_H
#define WPROF_EXPLORER_LINE_EDIT_H

#include <stdbool.h>
#include <stddef.h>

#define LINE_EDIT_CAP 256
#define LINE_EDIT_HISTORY 32

struct line_edit {
	char text[LINE_EDIT_CAP];
	size_t cursor; /* a byte offset at the start of a character */
	/* Lines entered, oldest first; `browsing` is the one shown, or
	 * nhistory for the line being typed, kept in `draft` meanwhile. */
	char history[LINE_EDIT_HISTORY][LINE_EDIT_CAP];
	size_t nhistory, browsing;
	char draft[LINE_EDIT_CAP];
};

/* An empty line; the history stays. */
void line_edit_start(struct line_edit *e);
/* Puts a byte in at the cursor; false when the line is full. */
bool line_edit_insert(struct line_edit *e, char byte);
/* Backspace: the character before the cursor; false at the start. */
bool line_edit_backspace(struct line_edit *e);
/* Delete: the character under the cursor. */
void line_edit_delete(struct line_edit *e);
void line_edit_left(struct line_edit *e);
void line_edit_right(struct line_edit *e);
void line_edit_home(struct line_edit *e);
void line_edit_end(struct line_edit *e);
/* Up and Down: the line entered before the one shown, and after it (past
 * the newest: the line being typed). */
void line_edit_older(struct line_edit *e);
void line_edit_newer(struct line_edit *e);
/* Enter: the line goes into the history (not when empty or the same as
 * the newest), the oldest leaving when it is full. */
void line_edit_remember(struct line_edit *e);

#endif
