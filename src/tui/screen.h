/* The terminal: curses set up from a theme, and signal handling that
 * leaves the terminal sane however the program ends. */
#ifndef WPROF_TUI_SCREEN_H
#define WPROF_TUI_SCREEN_H

#include <curses.h>
#include <signal.h>
#include <stdio.h>

#include "theme.h"

struct screen {
	attr_t attr[EL_COUNT];
	bool utf8; /* box drawing and arrows; ASCII otherwise */
	bool colour;
	struct theme_colours flame[PALETTE_COUNT]; /* the theme's palettes */
};

/* How long getch waits for a key, so that a quit signal is seen. */
#define SCREEN_WAIT_MS 250

/* Set by SIGINT, SIGTERM, SIGHUP, SIGQUIT: the loop ends and cleans up. */
extern volatile sig_atomic_t screen_quit_signal;

/* Opens curses on (in, out); with `use_colour` false only attributes. */
bool screen_open(struct screen *s, const struct theme *t, bool use_colour,
		 FILE *in, FILE *out, char *err, size_t cap);
void screen_close(void);

/* `text` as the screen can show it: the explorer's messages use a few
 * typographic marks (– — … µ ±), which a terminal without UTF-8 (LANG=C)
 * would show as "???"; there they become - - ... u +-.  Other bytes are
 * copied as they are, cut to `cap`. */
void screen_text(const struct screen *s, const char *text, char *out, size_t cap);

/* Drawn in colour: a colour terminal, colours wanted (no NO_COLOR) and a
 * theme that has some (not mono); else by attributes and characters. */
bool screen_in_colour(const struct screen *s);

#endif
