/* What the pprof loader keeps beyond the numbers: sample labels (as `go
 * tool pprof -raw testdata/heap.pprof` lists them: 25 samples carry a
 * "bytes" label, one of them 65536), inlined frames, sample types with
 * their units, and the profile's metadata. */
#include <string.h>

#include "tests/check.h"
#include "loaders/loaders.h"
#include "base/util.h"

static bool load(const char *dir, const char *name, struct model *m)
{
	char path[1024];
	snprintf(path, sizeof(path), "%s/%s", dir, name);
	struct load_options opt = { .session = -1 };
	struct load_error err;
	if (!load_file(path, &opt, m, &err, NULL)) {
		fprintf(stderr, "%s: %s\n", path, err.message);
		return false;
	}
	return true;
}

static void check_heap(const char *dir)
{
	struct model m;
	CHECK(load(dir, "heap.pprof", &m));
	if (!m.finished)
		return;
	CHECK(!strcmp(m.format, "pprof"));
	CHECK(m.ntypes == 4);
	CHECK(!strcmp(model_str(&m, m.types[1].name), "alloc_space"));
	CHECK(!strcmp(model_str(&m, m.types[1].unit), "bytes"));
	CHECK(!strcmp(model_str(&m, m.types[0].unit), "count"));
	CHECK(m.default_type == 3); /* none named: the last, inuse_space */
	CHECK(m.period == 4096); /* -raw: "PeriodType: space bytes", "Period: 4096" */
	size_t bytes_labels = 0, big_blocks = 0;
	for (size_t i = 0; i < m.nlabels; i++) {
		if (strcmp(model_str(&m, m.labels[i].key), "bytes"))
			continue;
		bytes_labels++;
		/* main.big's 40 objects of 64 KiB: "bytes:[65536]" */
		if (m.labels[i].num == 65536 && m.labels[i].str == STR_NONE)
			big_blocks++;
	}
	CHECK(bytes_labels == 25);
	CHECK(big_blocks == 1);
	model_free(&m);
}

static void check_inline(const char *dir)
{
	struct model m;
	CHECK(load(dir, "inline.pprof", &m));
	if (!m.finished)
		return;
	CHECK(m.caps & HAS_STACKS);
	CHECK(!strcmp(model_str(&m, m.types[m.default_type].unit), "us"));
	/* -top prints "Duration: 902.10ms": good to 5 microseconds */
	CHECK(fabs(m.duration - 902100.0) <= 5);
	int found = 0;
	for (uint32_t f = 0; f < m.nframes; f++) {
		const char *name = model_str(&m, m.frames[f].name);
		bool inlined = m.frames[f].flags & FRAME_INLINED;
		if (!strcmp(name, "main.mix (inline)"))
			found += inlined ? 1 : 100;
		if (!strcmp(name, "main.hash"))
			found += inlined ? 100 : 1;
	}
	CHECK(found == 2);
	model_free(&m);
}

int main(int argc, char **argv)
{
	const char *dir = argc > 1 ? argv[1] : "testdata";
	check_heap(dir);
	check_inline(dir);
	return check_done();
}
