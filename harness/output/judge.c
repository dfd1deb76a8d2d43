// SPDX-License-Identifier: GPL-2.0
/* Who is wrong, and which bug it is (mbd_judge.h). */
#include <stdlib.h>
#include <string.h>

#include "mbd_judge.h"
#include "mbd_oracle.h"

struct mbd_judge_ctx {
	struct mbd_runner *pair;
	struct mbd_runner *alone[2];
	const char *src[2];
};

static const char *const kind_names[] = {
	[MBD_JUDGE_NONE] = "none",
	[MBD_JUDGE_SHARED] = "shared",
	[MBD_JUDGE_BEHAVIOUR] = "behaviour",
	[MBD_JUDGE_FIX] = "fix",
	[MBD_JUDGE_BOTH] = "both",
	[MBD_JUDGE_REGRESSION] = "regression",
};

const char *mbd_judge_kind_name(enum mbd_judge_kind k)
{
	return (unsigned)k <= MBD_JUDGE_REGRESSION ? kind_names[k] : "none";
}

struct mbd_judge_ctx *mbd_judge_new(const struct mbd_variant *base,
				    const struct mbd_variant *patched,
				    const char *const src[2],
				    const struct mbd_runner_opts *ropts)
{
	struct mbd_judge_ctx *c = calloc(1, sizeof(*c));
	const struct mbd_variant *two[2] = { base, patched };
	struct mbd_runner_opts po = *ropts, ao = *ropts;

	if (!c)
		return NULL;
	/* lockstep: a fault only mainline has is a divergence (a fix) */
	po.oracle = true;
	po.expects = false;
	po.skip_baseline_faults = false;
	po.skip_shared_faults = true;
	po.lazy_baseline_oracle = false;
	po.events = true; /* where the two part inside a call: the cause */
	/* alone: every oracle finding counts, whatever its class */
	ao = po;
	ao.min_class = MBD_CLASS_WARNING;
	ao.events = false;
	c->pair = mbd_runner_new(two, 2, &po);
	c->alone[0] = mbd_runner_new(&two[0], 1, &ao);
	c->alone[1] = mbd_runner_new(&two[1], 1, &ao);
	for (int i = 0; i < 2; i++)
		c->src[i] = src ? src[i] : NULL;
	if (!c->pair || !c->alone[0] || !c->alone[1]) {
		mbd_judge_free(c);
		return NULL;
	}
	return c;
}

void mbd_judge_free(struct mbd_judge_ctx *c)
{
	if (!c)
		return;
	mbd_runner_free(c->pair);
	mbd_runner_free(c->alone[0]);
	mbd_runner_free(c->alone[1]);
	free(c);
}

/* "x.c" -> the label a kernel developer knows the file by */
static const char *label_of(const char *path)
{
	const char *p;

	if (!path)
		return "";
	p = strstr(path, "mm/memblock.c");
	if (p && !p[13])
		return "mm/memblock.c";
	p = strstr(path, "include/linux/memblock.h");
	if (p && !p[24])
		return "include/linux/memblock.h";
	p = strrchr(path, '/');
	return p ? p + 1 : path;
}

/* A BUG_ON() (or a harness limit) is a fault; a panic() such as "cannot
 * resize memory array" is the outcome the design asks for. */
static bool is_bug(const char *msg)
{
	return strncmp(msg, "kernel BUG", 10) == 0 || strncmp(msg, "kcompat:", 8) == 0;
}

static void side_panic(const struct mbd_judge_ctx *c, int i,
		       const struct mbd_verdict *v, struct mbd_judge_side *s)
{
	static const char pre[] = "kernel BUG in ";
	const char *msg = v->detail;

	snprintf(s->what, sizeof(s->what), "%s", msg);
	s->op = v->op_index;
	if (!is_bug(msg)) {
		s->designed_panic = true;
		return;
	}
	s->fault = true;
	s->cls = MBD_CLASS_PANIC;
	s->where = MBD_WHERE_CALL;
	s->op = v->op_index;
	if (strncmp(msg, pre, sizeof(pre) - 1) == 0) {
		/* "kernel BUG in FUNC: BUG_ON(cond)" */
		const char *fn = msg + sizeof(pre) - 1, *colon = strstr(fn, ": ");
		char func[96];

		if (colon && (size_t)(colon - fn) < sizeof(func)) {
			memcpy(func, fn, (size_t)(colon - fn));
			func[colon - fn] = '\0';
			snprintf(s->key, sizeof(s->key), "panic: %.90s: %.100s", func, colon + 2);
			snprintf(s->title, sizeof(s->title), "%.110s in %.80s()", colon + 2, func);
			if (strncmp(colon + 2, "BUG_ON(", 7) == 0 && c->src[i]) {
				char cond[160];
				size_t len = strlen(colon + 2 + 7);

				if (len && len < sizeof(cond)) {
					memcpy(cond, colon + 2 + 7, len - 1); /* drop ')' */
					cond[len - 1] = '\0';
					mbd_judge_site(c->src[i], label_of(c->src[i]), func,
						       cond, s->site, sizeof(s->site));
				}
			}
			return;
		}
	}
	snprintf(s->key, sizeof(s->key), "panic: %.180s", msg);
	snprintf(s->title, sizeof(s->title), "%.190s", msg);
}

static int run_side(struct mbd_judge_ctx *c, int i, const struct mbd_trace *t,
		    struct mbd_judge_side *s)
{
	struct mbd_verdict v;
	int rc = mbd_runner_run(c->alone[i], t, &v);
	enum mbd_clause cl;

