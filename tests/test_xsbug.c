/* The xsbug stream parser: the corpus capture fed in chunks of any size
 * gives the same model; hand-computed durations (first delta, last =
 * stop − t_n, suspend/resume); garbage skipped; each limit named. */
#include <stdlib.h>
#include <string.h>

#include "tests/check.h"
#include "model/sample_counts.h"
#include "transform/range.h"
#include "rules/rules.h"
#include "transform/transform.h"
#include "base/util.h"
#include "loaders/xsbug.h"

static struct xsbug_parser *feed_chunks(const char *data, size_t len,
					size_t chunk,
					const struct xsbug_limits *limits,
					struct load_error *err, bool *ok)
{
	struct xsbug_parser *p = xsbug_parser_new(limits);
	*ok = true;
	for (size_t at = 0; at < len && *ok; at += chunk) {
		size_t n = len - at < chunk ? len - at : chunk;
		*ok = xsbug_parser_feed(p, (const uint8_t *)data + at, n, err);
	}
	return p;
}

static void model_of(const char *data, size_t len, size_t chunk,
		     struct model *m)
{
	struct load_error err;
	bool ok;
	struct xsbug_parser *p = feed_chunks(data, len, chunk, NULL, &err, &ok);
	CHECK_MSG(ok, "chunk %zu: %s", chunk, ok ? "" : err.message);
	size_t n = xsbug_pick_session(p, -1, &err);
	CHECK(n == 1);
	xsbug_session_model(p, n, m);
	xsbug_parser_free(p);
}

static void check_same_model(const struct model *a, const struct model *b,
			     size_t chunk)
{
	CHECK_MSG(a->nframes == b->nframes && a->nnodes == b->nnodes &&
			  a->nsamples == b->nsamples && a->duration == b->duration,
		  "chunk %zu: different shape", chunk);
	if (a->nnodes != b->nnodes || a->nsamples != b->nsamples)
		return;
	for (size_t v = 0; v < a->nnodes; v++)
		CHECK_MSG(node_value(a, (uint32_t)v, 0) == node_value(b, (uint32_t)v, 0),
			  "chunk %zu: node %zu", chunk, v);
	CHECK_MSG(!memcmp(a->sample_duration, b->sample_duration,
			  a->nsamples * sizeof(double)),
		  "chunk %zu: sample durations differ", chunk);
}

static void test_chunks(const char *dir)
{
	char path[1024];
	snprintf(path, sizeof(path), "%s/validate.xsbug", dir);
	size_t len;
	char *data = check_read_file(path, &len);
	CHECK_MSG(data, "cannot read %s", path);
	if (!data)
		return;
	struct model whole;
	model_of(data, len, len, &whole);
	/* 8267540 µs from start to stop, 6608 samples (counted in the file). */
	CHECK_CLOSE(whole.duration, 8267540, "validate.xsbug duration");
	CHECK(whole.nsamples == 6608);
	static const size_t chunks[] = { 1, 7, 4096 };
	for (size_t i = 0; i < ARRAY_LEN(chunks); i++) {
		struct model m;
		model_of(data, len, chunks[i], &m);
		check_same_model(&whole, &m, chunks[i]);
		model_free(&m);
	}
	/* Live snapshots: the same values per node, the sample counts the
	 * timeline gives, and the timeline itself while it holds every
	 * sample (the strip, ranges), the same samples as the saved file's. */
	struct load_error err;
	bool ok;
	struct xsbug_parser *p = feed_chunks(data, len, 65536, NULL, &err, &ok);
	struct xsbug_follower *f = xsbug_follower_new();
	struct model totals;
	CHECK(xsbug_follow(f, p));
	CHECK(xsbug_follower_model(f, NULL, &totals));
	uint32_t counts = model_add_sample_counts(&whole);
	CHECK(totals.nsamples == 6608 && totals.nnodes == whole.nnodes);
	CHECK(totals.caps & HAS_TIMELINE);
	bool same_samples = totals.nsamples == whole.nsamples;
	for (size_t i = 0; same_samples && i < whole.nsamples; i++)
		same_samples = totals.sample_node[i] == whole.sample_node[i] &&
			       totals.sample_duration[i] == whole.sample_duration[i];
	CHECK_MSG(same_samples, "the snapshot's timeline is not the file's");
	CHECK(model_count_type(&totals) == counts);
	for (size_t v = 0; v < whole.nnodes && totals.nnodes == whole.nnodes; v++) {
		CHECK(node_value(&totals, (uint32_t)v, 0) == node_value(&whole, (uint32_t)v, 0));
		CHECK(node_value(&totals, (uint32_t)v, counts) ==
		      node_value(&whole, (uint32_t)v, counts));
	}
	CHECK(totals.duration == whole.duration);
	model_free(&totals);
	xsbug_follower_free(f);
	xsbug_parser_free(p);
	/* With a window of 4096 samples the snapshot holds the file's last
	 * 4096 (6608 - 4096 = 2512 before them, with their time), and the
	 * values stay the exact ones of all 6608; the finished model of the
	 * session then has no timeline (a part would pass for the whole). */
	struct xsbug_limits small = xsbug_default_limits;
	small.max_timeline = 4096;
	p = feed_chunks(data, len, 65536, &small, &err, &ok);
	f = xsbug_follower_new();
	CHECK(xsbug_follow(f, p));
	CHECK(xsbug_follower_model(f, NULL, &totals));
	CHECK(totals.nsamples == 4096 && (totals.caps & HAS_TIMELINE));
	CHECK(totals.live.samples_before == 2512 && model_sample_count(&totals) == 6608);
	double before = 0;
	for (size_t i = 0; i < 2512; i++)
		before += whole.sample_duration[i];
	CHECK(totals.live.time_before == before);
	same_samples = totals.nsamples == 4096 && totals.nnodes == whole.nnodes;
	for (size_t i = 0; same_samples && i < 4096; i++)
		same_samples = totals.sample_node[i] == whole.sample_node[2512 + i] &&
			       totals.sample_duration[i] == whole.sample_duration[2512 + i];
	CHECK_MSG(same_samples, "the snapshot's window is not the file's last samples");
	for (size_t v = 0; v < whole.nnodes && totals.nnodes == whole.nnodes; v++)
		CHECK(node_value(&totals, (uint32_t)v, 0) == node_value(&whole, (uint32_t)v, 0));
	model_free(&totals);
	xsbug_session_model(p, 1, &totals);
	CHECK(totals.nsamples == 0 && !(totals.caps & HAS_TIMELINE));
	CHECK(model_sample_count(&totals) == 6608);
	model_free(&totals);
	xsbug_follower_free(f);
	xsbug_parser_free(p);
	model_free(&whole);
	free(data);
}

