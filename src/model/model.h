/* The one shared profile model.  Every loader fills one; rules, views and
 * renderers only read it.  It holds facts from the file, never a choice of
 * how to count them (that is the rules' job, see rules.h).
 *
 * Building a model:
 *   model_init(m, "cpuprofile");
 *   model_add_sample_type(m, "time", "us");       at least one, first
 *   frames:  model_intern_frame(m, &frame)         -> frame id
 *   nodes:   model_add_node(m, frame) + model_add_edge(m, parent, child)
 *            or model_add_stack(m, frames, depth, values) for stack data
 *   values:  model_add_node_value / model_add_sample (timeline data)
 *   arcs:    model_add_arc for formats that count calls (gprof)
 *   model_finish(m)                                 derive graph and flags
 *
 * From model_init to model_finish the model holds the indexes those calls
 * look frames, stacks, links and lines up in (model_build.h, private to
 * src/model); model_finish derives the graph from them and frees them.
 * A finished model takes no building call but model_intern_frame, which
 * reopens its frame index to find a frame by its fields (a frame it adds
 * is in no arc).  A model made from another (a filter, a cut, a
 * granularity, a live snapshot) is a new one built from the other's
 * arrays.  What changes in a finished model is numbers in place: node
 * values (model_set_node_value), the samples a live window slides over
 * (model_add_sample, bounded_timeline.h) and a counted type
 * (sample_counts.h).
 *
 * Values of time-like sample types are always in microseconds ("us"), so
 * every consumer can treat time alike whatever the file used.
 */
#ifndef WPROF_MODEL_H
#define WPROF_MODEL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "base/strtab.h"

enum frame_kind {
	KIND_JS,
	KIND_NATIVE,
	KIND_WASM,
	KIND_GC,
	KIND_IDLE,
	KIND_PROGRAM,
	KIND_ROOT,
	KIND_COUNT
};

/* Frame flags. */
#define FRAME_INLINED 0x1 /* pprof: inlined into its caller's location */
/* 0x2 is symbolize.h's FRAME_THIRD_PARTY. */
/* wprof-tui's own code run in the target (the inspector's console-profile
 * bridge, src/live/cdp_windows.h), no script of the program's. */
#define FRAME_PROFILER 0x4

struct frame {
	str_t name;     /* as shown: "" names become "(anonymous)" at load */
	str_t url;      /* file or URL, "" when none */
	str_t extra;    /* format-specific identity (pprof system_name) */
	int32_t line;   /* as the source gives it, -1 when unknown */
	int32_t column; /* likewise */
	uint8_t kind;   /* enum frame_kind */
	uint8_t flags;
};

/* What a frame was before symbolization (transform/symbolize.h): the
 * place the profile gave it, or why it could not be mapped. */
struct frame_origin {
	str_t name;     /* the profile's name of the frame, when url is set */
	str_t url;      /* STR_NONE: the frame is the profile's own */
	int32_t line;   /* in the model's numbering, -1 unknown */
	int32_t column;
	str_t why_not;  /* STR_NONE, or why it kept the profile's name */
};

/* A node of the call tree (or, for XS .cpuprofile files, of the node
 * graph whose shared children belong to several parents). */
struct node {
	uint32_t frame;
	uint32_t parent;      /* first parent, NO_ID for a root */
	uint32_t child_start; /* children are child_ids[child_start..child_end) */
	uint32_t child_end;
	uint32_t nparents;
};

/* One distinct caller -> callee pair of the function graph. */
struct arc {
	uint32_t caller;
	uint32_t callee;
	double count; /* calls along the arc, when the format counts them */
	double time;  /* measured time along the arc (WasmProf), else 0 */
	/* Where the loader gave it (the first of those merged into it):
	 * gprof walks a caller's arcs in the order its file has them. */
	uint32_t given;
};

/* V8's positionTicks: samples of a node by source line (1-based). */
struct line_ticks {
	uint32_t node;
	int32_t line;
	double ticks;
};

/* One source line of a node (pprof Line entries): its values are in
 * model.node_line_values, see model_node_line. */
struct node_line {
	uint32_t node;
	int32_t line; /* 1-based */
};

/* A pprof sample label ("bytes" = 1024, "thread" = "main"), kept with the
 * leaf node of its sample; `sample` numbers the file's samples so that the
 * labels of one sample stay together. */
