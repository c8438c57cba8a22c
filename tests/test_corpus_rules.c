/* Every function of every corpus profile, under every rule, against the
 * reference numbers in the testdata/expected rules files (time-rules.md). */
#include <cjson/cJSON.h>
#include <stdlib.h>
#include <string.h>

#include "tests/check.h"
#include "loaders/loaders.h"
#include "rules/rules.h"
#include "base/util.h"

/* The key the expected files use: "name url:line:column" for .cpuprofile
 * files, "name" for xsbug captures. */
static void frame_key(const struct model *m, uint32_t f, bool with_place,
		      char *buf, size_t cap)
{
	const struct frame *fr = &m->frames[f];
	if (with_place)
		snprintf(buf, cap, "%s %s:%d:%d", model_str(m, fr->name),
			 model_str(m, fr->url), fr->line, fr->column);
	else
		snprintf(buf, cap, "%s", model_str(m, fr->name));
}

static uint32_t find_frame(const struct model *m, const char *key, bool with_place)
{
	char buf[2048];
	for (uint32_t f = 0; f < m->nframes; f++) {
		frame_key(m, f, with_place, buf, sizeof(buf));
		if (!strcmp(buf, key))
			return f;
	}
	return NO_ID;
}

static double expected_value(const cJSON *fn, const char *rule)
{
	const cJSON *v = cJSON_GetObjectItemCaseSensitive(fn, rule);
	return cJSON_IsNumber(v) ? v->valuedouble : NAN;
}

static void check_profile(const char *dir, const char *name, bool with_place)
{
	char path[1024], expected_path[1024];
	snprintf(path, sizeof(path), "%s/%s", dir, name);
	snprintf(expected_path, sizeof(expected_path), "%s/expected/%s.rules.json",
		 dir, name);
	char *text = check_read_file(expected_path, NULL);
	CHECK_MSG(text, "cannot read %s", expected_path);
	if (!text)
		return;
	cJSON *expected = cJSON_Parse(text);
	free(text);
	struct model m;
	struct load_error err;
	struct load_options opt = { .session = -1 };
	bool loaded = load_file(path, &opt, &m, &err, NULL);
	CHECK_MSG(loaded, "%s: %s", name, err.message);
	if (!loaded) {
		cJSON_Delete(expected);
		return;
	}
	struct rules rules;
	rules_init(&rules, &m);
	const struct totals *exact = rules_totals(&rules, RULE_EXACT, 0);
	const struct totals *additive = rules_totals(&rules, RULE_ADDITIVE, 0);
	const struct totals *divided = rules_totals(&rules, RULE_DIVIDED, 0);
	CHECK_CLOSE(m.duration,
		    cJSON_GetObjectItem(expected, "duration")->valuedouble, name);

	const cJSON *functions = cJSON_GetObjectItem(expected, "functions");
	int matched = 0;
	const cJSON *fn;
	cJSON_ArrayForEach(fn, functions) {
		uint32_t f = find_frame(&m, fn->string, with_place);
		CHECK_MSG(f != NO_ID, "%s: no function '%s'", name, fn->string);
		if (f == NO_ID)
			continue;
		char what[2200];
		snprintf(what, sizeof(what), "%s: %s", name, fn->string);
		CHECK_CLOSE(exact->self[f], expected_value(fn, "self"), what);
		CHECK_CLOSE(exact->total ? exact->total[f] : NAN,
			    expected_value(fn, "exact"), what);
		CHECK_CLOSE(additive->total[f], expected_value(fn, "additive"), what);
		CHECK_CLOSE(divided->total[f], expected_value(fn, "divided"), what);
		matched++;
	}
	/* No function the reference does not know of. */
	CHECK_MSG(matched == cJSON_GetArraySize(functions) &&
			  (size_t)matched == m.nframes,
		  "%s: %d functions matched, the model has %zu", name, matched,
		  m.nframes);
	rules_free(&rules);
	model_free(&m);
	cJSON_Delete(expected);
}

int main(int argc, char **argv)
{
	const char *dir = argc > 1 ? argv[1] : "testdata";
	static const char *const cpuprofiles[] = {
		"worked-example.cpuprofile", "validate.cpuprofile",
		"recursion.cpuprofile", "chrome65-simple.cpuprofile",
		"validate-xs.cpuprofile",
	};
	for (size_t i = 0; i < ARRAY_LEN(cpuprofiles); i++)
		check_profile(dir, cpuprofiles[i], true);
	check_profile(dir, "validate.xsbug", false);
	return check_done();
}