static double self_of(const struct model *m, const char *name)
{
	struct rules rules;
	rules_init(&rules, m);
	const struct totals *t = rules_totals(&rules, RULE_EXACT, 0);
	double v = NAN;
	for (uint32_t f = 0; f < m->nframes; f++)
		if (!strcmp(model_str(m, m->frames[f].name), name))
			v = t->self[f];
	rules_free(&rules);
	return v;
}

#define MSG(body) "\r\n<xsbug>" body "</xsbug>\r\n"

/* start 0x100; samples at +10 (a), +5 (b), suspend at 0x100+25, resume
 * at 0x100+100, sample +3 (a), stop at +110.  A sample lasts the delta
 * it carries: a 10 + 3 = 13, b 5; the profile lasts 110 less the 75
 * suspended = 35. */
static const char timed[] =
	MSG("<login name=\"t\" value=\"v\"/>")
	MSG("<pt name=\"start\" value=\"@0000000000000100\"/>")
	MSG("<pr name=\"(host)\" value=\"0\"/>")
	MSG("<pr name=\"a\" value=\"36\" path=\"x.js\" line=\"3\"/>")
	MSG("<pr name=\"b&amp;c\" value=\"37\"/>")
	MSG("<ps>A,10,0.5,11,10,0</ps>")
	MSG("<pt name=\"suspend\" value=\"@0000000000000119\"/>")
	MSG("<pt name=\"resume\" value=\"@0000000000000164\"/>")
	MSG("<ps>3,10,0</ps>")
	MSG("<pt name=\"stop\" value=\"@000000000000016E\"/>");

static void test_durations(void)
{
	struct load_error err;
	bool ok;
	struct xsbug_parser *p = feed_chunks(timed, strlen(timed), 3, NULL, &err, &ok);
	CHECK(ok);
	CHECK(xsbug_parser_end(p));
	CHECK(!strcmp(xsbug_login_name(p), "t"));
	struct model m;
	xsbug_session_model(p, 1, &m);
	CHECK_CLOSE(self_of(&m, "a"), 13, "a");
	CHECK_CLOSE(self_of(&m, "b&c"), 5, "b&c");
	/* 110 from start to stop less the 75 suspended (0x119 to 0x164):
	 * the wait at a break is no one's time. */
	CHECK_CLOSE(m.duration, 35, "duration");
	model_free(&m);

	/* Written out and read back: the same numbers. */
	char *text = NULL;
	size_t text_len = 0;
	FILE *out = open_memstream(&text, &text_len);
	CHECK(xsbug_write_session(p, 1, out));
	fclose(out);
	xsbug_parser_free(p);
	p = feed_chunks(text, text_len, 5, NULL, &err, &ok);
	CHECK(ok);
	xsbug_session_model(p, 1, &m);
	CHECK_CLOSE(self_of(&m, "a"), 13, "a again");
	CHECK_CLOSE(self_of(&m, "b&c"), 5, "b&c again");
	CHECK_CLOSE(m.duration, 35, "duration again");
	model_free(&m);
	xsbug_parser_free(p);
	free(text);
}

/* The engine leaves suspended time out of the next delta: a sample 100
 * µs in, suspend at 150, resume at 1000, a sample 60 µs later (50 before
 * the suspend, 10 after) at 1010, stop at 1020: not before the last
 * sample.  a = 100 + 60; the profile lasts 1020 − 850 = 170. */
static void test_resume(void)
{
	struct xsbug_parser *p = xsbug_parser_new(NULL);
	struct load_error err;
	static const char text[] =
		MSG("<pt name=\"start\" value=\"@0000000000001000\"/>")
		MSG("<pr name=\"a\" value=\"36\"/>")
		MSG("<ps>2S,10,0</ps>")
		MSG("<pt name=\"suspend\" value=\"@0000000000001096\"/>")
		MSG("<pt name=\"resume\" value=\"@00000000000013E8\"/>")
		MSG("<ps>1O,10,0</ps>")
		MSG("<pt name=\"stop\" value=\"@00000000000013FC\"/>");
	bool ok = xsbug_parser_feed(p, (const uint8_t *)text, strlen(text), &err);
	CHECK_MSG(ok, "%s", ok ? "" : err.message);
	struct model m;
	xsbug_session_model(p, 1, &m);
	CHECK_CLOSE(self_of(&m, "a"), 160, "a across a suspension");
	CHECK_CLOSE(m.duration, 170, "duration less the suspension");
	model_free(&m);
	xsbug_parser_free(p);
}

