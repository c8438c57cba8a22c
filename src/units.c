#include "units.h"

#include <math.h>
#include <stdio.h>
#include <string.h>
#include <strings.h>

#include "escape.h"

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

void format_value(const struct model *m, unsigned type, double value,
		  char *buf, size_t cap)
{
	static const double time_steps[] = { 1, 1e3, 1e6, 60e6, 3600e6 };
	static const char *const time_names[] = { "us", "ms", "s", "mins", "hrs" };
	static const double byte_steps[] = { 1, 1024, 1048576, 1073741824.0,
					     1099511627776.0 };
	static const char *const byte_names[] = { "B", "kB", "MB", "GB", "TB" };
	if (isnan(value)) {
		snprintf(buf, cap, "n/a");
		return;
	}
	switch (unit_kind_of(m, type)) {
	case UNIT_TIME_US:
		scaled(value, time_steps, time_names, 5, buf, cap);
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
	int shift = m->lines_zero_based ? 1 : 0;
	if (!*url)
		snprintf(buf, cap, "%s", ""); /* a line alone locates nothing */
	else if (f->line < 0)
		snprintf(buf, cap, "%s", safe);
	else if (f->column < 0)
		snprintf(buf, cap, "%s:%d", safe, f->line + shift);
	else
		snprintf(buf, cap, "%s:%d:%d", safe, f->line + shift,
			 f->column + shift);
}
