#include "units.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#include "escape.h"

enum unit_kind unit_kind_of(const struct model *m, unsigned type)
{
	const char *unit = model_str(m, m->types[type].unit);
	if (!strcmp(unit, "us"))
		return UNIT_TIME_US;
	if (!strcmp(unit, "bytes"))
		return UNIT_BYTES;
	return UNIT_COUNT_PLAIN;
}

static void scaled(double v, const double *steps, const char *const *names,
		   size_t n, char *buf, size_t cap)
{
	size_t i = 0;
	while (i + 1 < n && fabs(v) >= steps[i + 1])
		i++;
	double x = v / steps[i];
	if (i == 0 && x == floor(x))
		snprintf(buf, cap, "%.0f%s", x, names[i]);
	else
		snprintf(buf, cap, "%.2f%s", x, names[i]);
}

void format_value(const struct model *m, unsigned type, double value,
		  char *buf, size_t cap)
{
	static const double time_steps[] = { 1, 1e3, 1e6, 60e6, 3600e6 };
	static const char *const time_names[] = { "us", "ms", "s", "min", "h" };
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
