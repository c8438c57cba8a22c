#include "screen.h"

#include <langinfo.h>
#include <stdlib.h>
#include <string.h>
#include <term.h>
#include <termios.h>
#include <unistd.h>

#include "base/util.h"

volatile sig_atomic_t screen_quit_signal;

static struct termios saved_termios;
static bool termios_saved;
static SCREEN *current;
static char crash_reset[256]; /* what a crash handler writes to the tty */
static size_t crash_reset_len;

static void on_quit_signal(int sig)
{
	screen_quit_signal = sig;
}

/* Only async-signal-safe calls: the terminal modes saved at the start
 * and escape strings prepared from terminfo while all was well. */
static void on_crash_signal(int sig)
{
	if (termios_saved)
		tcsetattr(STDIN_FILENO, TCSANOW, &saved_termios);
	if (write(STDOUT_FILENO, crash_reset, crash_reset_len) < 0)
		crash_reset_len = 0;
	signal(sig, SIG_DFL);
	raise(sig);
}

static void append_cap(const char *name)
{
	const char *s = tigetstr(name);
	if (!s || s == (char *)-1)
		return;
	size_t n = strlen(s);
	if (crash_reset_len + n < sizeof(crash_reset)) {
		memcpy(crash_reset + crash_reset_len, s, n);
		crash_reset_len += n;
	}
}

static void prepare_crash_reset(void)
{
	crash_reset_len = 0;
	if (tigetstr("kmous") && tigetstr("kmous") != (char *)-1) {
		/* xterm mouse reporting off: every mode ncurses may have set */
		static const char mouse_off[] = "\033[?1006l\033[?1002l\033[?1000l";
		memcpy(crash_reset, mouse_off, sizeof(mouse_off) - 1);
		crash_reset_len = sizeof(mouse_off) - 1;
	}
	append_cap("sgr0");
	append_cap("cnorm");
	append_cap("rmcup");
}

static void install_signals(void)
{
	struct sigaction quit = { .sa_handler = on_quit_signal };
	sigemptyset(&quit.sa_mask);
	/* No SA_RESTART: getch returns at once and the loop sees the flag. */
	int quit_signals[] = { SIGINT, SIGTERM, SIGHUP, SIGQUIT };
	for (size_t i = 0; i < sizeof(quit_signals) / sizeof(int); i++)
		sigaction(quit_signals[i], &quit, NULL);
	struct sigaction crash = { .sa_handler = on_crash_signal,
				   .sa_flags = SA_RESETHAND };
	sigemptyset(&crash.sa_mask);
	int crash_signals[] = { SIGSEGV, SIGBUS, SIGFPE, SIGILL, SIGABRT };
	for (size_t i = 0; i < sizeof(crash_signals) / sizeof(int); i++)
		sigaction(crash_signals[i], &crash, NULL);
}

static attr_t curses_attrs(unsigned theme_attrs)
{
	static const attr_t bits[] = { A_BOLD, A_DIM, A_REVERSE, A_UNDERLINE };
	attr_t a = A_NORMAL;
	for (unsigned b = 0; b < 4; b++)
		if (theme_attrs & (1u << b))
			a |= bits[b];
	return a;
}

/* A colour the terminal lacks (a 256-colour theme on 8 colours) becomes
 * the default, and the element gets the plain theme's attributes as well
 * so that the selection and the status line still stand out. */
static void apply_theme(struct screen *s, const struct theme *t)
{
	memcpy(s->flame, t->palette, sizeof(s->flame));
	struct theme plain;
	theme_plain(&plain);
	for (int e = 0; e < EL_COUNT; e++) {
		const struct theme_style *st = &t->style[e];
		attr_t a = curses_attrs(st->attrs);
		if (s->colour && (st->colour_fg || st->colour_bg)) {
			bool fg_ok = st->fg < COLORS, bg_ok = st->bg < COLORS;
			init_pair((short)(e + 1), fg_ok ? st->fg : -1, bg_ok ? st->bg : -1);
			a |= COLOR_PAIR(e + 1);
			if (!fg_ok || !bg_ok)
				a |= curses_attrs(plain.style[e].attrs);
		} else if (!s->colour) {
			a |= curses_attrs(plain.style[e].attrs);
		}
		s->attr[e] = a;
	}
}

/* Where mode 1002 was turned on, to turn it off again. */
static FILE *mouse_out;

bool screen_open(struct screen *s, const struct theme *t, bool use_colour,
		 FILE *in, FILE *out, char *err, size_t cap)
{
	termios_saved = tcgetattr(STDIN_FILENO, &saved_termios) == 0;
	install_signals();
	current = newterm(NULL, out, in);
	if (!current) {
		const char *term = getenv("TERM");
		snprintf(err, cap, "cannot use the terminal (TERM=%s)", term ? term : "");
		return false;
	}
	prepare_crash_reset();
	on_out_of_memory(screen_close);
	cbreak();
	noecho();
	nonl();
	keypad(stdscr, TRUE);
	intrflush(stdscr, FALSE);
	curs_set(0);
	set_escdelay(25);
	timeout(SCREEN_WAIT_MS);
	/* Presses, releases and moves with the button down drag a range on
	 * the timeline strip: xterm's mode 1002 reports those moves. */
	mousemask(BUTTON1_CLICKED | BUTTON1_DOUBLE_CLICKED | BUTTON1_PRESSED |
		  BUTTON1_RELEASED | BUTTON4_PRESSED | BUTTON5_PRESSED |
		  REPORT_MOUSE_POSITION, NULL);
	if (has_mouse()) {
		fputs("\033[?1002h", out);
		fflush(out);
		mouse_out = out;
	}
	s->colour = use_colour && has_colors();
	if (s->colour) {
		start_color();
		use_default_colors();
	}
	s->utf8 = !strcmp(nl_langinfo(CODESET), "UTF-8");
	apply_theme(s, t);
	return true;
}

void screen_close(void)
{
	if (!current)
		return;
	mousemask(0, NULL);
	if (mouse_out) {
		fputs("\033[?1002l", mouse_out);
		fflush(mouse_out);
		mouse_out = NULL;
	}
	endwin();
	delscreen(current);
	current = NULL;
	on_out_of_memory(NULL);
}

bool screen_in_colour(const struct screen *s)
{
	return s->colour && (s->flame[PALETTE_KIND].n || s->flame[PALETTE_KIND_8].n);
}

void screen_text(const struct screen *s, const char *text, char *out, size_t cap)
{
	static const struct { const char *mark, *ascii; } marks[] = {
		{ "\u2013", "-" }, { "\u2014", "-" }, { "\u2026", "..." },
		{ "\u00b5", "u" }, { "\u00b1", "+-" },
	};
	if (s->utf8 || !cap) {
		snprintf(out, cap, "%s", text);
		return;
	}
	size_t used = 0;
	while (*text && used + 1 < cap) {
		const char *put = NULL;
		size_t skip = 1;
		for (size_t i = 0; !put && i < sizeof(marks) / sizeof(marks[0]); i++)
			if (strncmp(text, marks[i].mark, strlen(marks[i].mark)) == 0) {
				put = marks[i].ascii;
				skip = strlen(marks[i].mark);
			}
		size_t len = put ? strlen(put) : 1;
		if (used + len >= cap)
			break;
		memcpy(out + used, put ? put : text, len);
		used += len;
		text += skip;
	}
	out[used] = '\0';
}
