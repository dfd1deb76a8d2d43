// SPDX-License-Identifier: GPL-2.0
/*
 * The lockstep runner. Every variant keeps two state buffers that swap roles
 * each op ("after" of op i becomes "before" of op i + 1), so the steady state
 * copies each array once per op (inside snapshot) and never allocates. A
 * variant still on the baseline's path copies nothing: its arrays are
 * compared in place with the baseline's copy (same_as), and its own buffers
 * are filled when it parts.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "mbd_compare.h"
#include "mbd_expect.h"
#include "runner_int.h"

/* A candidate finding while judging one op. */
struct mbd_finding {
	enum mbd_class cls;
	enum mbd_where where;
	bool by_oracle;
	int vb;
	const char *detail;
	int clause;             /* by_oracle: enum mbd_clause, and all noted */
	uint32_t clauses;
};

static void set_detail(struct mbd_verdict *v, const char *s)
{
	size_t len = strlen(s);

	if (len >= sizeof(v->detail))
		len = sizeof(v->detail) - 1;
	memcpy(v->detail, s, len);
	v->detail[len] = '\0';
}

static bool result_equal(const struct mbd_result *a, const struct mbd_result *b)
{
	return a->ret == b->ret && a->panicked == b->panicked &&
	       (!a->panicked ||
		strncmp(a->panic_msg, b->panic_msg, sizeof(a->panic_msg)) == 0);
}

static int baseline_fault(struct mbd_verdict *v, size_t i,
			  const struct mbd_op *op, enum mbd_class cls,
			  enum mbd_where where, bool by_oracle, const char *what);

/*
 * A lazy baseline's deferred oracle steps, up to op upto (excluded), each
 * judged as oracle_all() would have: returns 1 with v filled at the first
 * baseline fault (the trace ends there, as it would have), else 0. v may
 * be NULL when only the oracle's state is wanted (a report).
 */
static int settle(const struct mbd_runner *r, size_t upto, struct mbd_verdict *v)
{
	struct mbd_slot *s = &r->slot[0];
	struct mbd_oracle_finding of;
	char msg[sizeof(v->detail)];

	if (!r->lazy)
		return 0;
	for (; s->lazy_next < upto; s->lazy_next++) {
		size_t j = s->lazy_next;
		const struct mbd_op *op = &s->trace->ops[j];
		const struct mbd_result *res = &s->res_ring[j % LAZY_RING];
		enum mbd_class c;

		if (res->panicked)
			continue;
		/* a baseline fault is kept at any class: all text */
		c = mbd_oracle_step_text(s->oracle, op, &s->ring[j % LAZY_RING],
					 &s->ring[(j + 1) % LAZY_RING], res, &of,
					 MBD_CLASS_NONE);
		if (c == MBD_CLASS_NONE || !v)
			continue;
		snprintf(msg, sizeof(msg), "oracle %s/%s: %.200s",
			 mbd_where_name(of.where), mbd_class_name(c), of.detail);
		s->lazy_next = upto;
		return baseline_fault(v, j, op, c, of.where, true, msg) + 1;
	}
	return 0;
}

/* Bring a lagging oracle up to the baseline's (same history, same model). */
static int catch_up(const struct mbd_runner *r, struct mbd_slot *s)
{
	if (!s->oracle_behind)
		return 0;
	s->oracle_behind = false;
	return mbd_oracle_copy(s->oracle, r->slot[0].oracle);
}

/* Every variant still on the baseline's path: its oracle step can wait. */
static bool none_parted(const struct mbd_runner *r)
{
	for (size_t j = 1; j < r->n; j++)
		if (!r->slot[j].same)
			return false;
	return true;
}

/*
 * MBDIFF_RESET_CHECK: same_as() must answer what copying and comparing
 * does. b's after buffer is stale while it is on the path: scratch.
 */
static void check_same_as(struct mbd_slot *b, const struct mbd_slot *a)
{
	bool copied, in_place;

	b->var->snapshot(b->after);
	copied = mbd_state_equal(a->after, b->after);
	in_place = b->var->same_as(a->after);
	if (copied == in_place)
		return;
	fprintf(stderr, "mbdiff: %s: same_as() says %s, its snapshot %s the baseline's\n",
		b->var->name, in_place ? "same" : "different",
		copied ? "equals" : "differs from");
	abort();
}