/* A profile started at a break: start @0x1000 (4096), a resume 16 µs
 * later with no suspend before it, samples of 100 and 100 µs (the clock
 * at 4296), stop at `stop`.  300 000 µs beyond the samples: the clock
 * skipped, the profile lasts the 200 µs of its samples.  50 000 µs: the
 * moment before a stop, the whole span counts (50 200).  The same
 * 300 000 without the resume: a profile not started at a break, whose
 * span counts (300 200). */
static void check_started_at_break(const char *stop, bool resumed,
				   double duration, double skip)
{
	char text[1024];
	snprintf(text, sizeof(text), "%s%s%s%s",
		 MSG("<pt name=\"start\" value=\"@0000000000001000\"/>")
		 MSG("<pr name=\"a\" value=\"36\"/>"),
		 resumed ? MSG("<pt name=\"resume\" value=\"@0000000000001010\"/>") : "",
		 MSG("<ps>2S,10,0.2S,10,0</ps>"), stop);
	struct xsbug_parser *p = xsbug_parser_new(NULL);
	struct load_error err;
	bool ok = xsbug_parser_feed(p, (const uint8_t *)text, strlen(text), &err);
	CHECK_MSG(ok, "%s", ok ? "" : err.message);
	struct model m;
	xsbug_session_model(p, 1, &m);
	CHECK_CLOSE(m.duration, duration, "duration");
	CHECK_CLOSE(xsbug_session_clock_skip(p, 1), skip, "clock skip");
	const char *warning = m.warning == STR_NONE ? "" : model_str(&m, m.warning);
	CHECK_MSG(skip ? !strncmp(warning, "clock skipped 0.30 s at a break", 31)
		       : !warning[0], "warning %s", warning);
	model_free(&m);
	xsbug_parser_free(p);
}

static void test_started_at_break(void)
{
	/* 4296 + 300 000 = 0x4A4A8; 4296 + 50 000 = 0xD418 */
	const char *far = MSG("<pt name=\"stop\" value=\"@000000000004A4A8\"/>");
	const char *near = MSG("<pt name=\"stop\" value=\"@000000000000D418\"/>");
	check_started_at_break(far, true, 200, 300000);
	check_started_at_break(near, true, 50200, 0);
	check_started_at_break(far, false, 300200, 0);
}

static double count_of(const struct model *m, const char *name)
{
	uint32_t counts = model_count_type(m);
	double sum = 0;
	for (size_t v = 0; counts != NO_ID && v < m->nnodes; v++)
		if (!strcmp(model_str(m, m->frames[m->nodes[v].frame].name), name))
			sum += node_value(m, (uint32_t)v, counts);
	return sum;
}

/* The follower's model, refreshed in place, against one built afresh
 * from the same parser: the same nodes, values and times. */
static void check_like_fresh(const struct model *m, const struct xsbug_parser *p)
{
	struct xsbug_follower *f = xsbug_follower_new();
	struct model fresh;
	CHECK(xsbug_follow(f, p));
	CHECK(xsbug_follower_model(f, NULL, &fresh));
	CHECK(m->nnodes == fresh.nnodes && m->ntypes == fresh.ntypes);
	CHECK(m->nsamples == fresh.nsamples && m->live.samples_before == fresh.live.samples_before &&
	      m->live.time_before == fresh.live.time_before);
	for (size_t i = 0; i < m->nsamples && m->nsamples == fresh.nsamples; i++)
		CHECK(m->sample_node[i] == fresh.sample_node[i] &&
		      m->sample_duration[i] == fresh.sample_duration[i]);
	for (size_t v = 0; v < m->nnodes && m->nnodes == fresh.nnodes; v++)
		for (unsigned t = 0; t < m->ntypes; t++)
			CHECK(node_value(m, (uint32_t)v, t) == node_value(&fresh, (uint32_t)v, t));
	CHECK(m->duration == fresh.duration && m->end_time == fresh.end_time);
	model_free(&fresh);
	xsbug_follower_free(f);
}

static void feed_text(struct xsbug_parser *p, const char *text)
{
	struct load_error err;
	CHECK(xsbug_parser_feed(p, (const uint8_t *)text, strlen(text), &err));
}

/* A live view's refreshes: new numbers in place while no stack or record
 * is new, a new model when one is, or when a new session starts.
 * start 0x100; a at +10, b at +5, a at +3, c under a at +2, stop 4
 * later: each sample lasts its delta, a 10 + 3, b 5, c 2. */