struct sample_label {
	uint32_t sample;
	uint32_t node;
	str_t key;
	str_t str;      /* STR_NONE for a numeric label */
	int64_t num;
	str_t num_unit; /* STR_NONE when the file gives none */
	uint32_t row;   /* the sample's values: model.label_values[row * stride] */
};

struct sample_type {
	str_t name; /* "time", "cpu", "alloc_space", ... */
	str_t unit; /* "us", "bytes", "count", ... */
};

/* What the data can support, so that rules and views can say n/a. */
#define HAS_STACKS 0x1      /* whole stacks: `exact` is defined */
#define HAS_NODES 0x2       /* a call tree or node graph exists */
#define HAS_NODE_GRAPH 0x4  /* nodes may have several parents (XS) */
#define HAS_TIMELINE 0x8    /* samples carry times */
#define HAS_CALL_COUNTS 0x10
#define HAS_ARC_TIMES 0x20

struct sample_gap {
	size_t before;
	double duration;
};

/* What a live session's model holds of the session: 0 and none in every
 * other model, and in a range's cut or view, whose values are their
 * samples'. */
struct live_window {
	/* A live session keeps only its newest samples (bounded_timeline.h,
	 * docs/live.md): the samples before sample 0 that the node values
	 * count but the timeline no longer holds, and their summed durations
	 * (sample 0 starts that long after the profile's first).  Then the
	 * samples sum to less than the node values. */
	size_t samples_before;
	double time_before;
	/* Time no sample covers (a session of Profiler windows that did not
	 * meet, src/live/cdp_windows.h): gaps[i].duration just before sample
	 * gaps[i].before, by `before`, one at most a sample.  No value counts
	 * it; the strip draws it as blank time, and a range's ends count it
	 * (model_gap_time).  Gaps before the samples held are one, before
	 * sample 0 (sample 0 starts time_before and that after the first). */
	struct sample_gap *gaps;
	size_t ngaps, gaps_cap;
	/* Samples that have no times inside the windows they came in
	 * (--live URL's pprof windows, src/live/http.c): the first sample of
	 * each window, so that the strip draws a window a cell rather than
	 * an order of stacks that is not time's. */
	size_t *window_first;
	size_t nwindows, windows_cap;
};

/* A view of a larger model, made without copying it: a time range's
 * (range_view_make) or a filter's (filter_view_make).  Its strings,
 * frames, nodes and arcs are those of `of` unless it has its own (a
 * filter that merges stacks makes nodes of its own, a collapse frames of
 * its own); its values are its own; the nodes and arcs none of its
 * values reach are hidden (1 per node, per arc), so that every pane and
 * rule sees what a copy would hold.  All NULL in every other model. */
struct range_overlay {
	const struct model *of;
	uint8_t *hidden_nodes;
	uint8_t *hidden_arcs;
	unsigned owns; /* enum view_owns: what model_free frees */
};

/* What a view made for itself, recorded by whoever puts it in the view,
 * so that freeing it never compares its arrays with those of `of`
 * (which may have moved them since, or be gone).  The rest is `of`'s;
 * the hidden arrays are always the view's. */
enum view_owns {
	VIEW_OWNS_FRAMES = 1 << 0, /* strings and frames */
	VIEW_OWNS_NODES = 1 << 1,  /* nodes, their links and order, link_arcs */
	VIEW_OWNS_GRAPH = 1 << 2,  /* arcs, their indexes, frame_calls */
	VIEW_OWNS_VALUES = 1 << 3, /* node_self */
	VIEW_OWNS_LEAVES = 1 << 4, /* first_leaves */
	VIEW_OWNS_LABELS = 1 << 5, /* labels (label_values stay of's) */
	VIEW_OWNS_LINES = 1 << 6,  /* line_ticks, node_lines, node_line_values */
};

/* How a .cpuprofile's samples were given their durations
 * (../shared/spec/time-rules.md, "Samples and their duration"): until
 * the next sample, as DevTools reads every file, or by the delta each
 * sample carries, as the XS file profiler writes it.  SAMPLE_TIME_FILE
 * everywhere else, where the format leaves no choice. */
enum sample_time { SAMPLE_TIME_FILE, SAMPLE_TIME_NEXT, SAMPLE_TIME_OWN };

#define MAX_SAMPLE_TYPES 16
#define SAMPLE_OFFSET_STEP 4096

struct model {
	const char *format; /* "cpuprofile", "pprof", ... (static string) */
	unsigned caps;

	struct string_table strings;

