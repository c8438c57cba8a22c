/* `perf script` text (docs/formats.md): one block per sample, a header
 * line (`comm tid [cpu] time: period event:`) and the stack below it,
 * one frame a line, leaf first (`\taddr sym+off (dso)`).  Any -F field
 * may be missing; without a callchain the one frame sits on the header
 * line.  Samples are kept in a compact form while the file is read (the
 * sample types are the events, known only at the end), then filtered by
 * thread and put into the model in time order. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/id_table.h"
#include "base/util.h"
#include "text_lines.h"
#include "loaders.h"

#define FORMAT "perf script"
#define MAX_LINE (1u << 20)
#define MAX_TOKENS 32
#define MAX_CACHED 4096 /* longer stack lines are parsed each time */

struct perf_thread {
	str_t comm;
	int64_t pid, tid; /* -1 when the file does not say */
};

struct perf_event {
	str_t name;
	bool has_period;
	unsigned type; /* the model's sample type, once chosen */
	bool used;
};

struct perf_sample {
	uint32_t thread, event;
	double time; /* seconds, when has_time */
	double period;
	bool has_time, has_period;
	size_t first_frame;
	uint32_t nframes;
};

/* What a header line holds; absent fields stay as initialised. */
struct perf_header {
	const char *comm;
	size_t comm_len;
	int64_t pid, tid;
	double time, period;
	bool has_time, has_period, has_event;
	const char *event, *rest;
	size_t event_len, rest_len;
};

struct cached_line {
	size_t at; /* in line_cache.text */
	uint32_t len;
	uint32_t frame;
};

struct line_cache {
	struct cached_line *lines;
	size_t nlines, lines_cap;
	struct id_table index; /* lines by their text */
	char *text;
	size_t text_len, text_cap;
};

struct perf_loader {
	struct line_reader lines;
	struct model *m;
	struct load_error *err;
	const char *thread_wanted;
	struct perf_thread *threads;
	size_t nthreads, threads_cap;
	struct id_table thread_index; /* threads by command and tid */
	struct perf_event events[MAX_SAMPLE_TYPES];
	size_t nevents;
	struct perf_sample *samples;
	size_t nsamples, samples_cap;
	uint32_t *frames; /* every sample's frames, leaf first, back to back */
	size_t nframes, frames_cap;
	struct line_cache cache;
	bool in_block;     /* a header was read and no blank line since */
	bool block_frames; /* the block has stack lines */
	size_t inlined_run;       /* the sample's last frames are this many inlined ones */
	uint64_t inlined_address; /* at this address */
	str_t empty, unknown, all;
};

static bool fail_line(struct perf_loader *L, const char *what)
{
	return line_fail(&L->lines, L->err, FORMAT, what);
}

static bool is_blank(char c)
{
	return c == ' ' || c == '\t';
}

static bool all_of(const char *s, size_t n, const char *set)
{
	for (size_t i = 0; i < n; i++)
		if (!strchr(set, s[i]))
			return false;
	return n > 0;
}

static bool parse_int(const char *s, size_t n, int64_t *out)
{
	if (!all_of(s, n, "0123456789") || n > 18)
		return false;
	int64_t v = 0;
	for (size_t i = 0; i < n; i++)
		v = v * 10 + (s[i] - '0');
	*out = v;
	return true;
}

/* "304.311387:" -> seconds */
static bool parse_time(const char *s, size_t n, double *out)
{
	if (n < 4 || s[n - 1] != ':')
		return false;
	const char *dot = memchr(s, '.', n);
	int64_t whole, frac;
	if (!dot || !parse_int(s, (size_t)(dot - s), &whole) ||
	    !parse_int(dot + 1, n - 2 - (size_t)(dot - s), &frac))
		return false;
	double scale = 1;
	for (size_t i = 0; i < n - 2 - (size_t)(dot - s); i++)
		scale *= 10;
	*out = (double)whole + (double)frac / scale;
	return true;
}

/* "15287" (a tid, as perf prints by default) or "15287/15288" (pid/tid) */
static bool parse_pid_tid(const char *s, size_t n, int64_t *pid, int64_t *tid)
{
	const char *slash = memchr(s, '/', n);
	if (!slash) {
		*pid = -1;
		return parse_int(s, n, tid);
	}
	return parse_int(s, (size_t)(slash - s), pid) &&
	       parse_int(slash + 1, n - 1 - (size_t)(slash - s), tid);
}

static bool is_hex(char c)
{
	return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'f') || (c >= 'A' && c <= 'F');
}