/*
 * After op i: a variant that just left the baseline's path gets its
 * oracle back in step first (the baseline's is not stepped yet for this
 * op, so it holds the state both had before it; a lazy one replays its
 * deferred steps first). Returns 1 when that replay found a baseline
 * fault (v filled), -1 when out of memory.
 */
static int update_same(struct mbd_runner *r, size_t i, struct mbd_verdict *v)
{
	const struct mbd_slot *a = &r->slot[0];

	for (size_t j = 1; j < r->n; j++) {
		struct mbd_slot *b = &r->slot[j];

		if (!b->same)
			continue;
		if (r->strict)
			check_same_as(b, a);
		if (result_equal(&a->res, &b->res) && b->var->same_as(a->after))
			continue;
		/* it parts: its own states, the one before this op being the
		   baseline's */
		mbd_state_copy(b->before, a->before);
		b->var->snapshot(b->after);
		if (settle(r, i, v))
			return 1;
		b->same = false;
		if (catch_up(r, b))
			return -1;
	}
	return 0;
}

static void reset_all(struct mbd_runner *r, const struct mbd_trace *t)
{
	const struct mbd_config *cfg = &t->cfg;

	r->slot[0].trace = t;
	r->slot[0].lazy_next = 0;
	r->slot[0].applied = 0;
	for (size_t i = 0; i < r->n; i++) {
		struct mbd_slot *s = &r->slot[i];

		s->var->reset(cfg, r->opts.verbose | (r->opts.events ? MBD_RESET_EVENTS : 0));
		memset(&s->res, 0, sizeof(s->res));
		s->pos = 0;
		s->after = &s->ring[0];
		s->before = &s->ring[s->ring_n - 1];
		s->var->snapshot(s->after);
		/* Before the first op "before" and "after" are the boot state. */
		mbd_state_copy(s->before, s->after);
		if (s->oracle)
			mbd_oracle_reset(s->oracle, cfg);
		s->oracle_behind = false;
		s->same = i > 0 && s->var->kver == r->slot[0].var->kver &&
			  mbd_state_equal(s->after, r->slot[0].after);
	}
}

/* A result for later: the message only when there is one (it is most of
 * the struct, and copying it each call showed under ASan). */
static void keep_result(struct mbd_result *dst, const struct mbd_result *src)
{
	dst->ret = src->ret;
	dst->panicked = src->panicked;
	if (src->panicked)
		memcpy(dst->panic_msg, src->panic_msg, sizeof(dst->panic_msg));
	else
		dst->panic_msg[0] = '\0';
}

/* Op k of the trace on every variant ("after" of op k - 1 is "before"). */
static void apply_all(struct mbd_runner *r, size_t k, const struct mbd_op *op)
{
	for (size_t i = 0; i < r->n; i++) {
		struct mbd_slot *s = &r->slot[i];

		s->before = s->after;
		if (++s->pos == s->ring_n)
			s->pos = 0;
		s->after = &s->ring[s->pos];
		/* apply() sets ret, panicked and the message's first byte */
		s->var->apply(op, &s->res);
		/* on the baseline's path: update_same() compares in place */
		if (!s->same)
			s->var->snapshot(s->after);
		if (s->res_ring)
			keep_result(&s->res_ring[k % LAZY_RING], &s->res);
	}
	r->slot[0].applied = k + 1;
}

/*
 * Panic outcomes. Returns true if any variant panicked (the trace cannot go
 * on); *all_same tells agreement; *first_diff is the first variant whose
 * outcome differs from the baseline's.
 */
static bool check_panics(const struct mbd_runner *r, bool *all_same,
			 size_t *first_diff)
{
	const struct mbd_result *r0 = &r->slot[0].res;
	bool any = false;

	*all_same = true;
	*first_diff = 0;
	for (size_t i = 0; i < r->n; i++) {
		const struct mbd_result *ri = &r->slot[i].res;

		if (ri->panicked)
			any = true;
		if (i == 0)
			continue;
		if (ri->panicked != r0->panicked ||
		    (ri->panicked && strncmp(ri->panic_msg, r0->panic_msg,
					      sizeof(ri->panic_msg)) != 0)) {
			if (*all_same)
				*first_diff = i;
			*all_same = false;
		}
	}
	return any;
}

