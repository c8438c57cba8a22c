/* loaders/cpuprofile_tail: the thread that reads a .cpuprofile's
 * "samples" and "timeDeltas" ahead reads what the JSON says (offsets and
 * values worked out from the text here), gives up on what it must leave
 * to the loader, and never changes what loads: every .cpuprofile of
 * testdata/ and each file below loads to the same model, or fails with
 * the same message, with it and without it (load_options.one_thread). */
#include <dirent.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "base/util.h"
#include "check.h"
#include "loaders/cpuprofile_tail.h"
#include "loaders/loaders.h"

/* ---- the reader itself ---------------------------------------------- */

/* The thread's reading of `text`, for the checks below to look at. */
static void read_ahead(const char *text, struct cpuprofile_tail *t, struct input *in)
{
	input_from_memory(in, text, strlen(text), "test");
	tail_start(t, in, NULL, NULL);
}

static uint64_t offset_of(const char *text, const char *part)
{
	const char *at = strstr(text, part);
	return at ? (uint64_t)(at - text) : UINT64_MAX;
}

static void check_read_ahead(void)
{
	const char *text = "{\"nodes\":[{\"id\":1,\"callFrame\":{\"functionName\":\"(root)\"}}],"
			   "\"samples\" : [ 1, 7 ,4294967294\n],\t\"timeDeltas\":[5,-1.5e0,2.25],"
			   "\"endTime\":9}";
	struct cpuprofile_tail t;
	struct input in;
	read_ahead(text, &t, &in);
	uint64_t samples_at = offset_of(text, "\"samples\"");
	uint64_t deltas_at = offset_of(text, "\"timeDeltas\"");
	CHECK(!tail_array_at(&t, TAIL_SAMPLES, samples_at + 1));
	struct tail_array *s = tail_array_at(&t, TAIL_SAMPLES, samples_at);
	CHECK(s && s->n == 3 && s->ids[0] == 1 && s->ids[1] == 7 && s->ids[2] == 4294967294u);
	CHECK(s && s->end == offset_of(text, "],\t") + 1);
	struct tail_array *d = tail_array_at(&t, TAIL_DELTAS, deltas_at);
	CHECK(d && d->n == 3 && d->values[0] == 5 && d->values[1] == -1.5 && d->values[2] == 2.25);
	CHECK(d && d->largest == 5 && d->end == offset_of(text, ",\"endTime\""));
	tail_free(&t);
	input_close(&in);
}

/* Elements spaced out, far from the end of the bytes at hand. */
static void check_spaced_out(void)
{
	char text[4096];
	size_t at = (size_t)sprintf(text, "{\"samples\":[");
	for (int i = 0; i < 200; i++)
		at += (size_t)sprintf(text + at, "%s%d", i ? (i % 3 ? ", " : " ,\n ") : "", i);
	sprintf(text + at, "],\"timeDeltas\":[1]}");
	struct cpuprofile_tail t;
	struct input in;
	read_ahead(text, &t, &in);
	struct tail_array *s = tail_array_at(&t, TAIL_SAMPLES, offset_of(text, "\"samples\""));
	CHECK(s && s->n == 200 && s->ids[0] == 0 && s->ids[1] == 1 && s->ids[199] == 199);
	tail_free(&t);
	input_close(&in);
}

/* Integers of every length, each with the value its digits say (the
 * usual ones are read eight bytes at once, longer ones another way). */
