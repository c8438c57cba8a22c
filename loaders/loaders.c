#include "loaders.h"

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

/* In order of preference: the first whose sniff says yes loads. */
static const struct loader loaders[] = {
	{ "cpuprofile", sniff_cpuprofile, load_cpuprofile },
	{ "gmon.out", sniff_gmon, load_gmon },
	{ "WasmProf arcs", sniff_arcs, load_arcs },
	{ "xsbug stream", sniff_xsbug, load_xsbug },
	/* Last: a raw protocol buffer is told only by how well it parses. */
	{ "pprof", sniff_pprof, load_pprof },
};

/* Formats told apart but not read: consulted only when no loader above
 * sniffs the file or the one that did fails, so that the message says
 * what the file seems to be.  A loader for one of them, added to the
 * table above, takes over from its entry here. */
static bool looks_like_trace(const char *head);
static bool looks_like_heap_profile(const char *head);

static const struct {
	const char *what;
	bool (*looks)(const char *head);
} unread_formats[] = {
	{ "a Chrome trace-event file (\"traceEvents\", events with \"ph\" and \"ts\")",
	  looks_like_trace },
	{ "a V8 heap profile (.heapprofile: \"head\" nodes with \"selfSize\")",
	  looks_like_heap_profile },
};

/* The first byte of the JSON text, past a byte order mark and blanks. */
static char json_start(const char *head)
{
	if (!strncmp(head, "\xef\xbb\xbf", 3))
		head += 3;
	head += strspn(head, " \t\r\n");
	return *head;
}

static bool looks_like_trace(const char *head)
{
	char first = json_start(head);
	if (first == '{')
		return strstr(head, "\"traceEvents\"");
	return first == '[' && strstr(head, "\"ph\"") && strstr(head, "\"ts\"");
}

static bool looks_like_heap_profile(const char *head)
{
	return json_start(head) == '{' && strstr(head, "\"head\"") &&
	       strstr(head, "\"selfSize\"");
}

/* True when the head looks like one of them, with err saying so. */
static bool say_unread_format(const char *head, struct load_error *err)
{
	for (size_t i = 0; i < sizeof(unread_formats) / sizeof(unread_formats[0]); i++)
		if (unread_formats[i].looks(head)) {
			load_fail(err, "looks like %s, which wprof-tui does not read",
				  unread_formats[i].what);
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

static bool load_input(struct input *in, const struct load_options *opt,
		       struct model *m, struct load_error *err)
{
	char head[4097];
	size_t have = input_fill(in, 512);
	if (in->read_errno)
		return load_fail(err, "%s", strerror(in->read_errno));
	if (have == 0)
		return load_fail(err, "the file is empty");
	/* The head as text, kept for the message should the loader fail
	 * (by then it has read past it). */
	have = input_fill(in, sizeof(head) - 1);
	if (have > sizeof(head) - 1)
		have = sizeof(head) - 1;
	memcpy(head, in->buf + in->pos, have);
	head[have] = 0;
	for (size_t i = 0; i < sizeof(loaders) / sizeof(loaders[0]); i++) {
		if (!loaders[i].sniff(in->buf + in->pos, have))
			continue;
		if (loaders[i].load(in, m, opt, err))
			return true;
		say_unread_format(head, err);
		return false;
	}
	if (say_unread_format(head, err))
		return false;
	char tried[128] = "";
	for (size_t i = 0; i < sizeof(loaders) / sizeof(loaders[0]); i++)
		snprintf(tried + strlen(tried), sizeof(tried) - strlen(tried), "%s%s",
			 i ? ", " : "", loaders[i].name);
	return load_fail(err, "not a profile wprof-tui knows (formats: %s)", tried);
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
	return ok;
}

bool load_memory(const void *data, size_t len, const char *name,
		 const struct load_options *opt, struct model *m,
		 struct load_error *err)
{
	struct input in;
	input_from_memory(&in, data, len, name);
	return load_input(&in, opt, m, err);
}
