/* loaders/json: the tokenizer's quick paths (strings scanned eight bytes
 * a step, numbers read where they lie, keys told by length) give what
 * the JSON text says, worked out here by hand, wherever the special
 * bytes fall, and the same messages for what is wrong. */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "check.h"
#include "loaders/json.h"

/* The first token of `text` (a whole document), and the parser. */
static enum json_token first_token(const char *text, struct input *in, struct json *j)
{
	input_from_memory(in, text, strlen(text), "test");
	json_init(j, in);
	return json_next(j);
}

/* A string whose special byte (a quote ending it, an escape, a control
 * byte) falls at every place of an eight-byte word. */
static void check_strings(void)
{
	for (size_t len = 0; len < 40; len++) {
		char text[96], want[48];
		memset(want, 'a', len);
		for (size_t i = 0; i < len; i++)
			want[i] = (char)(i % 3 == 2 ? 0xc3 : 'a' + i % 26); /* high bytes too */
		want[len] = '\0';
		snprintf(text, sizeof(text), "\"%s\"", want);
		struct input in;
		struct json j;
		enum json_token t = first_token(text, &in, &j);
		CHECK_MSG(t == JSON_STRING && j.str_len == len && !memcmp(j.str, want, len),
			  "a plain string of %zu bytes", len);
		json_free(&j);

		snprintf(text, sizeof(text), "\"%.*s\\n%s\"", (int)len, want, "z");
		t = first_token(text, &in, &j);
		CHECK_MSG(t == JSON_STRING && j.str_len == len + 2 && j.str[len] == '\n' &&
			  j.str[len + 1] == 'z', "an escape after %zu bytes", len);
		json_free(&j);

		snprintf(text, sizeof(text), "\"%.*s\x01\"", (int)len, want);
		t = first_token(text, &in, &j);
		CHECK_MSG(t == JSON_ERROR && j.error_offset == 1 + len &&
			  !strcmp(j.error, "control character 0x01 in a string"),
			  "a control byte after %zu bytes: %s at %llu", len, j.error,
			  (unsigned long long)j.error_offset);
		json_free(&j);
	}
}

/* `want` with its sign: -0 as an integer is 0, as a real -0. */
static void check_number(const char *text, double want)
{
	struct input in;
	struct json j;
	enum json_token t = first_token(text, &in, &j);
	CHECK_MSG(t == JSON_NUMBER && j.num == want && !!signbit(j.num) == !!signbit(want),
		  "%s read as %.17g", text, j.num);
	CHECK_MSG(json_next(&j) == JSON_END, "%s: not the whole of it", text);
	json_free(&j);
}

static void check_bad_number(const char *text, const char *message)
{
	struct input in;
	struct json j;
	enum json_token t = first_token(text, &in, &j);
	CHECK_MSG(t == JSON_ERROR && !strcmp(j.error, message), "%s: '%s'", text, j.error);
	json_free(&j);
}

static void check_numbers(void)
{
	check_number("0", 0);
	check_number("-0", 0.0);
	check_number("-0.0", -0.0);
	check_number("1234567890123456", 1234567890123456.0);
	check_number("-123456789012345", -123456789012345.0);
	check_number("12345678901234567", 12345678901234568.0); /* rounded */
	check_number("-1234567890123456", -1234567890123456.0);
	check_number("2.5e3", 2500);
	check_bad_number("012", "malformed number '012'");
	check_bad_number("-", "malformed number '-'");
	check_bad_number("1.", "malformed number '1.'");
	check_bad_number("1e999", "number out of range '1e999'");

	double v = 0;
	const uint8_t cut[] = "123";
	CHECK(json_number_at(cut, 3, &v) == 0); /* may go on past the bytes given */
	CHECK(json_number_at(cut, 4, &v) == 3 && v == 123);
	const uint8_t minus[] = "-42,";
	CHECK(json_number_at(minus, 4, &v) == 3 && v == -42);
	const uint8_t real[] = "-4.5e1]";
	CHECK(json_number_at(real, 7, &v) == 6 && v == -45);
}

static void check_keys(void)
{
	struct input in;
	struct json j;
	const char *text = "{\"id\":1,\"idx\":2,\"i\\u0064\":3}";
	first_token(text, &in, &j);
	CHECK(json_next(&j) == JSON_KEY && json_key_is(&j, "id") && !json_key_is(&j, "i"));
	json_next(&j);
	CHECK(json_next(&j) == JSON_KEY && !json_key_is(&j, "id") && json_key_is(&j, "idx"));
	json_next(&j);
	CHECK(json_next(&j) == JSON_KEY && json_key_is(&j, "id")); /* escaped the same */
	json_free(&j);
}

/* The usual small count is taken at once, with the value and byte the
 * token reader gives; anything else is left to the token reader. */
static void check_small_whole_values(void)
{
	static const struct {
		const char *text;
		bool quick;
		double value;
		uint64_t at;
	} cases[] = {
		{ "{\"a\":12,\"b\":0}", true, 12, 5 },
		{ "{\"a\":0}", true, 0, 5 },
		{ "{\"a\":123456789}", true, 123456789, 5 },
		{ "{\"a\":1234567890}", false, 1234567890, 5 },
		{ "{\"a\":1.5}", false, 1.5, 5 },
		{ "{\"a\":-3}", false, -3, 5 },
		{ "{\"a\": 7}", false, 7, 6 },
		{ "{\"a\":7 }", false, 7, 5 },
	};
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		struct input in;
		struct json j;
		uint32_t v;
		first_token(cases[i].text, &in, &j);
		CHECK(json_next(&j) == JSON_KEY);
		bool quick = json_small_whole_value(&j, &v);
		CHECK_MSG(quick == cases[i].quick, "%s: %s", cases[i].text,
			  quick ? "taken at once" : "left");
		CHECK_MSG(quick || json_next(&j) == JSON_NUMBER, "%s: not a number", cases[i].text);
		CHECK_MSG(j.num == cases[i].value && j.token_offset == cases[i].at &&
			  (!quick || v == cases[i].value),
			  "%s: %g at byte %llu", cases[i].text, j.num,
			  (unsigned long long)j.token_offset);
		/* The reader goes on as after any value. */
		enum json_token next = json_next(&j);
		CHECK_MSG(next == JSON_KEY || next == JSON_OBJECT_END, "%s: then token %d",
			  cases[i].text, (int)next);
		json_free(&j);
	}
	struct input in;
	struct json j;
	uint32_t v;
	first_token("{\"a\":012}", &in, &j);
	json_next(&j);
	CHECK(!json_small_whole_value(&j, &v) && json_next(&j) == JSON_ERROR);
	json_free(&j);
}

int main(void)
{
	check_strings();
	check_numbers();
	check_keys();
	check_small_whole_values();
	return check_done();
}
