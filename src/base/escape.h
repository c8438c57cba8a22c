/* Names come from files written by others: before any of them reaches a
 * terminal (or a report), control characters (C0, DEL, C1), escape
 * sequences, bidirectional controls (the "Trojan Source" trick) and bytes
 * that are not UTF-8 are spelled out (\e, \n, \x9b, \u202e) instead.
 * JSON gets the same characters as \uXXXX escapes, and valid UTF-8 only. */
#ifndef WPROF_ESCAPE_H
#define WPROF_ESCAPE_H

#include <stddef.h>
#include <stdio.h>

/* Writes the safe form of `in` into out (always NUL-terminated, cut at
 * cap - 1 bytes on a character boundary); returns its length. */
size_t escape_text(const char *in, char *out, size_t cap);

/* The same with a backslash spelled `\\` too, so that the safe form
 * reads back to exactly `in`: a tab is `\t`, a backslash and a t `\\t`
 * (CSV fields: a reader can tell them apart), and a C1 control as
 * `\u0080`..`\u009f`, where `\x80`.. is a byte that is not UTF-8.  At
 * most 4 bytes a byte of `in`. */
size_t escape_text_reversible(const char *in, char *out, size_t cap);

/* escape_text, of any length, written to `out`. */
void escape_text_to(FILE *out, const char *in);

/* `in` as a JSON string, quotes included: C0, DEL, C1 and bidi controls
 * as \uXXXX; a surrogate encoded in three bytes (what a lone "\ud800"
 * escape in a .cpuprofile reads as) as its \uXXXX escape again; any other
 * byte that is not UTF-8 as U+FFFD. */
void json_escape_to(FILE *out, const char *in);

#endif