	struct frame *frames;
	size_t nframes, frames_cap;

	struct node *nodes;
	size_t nnodes, nodes_cap;
	uint32_t *child_ids;  /* filled by model_finish */
	uint32_t *node_order; /* every node after all of its parents */
	/* Every link's parent has a lower id than its child (a .cpuprofile's
	 * nodes as written): the ids in turn are such an order too. */
	bool parents_first;
	uint32_t *parents_start; /* parents of v: parent_ids[parents_start[v]..[v+1]) */
	uint32_t *parent_ids;
	uint32_t *link_arcs; /* per child_ids entry: the arc parent -> child */

	struct sample_type types[MAX_SAMPLE_TYPES];
	unsigned ntypes;
	unsigned default_type;
	double *node_self; /* [node * ntypes + type] */
	size_t node_self_cap;
	/* Self values given per function, for data without nodes (gprof). */
	double *frame_self; /* [frame * ntypes + type], NULL when unused */
	size_t frame_self_cap;

	/* Streams: the leaf node of every distinct stack, in the order the
	 * stacks first came (NULL otherwise).  The divided rule walks the
	 * callees of a function in the order the samples first show them. */
	uint32_t *first_leaves;
	size_t nfirst_leaves;

	/* Timeline: one entry per sample, in time order. */
	uint32_t *sample_node;
	double *sample_duration;
	size_t nsamples, samples_cap;
	/* sample_duration, and with sample_nodes_borrowed sample_node, are
	 * the model's this one was made from, not ours (model_copy_timeline):
	 * that model outlives this one, and both draw the same timeline
	 * strip. */
	bool durations_borrowed;
	bool sample_nodes_borrowed;
	struct live_window live; /* a live session's window of them */
	/* sample_offsets[k]: the time before sample k * SAMPLE_OFFSET_STEP,
	 * from model_finish (borrowed durations bring theirs, and their
	 * integral_samples, from model_copy_timeline), so that a range's ends are found without
	 * summing millions of durations (range_sample_offset). */
	double *sample_offsets;
	size_t nsample_offsets;
	/* The first this many samples (from model_finish) last a whole
	 * number of units and sum, in magnitude, below 2^53: any sum of
	 * theirs is exact in whatever order it is made, so a range's sums
	 * can be moved from a nearby range's (range_view_make). */
	size_t integral_samples;

	/* Function graph, distinct arcs sorted by (callee, caller). */
	struct arc *arcs;
	size_t narcs, arcs_cap;
	uint32_t *callers_start;    /* arcs[callers_start[f]..callers_start[f+1]) */
	uint32_t *callees_arcs;     /* arc indexes sorted by caller */
	uint32_t *callees_start;    /* into callees_arcs */
	double *frame_calls;        /* calls received per frame, when counted */

	struct line_ticks *line_ticks;
	size_t nline_ticks, line_ticks_cap;

	struct sample_label *labels;
	size_t nlabels, labels_cap;
	/* The values of each labelled sample (a node's value mixes samples of
	 * other labels), `label_stride` types a row, for filters by label. */
	double *label_values;
	size_t nlabel_rows, label_values_cap;
	unsigned label_stride;

	/* Where the format defines the whole a percentage is of, per type,
	 * beyond the sum of self values: pprof's total is the sum of every
	 * sample's absolute value, stackless samples included (a delta
	 * profile's negative values count as positive). */
	double type_total[MAX_SAMPLE_TYPES];
	bool has_type_totals; /* also set on a filter's model: the whole's */
	/* The values of samples with no stack (pprof allows them: Go's
	 * threadcreate profile is one), summed apart by sign: they have no
	 * row but count in type_total, and an export writes them back. */
	double stackless_positive[MAX_SAMPLE_TYPES];
	double stackless_negative[MAX_SAMPLE_TYPES];
	/* Samples the file holds when they are summed into nodes rather
	 * than kept one by one on the timeline (pprof: its "Total samples",
	 * the sum of a samples/count type, where the file has one). */
	size_t summed_samples;
	/* pprof: the sample records, when summed_samples counts something
	 * else (a record of Go's CPU profile holds several samples); 0 when
	 * the two are not told apart.  Shown labelled "records". */
	size_t sample_records;

