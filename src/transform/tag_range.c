/* pprof's numeric tag filters (see tag_range.h). */
#include "tag_range.h"

#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/util.h"

struct unit {
	const char *name;
	const char *aliases[3];
	double factor; /* in the kind's base unit */
};

struct unit_kind {
	const struct unit *units;
	size_t n;
	struct unit fallback; /* what a unit of this kind not named becomes */
};

/* pprof's internal/measurement tables. */
static const struct unit byte_units[] = {
	{ "B", { "b", "byte" }, 1 },
	{ "kB", { "kb", "kbyte", "kilobyte" }, 0x1p10 },
	{ "MB", { "mb", "mbyte", "megabyte" }, 0x1p20 },
	{ "GB", { "gb", "gbyte", "gigabyte" }, 0x1p30 },
	{ "TB", { "tb", "tbyte", "terabyte" }, 0x1p40 },
	{ "PB", { "pb", "pbyte", "petabyte" }, 0x1p50 },
};

static const struct unit time_units[] = {
	{ "ns", { "ns", "nanosecond" }, 1 },
	{ "us", { "\xce\xbcs", "us", "microsecond" }, 1e3 },
	{ "ms", { "ms", "millisecond" }, 1e6 },
	{ "s", { "s", "sec", "second" }, 1e9 },
	{ "hrs", { "hour", "hr" }, 3600e9 },
};

static const struct unit gcu_units[] = {
	{ "n*GCU", { "nanogcu" }, 1e-9 }, { "u*GCU", { "microgcu" }, 1e-6 },
	{ "m*GCU", { "milligcu" }, 1e-3 }, { "GCU", { "gcu" }, 1 },
	{ "k*GCU", { "kilogcu" }, 1e3 }, { "M*GCU", { "megagcu" }, 1e6 },
	{ "G*GCU", { "gigagcu" }, 1e9 }, { "T*GCU", { "teragcu" }, 1e12 },
	{ "P*GCU", { "petagcu" }, 1e15 },
};

static const struct unit_kind kinds[] = {
	{ byte_units, ARRAY_LEN(byte_units), { "B", { 0 }, 1 } },
	{ time_units, ARRAY_LEN(time_units), { "s", { 0 }, 1e9 } },
	{ gcu_units, ARRAY_LEN(gcu_units), { "GCU", { 0 }, 1 } },
};

/* pprof's sniffUnit: lower case, one final 's' off names of three
 * letters and more, then an alias. */
static const struct unit *sniff(const struct unit_kind *k, const char *name)
{
	char low[32];
	size_t n = strlen(name);
	if (n >= sizeof(low))
		return NULL;
	for (size_t i = 0; i <= n; i++)
		low[i] = (char)tolower((unsigned char)name[i]);
	if (n > 2 && low[n - 1] == 's')
		low[n - 1] = '\0';
	for (size_t u = 0; u < k->n; u++)
		for (size_t a = 0; a < ARRAY_LEN(k->units[u].aliases) && k->units[u].aliases[a]; a++)
			if (!strcmp(low, k->units[u].aliases[a]))
				return &k->units[u];
	return NULL;
}

/* pprof's measurement.Scale with a named unit to scale to: *to_name
 * becomes the unit the value is in. */
static double scale(int64_t value, const char *from, const char *to, const char **to_name)
{
	for (size_t i = 0; i < ARRAY_LEN(kinds); i++) {
		const struct unit *f = sniff(&kinds[i], from);
		if (!f)
			continue;
		const struct unit *t = sniff(&kinds[i], to);
		if (!t)
			t = &kinds[i].fallback;
		*to_name = t->name;
		return (double)value * f->factor / t->factor;
	}
	static const char *const plain[] = { "count", "sample", "unit", "minimum", "auto" };
	*to_name = name_index(plain, (int)ARRAY_LEN(plain), to) >= 0 ? "" : to;
	return (double)value;
}

struct number {
	const char *at;
	size_t len;
	int64_t value;
	char unit[16];
};

/* pprof's tagFilterRangeRx, "([+-]?[[:digit:]]+)([[:alpha:]]+)?", its
 * next match from *p; false at none (or a number out of range, which
 * pprof would not survive either). */
static bool next_number(const char **p, struct number *out, bool *ok)
{
	const char *s = *p;
	for (; *s; s++) {
		const char *d = s + (*s == '+' || *s == '-');
		if (isdigit((unsigned char)*d))
			break;
	}
	if (!*s)
		return false;
	char *end;
	errno = 0;
	long long v = strtoll(s, &end, 10);
	*ok = errno == 0;
	const char *u = end;
	while (isalpha((unsigned char)*u))
		u++;
	size_t ulen = (size_t)(u - end);
	*ok = *ok && ulen < sizeof(out->unit);
	*out = (struct number){ .at = s, .len = (size_t)(u - s), .value = v };
	snprintf(out->unit, sizeof(out->unit), "%.*s", (int)(ulen < 15 ? ulen : 15), end);
	*p = u;
	return true;
}

static bool is(const char *value, const char *a, size_t alen, const char *mid,
	       const char *b, size_t blen)
{
	size_t mlen = strlen(mid);
	return strlen(value) == alen + mlen + blen && !memcmp(value, a, alen) &&
	       !memcmp(value + alen, mid, mlen) && !memcmp(value + alen + mlen, b, blen);
}

bool tag_range_parse(const char *value, struct tag_range *r)
{
	const char *p = value;
	struct number a, b;
	bool ok_a = true, ok_b = true;
	if (!next_number(&p, &a, &ok_a))
		return false;
	bool two = next_number(&p, &b, &ok_b);
	if (!ok_a || !ok_b)
		return false;
	const char *unit;
	double v = scale(a.value, a.unit, a.unit, &unit);
	snprintf(r->unit, sizeof(r->unit), "%s", unit);
	r->low = -HUGE_VAL;
	r->high = HUGE_VAL;
	if (!two) {
		if (is(value, a.at, a.len, "", "", 0))
			r->low = r->high = v;
		else if (is(value, a.at, a.len, ":", "", 0))
			r->low = v;
		else if (is(value, "", 0, ":", a.at, a.len))
			r->high = v;
		else
			return false;
		return true;
	}
	if (!is(value, a.at, a.len, ":", b.at, b.len))
		return false;
	const char *unit2;
	double v2 = scale(b.value, b.unit, r->unit, &unit2);
	if (strcmp(unit2, r->unit))
		return false;
	r->low = v;
	r->high = v2;
	return true;
}

bool tag_range_contains(const struct tag_range *r, int64_t v, const char *unit)
{
	const char *to;
	double sv = scale(v, unit, r->unit, &to);
	return !strcmp(to, r->unit) && sv >= r->low && sv <= r->high;
}

const char *tag_label_unit(const char *key)
{
	return !strcmp(key, "alignment") || !strcmp(key, "request") ? "bytes" : key;
}