static void test_follower(void)
{
	struct xsbug_parser *p = xsbug_parser_new(NULL);
	struct xsbug_follower *f = xsbug_follower_new();
	struct model models[2];
	CHECK(!xsbug_follow(f, p)); /* no session yet */
	feed_text(p, MSG("<pt name=\"start\" value=\"@0000000000000100\"/>")
		     MSG("<pr name=\"(host)\" value=\"0\"/>")
		     MSG("<pr name=\"a\" value=\"36\" path=\"x.js\" line=\"3\"/>")
		     MSG("<pr name=\"b\" value=\"37\"/>")
		     MSG("<ps>A,10,0.5,11,10,0</ps>"));
	CHECK(xsbug_follow(f, p));
	CHECK(xsbug_follower_model(f, NULL, &models[0]));
	CHECK_CLOSE(self_of(&models[0], "a"), 10, "a, b running");
	CHECK_CLOSE(count_of(&models[0], "b"), 1, "b's samples");

	feed_text(p, MSG("<ps>3,10,0</ps>"));
	CHECK(xsbug_follow(f, p));
	CHECK(!xsbug_follower_model(f, &models[0], &models[1])); /* in place */
	CHECK_CLOSE(self_of(&models[0], "b"), 5, "b, a running again");
	CHECK_CLOSE(self_of(&models[0], "a"), 13, "a running again");
	CHECK_CLOSE(count_of(&models[0], "a"), 2, "a's samples");
	check_like_fresh(&models[0], p);

	feed_text(p, MSG("<pr name=\"c\" value=\"38\"/>") MSG("<ps>2,12,10,0</ps>"));
	CHECK(xsbug_follow(f, p));
	CHECK(xsbug_follower_model(f, &models[0], &models[1])); /* a new stack */
	model_free(&models[0]);
	CHECK_CLOSE(self_of(&models[1], "a"), 13, "a with c's first sample");
	CHECK_CLOSE(self_of(&models[1], "c"), 2, "c's first sample");
	CHECK_CLOSE(count_of(&models[1], "c"), 1, "c's samples");

	feed_text(p, MSG("<pt name=\"stop\" value=\"@0000000000000118\"/>"));
	CHECK(xsbug_follow(f, p));
	CHECK(!xsbug_follower_model(f, &models[1], &models[0]));
	CHECK_CLOSE(self_of(&models[1], "c"), 2, "c stopped");
	CHECK_CLOSE(models[1].duration, 0x18, "duration");
	check_like_fresh(&models[1], p);

	feed_text(p, MSG("<pt name=\"start\" value=\"@0000000000000200\"/>"));
	CHECK(xsbug_follow(f, p));
	CHECK(xsbug_follower_model(f, &models[1], &models[0])); /* a new session */
	CHECK_CLOSE(count_of(&models[0], "a"), 0, "nothing sampled yet");
	model_free(&models[0]);
	model_free(&models[1]);
	xsbug_follower_free(f);
	xsbug_parser_free(p);
}

/* Two ids for functions that look alike (name and place) are one
 * function, one node: the follower sums their stacks as the timeline
 * does.  g (40) at 1, g (41) at 3, stop at 8: 1 + 2 µs, 2 samples. */
static void test_follower_alike(void)
{
	struct xsbug_parser *p = xsbug_parser_new(NULL);
	feed_text(p, MSG("<pt name=\"start\" value=\"@0000000000000000\"/>")
		     MSG("<pr name=\"g\" value=\"40\" path=\"x.js\" line=\"9\"/>")
		     MSG("<pr name=\"g\" value=\"41\" path=\"x.js\" line=\"9\"/>")
		     MSG("<ps>1,14,0.2,15,0</ps>")
		     MSG("<pt name=\"stop\" value=\"@0000000000000008\"/>"));
	struct xsbug_follower *f = xsbug_follower_new();
	struct model m, timeline;
	CHECK(xsbug_follow(f, p));
	CHECK(xsbug_follower_model(f, NULL, &m));
	xsbug_session_model(p, 1, &timeline);
	CHECK_CLOSE(self_of(&timeline, "g"), 3, "g from the timeline");
	CHECK_CLOSE(self_of(&m, "g"), 3, "g from the follower");
	CHECK_CLOSE(count_of(&m, "g"), 2, "g's samples");
	model_free(&m);
	model_free(&timeline);
	xsbug_follower_free(f);
	xsbug_parser_free(p);
}

/* Garbage between, before and inside messages is skipped; two sessions. */
static void test_garbage_and_sessions(void)
{
	static const char text[] =
		"\x01\xff<<>>garbage<"
		MSG("<pt name=\"start\" value=\"@0000000000000000\"/>")
		"<log>hello &lt; world</log><<pr name=\"a\" value=\"2\"/>"
		MSG("<ps>1,2,0.junk.4,2,0.2,2,5</ps>")
		MSG("<pt name=\"stop\" value=\"@0000000000000010\"/>")
		MSG("<pt name=\"start\" value=\"@0000000000000100\"/>")
		MSG("<ps>1,2,0.2,2,0</ps>")
		MSG("<pt name=\"stop\" value=\"@0000000000000108\"/>")
		MSG("<pt name=\"start\" value=\"@0000000000000200\"/>")
		MSG("<ps>1,2,0</ps>") "<xsbug><ps>2,2";
	struct load_error err;
	bool ok;
	struct xsbug_parser *p = feed_chunks(text, sizeof(text) - 1, 2, NULL, &err, &ok);
	CHECK(ok);
	CHECK(!xsbug_parser_end(p)); /* cut inside <ps> */
	CHECK(xsbug_session_count(p) == 3);
	CHECK(xsbug_session_samples(p, 1) == 2); /* junk and 5-ended dropped */
	CHECK(xsbug_pick_session(p, -1, &err) == 2);
	CHECK(xsbug_pick_session(p, 4, &err) == 0);
	struct model m;
	/* Session 1: deltas 1 and 4, stop 16: a = 1 + 4 of 16. */
	xsbug_session_model(p, 1, &m);
	CHECK_CLOSE(self_of(&m, "a"), 5, "session 1");
	CHECK_CLOSE(m.duration, 16, "session 1 duration");
	model_free(&m);
	/* Session 2: deltas 1 and 2, stop 0x108: a = 1 + 2 of 8. */
	xsbug_session_model(p, 2, &m);
	CHECK_CLOSE(self_of(&m, "a"), 3, "session 2");
	model_free(&m);
	xsbug_parser_free(p);
}

