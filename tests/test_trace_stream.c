/* A trace that grows (loaders/trace.h, trace_stream_*): events given in
 * batches, cut anywhere between two events, with models built on the way,
 * give the numbers of the whole file loaded at once: the hand-written
 * trace's numbers worked out in docs/formats.md (tests/e2e/trace.py's
 * HAND_MAIN), and a real Chrome 116 trace against load_file; the live
 * fold's timeline against samples worked by hand. */
#include <cjson/cJSON.h>
#include <stdlib.h>
#include <string.h>

#include "tests/check.h"
#include "tests/model_checks.h"
#include "input/input.h"
#include "loaders/loaders.h"
#include "loaders/bounded_timeline.h"
#include "loaders/trace.h"
#include "transform/range.h"
#include "rules/rules.h"
#include "base/util.h"

/* The events of a trace file, each as its own JSON text. */
struct events {
	char **text;
	size_t n;
};

static bool read_events(const char *path, struct events *ev)
{
	struct input in;
	uint8_t *data;
	size_t len;
	if (!input_open(&in, path))
		return false;
	bool ok = input_slurp(&in, &data, &len, (size_t)1 << 30);
	input_close(&in);
	if (!ok)
		return false;
	cJSON *doc = cJSON_ParseWithLength((const char *)data, len);
	free(data);
	const cJSON *list = cJSON_GetObjectItem(doc, "traceEvents"), *e;
	ev->n = 0;
	ev->text = xmalloc(((size_t)cJSON_GetArraySize(list) + 1) * sizeof(char *));
	cJSON_ArrayForEach(e, list)
		ev->text[ev->n++] = cJSON_PrintUnformatted(e);
	cJSON_Delete(doc);
	return ev->n > 0;
}

static void free_events(struct events *ev)
{
	for (size_t i = 0; i < ev->n; i++)
		free(ev->text[i]);
	free(ev->text);
}

/* Events [from, to) as one batch, a JSON array. */
static bool add_batch(struct trace_stream *s, const struct events *ev, size_t from,
		      size_t to)
{
	size_t len = 2;
	for (size_t i = from; i < to; i++)
		len += strlen(ev->text[i]) + 1;
	char *text = xmalloc(len + 1), *at = text;
	*at++ = '[';
	for (size_t i = from; i < to; i++)
		at += sprintf(at, "%s%s", i > from ? "," : "", ev->text[i]);
	*at++ = ']';
	struct load_error err;
	bool ok = trace_stream_add(s, text, (size_t)(at - text), &err);
	CHECK_MSG(ok, "batch %zu..%zu: %s", from, to, err.message);
	free(text);
	return ok;
}

/* ---- the hand-written trace: every way of cutting it ---------------- */

static const struct {
	const char *name;
	double self, total;
} hand_main[] = {
	{ "(root)", 0, 7000 }, { "main", 1000, 7000 }, { "a", 2500, 5500 },
	{ "leaf", 3500, 3500 }, { "b", 0, 500 },
};

/* Numbers of the main thread, or a note on what differs. */
static bool hand_numbers_hold(struct model *m, const char *how)
{
	struct rules r;
	rules_init(&r, m);
	const struct totals *t = rules_totals(&r, RULE_EXACT, 0);
	bool ok = !strcmp(model_str(m, m->thread), "CrRendererMain (Renderer pid 1, tid 10)");
	CHECK_MSG(ok, "%s: thread %s", how, model_str(m, m->thread));
	for (size_t i = 0; i < ARRAY_LEN(hand_main) && ok; i++) {
		uint32_t f = frame_named(m, hand_main[i].name);
		ok = f != NO_ID && t->self[f] == hand_main[i].self &&
		     t->total[f] == hand_main[i].total;
		CHECK_MSG(ok, "%s: %s self %g total %g, want %g %g", how, hand_main[i].name,
			  f == NO_ID ? NAN : t->self[f], f == NO_ID ? NAN : t->total[f],
			  hand_main[i].self, hand_main[i].total);
	}
	rules_free(&r);
	return ok;
}

/* Every set of cuts between the events (2^(n-1) ways), with a model
 * built after each batch along the way: the stream is not changed by
 * being looked at. */
