/* complain(): the one way a message about a failure reaches the user on
 * standard error, as "wprof-tui: MESSAGE\n".
 *
 * The message is made with printf's format, then escaped whole
 * (escape.h): file names, loaders' words, a peer's log text all come from
 * outside, and none of their control characters or escape sequences may
 * reach the terminal.  Our own words pass through unchanged, and text
 * escaped before is not escaped twice (escaping leaves escaped text
 * alone).  The line is written at once, so that messages of two threads
 * do not mix. */
#ifndef WPROF_COMPLAIN_H
#define WPROF_COMPLAIN_H

#include <stdio.h>

void complain(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

/* The same on `out` (a live source's log: stderr, when it has one). */
void complain_to(FILE *out, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

#endif