/* Worst comparison of the baseline with each other variant (first on ties). */
static void compare_all(const struct mbd_runner *r, struct mbd_diff *best,
			struct mbd_finding *f)
{
	const struct mbd_slot *a = &r->slot[0];
	struct mbd_diff d;

	for (size_t j = 1; j < r->n; j++) {
		const struct mbd_slot *b = &r->slot[j];
		enum mbd_class c;

		if (a->res.panicked || b->res.panicked || b->same)
			continue;
		/* a difference below min_class is dropped: no text for it */
		c = mbd_compare_text(&a->res, a->after, &b->res, b->after, &d,
				     r->opts.min_class);
		if (c < r->opts.min_class || c <= f->cls)
			continue;
		*best = d;
		f->cls = c;
		f->where = d.where;
		f->by_oracle = false;
		f->vb = (int)j;
		f->detail = best->detail;
		f->clause = 0;
		f->clauses = 0;
	}
}

/*
 * Step every live oracle (each must see every op to stay in sync) and keep
 * the worst finding if it beats the comparison (ties go to the comparison).
 * With base non-NULL the baseline's own finding goes there instead (a
 * baseline fault), whatever the comparison found.
 */
static void oracle_all(struct mbd_runner *r, size_t k, const struct mbd_op *op,
		       struct mbd_oracle_finding *best, struct mbd_finding *f,
		       struct mbd_oracle_finding *base)
{
	struct mbd_oracle_finding of;
	/* a lazy baseline with nothing parted defers op k (settle()); else
	   run_trace() settled it up to k */
	bool defer = r->lazy && none_parted(r);

	if (r->lazy && !defer)
		r->slot[0].lazy_next = k + 1;
	for (size_t i = 0; i < r->n; i++) {
		struct mbd_slot *s = &r->slot[i];
		enum mbd_class c;

		if (!s->oracle || s->res.panicked || (i == 0 && defer))
			continue;
		/* its finding would equal the baseline's, a tie the baseline
		   wins (or a baseline fault that ends the trace) */
		if (s->same) {
			s->oracle_behind = true;
			continue;
		}
		/* only a baseline fault is kept below min_class */
		c = mbd_oracle_step_text(s->oracle, op, s->before, s->after,
					 &s->res, &of,
					 i == 0 && base ? MBD_CLASS_NONE : r->opts.min_class);
		if (c == MBD_CLASS_NONE)
			continue;
		/* a baseline fault voids the comparison whatever min_class says */
		if (i == 0 && base) {
			*base = of;
			base->cls = c;
			continue;
		}
		if (c < r->opts.min_class || c <= f->cls)
			continue;
		*best = of;
		f->cls = c;
		f->where = of.where;
		f->by_oracle = true;
		f->vb = (int)i;
		f->detail = best->detail;
		f->clause = (int)of.clause;
		f->clauses = of.clauses;
	}
}

static void fill_divergence(const struct mbd_runner *r, struct mbd_verdict *v,
			    size_t i, const struct mbd_op *op,
			    const struct mbd_finding *f)
{
	v->divergent = true;
	v->by_oracle = f->by_oracle;
	v->cls = f->cls;
	v->where = f->where;
	v->op_index = i;
	v->op_kind = op->kind;
	v->va = f->by_oracle ? f->vb : 0;
	v->vb = f->vb;
	v->ops_run = i + 1;
	v->all_panicked = false;
	v->clause = f->by_oracle ? f->clause : 0;
	v->clauses = f->by_oracle ? f->clauses : 0;
	set_detail(v, f->detail ? f->detail : "");
	mbd_signature(v, r->slot[v->va].var->name, r->slot[v->vb].var->name);
}

/*
 * A BUG_ON() (or a harness limit) in the baseline means it is broken; a
 * plain panic() such as "cannot resize" is a designed outcome that the
 * other variants must reproduce.
 */