static void hand_every_cut(const char *dir)
{
	char path[4096];
	snprintf(path, sizeof(path), "%s/trace/hand.json", dir);
	struct events ev;
	CHECK_MSG(read_events(path, &ev), "%s: cannot read", path);
	CHECK(ev.n == 11);
	size_t failed = 0;
	for (unsigned long cuts = 0; cuts < 1ul << (ev.n - 1) && failed < 3; cuts++) {
		struct trace_stream *s = trace_stream_new();
		size_t from = 0;
		for (size_t i = 1; i <= ev.n; i++) {
			if (i < ev.n && !(cuts >> (i - 1) & 1))
				continue;
			add_batch(s, &ev, from, i);
			from = i;
			struct model m;
			struct load_error err;
			if (i < ev.n && (cuts & 1) && trace_stream_model(s, NULL, &m, &err))
				model_free(&m); /* a look along the way */
		}
		struct model m;
		struct load_error err;
		char how[64];
		snprintf(how, sizeof(how), "cuts %#lx", cuts);
		bool built = trace_stream_model(s, NULL, &m, &err);
		CHECK_MSG(built, "%s: %s", how, err.message);
		if (built) {
			failed += !hand_numbers_hold(&m, how);
			model_free(&m);
		}
		/* Built twice: the same. */
		built = trace_stream_finish(s, NULL, &m, &err);
		CHECK_MSG(built, "%s: %s", how, err.message);
		if (built) {
			failed += !hand_numbers_hold(&m, how);
			model_free(&m);
		}
	}
	free_events(&ev);
}

/* The first four events only: both chunks of the main thread's profile,
 * not yet the one with its endTime.  Worked by hand: from startTime 1000
 * the samples fall at 1100 a, 2100 a, 3100 leaf (under a), 6100 leaf
 * (under b), 7100 main, 6600 a; in time order each lasts until the next,
 * and the last (main, 7100) lasts nothing without an endTime: a self
 * 1000 + 1000 + 500, main self 0 and total 6000. */
static void hand_partial(const char *dir)
{
	char path[4096];
	snprintf(path, sizeof(path), "%s/trace/hand.json", dir);
	struct events ev;
	if (!read_events(path, &ev))
		return;
	struct trace_stream *s = trace_stream_new();
	add_batch(s, &ev, 0, 4);
	CHECK(trace_stream_samples(s) == 6);
	struct model m;
	struct load_error err;
	bool built = trace_stream_model(s, "10", &m, &err);
	CHECK_MSG(built, "partial: %s", err.message);
	if (built) {
		struct rules r;
		rules_init(&r, &m);
		const struct totals *t = rules_totals(&r, RULE_EXACT, 0);
		uint32_t a = frame_named(&m, "a"), main_f = frame_named(&m, "main");
		CHECK(a != NO_ID && t->self[a] == 2500);
		CHECK(main_f != NO_ID && t->self[main_f] == 0 && t->total[main_f] == 6000);
		CHECK(m.nsamples == 6);
		rules_free(&r);
		model_free(&m);
	}
	trace_stream_free(s);
	free_events(&ev);
}

static void bad_batches(void)
{
	struct trace_stream *s = trace_stream_new();
	struct load_error err;
	CHECK(!trace_stream_add(s, "{}", 2, &err));
	CHECK_MSG(strstr(err.message, "expected an array of events"), "%s", err.message);
	const char *cut = "[{\"name\":\"ProfileChunk\",\"args\":{\"data\":{\"timeDeltas\":[1,";
	CHECK(!trace_stream_add(s, cut, strlen(cut), &err));
	/* Byte offsets count from the first batch: this one starts at 2. */
	const char *bad = "[{\"name\":\"ProfileChunk\",\"id\":\"0x1\",\"args\":{\"data\":"
			  "{\"cpuProfile\":{\"samples\":[\"x\"]}}}}]";
	CHECK(!trace_stream_add(s, bad, strlen(bad), &err));
	char want[64];
	snprintf(want, sizeof(want), "trace-event JSON, byte %zu: ",
		 2 + strlen(cut) + (size_t)(strstr(bad, "\"x\"") - bad));
	CHECK_MSG(strstr(err.message, want), "%s, want %s", err.message, want);
	struct model m;
	CHECK(!trace_stream_model(s, NULL, &m, &err));
	CHECK_MSG(strstr(err.message, "no CPU profile"), "%s", err.message);
	trace_stream_free(s);
}

/* ---- a real trace, cut at random, against the whole file -------------- */

