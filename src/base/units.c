#include "units.h"

#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <string.h>
#include <stdlib.h>
#include <strings.h>

#include "escape.h"
#include "util.h"

struct unit_scale unit_scale_of(const char *file_unit)
{
	/* The names pprof's measurement package knows. */
	static const struct {
		const char *names[6];
		struct unit_scale scale;
	} units[] = {
		{ { "nanoseconds", "nanosecond", "ns" }, { "us", 1, 1000 } },
		{ { "microseconds", "microsecond", "us", "\u00b5s" }, { "us", 1, 1 } },
		{ { "milliseconds", "millisecond", "ms" }, { "us", 1e3, 1 } },
		{ { "seconds", "second", "s", "sec" }, { "us", 1e6, 1 } },
		{ { "minutes", "minute", "min", "m" }, { "us", 60e6, 1 } },
		{ { "hours", "hour", "hr", "h" }, { "us", 3600e6, 1 } },
		{ { "days", "day", "d" }, { "us", 86400e6, 1 } },
		{ { "bytes", "byte", "b" }, { "bytes", 1, 1 } },
		{ { "kilobytes", "kilobyte", "kb", "kib" }, { "bytes", 1024.0, 1 } },
		{ { "megabytes", "megabyte", "mb", "mib" }, { "bytes", 1048576.0, 1 } },
		{ { "gigabytes", "gigabyte", "gb", "gib" }, { "bytes", 1073741824.0, 1 } },
		{ { "terabytes", "terabyte", "tb", "tib" }, { "bytes", 1099511627776.0, 1 } },
	};
	for (size_t u = 0; u < sizeof(units) / sizeof(units[0]); u++)
		for (size_t i = 0; i < 6 && units[u].names[i]; i++)
			if (!strcasecmp(file_unit, units[u].names[i]))
				return units[u].scale;
	return (struct unit_scale){ NULL, 1, 1 };
}

enum unit_kind unit_kind_of(const struct model *m, unsigned type)
{
	const char *unit = model_str(m, m->types[type].unit);
	if (!strcmp(unit, "us"))
		return UNIT_TIME_US;
	if (!strcmp(unit, "bytes"))
		return UNIT_BYTES;
	return UNIT_COUNT_PLAIN;
}

/* As pprof prints: two decimals unless they are ".00", and a bare "0". */
static void scaled(double v, const double *steps, const char *const *names,
		   size_t n, char *buf, size_t cap)
{
	if (v == 0) {
		snprintf(buf, cap, "0");
		return;
	}
	size_t i = 0;
	while (i + 1 < n && fabs(v) >= steps[i + 1])
		i++;
	char digits[64];
	snprintf(digits, sizeof(digits), "%.2f", v / steps[i]);
	size_t len = strlen(digits);
	if (len > 3 && !strcmp(digits + len - 3, ".00"))
		digits[len - 3] = '\0';
	snprintf(buf, cap, "%s%s", digits, names[i]);
}

/* Past a minute, times read as a clock does: 2m37s, 1h02m (not
 * "2.62mins", which reads as a typo). */
static bool clock_time(double us, char *buf, size_t cap)
{
	double magnitude = fabs(us);
	const char *sign = us < 0 ? "-" : "";
	if (magnitude < 59.995e6)
		return false;
	long long seconds = llround(magnitude / 1e6);
	if (seconds < 3600)
		snprintf(buf, cap, "%s%lldm%02llds", sign, seconds / 60, seconds % 60);
	else {
		long long minutes = llround(magnitude / 60e6);
		snprintf(buf, cap, "%s%lldh%02lldm", sign, minutes / 60, minutes % 60);
	}
	return true;
}

void format_value(const struct model *m, unsigned type, double value,
		  char *buf, size_t cap)
{
	static const double time_steps[] = { 1, 1e3, 1e6 };
	static const char *const time_names[] = { "us", "ms", "s" };
	static const double byte_steps[] = { 1, 1024, 1048576, 1073741824.0,
					     1099511627776.0 };
	static const char *const byte_names[] = { "B", "kB", "MB", "GB", "TB" };
	if (isnan(value)) {
		snprintf(buf, cap, "n/a");
		return;
	}
	switch (unit_kind_of(m, type)) {
	case UNIT_TIME_US:
		if (!clock_time(value, buf, cap))
			scaled(value, time_steps, time_names, 3, buf, cap);
		break;
	case UNIT_BYTES:
		scaled(value, byte_steps, byte_names, 5, buf, cap);
		break;
	default:
		if (value == floor(value) && fabs(value) < 1e15)
			snprintf(buf, cap, "%.0f", value);
		else
			snprintf(buf, cap, "%.2f", value);
		break;
	}
}

