/* A log on standard error that says a run of identical lines once: an
 * engine that logs the same caught exception 600 times gets two lines,
 * not 600.  The first line of a run is written at once (complain_to), so
 * that it is seen while the engine still runs; the others are counted,
 * and when the run ends (another line, or repeats_end) the line is
 * written once more with the count of the whole run: "LINE (×600)".
 *
 * Not thread-safe: the caller serialises calls, as it does its log. */
#ifndef WPROF_REPEATS_H
#define WPROF_REPEATS_H

#include <stdint.h>
#include <stdio.h>

struct repeats {
	char *last;     /* the run's line, NULL before the first */
	uint64_t count; /* how many times it came in a row */
};

/* Writes `line` to `out` unless it repeats the last one. */
void repeats_say(struct repeats *r, FILE *out, const char *line);

/* Ends the run (its count, if it repeated) and frees what r holds. */
void repeats_end(struct repeats *r, FILE *out);

#endif