static double divided_of(const struct model *m, const char *name)
{
	struct rules rules;
	rules_init(&rules, m);
	const struct totals *t = rules_totals(&rules, RULE_DIVIDED, 0);
	double v = NAN;
	for (uint32_t f = 0; f < m->nframes; f++)
		if (!strcmp(model_str(m, m->frames[f].name), name))
			v = t->total[f];
	rules_free(&rules);
	return v;
}

static const char divided_records[] =
	MSG("<pt name=\"start\" value=\"@0000000000000000\"/>")
	MSG("<pr name=\"(host)\" value=\"0\"/>")
	MSG("<pr name=\"a\" value=\"36\"/>") MSG("<pr name=\"b\" value=\"37\"/>")
	MSG("<pr name=\"c\" value=\"38\"/>");

/* divided on a stream: the cycles go as the engine's file profiler
 * removes them, walking callees in the order the samples show them,
 * within a sample from the leaf up; the saved model and the follower's
 * agree.  want: a, b, c, (host) from `samples` worked by hand. */
static void check_stream_divided(const char *what, const char *samples,
				 const double want[4])
{
	static const char *const names[] = { "a", "b", "c", "(host)" };
	struct xsbug_parser *p = xsbug_parser_new(NULL);
	feed_text(p, divided_records);
	feed_text(p, samples);
	feed_text(p, MSG("<pt name=\"stop\" value=\"@0000000000000100\"/>"));
	struct model saved, followed, focused;
	xsbug_session_model(p, 1, &saved);
	struct xsbug_follower *f = xsbug_follower_new();
	CHECK(xsbug_follow(f, p));
	CHECK(xsbug_follower_model(f, NULL, &followed));
	/* The explorer's filtered copy, focused on the host: every stack. */
	struct transform_stack all = { 0 };
	char err[128];
	for (uint32_t fr = 0; fr < saved.nframes; fr++)
		if (saved.frames[fr].kind == KIND_ROOT)
			CHECK(transform_push(&all, TF_FOCUS, fr, NULL, err, sizeof(err)));
	const char *why_not;
	CHECK(model_transform(&saved, all.items, all.n, &focused, &why_not));
	transform_stack_free(&all);
	for (int i = 0; i < 4; i++) {
		char label[96];
		snprintf(label, sizeof(label), "%s: %s", what, names[i]);
		CHECK_CLOSE(divided_of(&saved, names[i]), want[i], label);
		CHECK_CLOSE(divided_of(&followed, names[i]), want[i], label);
		CHECK_CLOSE(divided_of(&focused, names[i]), want[i], label);
	}
	model_free(&saved);
	model_free(&followed);
	model_free(&focused);
	xsbug_follower_free(f);
	xsbug_parser_free(p);
}

/* An engine told to start at a break (XS 17.9) opens a session that
 * never gets a sample: the default is the last stopped one with samples,
 * never an empty profile (real capture: testdata/live/stop-at-break.xsbug). */
static void test_empty_session_passed_over(void)
{
	static const char text[] =
		MSG("<pt name=\"start\" value=\"@0000000000000000\"/>")
		MSG("<pr name=\"a\" value=\"2\"/>")
		MSG("<ps>3,2,0</ps>")
		MSG("<pt name=\"stop\" value=\"@0000000000000010\"/>")
		MSG("<pt name=\"start\" value=\"@0000000000000100\"/>")
		MSG("<pt name=\"stop\" value=\"@0000000000000108\"/>");
	struct load_error err;
	bool ok;
	struct xsbug_parser *p = feed_chunks(text, sizeof(text) - 1, 7, NULL, &err, &ok);
	CHECK(ok);
	CHECK(xsbug_session_count(p) == 2);
	CHECK(xsbug_pick_session(p, -1, &err) == 1);
	CHECK(xsbug_pick_session(p, 2, &err) == 2);
	xsbug_parser_free(p);
}