static void same_models(const struct model *want, struct model *got, const char *how)
{
	CHECK_MSG(got->nsamples == want->nsamples, "%s: %zu samples, want %zu", how,
		  got->nsamples, want->nsamples);
	CHECK_MSG(got->nnodes == want->nnodes, "%s: %zu nodes, want %zu", how,
		  (size_t)got->nnodes, (size_t)want->nnodes);
	CHECK(got->start_time == want->start_time && got->end_time == want->end_time);
	CHECK(!strcmp(model_str(got, got->thread), model_str(want, want->thread)));
	struct rules rw, rg;
	rules_init(&rw, want);
	rules_init(&rg, got);
	const struct totals *tw = rules_totals(&rw, RULE_EXACT, 0);
	const struct totals *tg = rules_totals(&rg, RULE_EXACT, 0);
	size_t wrong = 0;
	for (uint32_t f = 0; f < want->nframes; f++) {
		const struct frame *fw = &want->frames[f];
		uint32_t g = NO_ID;
		for (uint32_t k = 0; k < got->nframes && g == NO_ID; k++) {
			const struct frame *fg = &got->frames[k];
			if (!strcmp(model_str(got, fg->name), model_str(want, fw->name)) &&
			    !strcmp(model_str(got, fg->url), model_str(want, fw->url)) &&
			    fg->line == fw->line && fg->column == fw->column)
				g = k;
		}
		if (g == NO_ID || !close_enough(tg->self[g], tw->self[f]) ||
		    !close_enough(tg->total[g], tw->total[f]))
			wrong++;
	}
	CHECK_MSG(!wrong && got->nframes == want->nframes, "%s: %zu of %zu functions differ",
		  how, wrong, (size_t)want->nframes);
	rules_free(&rw);
	rules_free(&rg);
}

static void chrome_random_cuts(const char *dir)
{
	char path[4096];
	snprintf(path, sizeof(path), "%s/trace/chrome116-trace.json.gz", dir);
	struct model whole;
	struct load_error err;
	struct load_options opt = { .session = -1 };
	bool loaded = load_file(path, &opt, &whole, &err, NULL);
	CHECK_MSG(loaded, "%s: %s", path, err.message);
	struct events ev;
	if (!loaded || !read_events(path, &ev))
		return;
	CHECK(whole.nsamples > 1000);
	srand(15);
	for (int round = 0; round < 20; round++) {
		struct trace_stream *s = trace_stream_new();
		size_t from = 0;
		while (from < ev.n) {
			/* Mostly small batches, sometimes one event, sometimes most. */
			size_t step = 1 + (size_t)rand() % (round % 4 == 3 ? ev.n : 40);
			size_t to = from + step < ev.n ? from + step : ev.n;
			add_batch(s, &ev, from, to);
			from = to;
			struct model m;
			if (rand() % 8 == 0 && trace_stream_model(s, NULL, &m, &err))
				model_free(&m);
		}
		char how[32];
		snprintf(how, sizeof(how), "round %d", round);
		struct model m;
		bool built = trace_stream_finish(s, NULL, &m, &err);
		CHECK_MSG(built, "%s: %s", how, err.message);
		if (built) {
			same_models(&whole, &m, how);
			model_free(&m);
		}
	}
	free_events(&ev);
	model_free(&whole);
}

/* ---- the live view's fold ---------------------------------------- */

/* Self time and samples per function name under the exact rule. */
static void check_live_against(struct model *live, struct model *whole, const char *how)
{
	struct rules rl, rw;
	rules_init(&rl, live);
	rules_init(&rw, whole);
	const struct totals *tl = rules_totals(&rl, RULE_EXACT, 0);
	const struct totals *tw = rules_totals(&rw, RULE_EXACT, 0);
	size_t wrong = 0;
	for (uint32_t f = 0; f < whole->nframes; f++) {
		uint32_t g = NO_ID;
		for (uint32_t k = 0; k < live->nframes && g == NO_ID; k++)
			if (!strcmp(model_str(live, live->frames[k].name),
				    model_str(whole, whole->frames[f].name)) &&
			    live->frames[k].line == whole->frames[f].line &&
			    live->frames[k].column == whole->frames[f].column &&
			    !strcmp(model_str(live, live->frames[k].url),
				    model_str(whole, whole->frames[f].url)))
				g = k;
		if (g == NO_ID || !close_enough(tl->self[g], tw->self[f]) ||
		    !close_enough(tl->total[g], tw->total[f]))
			wrong++;
	}
	CHECK_MSG(!wrong, "%s: %zu of %zu functions differ", how, wrong, (size_t)whole->nframes);
	CHECK_MSG(model_sample_count(live) == whole->nsamples, "%s: %zu samples, want %zu",
		  how, (size_t)model_sample_count(live), whole->nsamples);
	rules_free(&rl);
	rules_free(&rw);
}

