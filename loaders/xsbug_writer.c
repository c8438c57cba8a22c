/* A session written back as an xsbug capture (xsbug.h,
 * xsbug_write_session). */
#include <inttypes.h>
#include <stdio.h>

#include "xsbug_parser.h"

static void write_escaped(FILE *out, const char *s)
{
	for (; *s; s++) {
		switch (*s) {
		case '&': fputs("&amp;", out); break;
		case '<': fputs("&lt;", out); break;
		case '>': fputs("&gt;", out); break;
		case '"': fputs("&quot;", out); break;
		default: fputc(*s, out);
		}
	}
}

static void write_base36(FILE *out, uint64_t v)
{
	char buf[16];
	size_t n = 0;
	do {
		buf[n++] = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ"[v % 36];
		v /= 36;
	} while (v);
	while (n)
		fputc(buf[--n], out);
}

static void write_records(const struct xsbug_parser *p, FILE *out)
{
	for (size_t r = 0; r < p->nrecords; r++) {
		const struct record *rec = &p->records[r];
		fputs("\r\n<xsbug><pr name=\"", out);
		write_escaped(out, rec->name);
		fprintf(out, "\" value=\"%" PRIu32 "\"", rec->id);
		if (rec->path) {
			fputs(" path=\"", out);
			write_escaped(out, rec->path);
			fputc('"', out);
		}
		if (rec->line >= 0)
			fprintf(out, " line=\"%" PRId32 "\"", rec->line);
		fputs("/></xsbug>\r\n", out);
	}
}

/* Durations are sums of whole µs; past 2^64 (a hostile peer's) they
 * stop at the largest. */
static uint64_t whole_micros(double v)
{
	return v >= 0x1p64 ? UINT64_MAX : (uint64_t)v;
}

static void write_sample(const struct session *s, uint32_t stack,
			 uint64_t delta, size_t i, FILE *out)
{
	const size_t per_message = 8;
	fputs(i % per_message ? "." : "\r\n<xsbug><ps>", out);
	write_base36(out, delta);
	const struct stack *st = &s->stacks[stack];
	for (uint32_t d = 0; d < st->depth; d++) {
		fputc(',', out);
		write_base36(out, s->ids[st->offset + d]);
	}
	if (i % per_message == per_message - 1 || i + 1 == s->nsamples)
		fputs("</ps></xsbug>\r\n", out);
}

/* A sample's delta is its duration; a suspended stretch, which no sample
 * owns, drops out of the capture and of its duration alike.  Once
 * samples have left the timeline's window their order is lost: each
 * stack's samples are written together instead, their integer deltas
 * summing to its exact total. */
static void write_samples(const struct session *s, FILE *out)
{
	size_t i = 0;
	if (bounded_timeline_exact(&s->timeline)) {
		for (; i < s->timeline.n; i++) {
			const struct timeline_entry *e = bounded_timeline_at(&s->timeline, i);
			write_sample(s, e->stack, whole_micros(e->duration), i, out);
		}
		return;
	}
	for (uint32_t k = 0; k < s->nstacks; k++) {
		uint64_t total = whole_micros(s->stacks[k].total);
		uint64_t count = s->stacks[k].count;
		for (uint64_t c = 0; c < count; c++, i++)
			write_sample(s, k, total / count + (c < total % count), i,
				     out);
	}
}

bool xsbug_write_session(const struct xsbug_parser *p, size_t n, FILE *out)
{
	const struct session *s = &p->sessions[n - 1];
	fputs("\r\n<xsbug><login name=\"", out);
	write_escaped(out, p->login_name ? p->login_name : "wprof-tui");
	fputs("\" value=\"", out);
	write_escaped(out, p->login_value ? p->login_value : "");
	fputs("\"/></xsbug>\r\n", out);
	fprintf(out, "\r\n<xsbug><pt name=\"start\" value=\"@%016" PRIX64
		     "\"/></xsbug>\r\n", s->start);
	write_records(p, out);
	write_samples(s, out);
	uint64_t stop = add_saturated(s->start, whole_micros(xsbug_session_duration(s)));
	fprintf(out, "\r\n<xsbug><pt name=\"stop\" value=\"@%016" PRIX64
		     "\"/></xsbug>\r\n", stop);
	return !ferror(out);
}