/* Is tok[0] the sample's period?  A number followed by the event, or by
 * the ip with the symbol after it (-F period,ip,sym).  Without a period
 * the number may be the ip itself: user-space addresses such as
 * 557208001166 are all decimal digits, then followed by the symbol. */
static bool period_follows(const char *const *tok, const size_t *len, size_t ntok,
			   int64_t *period)
{
	if (ntok < 2 || !parse_int(tok[0], len[0], period))
		return false;
	if (tok[1][len[1] - 1] == ':')
		return true;
	size_t hex = 0;
	while (hex < len[1] && is_hex(tok[1][hex]))
		hex++;
	return hex == len[1] && ntok > 2;
}

/* Fields in perf's fixed order, each optional: comm (may hold blanks),
 * pid/tid, [cpu], time:, period, event:, and the rest (the frame when
 * there is no callchain, a tracepoint's text). */
static bool parse_header(const char *s, size_t n, struct perf_header *h)
{
	const char *tok[MAX_TOKENS];
	size_t len[MAX_TOKENS], ntok = 0;
	*h = (struct perf_header){ .pid = -1, .tid = -1 };
	for (size_t i = 0; i < n && ntok < MAX_TOKENS;) {
		while (i < n && is_blank(s[i]))
			i++;
		if (i == n)
			break;
		tok[ntok] = s + i;
		while (i < n && !is_blank(s[i]))
			i++;
		len[ntok] = (size_t)(s + i - tok[ntok]);
		ntok++;
	}
	size_t j = 0;
	int64_t a, b;
	double t;
	while (j < ntok && !parse_pid_tid(tok[j], len[j], &a, &b) &&
	       !parse_time(tok[j], len[j], &t) && tok[j][len[j] - 1] != ':')
		j++;
	if (j == ntok)
		return false;
	h->comm = j ? tok[0] : s;
	h->comm_len = j ? (size_t)(tok[j - 1] + len[j - 1] - tok[0]) : 0;
	if (j < ntok && parse_pid_tid(tok[j], len[j], &h->pid, &h->tid))
		j++;
	if (j < ntok && len[j] > 2 && tok[j][0] == '[' && tok[j][len[j] - 1] == ']')
		j++;
	if (j < ntok && (h->has_time = parse_time(tok[j], len[j], &h->time)))
		j++;
	if (j < ntok && period_follows(tok + j, len + j, ntok - j, &a)) {
		h->has_period = true;
		h->period = (double)a;
		j++;
	}
	if (j < ntok && len[j] > 1 && tok[j][len[j] - 1] == ':') {
		h->has_event = true;
		h->event = tok[j];
		h->event_len = len[j] - 1;
		j++;
	}
	h->rest = j < ntok ? tok[j] : s + n;
	h->rest_len = (size_t)(s + n - h->rest);
	return h->has_time || (h->tid >= 0 && h->has_event);
}

/* Printable text whose first line (after perf's '#' header lines) is a
 * sample header with a time, or one followed by a stack line. */
bool sniff_perf_script(const uint8_t *head, size_t len)
{
	for (size_t i = 0; i < len; i++)
		if (head[i] < 0x20 && head[i] != '\t' && head[i] != '\r' && head[i] != '\n')
			return false;
	const char *s = (const char *)head, *end = s + len;
	while (s < end && (*s == '#' || *s == '\n' || *s == '\r')) {
		const char *nl = memchr(s, '\n', (size_t)(end - s));
		if (!nl)
			return false;
		s = nl + 1;
	}
	const char *nl = memchr(s, '\n', (size_t)(end - s));
	if (s == end || *s == '\t')
		return false;
	struct perf_header h;
	if (!parse_header(s, nl ? (size_t)(nl - s) : (size_t)(end - s), &h))
		return false;
	return h.has_time || (nl && nl + 1 < end && nl[1] == '\t');
}

/* ---- frames ---------------------------------------------------------- */

/* "<name>-<index>-<tier>": V8's perf map name for WebAssembly code
 * after its "JS:" tag (docs/formats.md); without a name section the name
 * is "wasm-function[N]".  Both tiers are one function, as JS tiers are. */