	/* Per line of a node, for every type: `self` what samples ending at
	 * that line measured, `total` what samples through the node at that
	 * line measured, each sample counted once per function and line as
	 * pprof -list counts.  Values [i * 2 * ntypes + t] (self) and
	 * [i * 2 * ntypes + ntypes + t] (total). */
	struct node_line *node_lines;
	size_t nnode_lines, node_lines_cap;
	double *node_line_values;

	double start_time, end_time; /* microseconds, when known */
	/* When the profile began, in microseconds since the Unix epoch (0
	 * when unknown): start_time is on the format's own clock, often one
	 * that starts at boot.  pprof's time_nanos. */
	double wall_start;
	/* The profiled program's file (pprof's first mapping, --exe),
	 * STR_NONE when unknown: a pprof export's main mapping. */
	str_t main_binary;
	double duration;             /* end - start, or the sum of samples */
	double period;               /* sampling period in the type's unit */
	/* gmon.out: each frame's histogram samples as gprof sums them (a
	 * bin's share where it straddles two functions, so fractions), for
	 * the gprof rule to print gprof's percentages to the last digit;
	 * NULL for other data and for models made from a loaded one. */
	double *frame_ticks;
	str_t comment;
	/* Per frame, what symbolization found (NULL, 0 when it ran not), and
	 * what it applied ("source maps: 3 of 4 scripts", STR_NONE). */
	struct frame_origin *origins;
	size_t norigins;
	str_t symbols;
	/* Files with a profile per thread (traces): the one shown (STR_NONE
	 * when the file has one profile), and the others, the next one T
	 * switches to first. */
	str_t thread;
	str_t *other_threads;
	size_t nother_threads, other_threads_cap;
	/* What the loader had to correct to give sane numbers (STR_NONE:
	 * nothing); shown on stderr and in report headers. */
	str_t warning;
	bool lines_zero_based; /* .cpuprofile: shown one higher */
	enum sample_time sample_time;
	bool frames_are_files; /* --granularity files: a frame per file */
	/* The loader read only the type --sample-type asked for (callgrind's
	 * events), so that type is the one to show whatever it was asked by. */
	bool type_chosen_at_load;
	bool finished;
	/* The indexes of a model being built (model_build.h): from
	 * model_init to model_finish, NULL after. */
	struct model_build *build;

	struct range_overlay range; /* when this is a range's view */
};

void model_init(struct model *m, const char *format);
void model_free(struct model *m);

unsigned model_add_sample_type(struct model *m, const char *name,
			       const char *unit);

uint32_t model_intern_frame(struct model *m, const struct frame *f);
/* A string of `src` interned in `out` (STR_NONE stays STR_NONE). */
str_t model_copy_string(const struct model *src, struct model *out, str_t s);
/* Every frame of `src` into the empty `out`, in the same order, so that
 * the copy's frame ids are the original's (filtered and cut copies). */
void model_copy_frames(const struct model *src, struct model *out);
/* Sample types, times, metadata, the type totals and label values of
 * `src` into a new model made from it (a filter's, a granularity's). */
void model_copy_header(const struct model *src, struct model *out);
/* The timeline of `src` into a new model made from it: each sample on
 * node_map[its node], with its duration, adding to no value (the caller
 * gives the nodes their values); a live session's window and gaps too.
 * The durations are src's own array, borrowed (tens of megabytes on a
 * large profile), and so are the samples' nodes when node_map is NULL
 * (out's nodes are src's, node for node): src must outlive `out` and
 * gain no samples meanwhile.  Each node maps to one whose frame is of
 * the same kind (a kind is part of a frame's identity, so a
 * granularity's frames keep theirs): both models have the same timeline
 * strip. */
void model_copy_timeline(const struct model *src, struct model *out,
			 const uint32_t *node_map);
/* A copy of what model_copy_timeline borrowed, for a model whose source
 * does not outlive it or gains samples (a live session's). */
void model_own_timeline(struct model *m);
/* The gaps of src's timeline (model.live.gaps) into out's, for a copy of
 * its samples. */
void model_copy_gaps(const struct model *src, struct model *out);
/* The thread shown and the other threads, of `src` into `out`. */
void model_copy_threads(const struct model *src, struct model *out);
void model_add_other_thread(struct model *m, const char *name);
/* "a; b; c": the other threads as headers and messages list them, cut
 * to fit `size`. */
void model_join_other_threads(const struct model *m, char *out, size_t size);
str_t model_string(struct model *m, const char *s, size_t len);

/* A wasm frame's place as V8 gives it: the byte offset of its function's
 * body in the module file (V8's columnNumber); -1 for every other frame
 * and a wasm frame without one. */