/* A real trace whose chunks come in time order (Chrome 116's): fed in
 * batches and followed, the live model's numbers are the whole file's;
 * batches that bring no node give new numbers in place. */
static void live_follows(const char *dir)
{
	char path[4096];
	snprintf(path, sizeof(path), "%s/trace/chrome116-trace.json.gz", dir);
	struct model whole;
	struct load_error err;
	struct load_options opt = { .session = -1 };
	struct events ev;
	bool loaded = load_file(path, &opt, &whole, &err, NULL);
	CHECK_MSG(loaded, "%s: %s", path, err.message);
	if (!loaded || !read_events(path, &ev))
		return;
	struct trace_stream *s = trace_stream_new();
	struct trace_live *l = trace_live_new();
	struct model models[2];
	int shown = -1;
	size_t in_place = 0, rebuilt = 0;
	char why[256];
	for (size_t from = 0; from < ev.n; from += 7) {
		add_batch(s, &ev, from, from + 7 < ev.n ? from + 7 : ev.n);
		trace_live_update(l, s);
		int next = shown < 0 ? 0 : 1 - shown;
		enum trace_live_change c = trace_live_model(l, shown < 0 ? NULL : &models[shown],
							    &models[next], why, sizeof(why));
		if (c == TRACE_LIVE_MODEL) {
			if (shown >= 0)
				model_free(&models[shown]);
			shown = next;
			rebuilt++;
		}
		in_place += c == TRACE_LIVE_VALUES;
	}
	CHECK_MSG(in_place > 0 && rebuilt > 0, "%zu in place, %zu rebuilt", in_place, rebuilt);
	CHECK(shown >= 0);
	if (shown >= 0) {
		check_live_against(&models[shown], &whole, "live");
		model_free(&models[shown]);
	}
	trace_live_free(l);
	trace_stream_free(s);
	free_events(&ev);
	model_free(&whole);
}

/* ---- the live fold's timeline, worked by hand ------------------------ */

/* A batch of one ProfileChunk of profile 0x1 (with the thread's name and
 * the Profile event, and nodes (root) 1, a 2 under it, b 3 under a, when
 * `first`); `data` is the chunk's data object without its braces. */
static void add_chunk(struct trace_stream *s, bool first, const char *data)
{
	size_t cap = strlen(data) + 1024;
	char *text = xmalloc(cap);
	snprintf(text, cap,
		 "[%s{\"name\":\"ProfileChunk\",\"ph\":\"P\",\"id\":\"0x1\",\"pid\":1,"
		 "\"tid\":7,\"ts\":2,\"args\":{\"data\":{%s%s}}}]",
		 first ? "{\"name\":\"thread_name\",\"ph\":\"M\",\"pid\":1,\"tid\":1,"
			 "\"args\":{\"name\":\"CrRendererMain\"}},"
			 "{\"name\":\"Profile\",\"ph\":\"P\",\"id\":\"0x1\",\"pid\":1,"
			 "\"tid\":1,\"ts\":1,\"args\":{\"data\":{\"startTime\":0}}},"
		       : "",
		 first ? "\"cpuProfile\":{\"nodes\":["
			 "{\"id\":1,\"callFrame\":{\"functionName\":\"(root)\"}},"
			 "{\"id\":2,\"parent\":1,\"callFrame\":{\"functionName\":\"a\"}},"
			 "{\"id\":3,\"parent\":2,\"callFrame\":{\"functionName\":\"b\"}}]},"
		       : "",
		 data);
	struct load_error err;
	CHECK_MSG(trace_stream_add(s, text, strlen(text), &err), "chunk: %s", err.message);
	free(text);
}

static const char *leaf_name(const struct model *m, size_t sample)
{
	return model_str(m, m->frames[m->nodes[m->sample_node[sample]].frame].name);
}