static bool wasm_frame(struct perf_loader *L, const char *s, size_t n, struct frame *f)
{
	static const char *const tiers[] = { "-liftoff", "-turbofan" };
	if (n <= 3 || memcmp(s, "JS:", 3))
		return false;
	s += 3;
	n -= 3;
	size_t tier = 0;
	for (size_t i = 0; i < ARRAY_LEN(tiers) && !tier; i++)
		if (n > strlen(tiers[i]) && !memcmp(s + n - strlen(tiers[i]), tiers[i], strlen(tiers[i])))
			tier = strlen(tiers[i]);
	if (!tier)
		return false;
	n -= tier;
	size_t dash = n;
	while (dash && s[dash - 1] != '-')
		dash--;
	int64_t index;
	if (dash < 2 || !parse_int(s + dash, n - dash, &index))
		return false;
	f->name = model_string(L->m, s, dash - 1);
	f->kind = KIND_WASM;
	return true;
}

/* V8's perf map names (node --perf-basic-prof, --perf-prof):
 * "JS:*name url:line:column", "LazyCompile:~name url:line" and kin; the
 * mark after the colon tells the tier (* optimized, ~ interpreted,
 * ^ baseline, + maglev), which DevTools does not tell apart either. */
static bool v8_frame(struct perf_loader *L, const char *s, size_t n, struct frame *f)
{
	static const char *const tags[] = { "JS:", "LazyCompile:", "Function:",
					     "Script:", "Eval:" };
	size_t skip = 0;
	for (size_t i = 0; i < ARRAY_LEN(tags) && !skip; i++)
		if (n > strlen(tags[i]) && !memcmp(s, tags[i], strlen(tags[i])))
			skip = strlen(tags[i]);
	if (!skip)
		return false;
	s += skip;
	n -= skip;
	if (n && strchr("*~^+", s[0])) {
		s++;
		n--;
	}
	size_t blank = n;
	while (blank && s[blank - 1] != ' ')
		blank--;
	if (!blank)
		return false;
	const char *place = s + blank;
	size_t plen = n - blank;
	int64_t numbers[2];
	int found = 0;
	while (found < 2 && plen) {
		size_t colon = plen;
		while (colon && place[colon - 1] != ':')
			colon--;
		if (!colon || !parse_int(place + colon, plen - colon, &numbers[found]) ||
		    numbers[found] > INT32_MAX)
			break;
		found++;
		plen = colon - 1;
	}
	if (!found || !plen)
		return false;
	f->url = model_string(L->m, place, plen);
	f->line = (int32_t)numbers[found - 1];
	f->column = found == 2 ? (int32_t)numbers[0] : -1;
	size_t name_len = blank - 1;
	f->name = name_len ? model_string(L->m, s, name_len)
			   : model_string(L->m, "(anonymous)", 11);
	f->kind = KIND_JS;
	return true;
}

/* Where "(dso)" starts in s[0..n), parentheses nested ("(/x (deleted))"),
 * or n when the line has none. */
static size_t dso_start(const char *s, size_t n)
{
	if (!n || s[n - 1] != ')')
		return n;
	int depth = 0;
	for (size_t i = n; i-- > 0;) {
		depth += s[i] == ')' ? 1 : s[i] == '(' ? -1 : 0;
		if (depth == 0)
			return i == 0 || is_blank(s[i - 1]) ? i : n;
	}
	return n;
}

/* A stack line without its blanks and its address: "sym+0x9d (dso)";
 * *address is the address, 0 when the line has none. */
static const char *strip_address(const char *s, size_t *n, uint64_t *address)
{
	*address = 0;
	while (*n && is_blank(*s)) {
		s++;
		(*n)--;
	}
	while (*n && is_blank(s[*n - 1]))
		(*n)--;
	size_t addr = 0;
	while (addr < *n && is_hex(s[addr]))
		addr++;
	if (addr && (addr == *n || is_blank(s[addr]))) {
		for (size_t i = 0; i < addr && i < 16; i++)
			*address = *address << 4 | (uint64_t)(s[i] <= '9' ? s[i] - '0' : (s[i] | 0x20) - 'a' + 10);
		while (addr < *n && is_blank(s[addr]))
			addr++;
		s += addr;
		*n -= addr;
	}
	return s;
}

/* "sym+0x9d (dso)" -> a frame: the symbol without its offset, the dso as
 * its file; [unknown] symbols stay one function per dso.  perf names code
 * inlined into the symbol at an address "inl+0x2b (inlined)": a function
 * of its own, flagged inlined, with no file (add_frame places it). */