int64_t model_wasm_offset(const struct model *m, uint32_t frame);
/* The same of a place given apart from its frame (a symbolized frame's
 * origin): the offset when kind, url and column make a wasm place. */
int64_t model_wasm_place_offset(const struct model *m, uint8_t kind, str_t url,
				int32_t column);

static inline const char *model_str(const struct model *m, str_t s)
{
	return strings_get(&m->strings, s);
}

uint32_t model_add_node(struct model *m, uint32_t frame);
/* Room for `count` nodes and as many links, with sample types added
 * first: a large copy would otherwise copy its arrays as they grow. */
void model_reserve_nodes(struct model *m, size_t count);
void model_add_edge(struct model *m, uint32_t parent, uint32_t child);
/* A copy that knows each node's children in order gives its tree whole,
 * in place of model_add_node and model_add_edge: `nodes` (n of them,
 * each with its frame, its parent (NO_ID: a root) and its children
 * child_ids[child_start..child_end), in order; one parent at most, so
 * every node is some node's child once or a root), `child_ids` and
 * `values` (n * ntypes, the sample types added first), all malloc'd,
 * become the model's.  model_finish makes the parents' lists and
 * node_order from the parents in turn, without the random passes over
 * the links that edges as they came need. */
void model_adopt_tree(struct model *m, struct node *nodes, size_t n, uint32_t *child_ids,
		      double *values);
/* With model_adopt_tree, from a builder that knows each link's arc: the
 * links' arcs added by model_add_arc (nothing counted), each pair (the
 * parent's frame, the child's) once, in the order of their first links
 * (node by node, each node's children in order), and `link_arcs`
 * (malloc'd, one per child_ids entry) the index of each link's, become
 * what model_finish would find with a table of pairs over every link. */
void model_adopt_link_arcs(struct model *m, uint32_t *link_arcs);
/* With model_adopt_tree, from a builder that knows it: `node_order`
 * (malloc'd) exactly as model_finish would make it, breadth first (the
 * roots in turn, then each node's children in order as the queue
 * reaches it), which a copy can find from its source's. */
void model_adopt_node_order(struct model *m, uint32_t *node_order);
void model_add_node_value(struct model *m, uint32_t node, unsigned type,
			  double value);
/* Replaces a value, for a model whose numbers are refreshed in place. */
void model_set_node_value(struct model *m, uint32_t node, unsigned type,
			  double value);

/* For data without nodes: self value measured for a function. */
void model_add_frame_value(struct model *m, uint32_t frame, unsigned type,
			   double value);

/* Stack data: frames leaf first, as pprof and xsbug give them; the root
 * of the merged tree is frames[depth-1].  Returns the leaf node. */
uint32_t model_add_stack(struct model *m, const uint32_t *frames,
			 size_t depth);

/* Stack data one node at a time: the node for `frame` under `parent`
 * (NO_ID: a root), made on first use.  Parents must come first. */
uint32_t model_add_child(struct model *m, uint32_t parent, uint32_t frame);

/* Timeline data: adds `duration` to the node's first value as well. */
void model_add_sample(struct model *m, uint32_t node, double duration);
/* The samples added next are a new window's (model.live.window_first). */
void model_start_window(struct model *m);
/* A gap of `duration` before sample `before` (model.live.gaps), after
 * those added (added to the last when before is its). */
void model_add_gap(struct model *m, size_t before, double duration);
/* The time of the gaps before sample `index` starts (model.live.gaps). */
double model_gap_time(const struct model *m, size_t index);

/* Samples of a node by line.  A wasm frame's are dropped: V8 writes them
 * all as line 1, a placeholder (a profile times wasm per function). */
void model_add_line_ticks(struct model *m, uint32_t node, int32_t line,
			  double ticks);

/* Timeline data in bulk: the model takes ownership of both arrays
 * (malloc'd, n entries each) and adds each duration to its node. */
void model_adopt_samples(struct model *m, uint32_t *nodes, double *durations,
			 size_t n);

/* The index of (node, line) in model.node_lines, made (with zero
 * values) on first use; sample types must all be added before. */
uint32_t model_node_line(struct model *m, uint32_t node, int32_t line);

static inline double *node_line_self(const struct model *m, uint32_t i)
{
	return &m->node_line_values[(size_t)i * 2 * m->ntypes];
}