/* The model's samples as "a200 b300 …" (leaf, duration in µs). */
static void check_samples(const struct model *m, const char *want, const char *how)
{
	char got[1024] = "";
	size_t at = 0;
	for (size_t i = 0; i < m->nsamples && at < sizeof(got) - 40; i++)
		at += (size_t)snprintf(got + at, sizeof(got) - at, "%s%s%g", i ? " " : "",
				       leaf_name(m, i), m->sample_duration[i]);
	CHECK_MSG(!strcmp(got, want) && (m->caps & HAS_TIMELINE), "%s: samples %s, want %s",
		  how, got, want);
}

/* Samples a b b a at 100, 300, 600, 1000 µs (deltas 100 200 300 400):
 * each lasts until the next, the last (no end yet) nothing.  Then b a
 * whose deltas -50 250 put a late b at 950, before the a at 1000, and an
 * a at 1200; then the profile's endTime 1500.  The range of samples 1..3
 * (b b b) holds b's 300 + 350 + 50 µs in 3 samples and nothing of a. */
static void live_timeline_by_hand(void)
{
	struct trace_stream *s = trace_stream_new();
	struct trace_live *l = trace_live_new();
	struct model first, second;
	char why[256];
	add_chunk(s, true, "\"cpuProfile\":{\"samples\":[2,3,3,2]},"
			   "\"timeDeltas\":[100,200,300,400]");
	trace_live_update(l, s);
	CHECK(trace_live_model(l, NULL, &first, why, sizeof(why)) == TRACE_LIVE_MODEL);
	check_samples(&first, "a200 b300 b400 a0", "first batch");
	CHECK_CLOSE(nodes_self(&first, "a", 0), 200, "a's self, first batch");
	CHECK_CLOSE(nodes_self(&first, "b", 0), 700, "b's self, first batch");

	add_chunk(s, false, "\"cpuProfile\":{\"samples\":[3,2]},\"timeDeltas\":[-50,250]");
	trace_live_update(l, s);
	CHECK(trace_live_model(l, &first, &second, why, sizeof(why)) == TRACE_LIVE_VALUES);
	check_samples(&first, "a200 b300 b350 b50 a200 a0", "a late sample");
	CHECK_CLOSE(nodes_self(&first, "a", 0), 400, "a's self, second batch");
	CHECK_CLOSE(nodes_self(&first, "b", 0), 700, "b's self, second batch");
	CHECK_CLOSE(nodes_self(&first, "a", 1), 3, "a's samples, second batch");

	add_chunk(s, false, "\"endTime\":1500");
	trace_live_update(l, s);
	CHECK(trace_live_model(l, &first, &second, why, sizeof(why)) == TRACE_LIVE_VALUES);
	check_samples(&first, "a200 b300 b350 b50 a200 a300", "the end");
	CHECK_CLOSE(nodes_self(&first, "a", 0), 700, "a's self at the end");

	struct model view;
	const char *why_not = NULL;
	bool made = range_view_make(&first, (struct sample_range){ 1, 4 }, NULL, &view, &why_not);
	CHECK_MSG(made, "range view: %s", why_not ? why_not : "?");
	if (made) {
		CHECK_CLOSE(nodes_self(&view, "b", 0), 700, "b's time in samples 1..3");
		CHECK_CLOSE(nodes_self(&view, "b", 1), 3, "b's samples in samples 1..3");
		CHECK_CLOSE(nodes_self(&view, "a", 0), 0, "a's time in samples 1..3");
		model_free(&view);
	}
	model_free(&first);
	trace_live_free(l);
	trace_stream_free(s);
}

/* `n` samples, a and b in turn 10 µs apart (deltas 10), as one chunk's
 * data. */
static char *alternating(size_t n, bool first_chunk)
{
	char *text = xmalloc(n * 8 + 100), *at = text;
	at += sprintf(at, "\"cpuProfile\":{\"samples\":[");
	for (size_t i = 0; i < n; i++)
		at += sprintf(at, "%s%d", i ? "," : "", 2 + (int)(i % 2));
	at += sprintf(at, "]},\"timeDeltas\":[");
	for (size_t i = 0; i < n; i++)
		at += sprintf(at, "%s%d", i ? "," : "", first_chunk && !i ? 0 : 10);
	sprintf(at, "]");
	return text;
}

/* Past the 256 samples kept unsettled, settled ones are appended in
 * place: 600 samples in batches of 50, a b a b … 10 µs each (the last
 * nothing yet), 300 each.  Past LIVE_TIMELINE_ENTRIES (W) settled ones
 * the oldest leave, in place: the model holds the newest W settled and
 * the 256 pending, its numbers still every sample's. */
