#include "loaders.h"

#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>

/* In order of preference: the first whose sniff says yes loads. */
static const struct loader loaders[] = {
	/* Before cpuprofile, which takes any JSON object. */
	{ "speedscope JSON", sniff_speedscope, load_speedscope },
	/* Before cpuprofile: both are JSON objects; a Firefox Profiler file
	 * begins with "meta". */
	{ "Firefox Profiler", sniff_firefox, load_firefox },
	/* Before cpuprofile: both are JSON objects; a trace names traceEvents. */
	{ "Chrome trace", sniff_trace, load_trace },
	{ "heapprofile", sniff_heapprofile, load_heapprofile },
	{ "cpuprofile", sniff_cpuprofile, load_cpuprofile },
	{ "gmon.out", sniff_gmon, load_gmon },
	{ "WasmProf arcs", sniff_arcs, load_arcs },
	{ "xsbug stream", sniff_xsbug, load_xsbug },
	{ "gperftools CPU profile", sniff_gperftools, load_gperftools },
	{ "legacy pprof text", sniff_pprof_legacy, load_pprof_legacy },
	/* Before perf script, whose headers a "key: value" line could pass. */
	{ "callgrind.out", sniff_callgrind, load_callgrind },
	{ "perf script", sniff_perf_script, load_perf_script },
	/* After the other text formats: any "text NUMBER" line is one. */
	{ "folded stacks", sniff_folded, load_folded },
	/* Last: a raw protocol buffer is told only by how well it parses. */
	{ "pprof", sniff_pprof, load_pprof },
};

/* Formats told apart but not read, consulted only when no loader above
 * sniffs the file, so that the message says what the file seems to be
 * and, where there is one, the way to a format that is read. */
static bool looks_like_perf_data(const char *head, size_t len);

static const struct {
	const char *what;
	bool (*looks)(const char *head, size_t len);
} unread_formats[] = {
	{ "a perf.data file: run 'perf script > out.txt' and open that",
	  looks_like_perf_data },
};

static bool looks_like_perf_data(const char *head, size_t len)
{
	return len >= 8 && !memcmp(head, "PERFILE2", 8);
}

/* True when the head looks like one of them, with err saying so. */
static bool say_unread_format(const char *head, size_t len, struct load_error *err)
{
	for (size_t i = 0; i < sizeof(unread_formats) / sizeof(unread_formats[0]); i++)
		if (unread_formats[i].looks(head, len)) {
			load_fail(err, "looks like %s", unread_formats[i].what);
			return true;
		}
	return false;
}

bool load_fail(struct load_error *err, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(err->message, sizeof(err->message), fmt, ap);
	va_end(ap);
	return false;
}

bool load_vfail_at(struct load_error *err, const char *format, uint64_t at,
		   const char *fmt, va_list ap)
{
	char what[sizeof(err->message)];
	vsnprintf(what, sizeof(what), fmt, ap);
	return load_fail(err, "%s, byte %llu: %s", format, (unsigned long long)at, what);
}

bool load_fail_at(struct load_error *err, const char *format, uint64_t at,
		  const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	load_vfail_at(err, format, at, fmt, ap);
	va_end(ap);
	return false;
}

/* Byte offsets in a loader's message count the uncompressed data when
 * the input was gzip: "FORMAT, byte 12: what" says so ("FORMAT, byte 12
 * of the uncompressed data: what"), as does any other "byte N" in it,
 * unless the message already says of what. */
static void say_uncompressed(struct load_error *err)
{
	static const char note[] = " of the uncompressed data";
	char out[sizeof(err->message)];
	size_t n = 0;
	const char *s = err->message;
	while (*s && n + 1 < sizeof(out)) {
		const char *at = strstr(s, "byte ");
		if (!at)
			at = s + strlen(s);
		const char *digits = *at ? at + 5 : at;
		const char *end = digits;
		while (*end >= '0' && *end <= '9')
			end++;
		bool number = end > digits;
		if (!number && *at)
			end = digits;
		n += (size_t)snprintf(out + n, sizeof(out) - n, "%.*s", (int)(end - s), s);
		if (number && strncmp(end, " of ", 4) && n < sizeof(out))
			n += (size_t)snprintf(out + n, sizeof(out) - n, "%s", note);
		s = end;
	}
	if (n >= sizeof(out))
		n = sizeof(out) - 1;
	out[n] = '\0';
	memcpy(err->message, out, n + 1);
}

static bool pick_loader(struct input *in, const struct load_options *opt,
			struct model *m, struct load_error *err)
{
	char head[4097];
	size_t have = input_fill(in, 512);
	if (in->error[0])
		return load_fail(err, "%s", in->error);
	if (have == 0)
		return load_fail(err, in->gzip ? "the gzip data inflates to nothing"
					       : "the file is empty");
	/* The head as text, for the sniffers of formats not read.  */
	have = input_fill(in, sizeof(head) - 1);
	if (have > sizeof(head) - 1)
		have = sizeof(head) - 1;
	memcpy(head, in->buf + in->pos, have);
	head[have] = 0;
	for (size_t i = 0; i < sizeof(loaders) / sizeof(loaders[0]); i++) {
		if (!loaders[i].sniff(in->buf + in->pos, have))
			continue;
		return loaders[i].load(in, m, opt, err);
	}
	if (say_unread_format(head, have, err))
		return false;
	char tried[256] = "";
	for (size_t i = 0; i < sizeof(loaders) / sizeof(loaders[0]); i++)
		snprintf(tried + strlen(tried), sizeof(tried) - strlen(tried), "%s%s",
			 i ? ", " : "", loaders[i].name);
	return load_fail(err, "not a profile wprof-tui knows (formats: %s)", tried);
}

/* When the bytes stopped early (bad gzip, a read error), that is the
 * error, whatever the loader made of the cut data. */
static bool load_input(struct input *in, const struct load_options *opt,
		       struct model *m, struct load_error *err)
{
	if (opt)
		in->max_size = opt->max_size;
	bool ok = pick_loader(in, opt, m, err);
	if (in->error[0]) {
		if (ok)
			model_free(m);
		return load_fail(err, "%s", in->error);
	}
	if (!ok && in->gzip)
		say_uncompressed(err);
	return ok;
}

/* A format without a wall clock (V8's and perf's clocks start at boot):
 * the profile was written when it ended, so it began its duration
 * before the file's modification time. */
static double wall_start_of_file(const struct stat *st, double duration)
{
	double written = (double)st->st_mtim.tv_sec * 1e6 + (double)st->st_mtim.tv_nsec / 1e3;
	return written - (isfinite(duration) && duration > 0 ? duration : 0);
}

bool load_file(const char *path, const struct load_options *opt,
	       struct model *m, struct load_error *err,
	       void (*on_progress)(const struct input *in))
{
	struct input in;
	if (!input_open(&in, path))
		return load_fail(err, "%s", strerror(errno));
	in.on_progress = on_progress;
	bool ok = load_input(&in, opt, m, err);
	input_close(&in);
	struct stat st;
	if (ok && !m->wall_start && !stat(path, &st) && S_ISREG(st.st_mode))
		m->wall_start = wall_start_of_file(&st, m->duration);
	return ok;
}

bool load_memory(const void *data, size_t len, const char *name,
		 const struct load_options *opt, struct model *m,
		 struct load_error *err)
{
	struct input in;
	input_from_memory(&in, data, len, name);
	bool ok = load_input(&in, opt, m, err);
	input_close(&in);
	return ok;
}