static void check_every_length(void)
{
	char text[1024];
	int64_t want[12];
	size_t at = (size_t)sprintf(text, "{\"samples\":[");
	for (int i = 0; i < 10; i++)
		at += (size_t)sprintf(text + at, "%s%lld", i ? "," : "",
				      (long long)(want[i] = i ? want[i - 1] * 10 + (i + 1) % 10 : 1));
	at += (size_t)sprintf(text + at, "],\"timeDeltas\":[");
	for (int i = 0; i < 12; i++)
		at += (size_t)sprintf(text + at, "%s%lld", i ? "," : "",
				      (long long)(i % 2 ? -want[i < 10 ? i : 9] : 7 * (i + 1)));
	sprintf(text + at, "],\"endTime\":1}");
	struct cpuprofile_tail t;
	struct input in;
	read_ahead(text, &t, &in);
	struct tail_array *s = tail_array_at(&t, TAIL_SAMPLES, offset_of(text, "\"samples\""));
	struct tail_array *d = tail_array_at(&t, TAIL_DELTAS, offset_of(text, "\"timeDeltas\""));
	CHECK(s && s->n == 10 && d && d->n == 12);
	for (int i = 0; s && i < 10; i++)
		CHECK_MSG(s->ids[i] == (uint32_t)want[i], "id %d: %u, want %lld", i, s->ids[i],
			  (long long)want[i]);
	for (int i = 0; d && i < 12; i++) {
		double w = (double)(i % 2 ? -want[i < 10 ? i : 9] : 7 * (i + 1));
		CHECK_MSG(d->values[i] == w, "delta %d: %.0f, want %.0f", i, d->values[i], w);
	}
	tail_free(&t);
	input_close(&in);
}

/* Where the thread stops, the loader reads on: the arrays it cannot
 * take whole are not offered. */
static void check_left_to_the_loader(void)
{
	static const struct {
		const char *what, *text;
		bool samples, deltas;
	} cases[] = {
		{ "a negative id", "{\"samples\":[1,-2],\"timeDeltas\":[1,1]}", false, false },
		{ "an id past 32 bits", "{\"samples\":[4294967295],\"timeDeltas\":[1]}", false, false },
		{ "a fraction", "{\"samples\":[1.5],\"timeDeltas\":[1]}", false, false },
		{ "a string", "{\"samples\":[1],\"timeDeltas\":[1,\"2\"]}", true, false },
		{ "a trailing comma", "{\"samples\":[1,],\"timeDeltas\":[1]}", false, false },
		{ "cut short", "{\"samples\":[1,2],\"timeDeltas\":[1,2", true, false },
		{ "deltas first", "{\"timeDeltas\":[1],\"samples\":[3]}", true, false },
		{ "empty arrays", "{\"samples\":[ ],\"timeDeltas\":[]}", true, true },
		{ "no samples", "{\"timeDeltas\":[1]}", false, false },
	};
	for (size_t i = 0; i < ARRAY_LEN(cases); i++) {
		const char *text = cases[i].text;
		struct cpuprofile_tail t;
		struct input in;
		read_ahead(text, &t, &in);
		bool samples = tail_array_at(&t, TAIL_SAMPLES, offset_of(text, "\"samples\""));
		bool deltas = tail_array_at(&t, TAIL_DELTAS, offset_of(text, "\"timeDeltas\""));
		CHECK_MSG(samples == cases[i].samples && deltas == cases[i].deltas,
			  "%s: samples %s, deltas %s", cases[i].what, samples ? "read" : "left",
			  deltas ? "read" : "left");
		tail_free(&t);
		input_close(&in);
	}
}

/* ---- the same model either way -------------------------------------- */

static bool same_strings(const struct model *a, str_t x, const struct model *b, str_t y)
{
	return !strcmp(model_str(a, x), model_str(b, y));
}

static bool same_frames(const struct model *a, const struct model *b)
{
	if (a->nframes != b->nframes)
		return false;
	for (size_t f = 0; f < a->nframes; f++) {
		const struct frame *x = &a->frames[f], *y = &b->frames[f];
		if (!same_strings(a, x->name, b, y->name) || !same_strings(a, x->url, b, y->url) ||
		    x->line != y->line || x->column != y->column || x->kind != y->kind)
			return false;
	}
	return true;
}

static bool same_arrays(const void *x, const void *y, size_t bytes)
{
	return bytes == 0 || !memcmp(x, y, bytes);
}

static bool same_model(const struct model *a, const struct model *b)
{
	return !strcmp(a->format, b->format) && same_frames(a, b) && a->nnodes == b->nnodes &&
	       a->nsamples == b->nsamples && a->ntypes == b->ntypes &&
	       same_arrays(a->nodes, b->nodes, a->nnodes * sizeof(*a->nodes)) &&
	       same_arrays(a->child_ids, b->child_ids,
			   a->parents_start[a->nnodes] * sizeof(*a->child_ids)) &&
	       same_arrays(a->node_self, b->node_self, a->nnodes * a->ntypes * sizeof(double)) &&
	       same_arrays(a->sample_node, b->sample_node, a->nsamples * sizeof(uint32_t)) &&
	       same_arrays(a->sample_duration, b->sample_duration,
			   a->nsamples * sizeof(double)) &&
	       a->nline_ticks == b->nline_ticks &&
	       same_arrays(a->line_ticks, b->line_ticks,
			   a->nline_ticks * sizeof(*a->line_ticks)) &&
	       a->start_time == b->start_time && a->end_time == b->end_time &&
	       a->duration == b->duration && a->sample_time == b->sample_time &&
	       same_strings(a, a->warning, b, b->warning);
}