static uint32_t frame_of(struct perf_loader *L, const char *s, size_t n)
{
	size_t open = dso_start(s, n);
	struct frame f = { .url = L->empty, .extra = STR_NONE, .line = -1,
			   .column = -1, .kind = KIND_NATIVE };
	size_t sym = open;
	while (sym && is_blank(s[sym - 1]))
		sym--;
	/* "+0x1a" after the symbol is where in it the sample fell. */
	size_t plus = sym;
	while (plus && s[plus - 1] != '+')
		plus--;
	if (plus && sym - plus > 2 && s[plus] == '0' && s[plus + 1] == 'x' &&
	    all_of(s + plus + 2, sym - plus - 2, "0123456789abcdef"))
		sym = plus - 1;
	if (wasm_frame(L, s, sym, &f) || v8_frame(L, s, sym, &f))
		return model_intern_frame(L->m, &f);
	bool inlined = n - open == 9 && !memcmp(s + open, "(inlined)", 9);
	if (open < n && !inlined && !(n - open == 11 && !memcmp(s + open, "([unknown])", 11)))
		f.url = model_string(L->m, s + open + 1, n - open - 2);
	f.name = sym ? model_string(L->m, s, sym) : L->unknown;
	if (inlined && sym) {
		/* named as perf report names it, apart from the function itself */
		char *marked = xmalloc(sym + sizeof(" (inlined)"));
		int len = sprintf(marked, "%.*s (inlined)", (int)sym, s);
		f.name = model_string(L->m, marked, (size_t)len);
		f.flags = FRAME_INLINED;
		free(marked);
	}
	return model_intern_frame(L->m, &f);
}

/* ---- samples ---------------------------------------------------------- */

static uint64_t thread_hash(str_t comm, int64_t tid)
{
	return hash_mix(((uint64_t)comm << 32) ^ (uint64_t)tid);
}

static uint32_t thread_of(struct perf_loader *L, str_t comm, int64_t pid, int64_t tid)
{
	struct id_probe p = id_table_probe(&L->thread_index, thread_hash(comm, tid));
	for (uint32_t id; (id = id_probe_next(&L->thread_index, &p)) != NO_ID;)
		if (L->threads[id].comm == comm && L->threads[id].tid == tid)
			return id;
	GROW(L->threads, L->threads_cap, L->nthreads + 1);
	L->threads[L->nthreads] = (struct perf_thread){ comm, pid, tid };
	id_table_add(&L->thread_index, &p, (uint32_t)L->nthreads);
	return (uint32_t)L->nthreads++;
}

static bool event_of(struct perf_loader *L, const struct perf_header *h, uint32_t *out)
{
	const char *name = h->has_event ? h->event : "";
	size_t len = h->has_event ? h->event_len : 0;
	str_t s = model_string(L->m, name, len);
	for (size_t e = 0; e < L->nevents; e++)
		if (L->events[e].name == s) {
			L->events[e].has_period |= h->has_period;
			*out = (uint32_t)e;
			return true;
		}
	if (L->nevents == MAX_SAMPLE_TYPES)
		return fail_line(L, "more than 16 events");
	L->events[L->nevents] = (struct perf_event){ .name = s, .has_period = h->has_period };
	*out = (uint32_t)L->nevents++;
	return true;
}

static bool start_sample(struct perf_loader *L, const struct perf_header *h)
{
	uint32_t event = 0;
	if (!event_of(L, h, &event))
		return false;
	if (h->period > 1e15)
		return fail_line(L, "a period beyond 1e15");
	GROW(L->samples, L->samples_cap, L->nsamples + 1);
	L->samples[L->nsamples++] = (struct perf_sample){
		.thread = thread_of(L, model_string(L->m, h->comm, h->comm_len), h->pid, h->tid),
		.event = event,
		.time = h->time,
		.period = h->period,
		.has_time = h->has_time,
		.has_period = h->has_period,
		.first_frame = L->nframes,
	};
	L->inlined_run = 0;
	return true;
}

/* The same stack lines come back sample after sample: each distinct
 * text is parsed once, then found by its hash. */
static uint32_t cached_frame(struct perf_loader *L, const char *s, size_t n)
{
	struct line_cache *c = &L->cache;
	struct id_probe p = id_table_probe(&c->index, hash_bytes(s, n, 0x70657266));
	for (uint32_t id; (id = id_probe_next(&c->index, &p)) != NO_ID;) {
		const struct cached_line *e = &c->lines[id];
		if (e->len == n && !memcmp(c->text + e->at, s, n))
			return e->frame;
	}
	uint32_t frame = frame_of(L, s, n);
	GROW(c->text, c->text_cap, c->text_len + n + 1);
	memcpy(c->text + c->text_len, s, n);
	GROW(c->lines, c->lines_cap, c->nlines + 1);
	c->lines[c->nlines] = (struct cached_line){ c->text_len, (uint32_t)n, frame };
	id_table_add(&c->index, &p, (uint32_t)c->nlines++);
	c->text_len += n;
	return frame;
}