static inline double *node_line_total(const struct model *m, uint32_t i)
{
	return &m->node_line_values[(size_t)i * 2 * m->ntypes + m->ntypes];
}

void model_add_label(struct model *m, const struct sample_label *label);
/* The values of a labelled sample, one per sample type; returns the row
 * its labels name. */
uint32_t model_add_label_row(struct model *m, const double *values);

void model_add_arc(struct model *m, uint32_t caller, uint32_t callee,
		   double count, double time);

/* Derives children lists, the function graph and the capability flags.
 * Returns false, naming a node on it, when the nodes contain a cycle;
 * also, made by a behind job that is stopped (base/background.h), when
 * it stops at a pause point, leaving the model half made to be freed. */
bool model_finish(struct model *m, uint32_t *cycle_node);

/* The arc caller -> callee in m->arcs (after model_finish), or NO_ID. */
uint32_t model_find_arc(const struct model *m, uint32_t caller, uint32_t callee);

static inline double node_value(const struct model *m, uint32_t node,
				unsigned type)
{
	return m->node_self[(size_t)node * m->ntypes + type];
}

/* The i-th node of an order with every node after all of its parents:
 * the ids themselves where they are one (parents_first), which a pass
 * reads in turn, else node_order, which reaches the nodes at random.
 * For passes whose result does not depend on which such order they
 * take (a node's total sums its children in their own order). */
static inline uint32_t node_parents_first(const struct model *m, size_t i)
{
	return m->parents_first ? (uint32_t)i : m->node_order[i];
}

static inline bool node_hidden(const struct model *m, uint32_t node)
{
	return m->range.hidden_nodes && m->range.hidden_nodes[node];
}

static inline bool arc_hidden(const struct model *m, uint32_t arc)
{
	return m->range.hidden_arcs && m->range.hidden_arcs[arc];
}

/* Making a view (struct range_overlay) of `of`, which must outlive it
 * and not change: model_view_start makes `out` read all of `of` and
 * opens the building calls model_node_line (its node lines start empty)
 * and, after model_view_own_frames (its own copy of of's strings and
 * frames), model_intern_frame and model_string; model_view_nodes gives
 * it nodes of its own (malloc'd, frame and parent set, each parent
 * before its children, with n * ntypes values), linked and with their
 * function graph as model_finish makes them; model_view_finish closes
 * the building calls.  Each records what it gave the view in
 * range.owns (those three: its node lines, frames and strings, nodes,
 * graph and values); whoever gives it other arrays of its own records
 * them too.  model_free frees only what is recorded. */
void model_view_start(struct model *out, const struct model *of);
void model_view_own_frames(struct model *out);
void model_view_nodes(struct model *out, struct node *nodes, size_t n, double *values);
void model_view_finish(struct model *out);
/* A view's hidden arcs: every arc of m but those of a link between two
 * nodes `shown` (1 per node) holds, the arcs a copy of those nodes
 * would have. */
uint8_t *model_hidden_arcs(const struct model *m, const uint8_t *shown);

/* A node with a child that is not hidden. */
bool model_has_children(const struct model *m, uint32_t node);

static inline bool unit_is_time(const struct model *m, unsigned type)
{
	return m->types[type].unit != STR_NONE &&
	       !strings_cmp(&m->strings, m->types[type].unit, "us");
}

const char *frame_kind_name(enum frame_kind kind);
/* The reading of sample time as headers say it ("own delta (XS file
 * profiler)"), NULL where the format leaves no choice. */
const char *sample_time_text(enum sample_time reading);

/* How many samples the file has, kept on the timeline or summed. */
/* The whole a percentage of `type` is of: type_total where set, else
 * every node's and frame's own value added up. */
double model_type_total(const struct model *m, unsigned type);

/* A frame's line or column as every output shows it: 1-based, as
 * DevTools shows them (a .cpuprofile counts from 0), -1 when unknown. */
static inline int32_t model_shown_place(const struct model *m, int32_t place)
{
	return place < 0 ? -1 : place + (m->lines_zero_based ? 1 : 0);
}

static inline size_t model_sample_count(const struct model *m)
{
	return m->nsamples ? m->live.samples_before + m->nsamples : m->summed_samples;
}

/* Do the samples on the timeline carry every value, none having left a
 * live session's window? */
static inline bool model_holds_every_sample(const struct model *m)
{
	return (m->caps & HAS_TIMELINE) && m->live.samples_before == 0;
}

#endif
