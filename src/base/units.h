/* Numbers for people: values of a sample type scaled as pprof does
 * (1.25ms, 3.4MB), percentages, and source locations. */
#ifndef WPROF_UNITS_H
#define WPROF_UNITS_H

#include <stddef.h>

#include "model/model.h"

enum unit_kind { UNIT_TIME_US, UNIT_BYTES, UNIT_COUNT_PLAIN };

/* A unit a file names ("nanoseconds", "kilobytes") in the model's terms:
 * value * mul / div is in `unit` ("us" or "bytes"); unit is NULL for
 * units kept as they are (counts, "cycles", ...). */
struct unit_scale {
	const char *unit;
	double mul, div;
};

struct unit_scale unit_scale_of(const char *file_unit);

static inline double unit_scale_apply(const struct unit_scale *s, double v)
{
	return v * s->mul / s->div;
}

enum unit_kind unit_kind_of(const struct model *m, unsigned type);
/* "n/a" for NAN. */
void format_value(const struct model *m, unsigned type, double value,
		  char *buf, size_t cap);
void format_percent(double value, double whole, char *buf, size_t cap);
/* The profile's duration, "n/a" when none of its sample types is time
 * (what a heap profile sums is no duration); pprof's CPU profiles count
 * samples first and time second. */
void format_duration(const struct model *m, char *buf, size_t cap);
/* For narrow columns: counts of a million and more abbreviated (118.1M),
 * other values with one decimal when they are wider than `width`. */
void format_count_short(double value, char *buf, size_t cap);
void format_value_short(const struct model *m, unsigned type, double value,
			char *buf, size_t cap, size_t width);
/* The file's base name and line, for a row; format_location below gives
 * the whole URL, line and column. */
void format_location_short(const struct model *m, uint32_t frame, char *buf,
			   size_t cap);
/* "url:line:column" as a person reads it (1-based), "" when unknown.
 * Both give a wasm frame's place as V8 prints it: module hash and body
 * offset (45e6cf62:0x46), never the placeholder line. */
void format_location(const struct model *m, uint32_t frame, char *buf,
		     size_t cap);
/* A wasm place as DevTools prints it: the module's hash (its url's last
 * part) and the body's offset in hex (45e6cf62:0x46); the line V8
 * writes for wasm is a placeholder. */
void format_wasm_offset(const char *url, int64_t offset, char *buf, size_t cap);

#endif