/* perf lists the functions inlined at an address (leaf first) before the
 * symbol the address is in, and charges the sample's self to that symbol
 * (perf report --no-children).  So the symbol goes below the run of
 * inlined frames at its address: it is the leaf and keeps the self, and
 * each inlined function's total is perf's children. */
static void add_frame(struct perf_loader *L, const char *s, size_t n)
{
	uint64_t address;
	s = strip_address(s, &n, &address);
	uint32_t frame = n <= MAX_CACHED ? cached_frame(L, s, n) : frame_of(L, s, n);
	bool inlined = L->m->frames[frame].flags & FRAME_INLINED;
	GROW(L->frames, L->frames_cap, L->nframes + 1);
	size_t at = L->nframes++;
	if (!inlined && L->inlined_run && address && address == L->inlined_address) {
		at -= L->inlined_run;
		memmove(L->frames + at + 1, L->frames + at, L->inlined_run * sizeof(*L->frames));
	}
	L->frames[at] = frame;
	L->samples[L->nsamples - 1].nframes++;
	if (inlined && (!L->inlined_run || address != L->inlined_address))
		L->inlined_run = 0;
	L->inlined_run = inlined ? L->inlined_run + 1 : 0;
	L->inlined_address = address;
}

static bool read_header(struct perf_loader *L, const char *s, size_t n)
{
	struct perf_header h;
	if (!parse_header(s, n, &h)) {
		/* perf's srcline under a frame when there is no callchain */
		if (L->in_block && is_blank(s[0]))
			return true;
		return fail_line(L, "not a sample header ('comm tid time: period event:')");
	}
	if (!start_sample(L, &h))
		return false;
	L->in_block = true;
	L->block_frames = false;
	size_t hex = 0;
	while (hex < h.rest_len && is_hex(h.rest[hex]))
		hex++;
	if (hex && hex < h.rest_len && is_blank(h.rest[hex]))
		add_frame(L, h.rest, h.rest_len);
	return true;
}

static bool read_line(struct perf_loader *L, const char *s, size_t n)
{
	if (memchr(s, '\0', n))
		return fail_line(L, "a NUL byte (not text)");
	size_t i = 0;
	while (i < n && (is_blank(s[i])))
		i++;
	if (i == n) {
		L->in_block = L->block_frames = false;
		return true;
	}
	if (s[0] == '\t') {
		if (!L->in_block)
			return fail_line(L, "a stack line with no sample header above it");
		add_frame(L, s, n);
		L->block_frames = true;
		return true;
	}
	if (s[0] == '#' && !L->in_block)
		return true;
	if (L->in_block && L->block_frames && is_blank(s[0]))
		return true; /* srcline of the frame above */
	return read_header(L, s, n);
}

static bool read_lines(struct perf_loader *L)
{
	while (line_next(&L->lines))
		if (!read_line(L, L->lines.text, L->lines.len))
			return false;
	if (L->lines.too_long)
		return fail_line(L, "a line longer than 1 MiB");
	if (L->lines.in->read_errno)
		return load_fail_at(L->err, FORMAT, input_offset(L->lines.in), "read error");
	if (!L->nsamples)
		return load_fail(L->err, FORMAT ": no sample in the file");
	return true;
}

/* ---- the model -------------------------------------------------------- */

static bool thread_selected(const struct perf_loader *L, const struct perf_thread *t)
{
	const char *want = L->thread_wanted;
	if (!want)
		return true;
	if (!strcmp(model_str(L->m, t->comm), want))
		return true;
	int64_t id;
	return parse_int(want, strlen(want), &id) && (id == t->tid || id == t->pid);
}

static bool no_such_thread(struct perf_loader *L)
{
	char list[200] = "";
	for (size_t t = 0; t < L->nthreads && strlen(list) < sizeof(list) - 40; t++)
		snprintf(list + strlen(list), sizeof(list) - strlen(list), "%s%.24s %lld",
			 t ? ", " : "", model_str(L->m, L->threads[t].comm),
			 (long long)L->threads[t].tid);
	return load_fail(L->err, FORMAT ": no thread or command '%.64s' (it has %s%s)",
			 L->thread_wanted, list, L->nthreads > 8 ? ", ..." : "");
}