static void test_divided(void)
{
	/* host > a > b > a for 4 µs, then host > b for 6.  host's callees
	 * in order: a, b.  The walk: host, a, b; b's callee a is on the
	 * walk (b -> a goes); host -> b stays.  callers(a) = {host},
	 * callers(b) = {a, host}.  a's 4 to host; b's 6: 3 to a (then to
	 * host), 3 to host.  a 7, b 6, host 10. */
	check_stream_divided("a first", MSG("<ps>4,10,11,10,0.6,11,0</ps>"),
			     (const double[]){ 7, 6, 0, 10 });
	/* The same samples the other way round: host's callees b, a; the
	 * walk host, b, a drops a -> b.  callers(b) = {host}, callers(a) =
	 * {b, host}.  a's 4: 2 to b (then host), 2 to host.  a 4, b 8. */
	check_stream_divided("b first", MSG("<ps>6,11,0.4,10,11,10,0</ps>"),
			     (const double[]){ 4, 8, 0, 10 });
	/* One sample host > c > a > b > c > b > a, 8 µs in a.  From the leaf
	 * up the arcs come b->a, c->b, b->c, a->b, c->a, host->c: c's
	 * callees are b then a, b's are a then c.  The walk host, c, b, a
	 * drops a -> b (b on the walk), then b -> c; c -> a stays.
	 * callers(a) = {b, c}, callers(b) = {c}, callers(c) = {host}.
	 * a's 8: 4 to b (then 4 to c, 4 to host), 4 to c (then host).
	 * a 8, b 4, c 8, host 8.  (Root down, c -> a would come first and
	 * b would get nothing.) */
	check_stream_divided("leaf up", MSG("<ps>8,10,11,12,11,10,12,0</ps>"),
			     (const double[]){ 8, 4, 8, 8 });
}

/* A clock that runs backwards (issue 17): a stop before the start, or
 * before the last sample, is an error at the stop's byte, never a
 * negative duration. */
static void test_stop_out_of_order(void)
{
	static const char *const cases[][2] = {
		{ MSG("<pt name=\"start\" value=\"@0000000000001000\"/>")
		  MSG("<ps>5,2,0</ps>")
		  MSG("<pt name=\"stop\" value=\"@0000000000000010\"/>"),
		  "stop time before its start" },
		{ MSG("<pt name=\"start\" value=\"@0000000000001000\"/>")
		  MSG("<ps>20,2,0</ps>")
		  MSG("<pt name=\"stop\" value=\"@0000000000001010\"/>"),
		  "stop time before its last sample" },
		{ MSG("<pt name=\"start\" value=\"@0000000000001000\"/>")
		  MSG("<pt name=\"start\" value=\"@0000000000000100\"/>"),
		  "stop time before its start" },
	};
	for (size_t i = 0; i < ARRAY_LEN(cases); i++) {
		struct load_error err;
		bool ok;
		const char *text = cases[i][0];
		struct xsbug_parser *p = feed_chunks(text, strlen(text), 7, NULL,
						     &err, &ok);
		CHECK_MSG(!ok && strstr(err.message, cases[i][1]) &&
				  strstr(err.message, "byte "),
			  "case %zu: got '%s'", i, ok ? "no error" : err.message);
		xsbug_parser_free(p);
	}
	/* In order, the same stop is fine: 0x20 of 0x30 µs sampled. */
	struct xsbug_parser *p = xsbug_parser_new(NULL);
	feed_text(p, MSG("<pt name=\"start\" value=\"@0000000000001000\"/>")
		     MSG("<ps>W,2,0</ps>")
		     MSG("<pt name=\"stop\" value=\"@0000000000001030\"/>"));
	struct model m;
	xsbug_session_model(p, 1, &m);
	CHECK_CLOSE(m.duration, 0x30, "in order");
	model_free(&m);
	xsbug_parser_free(p);
}

static bool has_name(const struct model *m, const char *name)
{
	for (uint32_t f = 0; f < m->nframes; f++)
		if (!strcmp(model_str(m, m->frames[f].name), name))
			return true;
	return false;
}

/* Real engines write names raw: a quote ends a value only before the end
 * of the tag or another attribute; `<` and `>` inside a value are the
 * value's; the escaped form still works; CESU-8 becomes UTF-8.  Any chunk
 * size gives the same. */
static void test_raw_names(void)
{
	static const char text[] =
		MSG("<pt name=\"start\" value=\"@0000000000000000\"/>")
		MSG("<pr name=\"(host)\" value=\"0\"/>")
		MSG("<pr name=\"a<b\" value=\"2\" path=\"/x.js\" line=\"5\"/>")
		MSG("<pr name=\"q\"uote\" value=\"3\" path=\"/x.js\" line=\"6\"/>")
		MSG("<pr name=\"x>y/>\" b\" value=\"4\"/>")
		MSG("<pr name=\"esc&lt;&quot;&amp;\" value=\"5\"/>")
		MSG("<pr name=\"\xed\xa0\xbd\xed\xb8\x80!\" value=\"6\"/>")
		MSG("<pr name=\"lone\xed\xa0\xbd\" value=\"7\"/>")
		MSG("<ps>1,2,0.2,3,0.3,4,0.4,5,0.5,6,0.6,7,0</ps>")
		MSG("<pt name=\"stop\" value=\"@0000000000000020\"/>");
	static const struct { const char *name; double self; } want[] = {
		{ "a<b", 1 }, { "q\"uote", 2 }, { "x>y/>\" b", 3 },
		{ "esc<\"&", 4 }, { "\xf0\x9f\x98\x80!", 5 },
		{ "lone\xef\xbf\xbd", 6 },
	};
	static const size_t chunks[] = { 1, 3, 64, sizeof(text) };
	for (size_t c = 0; c < ARRAY_LEN(chunks); c++) {
		struct load_error err;
		bool ok;
		struct xsbug_parser *p = feed_chunks(text, sizeof(text) - 1,
						     chunks[c], NULL, &err, &ok);
		CHECK(ok);
		struct model m;
		xsbug_session_model(p, 1, &m);
		for (size_t i = 0; i < ARRAY_LEN(want); i++)
			CHECK_CLOSE(self_of(&m, want[i].name), want[i].self,
				    want[i].name);
		CHECK(!has_name(&m, "(unknown 2)") && m.nframes == 7);
		model_free(&m);
		xsbug_parser_free(p);
	}
}

