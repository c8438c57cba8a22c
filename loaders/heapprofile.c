/* Sampling heap profiles (.heapprofile): the Chrome DevTools Protocol's
 * HeapProfiler.SamplingHeapProfile, as `node --heap-prof` and Chrome's
 * Memory panel write it: a `head` tree of nodes (`callFrame`, `selfSize`
 * in bytes, `id`, `children`) and optionally `samples` ({size, nodeId,
 * ordinal}).  The bytes are the tree's selfSize, what DevTools shows.
 * The samples are not read: Node writes samples of nodes that are not in
 * the tree (allocated after the tree was taken), and their sizes are
 * scaled differently from selfSize. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/util.h"
#include "json.h"
#include "loaders.h"
#include "v8_frame.h"

#define HEAP_FORMAT "heapprofile"
#define MAX_SIZE 1e18     /* bytes: beyond, not a heap */

struct heap_record {
	struct v8_frame frame;
	double self;
	uint32_t parent; /* NO_ID for the head */
};

struct heap_loader {
	struct json j;
	struct v8_reader reader;
	struct model *m;
	struct load_error *err;
	struct heap_record *records;
	size_t nrecords, records_cap;
	bool have_head;
};

static bool skip_space(const uint8_t *head, size_t len, size_t *i)
{
	while (*i < len && strchr(" \t\r\n", head[*i]))
		(*i)++;
	return *i < len;
}

static bool contains(const uint8_t *head, size_t len, const char *text)
{
	return memmem(head, len, text, strlen(text)) != NULL;
}

/* A JSON object whose first node shows a callFrame with a selfSize (a
 * legacy .cpuprofile's "head" has hitCount instead). */
bool sniff_heapprofile(const uint8_t *head, size_t len)
{
	size_t i = len >= 3 && !memcmp(head, "\xef\xbb\xbf", 3) ? 3 : 0;
	if (!skip_space(head, len, &i) || head[i] != '{')
		return false;
	return contains(head, len, "\"head\"") && contains(head, len, "\"selfSize\"") &&
	       contains(head, len, "\"callFrame\"") && !contains(head, len, "\"hitCount\"");
}

static bool read_size(struct heap_loader *L, double *out)
{
	const struct json_sink *s = &L->reader.s;
	enum json_token t;
	if (!json_sink_next(s, &t))
		return false;
	if (t != JSON_NUMBER)
		return json_sink_fail_here(s, "selfSize is not a number");
	*out = L->j.num;
	if (fabs(*out) > MAX_SIZE)
		return json_sink_fail_here(s, "selfSize %g is out of range", *out);
	return *out >= 0 || json_sink_fail_here(s, "a negative selfSize");
}

static uint32_t new_record(void *ctx, uint32_t parent)
{
	struct heap_loader *L = ctx;
	GROW(L->records, L->records_cap, L->nrecords + 1);
	L->records[L->nrecords] = (struct heap_record){
		.frame = v8_frame_unknown(L->m), .parent = parent,
	};
	return (uint32_t)L->nrecords++;
}

static bool read_node_key(void *ctx, uint32_t slot, const char *key)
{
	struct heap_loader *L = ctx;
	if (!strcmp(key, "callFrame"))
		return v8_read_call_frame(&L->reader, &L->records[slot].frame);
	if (!strcmp(key, "selfSize"))
		return read_size(L, &L->records[slot].self);
	return json_sink_skip(&L->reader.s);
}

/* The head and its descendants: children are nested nodes. */
static bool read_tree(struct heap_loader *L)
{
	static const struct v8_tree_ops ops = { new_record, read_node_key, NULL };
	enum json_token t;
	if (!json_sink_next(&L->reader.s, &t))
		return false;
	if (t != JSON_OBJECT)
		return json_sink_fail_here(&L->reader.s, "head is not an object");
	L->have_head = true;
	return v8_read_tree(&L->reader, &ops, L);
}

static bool read_document_key(void *ctx, const char *key)
{
	struct heap_loader *L = ctx;
	if (strcmp(key, "head"))
		return json_sink_skip(&L->reader.s);
	return !L->have_head ? read_tree(L)
			     : json_sink_fail_here(&L->reader.s, "a second \"head\"");
}

static bool read_document(struct heap_loader *L)
{
	if (!json_read_document(&L->reader.s, read_document_key, L))
		return false;
	if (!L->have_head)
		return load_fail(L->err, HEAP_FORMAT ": no \"head\" node tree");
	return true;
}

/* ---- the model -------------------------------------------------------- */

static void build_model(struct heap_loader *L)
{
	struct model *m = L->m;
	unsigned space = model_add_sample_type(m, "space", "bytes");
	for (uint32_t s = 0; s < L->nrecords; s++) {
		const struct heap_record *r = &L->records[s];
		uint32_t frame = v8_intern_frame(m, &r->frame);
		uint32_t node = model_add_node(m, frame); /* == s */
		if (r->parent != NO_ID)
			model_add_edge(m, r->parent, node);
		model_add_node_value(m, node, space, r->self);
	}
	uint32_t cycle;
	model_finish(m, &cycle); /* nested objects make a tree: no cycle */
}

bool load_heapprofile(struct input *in, struct model *m,
		      const struct load_options *opt, struct load_error *err)
{
	(void)opt;
	struct heap_loader L = { .m = m, .err = err };
	model_init(m, "heapprofile");
	m->lines_zero_based = true;
	v8_reader_start(&L.reader, &L.j, in, m, err, HEAP_FORMAT);
	bool ok = read_document(&L);
	if (ok)
		build_model(&L);
	json_free(&L.j);
	free(L.records);
	if (!ok)
		model_free(m);
	return ok;
}
