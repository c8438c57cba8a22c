/* Profiler windows folded into one live session; see cdp_windows.h. */
#include "cdp_windows.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/id_table.h"
#include "base/util.h"
#include "loaders/trace.h"

struct session_node {
	uint32_t parent;  /* NO_ID for a root */
	char *call_frame; /* the callFrame object as JSON text */
};

struct cdp_windows {
	struct session_node *nodes;
	size_t nnodes, nodes_cap;
	struct id_table index; /* nodes by parent and call frame */
	struct trace_live *fold;
	bool any;              /* a window has been folded */
	double offset;         /* added to the target's times (a clock that restarted) */
	double window_start;   /* the last window's start, its end, its last sample */
	double window_end;
	double last_sample;
	double length;         /* µs from the first sample; 0: no end */
	bool waited;           /* the target waited for the debugger */
	double first_sample;
};

struct cdp_windows *cdp_windows_new(void)
{
	struct cdp_windows *w = xcalloc(1, sizeof(*w));
	id_table_init(&w->index, 512);
	w->fold = trace_live_fed("cpuprofile");
	return w;
}

void cdp_windows_free(struct cdp_windows *w)
{
	if (!w)
		return;
	for (size_t i = 0; i < w->nnodes; i++)
		free(w->nodes[i].call_frame);
	free(w->nodes);
	id_table_free(&w->index);
	trace_live_free(w->fold);
	free(w);
}

void cdp_windows_set_length(struct cdp_windows *w, double us)
{
	w->length = us;
}

void cdp_windows_target_waited(struct cdp_windows *w)
{
	w->waited = true;
}

size_t cdp_windows_samples(const struct cdp_windows *w)
{
	return trace_live_samples(w->fold);
}

double cdp_windows_span(const struct cdp_windows *w)
{
	return trace_live_span(w->fold);
}

bool cdp_windows_full(const struct cdp_windows *w)
{
	return w->length > 0 && trace_live_samples(w->fold) &&
	       trace_live_span(w->fold) >= w->length;
}

struct trace_live *cdp_windows_fold_of(struct cdp_windows *w)
{
	return w->fold;
}

static str_t intern(struct cdp_windows *w, const cJSON *frame, const char *key)
{
	const char *s = cJSON_GetStringValue(cJSON_GetObjectItem(frame, key));
	return strings_intern(trace_live_strings(w->fold), s ? s : "", s ? strlen(s) : 0);
}

/* A line or column as the .cpuprofile reader takes it: -1 when unknown. */
static int32_t place(const cJSON *frame, const char *key)
{
	const cJSON *v = cJSON_GetObjectItem(frame, key);
	double n = cJSON_IsNumber(v) ? v->valuedouble : -1;
	return n >= 0 && n <= 2147483646.0 && n == floor(n) ? (int32_t)n : -1;
}

static bool is_bridge(const cJSON *frame)
{
	const char *url = cJSON_GetStringValue(cJSON_GetObjectItem(frame, "url"));
	return url && !strcmp(url, CDP_BRIDGE_URL);
}

/* A new session node: its frame goes to the fold. */
static void add_to_fold(struct cdp_windows *w, uint32_t id, const cJSON *frame)
{
	struct trace_node node = {
		.id = id,
		.frame = { .name = intern(w, frame, "functionName"), .url = intern(w, frame, "url"),
			   .line = place(frame, "lineNumber"), .column = place(frame, "columnNumber"),
			   .flags = is_bridge(frame) ? FRAME_PROFILER : 0 },
	};
	trace_live_add_node(w->fold, &node, w->nodes[id].parent);
}

/* The session's node for this frame under that parent, made if new;
 * NO_ID past CDP_MAX_NODES. */
static uint32_t session_node(struct cdp_windows *w, uint32_t parent, const cJSON *frame)
{
	char *text = cJSON_PrintUnformatted(frame);
	if (!text)
		return NO_ID;
	struct id_probe p = id_table_probe(&w->index, hash_bytes(text, strlen(text), parent));
	for (uint32_t k; (k = id_probe_next(&w->index, &p)) != NO_ID;) {
		if (w->nodes[k].parent == parent && !strcmp(w->nodes[k].call_frame, text)) {
			free(text);
			return k;
		}
	}
	if (w->nnodes >= CDP_MAX_NODES) {
		free(text);
		return NO_ID;
	}
	GROW(w->nodes, w->nodes_cap, w->nnodes + 1);
	uint32_t id = (uint32_t)w->nnodes++;
	w->nodes[id] = (struct session_node){ parent, text };
	id_table_add(&w->index, &p, id);
	add_to_fold(w, id, frame);
	return id;
}