static bool baseline_bug(const struct mbd_result *res)
{
	return res->panicked &&
	       (strncmp(res->panic_msg, "kernel BUG", 10) == 0 ||
		strncmp(res->panic_msg, "kcompat:", 8) == 0);
}

/*
 * The baseline itself is unsound at op i: stop without a verdict, since
 * every comparison against it from here on means nothing.
 */
static int baseline_fault(struct mbd_verdict *v, size_t i,
			  const struct mbd_op *op, enum mbd_class cls,
			  enum mbd_where where, bool by_oracle, const char *what)
{
	v->baseline_fault = true;
	v->by_oracle = by_oracle;
	v->cls = cls;
	v->where = where;
	v->op_index = i;
	v->op_kind = op->kind;
	v->ops_run = i + 1;
	set_detail(v, what);
	return 0;
}

/*
 * The checkpoints after op i against the baseline's state. A mismatch is
 * reported like an oracle finding about the baseline (va == vb == 0), with
 * the signature "mbdiff: expectation NAME where/class at op N name".
 */
static bool check_expects(const struct mbd_runner *r, const struct mbd_trace *t,
			  size_t *next, size_t i, struct mbd_verdict *v)
{
	char what[200];

	for (; *next < t->n_expects && t->expects[*next].after_op <= i + 1; (*next)++) {
		const struct mbd_expect *e = &t->expects[*next];
		enum mbd_class c;
		char line[240];

		if (e->after_op != i + 1)
			continue;
		c = mbd_expect_check(e, r->slot[0].after, what, sizeof(what));
		if (c == MBD_CLASS_NONE)
			continue;
		v->divergent = true;
		v->by_oracle = true;
		v->cls = c;
		v->where = e->type == MBD_TYPE_RESERVED ? MBD_WHERE_RESERVED : MBD_WHERE_MEMORY;
		v->op_index = i;
		v->op_kind = t->ops[i].kind;
		v->va = v->vb = 0;
		v->ops_run = i + 1;
		if (e->line)
			snprintf(line, sizeof(line), "expect (line %u): %.200s", (unsigned)e->line, what);
		else
			snprintf(line, sizeof(line), "expect: %.200s", what);
		set_detail(v, line);
		snprintf(v->signature, sizeof(v->signature),
			 "mbdiff: expectation %.60s %s/%s at op %zu %s", r->slot[0].var->name,
			 mbd_where_name(v->where), mbd_class_name(c), i + 1,
			 mbd_op_name(v->op_kind));
		return true;
	}
	return false;
}

static int run_trace(struct mbd_runner *r, const struct mbd_trace *t,
		     struct mbd_verdict *v);

/*
 * Each variant is reset again right after the run, so the pages this input
 * wrote are released now and the next input's reset always starts from the
 * same clean arena: its path through the reset code (and so the coverage a
 * fuzzer sees) cannot depend on what ran before. The snapshots the report
 * reads are the runner's own copies and survive this.
 */
int mbd_runner_run(struct mbd_runner *r, const struct mbd_trace *t,
		   struct mbd_verdict *v)
{
	int ret;

	if (!r || !t || !v)
		return -1;
	ret = run_trace(r, t, v);
	for (size_t i = 0; i < r->n; i++)
		r->slot[i].var->reset(&t->cfg, 0);
	return ret;
}

static int run_trace(struct mbd_runner *r, const struct mbd_trace *t,
		     struct mbd_verdict *v)
{
	size_t next_expect = 0;
	/* Kept here, not in r, so the finding's detail pointer stays valid. */
	struct mbd_diff diff;
	struct mbd_oracle_finding ofind, obase;
	char msg[sizeof(v->detail)];
	bool skip;

	if (!r || !t || !v)
		return -1;
	/* Alone, the baseline is the subject: its faults are the findings. */
	skip = r->opts.skip_baseline_faults && r->n > 1;
	memset(v, 0, sizeof(*v));
	reset_all(r, t);

