/* Colours come from data files, themes/NAME.theme:
 *
 *     # comment
 *     element = FG [on BG] [bold] [dim] [reverse] [underline]
 *
 * FG and BG are default, black, red, green, yellow, blue, magenta, cyan,
 * white, bright-NAME (needs 16 colours) or a number 0-255 (needs 256; on
 * fewer colours it falls back to the attributes alone).  The elements are
 * listed in theme.c.  With NO_COLOR set or a terminal without colour only
 * the attributes are used. */
#ifndef WPROF_TUI_THEME_H
#define WPROF_TUI_THEME_H

#include <stdbool.h>
#include <stddef.h>

enum theme_element {
	EL_NORMAL, EL_HEADER, EL_TAB, EL_TAB_ACTIVE, EL_COLUMNS, EL_SELECTED,
	EL_DIM, EL_MATCH, EL_STATUS, EL_NOT_APPLICABLE, EL_CALLER, EL_PRIMARY,
	EL_CALLEE, EL_TREE,
	/* The timeline strip: a colour per frame kind (model.h), and the
	 * selected range. */
	EL_KIND_JS, EL_KIND_NATIVE, EL_KIND_WASM, EL_KIND_GC, EL_KIND_IDLE,
	EL_KIND_PROGRAM, EL_RANGE, EL_COUNT
};

struct theme_style {
	short fg, bg;   /* -1: the terminal's default */
	bool colour_fg, colour_bg;
	unsigned attrs; /* THEME_BOLD ... */
};

#define THEME_BOLD 0x1
#define THEME_DIM 0x2
#define THEME_REVERSE 0x4
#define THEME_UNDERLINE 0x8

struct theme {
	struct theme_style style[EL_COUNT];
};

/* Finds NAME (or a path) in $WPROF_THEME_DIR, the installed and the source
 * themes directories, and reads it.  On failure says why in `err`. */
bool theme_load(const char *name, struct theme *t, char *err, size_t cap);
/* Parses theme text; `origin` names it in messages. */
bool theme_parse(const char *text, const char *origin, struct theme *t,
		 char *err, size_t cap);
/* Attributes only, for when no theme file is found. */
void theme_plain(struct theme *t);

#endif
