/* Following the last session of a parser that grows (xsbug.h,
 * xsbug_follower_*): a parser of its own holds the copy, never fed. */
#include <stdlib.h>
#include <string.h>

#include "base/util.h"
#include "xsbug_parser.h"

struct xsbug_follower {
	const struct xsbug_parser *source;
	size_t session;           /* the source's session copied (1-based) */
	uint64_t records_changed; /* the source's, when its records were copied */
	/* The source's records and that one session's stacks, with their
	 * totals and counts, and its timeline (the newest samples); never
	 * fed. */
	struct xsbug_parser *copy;
	bool reshaped;            /* new stacks or records since `built` */
	const struct model *built; /* the model last built, which `leaf` maps */
	uint32_t *leaf;           /* per stack of `built`, its leaf node */
};

struct xsbug_follower *xsbug_follower_new(void)
{
	return xcalloc(1, sizeof(struct xsbug_follower));
}

void xsbug_follower_free(struct xsbug_follower *f)
{
	if (!f)
		return;
	xsbug_parser_free(f->copy);
	free(f->leaf);
	free(f);
}

/* Another parser or another session: everything is copied again (the
 * caller then copies the records). */
static void restart(struct xsbug_follower *f, const struct xsbug_parser *p,
		    size_t n)
{
	xsbug_parser_free(f->copy);
	f->copy = xsbug_parser_new(&p->limits);
	f->copy->sessions = xcalloc(1, sizeof(struct session));
	f->copy->nsessions = f->copy->sessions_cap = 1;
	f->source = p;
	f->session = n;
}

static char *copy_text(const char *s)
{
	return s ? xstrdup(s) : NULL;
}

static void copy_records(struct xsbug_follower *f, const struct xsbug_parser *p)
{
	struct xsbug_parser *c = f->copy;
	for (size_t r = 0; r < c->nrecords; r++) {
		free(c->records[r].name);
		free(c->records[r].path);
	}
	c->nrecords = 0;
	id_table_clear(&c->record_index);
	for (size_t r = 0; r < p->nrecords; r++) {
		struct record rec = p->records[r];
		rec.name = copy_text(rec.name);
		rec.path = copy_text(rec.path);
		xsbug_set_record(c, &rec);
	}
	f->records_changed = p->records_changed;
	f->reshaped = true;
}

/* Stacks are only ever appended: the new ones and their ids are copied,
 * and every stack's total and count. */
static void copy_session(struct xsbug_follower *f, const struct session *from)
{
	struct session *to = &f->copy->sessions[0];
	if (from->nstacks) { /* before the first sample it has no arrays */
		GROW(to->ids, to->ids_cap, from->nids);
		memcpy(to->ids + to->nids, from->ids + to->nids,
		       (from->nids - to->nids) * sizeof(uint32_t));
		GROW(to->stacks, to->stacks_cap, from->nstacks);
		memcpy(to->stacks, from->stacks, from->nstacks * sizeof(struct stack));
		f->reshaped |= to->nstacks != from->nstacks;
		to->nids = from->nids;
		to->nstacks = from->nstacks;
	}
	to->start = from->start;
	to->stop = from->stop;
	to->stopped = from->stopped;
	to->time_suspended = from->time_suspended;
	to->clock_skip = from->clock_skip;
	to->last_time = from->last_time;
	to->nsamples = from->nsamples;
	/* Only the samples new since: the window slides in the copy too. */
	bounded_timeline_follow(&to->timeline, &from->timeline,
				f->copy->limits.max_timeline);
}

bool xsbug_follow(struct xsbug_follower *f, const struct xsbug_parser *p)
{
	return xsbug_follow_session(f, p, p->nsessions);
}

bool xsbug_follow_session(struct xsbug_follower *f,
			  const struct xsbug_parser *p, size_t n)
{
	if (n < 1 || n > p->nsessions)
		return false;
	bool other = f->source != p || f->session != n;
	if (other)
		restart(f, p, n);
	if (other || f->records_changed != p->records_changed)
		copy_records(f, p);
	copy_session(f, &p->sessions[n - 1]);
	return true;
}

/* The copied window's samples, for the strip and ranges: those that
 * left it leave the model, those it lacks are appended (the values are
 * then set again from the stacks' exact sums of every sample). */
static void append_timeline(const struct session *s, const uint32_t *leaf,
			    struct model *m)
{
	bounded_timeline_to_model(&s->timeline, leaf, m, m->nsamples);
}

bool xsbug_follower_model(struct xsbug_follower *f, struct model *shown,
			  struct model *fresh)
{
	const struct session *s = &f->copy->sessions[0];
	if (shown && shown == f->built && !f->reshaped) {
		append_timeline(s, f->leaf, shown);
		xsbug_set_stack_values(s, f->leaf, shown);
		xsbug_set_times(s, shown);
		return false;
	}
	f->leaf = xrealloc(f->leaf, (s->nstacks + 1) * sizeof(uint32_t));
	xsbug_build_model(f->copy, 1, fresh, false, f->leaf);
	append_timeline(s, f->leaf, fresh);
	xsbug_set_stack_values(s, f->leaf, fresh);
	f->built = fresh;
	f->reshaped = false;
	return true;
}