static void live_timeline_bound(void)
{
	struct trace_stream *s = trace_stream_new();
	struct trace_live *l = trace_live_new();
	struct model models[2];
	int shown = -1;
	char why[256];
	for (size_t batch = 0; batch < 12; batch++) {
		char *data = alternating(50, batch == 0);
		add_chunk(s, batch == 0, data);
		free(data);
		trace_live_update(l, s);
		enum trace_live_change c = trace_live_model(l, shown < 0 ? NULL : &models[0],
							    &models[0], why, sizeof(why));
		CHECK_MSG(c == (shown < 0 ? TRACE_LIVE_MODEL : TRACE_LIVE_VALUES),
			  "batch %zu: change %d", batch, (int)c);
		shown = 0;
	}
	struct model *m = &models[0];
	bool alternate = m->nsamples == 600;
	for (size_t i = 0; i < m->nsamples && alternate; i++)
		alternate = !strcmp(leaf_name(m, i), i % 2 ? "b" : "a") &&
			    m->sample_duration[i] == (i + 1 < 600 ? 10 : 0);
	CHECK_MSG(alternate, "600 samples a b a b … lasting 10 µs: %zu", m->nsamples);
	CHECK_CLOSE(nodes_self(m, "a", 0), 3000, "a's self over 600 samples");
	CHECK_CLOSE(nodes_self(m, "b", 0), 2990, "b's self over 600 samples");

	size_t more = LIVE_TIMELINE_ENTRIES;
	char *data = alternating(more, false);
	add_chunk(s, false, data);
	free(data);
	trace_live_update(l, s);
	CHECK(trace_live_model(l, m, &models[1], why, sizeof(why)) == TRACE_LIVE_VALUES);
	/* 600 + W samples, W + 344 settled: 344 (3440 µs) have left. */
	CHECK_MSG(m->nsamples == more + 256 && m->live.samples_before == 344 &&
			  model_sample_count(m) == 600 + more && (m->caps & HAS_TIMELINE),
		  "past the window: %zu samples held after %zu", m->nsamples,
		  m->live.samples_before);
	CHECK_CLOSE(m->live.time_before, 3440, "the time before the window");
	/* Sample j held is sample 344 + j: a b a b … 10 µs, the last 0. */
	alternate = m->nsamples == more + 256;
	for (size_t i = 0; i < m->nsamples && alternate; i++)
		alternate = !strcmp(leaf_name(m, i), i % 2 ? "b" : "a") &&
			    m->sample_duration[i] == (i + 1 < m->nsamples ? 10 : 0);
	CHECK_MSG(alternate, "the window is not the newest samples in order");
	/* Every sample's: (600 + W) / 2 of a, 10 µs each; b the same but the
	 * last, 0. */
	double half = (600.0 + more) / 2;
	CHECK_CLOSE(nodes_self(m, "a", 0), half * 10, "a: every sample's time");
	CHECK_CLOSE(nodes_self(m, "b", 0), half * 10 - 10, "b: every sample's time");
	CHECK_CLOSE(nodes_self(m, "a", 1), half, "a: every sample");
	struct model view;
	const char *why_not = NULL;
	CHECK(range_view_make(m, (struct sample_range){ 0, m->nsamples }, NULL, &view, &why_not));
	double in = (more + 256.0) / 2; /* a's and b's samples in the window */
	CHECK_CLOSE(nodes_self(&view, "a", 0), in * 10, "a in a range over the window");
	CHECK_CLOSE(nodes_self(&view, "b", 0), in * 10 - 10, "b in a range over the window");
	CHECK_CLOSE(nodes_self(&view, "b", 1), in, "b's samples in the range");
	CHECK(view.start_time == m->start_time + 3440); /* where the window starts */
	model_free(&view);
	/* Another W: the model stays at the bound. */
	data = alternating(more, false);
	add_chunk(s, false, data);
	free(data);
	trace_live_update(l, s);
	CHECK(trace_live_model(l, m, &models[1], why, sizeof(why)) == TRACE_LIVE_VALUES);
	CHECK(m->nsamples == more + 256 && m->live.samples_before == 344 + more);
	CHECK_CLOSE(m->live.time_before, (344.0 + more) * 10, "the time before, again");
	model_free(&models[0]);
	trace_live_free(l);
	trace_stream_free(s);
}