/* Each event is a sample type: cpu-clock and task-clock periods are
 * nanoseconds (time, as perf report weighs them), other periods count
 * events; without periods each sample counts one. */
static void choose_types(struct perf_loader *L, const uint8_t *selected)
{
	for (size_t i = 0; i < L->nsamples; i++)
		if (selected[L->samples[i].thread])
			L->events[L->samples[i].event].used = true;
	for (size_t e = 0; e < L->nevents; e++) {
		struct perf_event *ev = &L->events[e];
		if (!ev->used)
			continue;
		const char *name = model_str(L->m, ev->name);
		bool clock = !strncmp(name, "cpu-clock", 9) || !strncmp(name, "task-clock", 10);
		ev->type = model_add_sample_type(L->m, *name ? name : "samples",
						 !ev->has_period ? "count" : clock ? "us" : "count");
	}
}

static double weight_of(const struct perf_loader *L, const struct perf_sample *s)
{
	if (!s->has_period)
		return 1;
	return unit_is_time(L->m, L->events[s->event].type) ? s->period / 1000 : s->period;
}

static int by_time(const void *a, const void *b)
{
	const struct perf_sample *x = a, *y = b;
	if (x->time != y->time)
		return x->time < y->time ? -1 : 1;
	return x->first_frame < y->first_frame ? -1 : x->first_frame > y->first_frame;
}

static void add_samples(struct perf_loader *L, const uint8_t *selected)
{
	struct model *m = L->m;
	bool sorted = true, timed = true;
	for (size_t i = 0; i < L->nsamples; i++) {
		timed &= L->samples[i].has_time;
		sorted &= i == 0 || L->samples[i - 1].time <= L->samples[i].time;
	}
	if (timed && !sorted)
		qsort(L->samples, L->nsamples, sizeof(*L->samples), by_time);
	bool first = true;
	for (size_t i = 0; i < L->nsamples; i++) {
		const struct perf_sample *s = &L->samples[i];
		const struct perf_thread *t = &L->threads[s->thread];
		if (!selected[s->thread])
			continue;
		struct frame root = { .name = t->comm != L->empty ? t->comm : L->all, .url = L->empty, .extra = STR_NONE,
				      .line = -1, .column = -1, .kind = KIND_ROOT };
		uint32_t node = model_add_child(m, NO_ID, model_intern_frame(m, &root));
		for (uint32_t k = s->nframes; k-- > 0;)
			node = model_add_child(m, node, L->frames[s->first_frame + k]);
		unsigned type = L->events[s->event].type;
		double w = weight_of(L, s);
		if (type == 0 && timed)
			model_add_sample(m, node, w);
		else
			model_add_node_value(m, node, type, w);
		if (timed) {
			double us = s->time * 1e6;
			if (first || us < m->start_time)
				m->start_time = us;
			if (first || us > m->end_time)
				m->end_time = us;
			first = false;
		}
	}
}

static bool build_model(struct perf_loader *L)
{
	uint8_t *selected = xcalloc(L->nthreads + 1, 1);
	bool any = false;
	for (size_t t = 0; t < L->nthreads; t++)
		any |= selected[t] = thread_selected(L, &L->threads[t]);
	if (!any) {
		free(selected);
		return no_such_thread(L);
	}
	choose_types(L, selected);
	add_samples(L, selected);
	free(selected);
	L->m->duration = L->m->end_time - L->m->start_time;
	uint32_t cycle;
	model_finish(L->m, &cycle); /* stacks make a tree: no cycle */
	return true;
}

static void loader_free(struct perf_loader *L)
{
	free(L->threads);
	id_table_free(&L->thread_index);
	free(L->samples);
	free(L->frames);
	free(L->cache.lines);
	id_table_free(&L->cache.index);
	free(L->cache.text);
}

bool load_perf_script(struct input *in, struct model *m,
		      const struct load_options *opt, struct load_error *err)
{
	struct perf_loader L = { .m = m, .err = err, .thread_wanted = opt->thread };
	model_init(m, "perf script");
	L.empty = model_string(m, "", 0);
	L.unknown = model_string(m, "[unknown]", 9);
	L.all = model_string(m, "(root)", 6);
	id_table_init(&L.thread_index, 0);
	id_table_init(&L.cache.index, 4096);
	line_reader_init(&L.lines, in, MAX_LINE);
	bool ok = read_lines(&L) && build_model(&L);
	loader_free(&L);
	if (!ok)
		model_free(m);
	return ok;
}
