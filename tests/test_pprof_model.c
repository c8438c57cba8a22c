/* What the pprof loader keeps beyond the numbers: sample labels (as `go
 * tool pprof -raw testdata/heap.pprof` lists them: 25 samples carry a
 * "bytes" label, one of them 65536), inlined frames, sample types with
 * their units, and the profile's metadata. */
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "tests/check.h"
#include "loaders/loaders.h"
#include "output/export.h"
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

/* name exported to pprof in tmp and read back. */
static bool exported(const char *dir, const char *name, const char *tmp, struct model *back)
{
	struct model m;
	char out[1024], err[256];
	snprintf(out, sizeof(out), "%s/%s.pb.gz", tmp, name);
	if (!load(dir, name, &m))
		return false;
	bool ok = export_model(&m, m.default_type, EXPORT_PPROF, out, stderr, err, sizeof(err));
	CHECK_MSG(ok, "%s: %s", name, err);
	model_free(&m);
	return ok && load(tmp, strrchr(out, '/') + 1, back);
}

/* An export's time_nanos and main mapping, read back: heap.pprof's own
 * (go tool pprof -top: "File: heapdemo", "Time: Nov 21, 2026 at 9:55pm
 * (UTC)", the minute from 1795298100 s); a .cpuprofile, whose clock
 * starts at boot, began its duration (endTime - startTime, 908005 us)
 * before its file was written. */
static void check_export_header(const char *dir)
{
	char tmp[] = "/tmp/wprof-pprof-model-XXXXXX";
	CHECK(mkdtemp(tmp) != NULL);
	struct model back;
	if (exported(dir, "heap.pprof", tmp, &back)) {
		const char *file = model_str(&back, back.main_binary);
		size_t n = strlen(file);
		CHECK_MSG(n >= 8 && !strcmp(file + n - 8, "heapdemo"), "main binary '%s'", file);
		CHECK(back.wall_start >= 1795298100e6 && back.wall_start < 1795298160e6);
		model_free(&back);
	}
	char copy[1024], cmd[2048];
	snprintf(copy, sizeof(copy), "%s/validate.cpuprofile", tmp);
	snprintf(cmd, sizeof(cmd), "cp '%s/validate.cpuprofile' '%s'", dir, copy);
	CHECK(system(cmd) == 0);
	struct timespec when[2] = { { 1785000000, 0 }, { 1785000000, 0 } };
	CHECK(utimensat(AT_FDCWD, copy, when, 0) == 0);
	if (exported(tmp, "validate.cpuprofile", tmp, &back)) {
		CHECK_MSG(fabs(back.wall_start - (1785000000e6 - 908005)) <= 1,
			  "wall start %.0f", back.wall_start);
		CHECK(!strcmp(model_str(&back, back.main_binary), ""));
		model_free(&back);
	}
	snprintf(cmd, sizeof(cmd), "rm -r '%s'", tmp);
	CHECK(system(cmd) == 0);
}

int main(int argc, char **argv)
{
	const char *dir = argc > 1 ? argv[1] : "testdata";
	check_heap(dir);
	check_inline(dir);
	check_export_header(dir);
	return check_done();
}