struct id_index {
	double id;
	size_t index;
};

static int by_id(const void *a, const void *b)
{
	double x = ((const struct id_index *)a)->id, y = ((const struct id_index *)b)->id;
	return (x > y) - (x < y);
}

static long find_id(const struct id_index *ids, size_t n, double id)
{
	struct id_index key = { id, 0 };
	const struct id_index *hit = bsearch(&key, ids, n, sizeof(*ids), by_id);
	return hit ? (long)hit->index : -1;
}

/* Each node's parent in the window (-1 for a root), from the children
 * lists: false when a child is named wrongly or twice. */
static bool find_parents(const cJSON *nodes, const struct id_index *ids, size_t n,
			 long *parent, char *err, size_t cap)
{
	for (size_t i = 0; i < n; i++)
		parent[i] = -1;
	for (size_t i = 0; i < n; i++) {
		const cJSON *kids = cJSON_GetObjectItem(cJSON_GetArrayItem(nodes, (int)i), "children");
		const cJSON *kid;
		cJSON_ArrayForEach(kid, kids) {
			long k = cJSON_IsNumber(kid) ? find_id(ids, n, kid->valuedouble) : -1;
			if (k < 0 || parent[k] >= 0 || (size_t)k == i) {
				snprintf(err, cap, "profile: node %zu names a wrong child", i);
				return false;
			}
			parent[k] = (long)i;
		}
	}
	return true;
}

/* Maps each node of the window's profile to a session node, parents
 * first (a breadth-first walk from the nodes nobody names as a child). */
static bool map_nodes(struct cdp_windows *w, const cJSON *nodes, uint32_t *map,
		      const struct id_index *ids, size_t n, char *err, size_t cap)
{
	long *parent = xmalloc(n * sizeof(*parent));
	size_t *queue = xmalloc(n * sizeof(*queue)), head = 0, tail = 0;
	bool ok = find_parents(nodes, ids, n, parent, err, cap);
	for (size_t i = 0; i < n; i++)
		map[i] = NO_ID;
	for (size_t i = 0; i < n && ok; i++)
		if (parent[i] < 0)
			queue[tail++] = i;
	while (ok && head < tail) {
		size_t i = queue[head++];
		const cJSON *node = cJSON_GetArrayItem(nodes, (int)i);
		const cJSON *frame = cJSON_GetObjectItem(node, "callFrame");
		uint32_t up = parent[i] < 0 ? NO_ID : map[parent[i]];
		map[i] = cJSON_IsObject(frame) ? session_node(w, up, frame) : NO_ID;
		if (map[i] == NO_ID) {
			snprintf(err, cap, "profile: node %zu has no callFrame, or the session "
				 "has %u stacks", i, CDP_MAX_NODES);
			ok = false;
		}
		const cJSON *kid;
		cJSON_ArrayForEach(kid, cJSON_GetObjectItem(node, "children"))
			queue[tail++] = (size_t)find_id(ids, n, kid->valuedouble);
	}
	free(parent);
	free(queue);
	return ok;
}

/* One sample of a window: its session node and its time on the target's
 * clock. */
struct window_sample {
	uint32_t node;
	double at;
};

/* The window's samples, checked before any is folded (the lists are
 * walked once: counting a list of a million items is a walk too). */
static struct window_sample *read_samples(const cJSON *profile, const uint32_t *map,
					  const struct id_index *ids, size_t n,
					  size_t *count, char *err, size_t cap)
{
	const cJSON *samples = cJSON_GetObjectItem(profile, "samples");
	const cJSON *deltas = cJSON_GetObjectItem(profile, "timeDeltas");
	double t = cJSON_GetNumberValue(cJSON_GetObjectItem(profile, "startTime"));
	struct window_sample *out = NULL;
	size_t k = 0, out_cap = 0;
	const cJSON *s = cJSON_IsArray(samples) ? samples->child : NULL;
	const cJSON *d = cJSON_IsArray(deltas) ? deltas->child : NULL;
	for (; s && d; s = s->next, d = d->next, k++) {
		long i = find_id(ids, n, cJSON_GetNumberValue(s));
		if (i < 0 || map[i] == NO_ID || !cJSON_IsNumber(d)) {
			snprintf(err, cap, "profile: a sample names no node");
			free(out);
			return NULL;
		}
		t += d->valuedouble;
		GROW(out, out_cap, k + 1);
		out[k] = (struct window_sample){ map[i], t };
	}
	if (s || d) {
		snprintf(err, cap, "profile: samples and timeDeltas differ in length");
		free(out);
		return NULL;
	}
	*count = k;
	return out ? out : xmalloc(sizeof(*out));
}

