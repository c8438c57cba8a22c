/* The XS file profiler's .cpuprofile read as the engine writes it
 * (time-rules.md, "Samples and their duration"): each sample lasts its
 * own delta.  Numbers come from the files' own arrays, summed here, and
 * from what a real engine's program printed (testdata/xs-pair). */
#include <cjson/cJSON.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "tests/check.h"
#include "loaders/loaders.h"
#include "output/export.h"
#include "rules/rules.h"
#include "base/util.h"

static const char *dir = "testdata";

static bool load(const char *name, enum sample_time reading, struct model *m)
{
	char path[1024];
	snprintf(path, sizeof(path), "%s/%s", dir, name);
	struct load_options opt = { .session = -1, .sample_time = reading };
	struct load_error err;
	bool ok = load_file(path, &opt, m, &err, NULL);
	CHECK_MSG(ok, "%s: %s", name, err.message);
	return ok;
}

static cJSON *read_json(const char *path)
{
	char *text = check_read_file(path, NULL);
	CHECK_MSG(text, "cannot read %s", path);
	cJSON *json = text ? cJSON_Parse(text) : NULL;
	free(text);
	CHECK_MSG(json, "%s is not JSON", path);
	return json;
}

static double sum_of_self(const struct model *m)
{
	double sum = 0;
	for (uint32_t v = 0; v < m->nnodes; v++)
		sum += node_value(m, v, 0);
	return sum;
}

/* Under the own-delta reading the profile is the sum of timeDeltas;
 * under the next-sample one, endTime less the first sample's time. */
static void check_readings(const char *name, bool xs)
{
	char path[1024];
	snprintf(path, sizeof(path), "%s/%s", dir, name);
	cJSON *file = read_json(path);
	if (!file)
		return;
	double deltas = 0, first = cJSON_GetArrayItem(cJSON_GetObjectItem(file, "timeDeltas"), 0)->valuedouble;
	const cJSON *d;
	cJSON_ArrayForEach(d, cJSON_GetObjectItem(file, "timeDeltas"))
		deltas += d->valuedouble > 0 ? d->valuedouble : 0;
	double start = cJSON_GetObjectItem(file, "startTime")->valuedouble;
	double end = cJSON_GetObjectItem(file, "endTime")->valuedouble;
	cJSON_Delete(file);

	struct model m;
	if (load(name, SAMPLE_TIME_FILE, &m)) {
		CHECK_MSG(m.sample_time == (xs ? SAMPLE_TIME_OWN : SAMPLE_TIME_NEXT), "%s", name);
		CHECK_CLOSE(sum_of_self(&m), xs ? deltas : end - start - first, name);
		model_free(&m);
	}
	if (load(name, SAMPLE_TIME_OWN, &m)) {
		CHECK(m.sample_time == SAMPLE_TIME_OWN);
		CHECK_CLOSE(sum_of_self(&m), deltas, name);
		model_free(&m);
	}
	if (load(name, SAMPLE_TIME_NEXT, &m)) {
		CHECK(m.sample_time == SAMPLE_TIME_NEXT);
		CHECK_CLOSE(sum_of_self(&m), end - start - first, name);
		model_free(&m);
	}
}

/* xsbug's rule for the engine's function graph; exact where stacks are. */
static void check_default_rules(void)
{
	struct model m;
	if (load("validate-xs.cpuprofile", SAMPLE_TIME_FILE, &m)) {
		CHECK(rule_default(&m) == RULE_DIVIDED);
		model_free(&m);
	}
	if (load("validate.xsbug", SAMPLE_TIME_FILE, &m)) {
		CHECK(rule_default(&m) == RULE_EXACT);
		CHECK(m.sample_time == SAMPLE_TIME_FILE);
		model_free(&m);
	}
	if (load("validate.cpuprofile", SAMPLE_TIME_FILE, &m)) {
		CHECK(rule_default(&m) == RULE_EXACT);
		model_free(&m);
	}
}

/* ---- the pair: one program, a streaming engine and a saving one ------ */

/* Self time per name, in % of the profile.  The engine names record 171
 * "String.prototype.@fxStringAccessorGetter" when it streams and
 * "@fxStringAccessorGetter" when it saves (xs-pair/README.md). */
static double share(const struct model *m, const double *self, double whole,
		    const char *name)
{
	double sum = 0;
	for (uint32_t f = 0; f < m->nframes; f++) {
		const char *own = model_str(m, m->frames[f].name);
		const char *bare = strstr(own, ".@");
		if (!strcmp(own, name) || (bare && !strcmp(bare + 1, name)))
			sum += self[f];
	}
	return 100 * sum / whole;
}

