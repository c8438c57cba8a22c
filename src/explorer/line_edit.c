#include "line_edit.h"

#include <string.h>

static bool continuation(char byte)
{
	return ((unsigned char)byte & 0xC0) == 0x80;
}

void line_edit_start(struct line_edit *e)
{
	e->text[0] = 0;
	e->cursor = 0;
	e->browsing = e->nhistory;
}

bool line_edit_insert(struct line_edit *e, char byte)
{
	size_t len = strlen(e->text);
	if (len + 1 >= sizeof(e->text))
		return false;
	memmove(&e->text[e->cursor + 1], &e->text[e->cursor], len - e->cursor + 1);
	e->text[e->cursor++] = byte;
	return true;
}

/* Where the character before `at` starts. */
static size_t previous_start(const struct line_edit *e, size_t at)
{
	while (at > 0 && continuation(e->text[--at]))
		;
	return at;
}

/* Where the character after the one at `at` starts. */
static size_t next_start(const struct line_edit *e, size_t at)
{
	if (!e->text[at])
		return at;
	for (at++; e->text[at] && continuation(e->text[at]); at++)
		;
	return at;
}

/* Takes out the bytes [from, to). */
static void cut(struct line_edit *e, size_t from, size_t to)
{
	memmove(&e->text[from], &e->text[to], strlen(e->text) - to + 1);
}

bool line_edit_backspace(struct line_edit *e)
{
	if (!e->cursor)
		return false;
	size_t from = previous_start(e, e->cursor);
	cut(e, from, e->cursor);
	e->cursor = from;
	return true;
}

void line_edit_delete(struct line_edit *e)
{
	cut(e, e->cursor, next_start(e, e->cursor));
}

void line_edit_left(struct line_edit *e) { e->cursor = previous_start(e, e->cursor); }
void line_edit_right(struct line_edit *e) { e->cursor = next_start(e, e->cursor); }
void line_edit_home(struct line_edit *e) { e->cursor = 0; }
void line_edit_end(struct line_edit *e) { e->cursor = strlen(e->text); }

static void show(struct line_edit *e, size_t which)
{
	if (e->browsing == e->nhistory)
		memcpy(e->draft, e->text, sizeof(e->draft));
	e->browsing = which;
	memcpy(e->text, which == e->nhistory ? e->draft : e->history[which], sizeof(e->text));
	line_edit_end(e);
}

void line_edit_older(struct line_edit *e)
{
	if (e->browsing > 0)
		show(e, e->browsing - 1);
}

void line_edit_newer(struct line_edit *e)
{
	if (e->browsing < e->nhistory)
		show(e, e->browsing + 1);
}

void line_edit_remember(struct line_edit *e)
{
	if (!e->text[0] || (e->nhistory && !strcmp(e->history[e->nhistory - 1], e->text))) {
		e->browsing = e->nhistory;
		return;
	}
	if (e->nhistory == LINE_EDIT_HISTORY) {
		memmove(e->history[0], e->history[1], sizeof(e->history[0]) * (LINE_EDIT_HISTORY - 1));
		e->nhistory--;
	}
	memcpy(e->history[e->nhistory++], e->text, sizeof(e->text));
	e->browsing = e->nhistory;
}