static bool is_idle(const struct cdp_windows *w, uint32_t node)
{
	return strstr(w->nodes[node].call_frame, "\"functionName\":\"(idle)\"") != NULL;
}

/* Where the window goes on the session's time axis: a peer's clock that
 * starts again (a window beginning no later than the last one began) is
 * moved to follow the last window.  The window's start on the axis. */
static double place_window(struct cdp_windows *w, double start)
{
	if (w->any && start + w->offset <= w->window_start)
		w->offset = w->window_end - start;
	return start + w->offset;
}

/* The window's samples that are new (after the last window's last: an
 * overlap's are the last window's too), up to the session's length;
 * `start` and `end` on the session's axis. */
static void fold_samples(struct cdp_windows *w, const struct window_sample *s, size_t n,
			 double start, double end)
{
	double after = w->last_sample, limit = INFINITY;
	bool first_new = true, gap_before = w->any && start > w->window_end;
	for (size_t i = 0; i < n; i++) {
		double at = s[i].at + w->offset;
		if (w->any && at <= after)
			continue;
		if (!trace_live_samples(w->fold))
			w->first_sample = at;
		if (w->length > 0)
			limit = w->first_sample + w->length;
		if (at > limit)
			break;
		/* Not profiled from the last window's end to here: a gap. */
		if (first_new && gap_before)
			trace_live_add_gap(w->fold, w->window_end);
		first_new = false;
		trace_live_add_sample(w->fold, at, s[i].node);
		if (at > w->last_sample || !w->any)
			w->last_sample = at;
		w->any = true;
	}
	/* A window after a gap that adds nothing (the program's end: all
	 * (idle)) ends nothing either: the last sample keeps its own end
	 * rather than take the gap's time. */
	if (first_new && gap_before)
		return;
	if (w->length > 0 && trace_live_samples(w->fold))
		limit = w->first_sample + w->length;
	if (end > limit)
		end = limit;
	if (end < w->last_sample)
		end = w->last_sample;
	w->window_start = start;
	w->window_end = end;
	trace_live_set_end(w->fold, end);
}

bool cdp_windows_fold(struct cdp_windows *w, const cJSON *profile, bool last,
		      char *err, size_t cap)
{
	const cJSON *nodes = cJSON_GetObjectItem(profile, "nodes");
	size_t n = (size_t)cJSON_GetArraySize(nodes);
	double start = cJSON_GetNumberValue(cJSON_GetObjectItem(profile, "startTime"));
	double end = cJSON_GetNumberValue(cJSON_GetObjectItem(profile, "endTime"));
	if (!cJSON_IsArray(nodes) || !n) {
		snprintf(err, cap, "profile: no nodes");
		return false;
	}
	if (!isfinite(start) || !isfinite(end) || end < start) {
		snprintf(err, cap, "profile: startTime or endTime wrong");
		return false;
	}
	struct id_index *ids = xmalloc(n * sizeof(*ids));
	uint32_t *map = xmalloc(n * sizeof(*map));
	size_t i = 0, count = 0;
	const cJSON *node;
	cJSON_ArrayForEach(node, nodes) {
		ids[i] = (struct id_index){ cJSON_GetNumberValue(cJSON_GetObjectItem(node, "id")), i };
		i++;
	}
	qsort(ids, n, sizeof(*ids), by_id);
	bool ok = true;
	for (i = 0; i < n && ok; i++)
		if (ids[i].id != ids[i].id || (i && ids[i].id == ids[i - 1].id)) {
			snprintf(err, cap, "profile: node ids missing or repeated");
			ok = false;
		}
	struct window_sample *samples = NULL;
	ok = ok && map_nodes(w, nodes, map, ids, n, err, cap) &&
	     (samples = read_samples(profile, map, ids, n, &count, err, cap));
	if (ok) {
		size_t from = 0;
		for (; w->waited && !w->any && from < count && is_idle(w, samples[from].node); from++)
			;
		for (; last && count > from && is_idle(w, samples[count - 1].node); count--)
			end = samples[count - 1].at;
		double at = place_window(w, start);
		fold_samples(w, samples + from, count - from, at, end + w->offset);
	}
	free(samples);
	free(ids);
	free(map);
	return ok;
}