/* The largest difference of share between the two, over every name. */
static double worst_share_gap(const struct model *a, const struct model *b,
			      const char **worst)
{
	struct rules ra, rb;
	rules_init(&ra, a);
	rules_init(&rb, b);
	const struct totals *ta = rules_totals(&ra, RULE_ADDITIVE, 0);
	const struct totals *tb = rules_totals(&rb, RULE_ADDITIVE, 0);
	double gap = 0;
	const struct model *side[] = { a, b };
	for (int s = 0; s < 2; s++)
		for (uint32_t f = 0; f < side[s]->nframes; f++) {
			const char *name = model_str(side[s], side[s]->frames[f].name);
			const char *bare = strstr(name, ".@");
			name = bare ? bare + 1 : name;
			double g = fabs(share(a, ta->self, ta->profile_total, name) -
					share(b, tb->self, tb->profile_total, name));
			if (g > gap) {
				gap = g;
				*worst = model_str(side[s], side[s]->frames[f].name);
			}
		}
	rules_free(&ra);
	rules_free(&rb);
	return gap;
}

static void check_pair_shares(void)
{
	struct model stream, file, file_next;
	if (!load("xs-pair/phases.xsbug", SAMPLE_TIME_FILE, &stream))
		return;
	if (load("xs-pair/phases.cpuprofile", SAMPLE_TIME_FILE, &file)) {
		const char *worst = "";
		double gap = worst_share_gap(&stream, &file, &worst);
		CHECK_MSG(gap <= 2.0, "own delta: %s differs by %.2f points", worst, gap);
		if (load("xs-pair/phases.cpuprofile", SAMPLE_TIME_NEXT, &file_next)) {
			/* The test can fail: read as DevTools reads it, the file
			 * disagrees with the stream by more than 2 points. */
			double next_gap = worst_share_gap(&stream, &file_next, &worst);
			CHECK_MSG(next_gap > 2.0 && next_gap > gap,
				  "next sample: %s differs by %.2f points only", worst, next_gap);
			model_free(&file_next);
		}
		model_free(&file);
	}
	model_free(&stream);
}

/* "phase NAME N ms" of the file run in phases-timings.txt, in µs. */
static double printed_phase(const char *phase)
{
	char path[1024], want[64];
	snprintf(path, sizeof(path), "%s/xs-pair/phases-timings.txt", dir);
	snprintf(want, sizeof(want), "phase %s ", phase);
	char *text = check_read_file(path, NULL);
	CHECK_MSG(text, "cannot read %s", path);
	const char *file_run = text ? strstr(text, "File run") : NULL;
	const char *line = file_run ? strstr(file_run, want) : NULL;
	double ms = line ? atof(line + strlen(want)) : NAN;
	free(text);
	return ms * 1000;
}

static double total_of(const struct model *m, const struct totals *t, const char *name)
{
	for (uint32_t f = 0; f < m->nframes; f++)
		if (!strcmp(model_str(m, m->frames[f].name), name))
			return t->total[f];
	return NAN;
}

/* The phases' totals in the file against the program's own clock.  Only
 * sortPhase has no callee it shares with another phase, and it agrees
 * under every rule.  stringifyPhase agrees under additive, which counts
 * the engine's shared (gc) under each caller; buildPhase agrees under no
 * rule (buildPhase 236 ms additive, 462 ms divided against 161 ms
 * printed), nor stringifyPhase under divided: the engine's two records
 * named Array.prototype.length, one under makeItem and one under
 * JSON.stringify, are one function, which divided then shares between
 * the two phases. */
static void check_pair_phases(void)
{
	struct model file;
	if (!load("xs-pair/phases.cpuprofile", SAMPLE_TIME_FILE, &file))
		return;
	struct rules r;
	rules_init(&r, &file);
	const struct totals *additive = rules_totals(&r, RULE_ADDITIVE, 0);
	const struct totals *divided = rules_totals(&r, RULE_DIVIDED, 0);
	double sort = printed_phase("sort"), stringify = printed_phase("stringify");
	CHECK_MSG(fabs(total_of(&file, additive, "sortPhase") - sort) <= 0.1 * sort,
		  "sortPhase %.0f (additive), printed %.0f", total_of(&file, additive, "sortPhase"), sort);
	CHECK_MSG(fabs(total_of(&file, divided, "sortPhase") - sort) <= 0.1 * sort,
		  "sortPhase %.0f (divided), printed %.0f", total_of(&file, divided, "sortPhase"), sort);
	CHECK_MSG(fabs(total_of(&file, additive, "stringifyPhase") - stringify) <= 0.1 * stringify,
		  "stringifyPhase %.0f (additive), printed %.0f",
		  total_of(&file, additive, "stringifyPhase"), stringify);
	rules_free(&r);
	model_free(&file);
}

