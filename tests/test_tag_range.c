/* pprof's numeric tag filter values (parseTagFilterRange in Go 1.19's
 * pprof, internal/driver/driver_focus.go), worked by hand from its rules:
 * up to two matches of ([+-]?digits)(letters)?, the whole value being one
 * of N, N:, :N, N:M; units scaled as measurement.Scale scales them. */
#include "check.h"

#include <math.h>
#include <string.h>

#include "transform/tag_range.h"

static void not_ranges(void)
{
	/* Regular expressions: more than a number, or two that are not N:M;
	 * "0x1" is the matches "0x" and "1". */
	const char *const regexps[] = { "^1$", "1[0-9]", "0x1", "(1)", "a1", "1:2:3",
					"1mb:1s", "", "alpha" };
	struct tag_range r;
	for (size_t i = 0; i < sizeof(regexps) / sizeof(*regexps); i++)
		CHECK_MSG(!tag_range_parse(regexps[i], &r), "'%s' read as a range", regexps[i]);
}

static void ranges(void)
{
	struct tag_range r;
	CHECK(tag_range_parse("1", &r) && r.low == 1 && r.high == 1 && !strcmp(r.unit, ""));
	CHECK(tag_range_parse("1:", &r) && r.low == 1 && r.high == HUGE_VAL);
	CHECK(tag_range_parse(":12", &r) && r.low == -HUGE_VAL && r.high == 12);
	CHECK(tag_range_parse("-3:+4", &r) && r.low == -3 && r.high == 4);
	/* 64kb:1mb in kB: 64 to 1024. */
	CHECK(tag_range_parse("64kb:1mb", &r) && r.low == 64 && r.high == 1024 &&
	      !strcmp(r.unit, "kB"));
	CHECK(tag_range_parse("2ms", &r) && r.low == 2 && !strcmp(r.unit, "ms"));
}

static void labels(void)
{
	struct tag_range r;
	/* A label in bytes against 64kb: 65536 B is 64 kB. */
	CHECK(tag_range_parse("64kb", &r));
	CHECK(tag_range_contains(&r, 65536, "bytes"));
	CHECK(!tag_range_contains(&r, 65537, "bytes"));
	/* Seconds are not bytes; a unit pprof's Scale does not know leaves
	 * the value as it is, taken to be in the unit asked for. */
	CHECK(!tag_range_contains(&r, 64, "seconds"));
	CHECK(tag_range_contains(&r, 64, "shard"));
	/* A bare number matches labels of a unit pprof does not know (the
	 * key, when the file names none), not bytes (those scale to "B"). */
	CHECK(tag_range_parse("1:12", &r));
	CHECK(tag_range_contains(&r, 12, tag_label_unit("shard")));
	CHECK(!tag_range_contains(&r, 13, "shard"));
	CHECK(!tag_range_contains(&r, 4, tag_label_unit("request")));
	CHECK(tag_range_parse(":1s", &r));
	CHECK(tag_range_contains(&r, 1000, "ms") && !tag_range_contains(&r, 1001, "ms"));
}

int main(void)
{
	not_ranges();
	ranges();
	labels();
	return check_done();
}