	for (size_t i = 0; i < t->n_ops; i++) {
		const struct mbd_op *op = &t->ops[i];
		struct mbd_finding f = { .cls = MBD_CLASS_NONE };
		bool any_panic, all_same;
		size_t pdiff;
		int rc;

		/* the lazy baseline's ring is full: its oldest state is next */
		if (r->lazy && i + 1 - r->slot[0].lazy_next >= LAZY_RING &&
		    settle(r, i, v))
			return 0;
		apply_all(r, i, op);
		rc = update_same(r, i, v);
		if (rc)
			return rc > 0 ? 0 : -1;
		any_panic = check_panics(r, &all_same, &pdiff);
		/* whatever ends the trace here comes after the deferred steps */
		if ((any_panic || (skip && baseline_bug(&r->slot[0].res))) &&
		    settle(r, i, v))
			return 0;
		if (any_panic && all_same) {
			v->all_panicked = true;
			v->op_index = i;
			v->op_kind = op->kind;
			v->ops_run = i + 1;
			set_detail(v, r->slot[0].res.panic_msg);
			return 0;
		}
		if (skip && baseline_bug(&r->slot[0].res)) {
			snprintf(msg, sizeof(msg), "panic: %.160s",
				 r->slot[0].res.panic_msg);
			return baseline_fault(v, i, op, MBD_CLASS_PANIC,
					      MBD_WHERE_CALL, false, msg);
		}
		if (any_panic && MBD_CLASS_PANIC >= r->opts.min_class) {
			const struct mbd_result *a = &r->slot[0].res;
			const struct mbd_result *b = &r->slot[pdiff].res;

			snprintf(msg, sizeof(msg), "panic: %.110s vs %.110s",
				 a->panicked ? a->panic_msg : "(returned)",
				 b->panicked ? b->panic_msg : "(returned)");
			f.cls = MBD_CLASS_PANIC;
			f.where = MBD_WHERE_CALL;
			f.vb = (int)pdiff;
			f.detail = msg;
		}
		/* a variant off the baseline's path needs the baseline's
		   oracle in step (update_same() settled it when they parted) */
		if (r->lazy && !none_parted(r) && settle(r, i, v))
			return 0;
		compare_all(r, &diff, &f);
		obase.cls = MBD_CLASS_NONE;
		oracle_all(r, i, op, &ofind, &f, skip ? &obase : NULL);
		if (obase.cls != MBD_CLASS_NONE) {
			snprintf(msg, sizeof(msg), "oracle %s/%s: %.200s",
				 mbd_where_name(obase.where),
				 mbd_class_name(obase.cls), obase.detail);
			return baseline_fault(v, i, op, obase.cls, obase.where,
					      true, msg);
		}
		if (f.cls != MBD_CLASS_NONE && f.by_oracle && f.vb == 0 &&
		    r->opts.skip_shared_faults && !skip && r->n > 1 && none_parted(r)) {
			snprintf(msg, sizeof(msg), "oracle %s/%s (shared): %.190s",
				 mbd_where_name(f.where), mbd_class_name(f.cls),
				 f.detail ? f.detail : "");
			baseline_fault(v, i, op, f.cls, f.where, true, msg);
			v->clause = f.clause;
			v->clauses = f.clauses;
			return 0;
		}
		if (f.cls != MBD_CLASS_NONE) {
			fill_divergence(r, v, i, op, &f);
			return 1;
		}
		if (r->opts.expects && !r->slot[0].res.panicked &&
		    check_expects(r, t, &next_expect, i, v)) {
			struct mbd_verdict fault;

			/* a deferred baseline fault (this op's too) came first */
			memset(&fault, 0, sizeof(fault));
			if (settle(r, i + 1, &fault)) {
				*v = fault;
				return 0;
			}
			return 1;
		}
		if (any_panic) {
			/* Filtered out by min_class, but a panicked variant
			 * has no kernel left to run the rest on. */
			v->ops_run = i + 1;
			return 0;
		}
	}
	v->ops_run = t->n_ops;
	return 0;
}

/* A lagging oracle is brought up to date when someone looks at it. */
struct mbd_oracle *mbd_runner_oracle(const struct mbd_runner *r, size_t i)
{
	if (i >= r->n)
		return NULL;
	settle(r, r->slot[0].applied, NULL);
	if (catch_up(r, &r->slot[i]))
		return NULL;
	return r->slot[i].oracle;
}