/* A long session: the stacks' totals and counts stay exact, and its
 * memory stops growing once its timeline is full (64 entries here): the
 * oldest samples leave it instead, and a live model holds the newest 64
 * in order.  Sample i: stack i % 3 (a; b under a; c under b under a),
 * delta 1 + i % 7 µs. */
static void test_bounded_session(void)
{
	struct xsbug_limits limits = xsbug_default_limits;
	limits.max_timeline = 64;
	struct xsbug_parser *p = xsbug_parser_new(&limits);
	feed_text(p, divided_records);
	static const char *const stacks[] = { "10,0", "11,10,0", "12,11,10,0" };
	static const char *const names[] = { "a", "b", "c" };
	double want_self[3] = { 0 }, want_count[3] = { 0 };
	const size_t n = 100000;
	size_t bytes_early = 0;
	char text[256];
	for (size_t i = 0; i < n; i += 8) {
		size_t len = (size_t)snprintf(text, sizeof(text), "\r\n<xsbug><ps>");
		for (size_t j = i; j < i + 8; j++) {
			len += (size_t)snprintf(text + len, sizeof(text) - len, "%s%zu,%s",
						j > i ? "." : "", 1 + j % 7, stacks[j % 3]);
			want_self[j % 3] += (double)(1 + j % 7);
			want_count[j % 3]++;
		}
		snprintf(text + len, sizeof(text) - len, "</ps></xsbug>\r\n");
		feed_text(p, text);
		if (i + 8 == 1000)
			bytes_early = xsbug_session_bytes(p, 1);
	}
	feed_text(p, MSG("<pt name=\"stop\" value=\"@0000000000100000\"/>"));
	size_t bytes = xsbug_session_bytes(p, 1);
	CHECK_MSG(bytes == bytes_early && bytes < 4096,
		  "%zu bytes after 1000 samples, %zu after %zu", bytes_early, bytes, n);
	CHECK(xsbug_session_samples(p, 1) == n);
	/* The live model: samples n - 64 … n - 1 (n = 100000: the window's
	 * first is sample 99936, stack 99936 % 3 = 0, delta 1 + 99936 % 7 = 5),
	 * their durations, and the time of the 99936 before. */
	struct xsbug_follower *f = xsbug_follower_new();
	struct model live;
	CHECK(xsbug_follow(f, p));
	CHECK(xsbug_follower_model(f, NULL, &live));
	CHECK(live.nsamples == 64 && live.live.samples_before == n - 64);
	CHECK(live.sample_duration[0] == 5);
	double before = 0;
	for (size_t i = 0; i < n - 64; i++)
		before += (double)(1 + i % 7);
	CHECK_CLOSE(live.live.time_before, before, "the time before the window");
	bool in_order = live.nsamples == 64;
	for (size_t j = 0; in_order && j < 64; j++) {
		size_t i = n - 64 + j;
		const char *leaf = model_str(&live, live.frames[live.nodes[live.sample_node[j]].frame].name);
		in_order = live.sample_duration[j] == (double)(1 + i % 7) &&
			   !strcmp(leaf, names[i % 3]);
	}
	CHECK_MSG(in_order, "the window is not the newest 64 samples in order");
	for (int k = 0; k < 3; k++) { /* the totals: every sample's */
		CHECK_CLOSE(self_of(&live, names[k]), want_self[k], names[k]);
		CHECK_CLOSE(count_of(&live, names[k]), want_count[k], names[k]);
	}
	model_free(&live);
	xsbug_follower_free(f);

	char *capture = NULL;
	size_t capture_len = 0;
	FILE *out = open_memstream(&capture, &capture_len);
	CHECK(xsbug_write_session(p, 1, out));
	fclose(out);
	struct xsbug_parser *again = xsbug_parser_new(&limits);
	struct load_error err;
	CHECK(xsbug_parser_feed(again, (const uint8_t *)capture, capture_len, &err));
	const struct xsbug_parser *parsers[] = { p, again };
	for (size_t k = 0; k < ARRAY_LEN(parsers); k++) {
		struct model m;
		xsbug_session_model(parsers[k], 1, &m);
		for (int f = 0; f < 3; f++) {
			CHECK_CLOSE(self_of(&m, names[f]), want_self[f], names[f]);
			CHECK_CLOSE(count_of(&m, names[f]), want_count[f], names[f]);
		}
		CHECK_CLOSE(m.duration, 0x100000, "duration");
		/* No timeline is left to count, yet the header counts them all. */
		CHECK(model_sample_count(&m) == n);
		model_free(&m);
	}
	xsbug_parser_free(again);
	free(capture);
	xsbug_parser_free(p);
}

static void expect_limit(const char *text, size_t len,
			 const struct xsbug_limits *limits, const char *what)
{
	struct load_error err;
	bool ok;
	struct xsbug_parser *p = feed_chunks(text, len, 4096, limits, &err, &ok);
	CHECK_MSG(!ok && strstr(err.message, what), "%s: got '%s'", what,
		  ok ? "no error" : err.message);
	xsbug_parser_free(p);
}