/* The shared window itself: 10 007 samples (sample i: stack i % 5,
 * lasting i µs) through a window of 1000.  It holds samples 9007 …
 * 10 006 in order in 1000 entries, never more memory; the 9007 gone took
 * 0 + 1 + … + 9006 = 9006 · 9007 / 2 µs.  A copy that follows it now and
 * then (every 333 samples, then once after 3013 more: more than the
 * window) ends the same. */
static void window_bound(void)
{
	struct bounded_timeline t = BOUNDED_TIMELINE_INIT, copy = BOUNDED_TIMELINE_INIT;
	const size_t window = 1000, n = 10007;
	for (size_t i = 0; i < n; i++) {
		bounded_timeline_add(&t, (uint32_t)(i % 5), (double)i, window);
		CHECK(t.cap <= window && t.n <= window);
		if (i % 333 == 0 && i < 7000)
			bounded_timeline_follow(&copy, &t, window);
	}
	bounded_timeline_follow(&copy, &t, window);
	const struct bounded_timeline *both[] = { &t, &copy };
	for (size_t k = 0; k < 2; k++) {
		const struct bounded_timeline *w = both[k];
		CHECK(w->n == window && w->cap == window && w->dropped == n - window);
		CHECK(bounded_timeline_total(w) == n && !bounded_timeline_exact(w));
		CHECK_CLOSE(w->dropped_duration, 9006.0 * 9007 / 2, "the time gone");
		bool in_order = true;
		for (size_t i = 0; i < window && in_order; i++) {
			const struct timeline_entry *e = bounded_timeline_at(w, i);
			in_order = e->duration == (double)(n - window + i) &&
				   e->stack == (n - window + i) % 5;
		}
		CHECK_MSG(in_order, "window %zu: not samples 9007 … 10006 in order", k);
	}
	bounded_timeline_free(&t);
	bounded_timeline_free(&copy);
}

/* The stream drops what the fold took (an inspector session): 12
 * batches of 50 samples a b a b … 10 µs apart, then one of W.  After each
 * batch the stream holds none of the profile's samples (all folded), but
 * counts them all; the session's model is every sample's: (600 + W) / 2
 * of a, 10 µs each, b the same but the last (0: no endTime), and it has
 * no timeline once samples have left the window, saying so. */
static void live_drops_taken(void)
{
	struct trace_stream *s = trace_stream_new();
	struct trace_live *l = trace_live_new();
	size_t more = LIVE_TIMELINE_ENTRIES;
	for (size_t batch = 0; batch < 13; batch++) {
		char *data = alternating(batch < 12 ? 50 : more, batch == 0);
		add_chunk(s, batch == 0, data);
		free(data);
		trace_live_update(l, s);
		trace_live_drop_taken(l, s);
		const struct trace_profile *p = &trace_stream_trace(s)->profiles[0];
		size_t sent = batch < 12 ? 50 * (batch + 1) : 600 + more;
		CHECK_MSG(p->data.nsamples == 0 && p->nchunks == 0 && p->dropped == sent &&
				  trace_stream_samples(s) == sent,
			  "batch %zu: %zu held, %zu chunks, %zu dropped", batch, p->data.nsamples,
			  p->nchunks, p->dropped);
	}
	struct model m;
	char why[256];
	CHECK(trace_live_session_model(l, &m, why, sizeof(why)));
	double half = (600.0 + more) / 2;
	CHECK_CLOSE(nodes_self(&m, "a", 0), half * 10, "a: every sample's time");
	CHECK_CLOSE(nodes_self(&m, "b", 0), half * 10 - 10, "b: every sample's time");
	CHECK_CLOSE(nodes_self(&m, "b", 1), half, "b: every sample");
	CHECK(!(m.caps & HAS_TIMELINE) && m.warning != STR_NONE &&
	      strstr(model_str(&m, m.warning), "summed per stack"));
	model_free(&m);
	trace_live_free(l);
	trace_stream_free(s);
}

int main(int argc, char **argv)
{
	const char *dir = argc > 1 ? argv[1] : "testdata";
	hand_every_cut(dir);
	window_bound();
	hand_partial(dir);
	bad_batches();
	chrome_random_cuts(dir);
	live_follows(dir);
	live_timeline_by_hand();
	live_timeline_bound();
	live_drops_taken();
	return check_done();
}
