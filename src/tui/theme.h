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

/* The flame graph's palettes: lists of colours, each for 256-colour
 * terminals and (the -8 lines) for 8 colours.
 *
 *     flame-kind   = COLOUR x7   JS native Wasm GC idle program root
 *     flame-file   = COLOUR...   1 to 12, picked by a hash of the package
 *     flame-diff   = COLOUR x11  faster ... unchanged (the 6th) ... slower
 *     flame-text   = COLOUR      the names on the frames
 *     flame-remainder = COLOUR   frames too narrow to draw, merged
 *
 * A theme without them (mono) draws frames by shading characters. */
enum theme_palette {
	PALETTE_KIND, PALETTE_KIND_8, PALETTE_FILE, PALETTE_FILE_8,
	PALETTE_DIFF, PALETTE_DIFF_8, PALETTE_TEXT, PALETTE_TEXT_8,
	PALETTE_REMAINDER, PALETTE_REMAINDER_8, PALETTE_COUNT
};
#define PALETTE_MAX 12
#define PALETTE_DIFF_STEPS 11

struct theme_colours {
	short colour[PALETTE_MAX];
	unsigned n; /* 0: the theme has none */
};

struct theme {
	struct theme_style style[EL_COUNT];
	struct theme_colours palette[PALETTE_COUNT];
};

/* Finds NAME (or a path) in $WPROF_THEME_DIR, the installed and the source
 * themes directories, and reads it.  On failure says why in `err`. */
bool theme_load(const char *name, struct theme *t, char *err, size_t cap);
/* Attributes only, for when no theme file is found. */
void theme_plain(struct theme *t);

#endif