static void test_limits(void)
{
	struct xsbug_limits small = xsbug_default_limits;
	small.max_element = 100;
	small.max_attribute = 10;
	small.max_depth = 3;
	small.max_records = 2;
	small.max_id = 1000;
	char text[512];
	memset(text, 'a', sizeof(text));
	memcpy(text, "<xsbug", 6);
	expect_limit(text, sizeof(text), &small, "element longer");
	snprintf(text, sizeof(text), "<pr name=\"0123456789ab\" value=\"1\"/>");
	expect_limit(text, strlen(text), &small, "attribute value longer");
	snprintf(text, sizeof(text), "<pr name=\"a\" value=\"1001\"/>");
	expect_limit(text, strlen(text), &small, "id out of range");
	snprintf(text, sizeof(text), "<ps>1,RT,0</ps>"); /* RT = 1001 */
	expect_limit(text, strlen(text), &small, "out of range in a sample");
	snprintf(text, sizeof(text), "<ps>1,1,2,3,0</ps>");
	expect_limit(text, strlen(text), &small, "deeper");
	snprintf(text, sizeof(text),
		 "<pr name=\"a\" value=\"1\"/><pr name=\"a\" value=\"2\"/>"
		 "<pr name=\"a\" value=\"3\"/>");
	expect_limit(text, strlen(text), &small, "too many profile records");
}

/* Live snapshots carry the session's timeline: a 10 µs, b 5, then a 3
 * in place (the strip grows, the values stay the stacks' sums); with
 * room for 4 entries, the fifth sample pushes the first out, in place:
 * the window is b 5, a 3, a 2, a 4 after 1 sample of 10 µs, the totals
 * still every sample's (a 10 + 3 + 2 + 4 = 19 in 4 samples), and a
 * range over the window counts its own: a 3 + 2 + 4 = 9, b 5. */
static void test_follower_timeline(void)
{
	struct xsbug_limits small = xsbug_default_limits;
	small.max_timeline = 4;
	struct xsbug_parser *p = xsbug_parser_new(&small);
	struct xsbug_follower *f = xsbug_follower_new();
	struct model models[2];
	feed_text(p, MSG("<pt name=\"start\" value=\"@0000000000000100\"/>")
		     MSG("<pr name=\"(host)\" value=\"0\"/>")
		     MSG("<pr name=\"a\" value=\"36\" path=\"x.js\" line=\"3\"/>")
		     MSG("<pr name=\"b\" value=\"37\"/>")
		     MSG("<ps>A,10,0.5,11,10,0</ps>"));
	CHECK(xsbug_follow(f, p));
	CHECK(xsbug_follower_model(f, NULL, &models[0]));
	CHECK(models[0].nsamples == 2 && (models[0].caps & HAS_TIMELINE));
	CHECK(models[0].sample_duration[0] == 10 && models[0].sample_duration[1] == 5);
	CHECK_CLOSE(self_of(&models[0], "a"), 10, "a with the timeline");
	feed_text(p, MSG("<ps>3,10,0</ps>"));
	CHECK(xsbug_follow(f, p));
	CHECK(!xsbug_follower_model(f, &models[0], &models[1])); /* in place */
	CHECK(models[0].nsamples == 3 && models[0].sample_duration[2] == 3);
	CHECK(models[0].sample_node[2] == models[0].sample_node[0]);
	CHECK_CLOSE(self_of(&models[0], "a"), 13, "a in place");
	check_like_fresh(&models[0], p);
	feed_text(p, MSG("<ps>2,10,0.4,10,0</ps>"));
	CHECK(xsbug_follow(f, p));
	CHECK(!xsbug_follower_model(f, &models[0], &models[1])); /* in place */
	struct model *m = &models[0];
	CHECK(m->nsamples == 4 && m->live.samples_before == 1 && m->live.time_before == 10);
	static const double window[] = { 5, 3, 2, 4 };
	for (size_t i = 0; i < 4 && m->nsamples == 4; i++)
		CHECK(m->sample_duration[i] == window[i]);
	CHECK(m->nsamples == 4 && m->sample_node[1] == m->sample_node[3] &&
	      m->sample_node[0] != m->sample_node[1]);
	CHECK_CLOSE(self_of(m, "a"), 19, "a: every sample's");
	CHECK_CLOSE(count_of(m, "a"), 4, "a's samples");
	CHECK(model_sample_count(m) == 5);
	check_like_fresh(m, p);
	struct model view;
	const char *why_not = NULL;
	CHECK(range_view_make(m, (struct sample_range){ 0, 4 }, NULL, &view, &why_not));
	CHECK_CLOSE(self_of(&view, "a"), 9, "a in the window's range");
	CHECK_CLOSE(self_of(&view, "b"), 5, "b in the window's range");
	CHECK_CLOSE(count_of(&view, "a"), 3, "a's samples in the range");
	model_free(&view);
	model_free(&models[0]);
	xsbug_follower_free(f);
	xsbug_parser_free(p);
}

int main(int argc, char **argv)
{
	const char *dir = argc > 1 ? argv[1] : "testdata";
	test_chunks(dir);
	test_durations();
	test_resume();
	test_started_at_break();
	test_empty_session_passed_over();
	test_divided();
	test_stop_out_of_order();
	test_raw_names();
	test_bounded_session();
	test_follower();
	test_follower_alike();
	test_follower_timeline();
	test_garbage_and_sessions();
	test_limits();
	return check_done();
}