/* Loads `what` both ways (`load` does it with the options given): the
 * same model or the same message. */
static void check_both_ways(const char *what,
			    bool (*load)(const void *ctx, const struct load_options *opt,
					 struct model *m, struct load_error *err),
			    const void *ctx)
{
	struct load_options ahead = { .session = -1 }, alone = { .session = -1, .one_thread = true };
	struct model m1, m2;
	struct load_error e1, e2;
	bool ok1 = load(ctx, &ahead, &m1, &e1), ok2 = load(ctx, &alone, &m2, &e2);
	CHECK_MSG(ok1 == ok2, "%s: loads %s with the thread, %s without", what,
		  ok1 ? "well" : "not", ok2 ? "well" : "not");
	if (ok1 && ok2)
		CHECK_MSG(same_model(&m1, &m2), "%s: another model with the thread", what);
	if (!ok1 && !ok2)
		CHECK_MSG(!strcmp(e1.message, e2.message), "%s: '%s' with the thread, '%s' without",
			  what, e1.message, e2.message);
	if (ok1)
		model_free(&m1);
	if (ok2)
		model_free(&m2);
}

static bool load_path(const void *path, const struct load_options *opt, struct model *m,
		      struct load_error *err)
{
	return load_file(path, opt, m, err, NULL);
}

static bool load_text(const void *text, const struct load_options *opt, struct model *m,
		      struct load_error *err)
{
	return load_memory(text, strlen(text), "test", opt, m, err);
}

/* Every .cpuprofile under dir, read from its file. */
static size_t check_files_under(const char *dir)
{
	DIR *d = opendir(dir);
	size_t n = 0;
	if (!d)
		return 0;
	for (struct dirent *e; (e = readdir(d));) {
		char path[1024];
		size_t len = strlen(e->d_name);
		if (e->d_name[0] == '.')
			continue;
		snprintf(path, sizeof(path), "%s/%s", dir, e->d_name);
		if (e->d_type == DT_DIR) {
			n += check_files_under(path);
		} else if (len > 11 && !strcmp(e->d_name + len - 11, ".cpuprofile")) {
			check_both_ways(path, load_path, path);
			n++;
		}
	}
	closedir(d);
	return n;
}

/* Files where the thread's reading and the loader's meet in every way:
 * taken, given up half way, a nested key last, an id that names no
 * node, samples before the nodes, errors after the arrays. */
static void check_documents(void)
{
#define NODES "\"nodes\":[{\"id\":1,\"callFrame\":{\"functionName\":\"(root)\"},\"children\":[2]}," \
	      "{\"id\":2,\"callFrame\":{\"functionName\":\"f\",\"url\":\"a.js\",\"lineNumber\":3}}]"
	static const char *const documents[] = {
		"{" NODES ",\"startTime\":10,\"endTime\":40,\"samples\":[2,1,2],\"timeDeltas\":[5,10,-2]}",
		"{" NODES ",\"samples\":[2,1,2],\"timeDeltas\":[5,10,-2],\"meta\":{\"samples\":[1]}}",
		"{" NODES ",\"samples\":[2,3,2],\"timeDeltas\":[5,10,20]}",
		"{" NODES ",\"samples\":[2,1,2],\"timeDeltas\":[5,10,2e13]}",
		"{" NODES ",\"samples\":[2,1,2],\"timeDeltas\":[5,10]}",
		"{" NODES ",\"samples\":[2,1,2],\"timeDeltas\":[5,10,1]",
		"{" NODES ",\"samples\":[2,1,2],\"timeDeltas\":[5,10,1]}x",
		"{" NODES ",\"samples\":[2,1,2],\"samples\":[1],\"timeDeltas\":[5,10,1]}",
		"{" NODES ",\"timeDeltas\":[1,2],\"timeDeltas\":[3],\"samples\":[2,1,2]}",
		"{\"samples\":[2,1,2],\"timeDeltas\":[5,10,1]," NODES "}",
		"{" NODES ",\"samples\":[2,1,2],\"timeDeltas\":[5,10,1],\"samples\":[1,1,1]}",
		"{" NODES ",\"samples\":[]}",
		"{\"nodes\":[{\"id\":1,\"callFrame\":{\"functionName\":\"(root)\"},\"children\":[2]},"
		"{\"id\":2,\"callFrame\":{\"functionName\":\"(root)\"},\"children\":[1]}],"
		"\"samples\":[2,1],\"timeDeltas\":[1,1]}",
	};
	for (size_t i = 0; i < ARRAY_LEN(documents); i++) {
		char what[32];
		snprintf(what, sizeof(what), "document %zu", i);
		check_both_ways(what, load_text, documents[i]);
	}
#undef NODES
}