void format_count_short(double value, char *buf, size_t cap)
{
	static const char *const suffix[] = { "", "k", "M", "G", "T", "P" };
	double magnitude = fabs(value);
	if (isnan(value)) {
		snprintf(buf, cap, "n/a");
		return;
	}
	if (magnitude < 1e6) {
		snprintf(buf, cap, value == floor(value) ? "%.0f" : "%.2f", value);
		return;
	}
	size_t i = 0;
	while (i + 1 < ARRAY_LEN(suffix) && magnitude >= 999.95)
		magnitude /= 1000, i++;
	snprintf(buf, cap, "%s%.1f%s", value < 0 ? "-" : "", magnitude, suffix[i]);
}

void format_duration(const struct model *m, char *buf, size_t cap)
{
	for (unsigned t = 0; t < m->ntypes; t++)
		if (unit_kind_of(m, t) == UNIT_TIME_US) {
			format_value(m, t, m->duration, buf, cap);
			return;
		}
	format_value(m, 0, NAN, buf, cap);
}

void format_value_short(const struct model *m, unsigned type, double value,
			char *buf, size_t cap, size_t width)
{
	if (unit_kind_of(m, type) == UNIT_COUNT_PLAIN) {
		format_count_short(value, buf, cap);
		return;
	}
	format_value(m, type, value, buf, cap);
	/* 1023.99kB: one decimal keeps the column's gap. */
	char *dot = strchr(buf, '.');
	if (strlen(buf) > width && dot && dot[1] && dot[2]) {
		char unit[16];
		snprintf(unit, sizeof(unit), "%s", dot + 3);
		double v = strtod(buf, NULL);
		snprintf(buf, cap, "%.1f%s", v, unit);
	}
}

void format_wasm_offset(const char *url, int64_t offset, char *buf, size_t cap)
{
	const char *module = strrchr(url, '/');
	module = module && module[1] ? module + 1 : url;
	char safe[512];
	escape_text(module, safe, sizeof(safe));
	snprintf(buf, cap, "%s:0x%" PRIx64, safe, (uint64_t)offset);
}

static void format_wasm_place(const struct model *m, uint32_t frame, char *buf, size_t cap)
{
	format_wasm_offset(model_str(m, m->frames[frame].url), model_wasm_offset(m, frame),
			   buf, cap);
}

/* What DevTools shows in a row: the file's base name and the line
 * (_tsc.js:132095); the whole URL is format_location's. */
void format_location_short(const struct model *m, uint32_t frame, char *buf,
			   size_t cap)
{
	const struct frame *f = &m->frames[frame];
	const char *url = model_str(m, f->url);
	const char *base = strrchr(url, '/');
	base = base && base[1] ? base + 1 : url;
	char safe[512];
	escape_text(base, safe, sizeof(safe));
	if (model_wasm_offset(m, frame) >= 0)
		format_wasm_place(m, frame, buf, cap);
	else if (!*url)
		snprintf(buf, cap, "%s", "");
	else if (f->line < 0)
		snprintf(buf, cap, "%s", safe);
	else
		snprintf(buf, cap, "%s:%d", safe, model_shown_place(m, f->line));
}

void format_percent(double value, double whole, char *buf, size_t cap)
{
	if (isnan(value) || !(whole != 0))
		snprintf(buf, cap, isnan(value) ? "n/a" : "-");
	else
		snprintf(buf, cap, "%.2f%%", 100.0 * value / whole);
}

void format_location(const struct model *m, uint32_t frame, char *buf,
		     size_t cap)
{
	const struct frame *f = &m->frames[frame];
	const char *url = model_str(m, f->url);
	char safe[512];
	escape_text(url, safe, sizeof(safe));
	int32_t line = model_shown_place(m, f->line), column = model_shown_place(m, f->column);
	if (model_wasm_offset(m, frame) >= 0)
		format_wasm_place(m, frame, buf, cap);
	else if (!*url)
		snprintf(buf, cap, "%s", ""); /* a line alone locates nothing */
	else if (line < 0)
		snprintf(buf, cap, "%s", safe);
	else if (column < 0)
		snprintf(buf, cap, "%s:%d", safe, line);
	else
		snprintf(buf, cap, "%s:%d:%d", safe, line, column);
}