	memset(s, 0, sizeof(*s));
	if (rc < 0)
		return -1;
	if (rc == 0) {
		if (v.all_panicked)
			side_panic(c, i, &v, s);
		return 0;
	}
	cl = mbd_clause_root(v.clauses, (enum mbd_clause)v.clause);
	s->fault = true;
	s->cls = v.cls;
	s->where = cl == MBD_CL_ARRAYS_OVERLAP || cl == MBD_CL_ARRAY_UNRESERVED ?
		   MBD_WHERE_RESERVED : v.where;
	s->op = v.op_index;
	snprintf(s->what, sizeof(s->what), "%s", v.detail);
	snprintf(s->key, sizeof(s->key), "contract: %s: %s",
		 mbd_where_name(s->where), mbd_clause_name(cl));
	snprintf(s->title, sizeof(s->title), "%s: %s", mbd_where_name(s->where),
		 mbd_clause_text(cl));
	return 0;
}

/* Both sides hold the contract: what kind of difference it is. */
static void behaviour(struct mbd_judge *j)
{
	const struct mbd_verdict *v = &j->pair;
	const char *w = mbd_where_name(v->where), *call = mbd_op_name(v->op_kind);

	snprintf(j->key, sizeof(j->key), "behaviour: %s/%s", w, mbd_class_name(v->cls));
	switch (v->cls) {
	case MBD_CLASS_WARNING:
		snprintf(j->title, sizeof(j->title), "WARN_ON() fires a different number of times");
		break;
	case MBD_CLASS_CAPACITY:
		snprintf(j->title, sizeof(j->title), "the %s array grows or moves differently", w);
		break;
	case MBD_CLASS_LAYOUT:
		snprintf(j->title, sizeof(j->title), "%s: the same bytes split or merged differently", w);
		break;
	case MBD_CLASS_RETURN:
		/* a call kind that returns otherwise is its own behaviour */
		snprintf(j->key, sizeof(j->key), "behaviour: call/return %s", call);
		snprintf(j->title, sizeof(j->title), "%s returns another value or address", call);
		break;
	case MBD_CLASS_PANIC:
		snprintf(j->key, sizeof(j->key), "behaviour: call/panic %s", call);
		snprintf(j->title, sizeof(j->title), "%s: one side panics by design, the other goes on", call);
		break;
	default:
		snprintf(j->title, sizeof(j->title), "%s: other %s, each side consistent with its own calls",
			 w, mbd_class_name(v->cls));
		break;
	}
}

static void take_side(struct mbd_judge *j, enum mbd_judge_kind kind, int i)
{
	static const char *const who[] = { "mainline breaks", "the patch breaks" };
	const struct mbd_judge_side *s = &j->side[i];

	j->kind = kind;
	snprintf(j->key, sizeof(j->key), "%s %s",
		 kind == MBD_JUDGE_SHARED ? "both break" : who[i], s->key);
	snprintf(j->title, sizeof(j->title), "%s", s->title);
	snprintf(j->site, sizeof(j->site), "%s", s->site);
}

int mbd_judge_run(struct mbd_judge_ctx *c, const struct mbd_trace *t,
		  struct mbd_judge *j)
{
	const struct mbd_judge_side *b = &j->side[0], *p = &j->side[1];
	bool bat, pat, same_key;
	int rc;

	memset(j, 0, sizeof(*j));
	rc = mbd_runner_run(c->pair, t, &j->pair);
	if (rc < 0 || run_side(c, 0, t, &j->side[0]) || run_side(c, 1, t, &j->side[1]))
		return -1;
	j->divergent = rc == 1;
	if (!j->divergent) {
		if (j->pair.baseline_fault && b->fault)
			take_side(j, MBD_JUDGE_SHARED, 0);
		return 0;
	}
	/*
	 * A panic() by design ("cannot resize") where the other side goes on
	 * stops a boot the other completes: that side is wrong.
	 */
	for (int i = 0; i < 2; i++) {
		struct mbd_judge_side *s = &j->side[i];
		const struct mbd_judge_side *o = &j->side[1 - i];

		if (!s->designed_panic || s->op != j->pair.op_index ||
		    (o->op == s->op && (o->designed_panic || o->fault)))
			continue;
		s->fault = true;
		s->cls = MBD_CLASS_PANIC;
		s->where = MBD_WHERE_CALL;
		snprintf(s->key, sizeof(s->key), "panic: %.180s", s->what);
		snprintf(s->title, sizeof(s->title), "panic(\"%.150s\") where the other side goes on",
			 s->what);
	}
	same_key = b->fault && p->fault && strcmp(b->key, p->key) == 0;
	/* nothing differs before the divergence, so no fault comes earlier */
	bat = b->fault && b->op == j->pair.op_index;
	pat = p->fault && p->op == j->pair.op_index;
	if (bat && pat)
		take_side(j, same_key ? MBD_JUDGE_SHARED : MBD_JUDGE_BOTH, 1);
	else if (pat)
		take_side(j, MBD_JUDGE_REGRESSION, 1);
	else if (bat && p->fault)
		take_side(j, MBD_JUDGE_BOTH, 1);  /* the patch breaks later */
	else if (bat)
		take_side(j, MBD_JUDGE_FIX, 0);
	else if (p->fault && !same_key)
		/* a different behaviour first, the contract broken after it */
		take_side(j, MBD_JUDGE_REGRESSION, 1);
	else {
		j->kind = MBD_JUDGE_BEHAVIOUR;
		behaviour(j);
	}
	mbd_judge_cause(c->pair, j);
	return 0;
}
