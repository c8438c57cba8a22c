/* pprof's numeric tag filters (internal/driver parseTagFilterRange): a
 * --tagfocus / --tagignore value that reads as a number or a range of
 * numbers, with an optional unit,
 *
 *     32kb     equal to 32 kB           :64kb    at most 64 kB
 *     4mb:     at least 4 MB            12kb:64mb  between, both included
 *     1        equal to 1 (no unit)
 *
 * matches numeric labels only, their values scaled to the filter's unit
 * as pprof's measurement.Scale does (bytes, time and GCU units; a label
 * in another unit, or a unit of another kind, matches nothing).  Any
 * other value is a regular expression over string labels. */
#ifndef WPROF_TAG_RANGE_H
#define WPROF_TAG_RANGE_H

#include <stdbool.h>
#include <stdint.h>

struct tag_range {
	double low, high; /* in `unit`; -HUGE_VAL / HUGE_VAL when open */
	char unit[16];    /* pprof's canonical name ("kB", "ms"), or as typed */
};

/* Is `value` (the part after "key=") a range?  Fills *r when it is. */
bool tag_range_parse(const char *value, struct tag_range *r);

/* Does a numeric label of value v in unit `unit` (its own, else what
 * pprof infers from the key: tag_label_unit) fall in r? */
bool tag_range_contains(const struct tag_range *r, int64_t v, const char *unit);

/* pprof's unit for a numeric label the file gives none: "bytes" for the
 * keys "alignment" and "request", else the key itself. */
const char *tag_label_unit(const char *key);

#endif