/* ---- export: the engine's way, and back with the same numbers ------- */

static uint32_t same_frame(const struct model *from, uint32_t f, const struct model *to)
{
	const struct frame *a = &from->frames[f];
	int line = a->line + (a->line >= 0 && from->lines_zero_based);
	for (uint32_t g = 0; g < to->nframes; g++) {
		const struct frame *b = &to->frames[g];
		if (!strcmp(model_str(from, a->name), model_str(to, b->name)) &&
		    !strcmp(model_str(from, a->url), model_str(to, b->url)) &&
		    line == b->line + (b->line >= 0 && to->lines_zero_based))
			return g;
	}
	return NO_ID;
}

static void check_same_numbers(const char *name, const struct model *a, const struct model *b)
{
	struct rules ra, rb;
	rules_init(&ra, a);
	rules_init(&rb, b);
	for (enum rule rule = RULE_EXACT; rule <= RULE_DIVIDED; rule++) {
		const struct totals *ta = rules_totals(&ra, rule, 0);
		const struct totals *tb = rules_totals(&rb, rule, 0);
		CHECK_MSG(!ta->total == !tb->total, "%s: %s n/a on one side", name, rule_name(rule));
		for (uint32_t f = 0; f < a->nframes; f++) {
			char what[512];
			snprintf(what, sizeof(what), "%s: %s of %s", name, rule_name(rule),
				 model_str(a, a->frames[f].name));
			uint32_t g = same_frame(a, f, b);
			/* A record no sample reaches has no node to write. */
			double self = g == NO_ID ? 0 : tb->self[g];
			double total = g == NO_ID ? 0 : tb->total ? tb->total[g] : NAN;
			CHECK_CLOSE(self, ta->self[f], what);
			if (ta->total)
				CHECK_CLOSE(total, ta->total[f], what);
		}
	}
	rules_free(&ra);
	rules_free(&rb);
}

static void check_export(const char *name)
{
	struct model m, back;
	if (!load(name, SAMPLE_TIME_FILE, &m))
		return;
	char path[] = "/tmp/wprof-xs-export-XXXXXX";
	int fd = mkstemp(path);
	CHECK(fd >= 0);
	if (fd < 0)
		return;
	close(fd);
	char err[256];
	FILE *notes = fopen("/dev/null", "w");
	bool written = export_model(&m, 0, EXPORT_CPUPROFILE, path, notes, err, sizeof(err));
	fclose(notes);
	CHECK_MSG(written, "%s: %s", name, err);
	cJSON *json = read_json(path);
	const cJSON *nodes = cJSON_GetObjectItem(json, "nodes");
	for (int id = 0; id < 2; id++) {
		const cJSON *node = cJSON_GetArrayItem(nodes, id);
		const cJSON *frame = cJSON_GetObjectItem(node, "callFrame");
		const char *fn = cJSON_GetStringValue(cJSON_GetObjectItem(frame, "functionName"));
		CHECK_MSG(cJSON_GetObjectItem(node, "id")->valueint == id && fn &&
				  !strcmp(fn, id ? "(gc)" : "(host)"),
			  "%s: node %d is %s", name, id, fn ? fn : "?");
	}
	cJSON_Delete(json);
	struct load_options opt = { .session = -1 };
	struct load_error lerr;
	if (load_file(path, &opt, &back, &lerr, NULL)) {
		CHECK(back.sample_time == SAMPLE_TIME_OWN);
		CHECK_CLOSE(back.duration, m.duration, name);
		check_same_numbers(name, &m, &back);
		model_free(&back);
	} else {
		CHECK_MSG(false, "%s exported: %s", name, lerr.message);
	}
	unlink(path);
	model_free(&m);
}

int main(int argc, char **argv)
{
	if (argc > 1)
		dir = argv[1];
	check_readings("validate-xs.cpuprofile", true);
	check_readings("xs-pair/phases.cpuprofile", true);
	check_readings("validate.cpuprofile", false);
	check_default_rules();
	check_pair_shares();
	check_pair_phases();
	check_export("validate.xsbug");
	check_export("validate-xs.cpuprofile");
	check_export("xs-pair/phases.xsbug");
	check_export("xs-pair/phases.cpuprofile");
	return check_done();
}
