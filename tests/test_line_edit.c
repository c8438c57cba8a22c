/* The : prompt's line editing (src/explorer/line_edit.c), keys worked as
 * bash's readline works them on the same line. */
#include <string.h>

#include "tests/check.h"
#include "explorer/line_edit.h"

static void type(struct line_edit *e, const char *s)
{
	for (; *s; s++)
		line_edit_insert(e, *s);
}

static void check_editing(void)
{
	struct line_edit e = { 0 };
	line_edit_start(&e);
	type(&e, "hide lea");
	for (int i = 0; i < 4; i++)
		line_edit_left(&e);
	CHECK(e.cursor == 4);
	CHECK(line_edit_backspace(&e)); /* the e of hide */
	CHECK(!strcmp(e.text, "hid lea") && e.cursor == 3);
	type(&e, "e");
	line_edit_end(&e);
	type(&e, "f");
	CHECK(!strcmp(e.text, "hide leaf"));
	line_edit_home(&e);
	line_edit_delete(&e);
	CHECK(!strcmp(e.text, "ide leaf") && e.cursor == 0);
	CHECK(!line_edit_backspace(&e)); /* nothing before the cursor */
	line_edit_right(&e);
	line_edit_right(&e);
	CHECK(e.cursor == 2);
	line_edit_end(&e);
	line_edit_right(&e); /* stays at the end */
	CHECK(e.cursor == strlen("ide leaf"));
	line_edit_delete(&e); /* nothing under it */
	CHECK(!strcmp(e.text, "ide leaf"));
}

/* "é" is two bytes: the cursor steps over both, Backspace takes both. */
static void check_utf8(void)
{
	struct line_edit e = { 0 };
	line_edit_start(&e);
	type(&e, "a\xc3\xa9z");
	line_edit_left(&e);
	CHECK(e.cursor == 3);
	line_edit_left(&e);
	CHECK(e.cursor == 1);
	line_edit_right(&e);
	CHECK(e.cursor == 3);
	CHECK(line_edit_backspace(&e));
	CHECK(!strcmp(e.text, "az") && e.cursor == 1);
	line_edit_home(&e);
	line_edit_right(&e);
	type(&e, "\xc3\xa9");
	line_edit_home(&e);
	line_edit_right(&e);
	line_edit_delete(&e);
	CHECK(!strcmp(e.text, "az"));
}

static void check_history(void)
{
	struct line_edit e = { 0 };
	line_edit_start(&e);
	line_edit_older(&e); /* no history: nothing happens */
	CHECK(!strcmp(e.text, ""));
	type(&e, "hide a");
	line_edit_remember(&e);
	line_edit_start(&e);
	type(&e, "focus b");
	line_edit_remember(&e);
	line_edit_start(&e);
	type(&e, "focus b"); /* the same as the newest: kept once */
	line_edit_remember(&e);
	CHECK(e.nhistory == 2);
	line_edit_start(&e);
	line_edit_remember(&e); /* an empty line is not kept */
	CHECK(e.nhistory == 2);
	line_edit_start(&e);
	type(&e, "draft");
	line_edit_older(&e);
	CHECK(!strcmp(e.text, "focus b") && e.cursor == 7);
	line_edit_older(&e);
	CHECK(!strcmp(e.text, "hide a"));
	line_edit_older(&e); /* the oldest stays */
	CHECK(!strcmp(e.text, "hide a"));
	line_edit_newer(&e);
	CHECK(!strcmp(e.text, "focus b"));
	line_edit_newer(&e);
	CHECK(!strcmp(e.text, "draft"));
	line_edit_newer(&e);
	CHECK(!strcmp(e.text, "draft"));
	/* Full: the oldest goes. */
	for (int i = 0; i < LINE_EDIT_HISTORY + 3; i++) {
		line_edit_start(&e);
		char line[16];
		snprintf(line, sizeof(line), "line %d", i);
		type(&e, line);
		line_edit_remember(&e);
	}
	CHECK(e.nhistory == LINE_EDIT_HISTORY);
	CHECK(!strcmp(e.history[0], "line 3"));
	CHECK(!strcmp(e.history[LINE_EDIT_HISTORY - 1], "line 34"));
}

static void check_full_line(void)
{
	struct line_edit e = { 0 };
	line_edit_start(&e);
	size_t typed = 0;
	while (line_edit_insert(&e, 'x'))
		typed++;
	CHECK(typed == LINE_EDIT_CAP - 1 && strlen(e.text) == typed);
}

int main(void)
{
	check_editing();
	check_utf8();
	check_history();
	check_full_line();
	return check_done();
}