/* A file over a few chunks whose "samples" key a chunk's edge cuts in
 * two, as the search from the end meets it, with numbers cut by the
 * chunks the arrays are read in. */
static void check_key_across_chunks(void)
{
	const size_t tail_len = INPUT_CHUNK + 3; /* from the key to the end */
	char *text = xmalloc(3 * INPUT_CHUNK);
	int head = snprintf(text, 3 * INPUT_CHUNK,
			    "{\"nodes\":[{\"id\":1,\"callFrame\":{\"functionName\":\"(root)\"},"
			    "\"children\":[2]},{\"id\":2,\"callFrame\":{\"functionName\":\"g\"}}],"
			    "\"startTime\":0,\"endTime\":1e9,\"pad\":\"");
	size_t at = (size_t)head;
	memset(text + at, 'x', INPUT_CHUNK / 2);
	at += INPUT_CHUNK / 2;
	at += (size_t)sprintf(text + at, "\",");
	size_t key_at = at;
	at += (size_t)sprintf(text + at, "\"samples\":[");
	size_t n = 0;
	for (; at < key_at + tail_len / 4; n++)
		at += (size_t)sprintf(text + at, "%s%zu", n ? "," : "", 1 + n % 2);
	at += (size_t)sprintf(text + at, "],\"timeDeltas\":[");
	for (size_t i = 0; i < n; i++)
		at += (size_t)sprintf(text + at, "%s%zu", i ? "," : "", 100 + i % 7);
	size_t close_at = key_at + tail_len - 2;
	CHECK(at <= close_at);
	memset(text + at, ' ', close_at - at);
	memcpy(text + close_at, "]}", 3);
	size_t size = close_at + 2;
	char path[] = "/tmp/wprof-tail-XXXXXX";
	int fd = mkstemp(path);
	CHECK(fd >= 0 && write(fd, text, size) == (ssize_t)size);
	close(fd);

	struct input in;
	CHECK(input_open(&in, path));
	struct cpuprofile_tail t;
	tail_start(&t, &in, NULL, NULL);
	CHECK(size - key_at == INPUT_CHUNK + 3);
	struct tail_array *s = tail_array_at(&t, TAIL_SAMPLES, key_at);
	CHECK(s && s->n == n && s->ids[0] == 1 && s->ids[n - 1] == 1 + (n - 1) % 2);
	uint64_t deltas_at = (uint64_t)(strstr(text + key_at, "\"timeDeltas\"") - text);
	struct tail_array *d = tail_array_at(&t, TAIL_DELTAS, deltas_at);
	CHECK(d && d->n == n && d->values[n - 1] == (double)(100 + (n - 1) % 7));
	tail_free(&t);
	input_close(&in);
	check_both_ways("a key across chunks", load_path, path);
	unlink(path);
	free(text);
}

int main(int argc, char **argv)
{
	check_read_ahead();
	check_spaced_out();
	check_every_length();
	check_left_to_the_loader();
	check_documents();
	check_key_across_chunks();
	size_t files = check_files_under(argc > 1 ? argv[1] : "testdata");
	CHECK_MSG(files >= 40, "only %zu .cpuprofile files found", files);
	return check_done();
}
