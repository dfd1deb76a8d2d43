/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Who is wrong, and which bug it is (`mbdiff judge`, `mbdiff check`).
 *
 * A divergence between mainline (the baseline) and a patch says only that
 * they differ. The judge runs the trace three times: both in lockstep
 * (baseline faults counted: mbd_runner_opts.skip_shared_faults), then each
 * alone under its oracle, which says whether that side breaks the API
 * contract (or hits BUG_ON()) and where. From that it names the kind
 * (regression, fix, behaviour change, both wrong) and a root-cause key that
 * stays the same for every trace reaching the same bug: the BUG_ON() site,
 * the contract clause and array, or the kind of behaviour that differs.
 */
#ifndef MBD_JUDGE_H
#define MBD_JUDGE_H

#include <stdbool.h>
#include <stdio.h>

#include "mbd_runner.h"

enum mbd_judge_kind {
	MBD_JUDGE_NONE = 0,    /* the two agree over the whole trace */
	MBD_JUDGE_SHARED,      /* both break the contract the same way */
	MBD_JUDGE_BEHAVIOUR,   /* both hold the contract and differ */
	MBD_JUDGE_FIX,         /* mainline breaks it, the patch holds */
	MBD_JUDGE_BOTH,        /* both break it, differently */
	MBD_JUDGE_REGRESSION,  /* the patch breaks it, mainline holds */
};

const char *mbd_judge_kind_name(enum mbd_judge_kind k);

/* One side run alone: its first fault, if any. */
struct mbd_judge_side {
	bool fault;
	enum mbd_class cls;
	enum mbd_where where;
	size_t op;             /* 0-based op of the fault */
	char key[200];         /* "panic: FUNC: BUG_ON(...)", "contract: W: CLAUSE" */
	char title[200];       /* a line for people */
	char what[256];        /* the oracle's or the panic's detail */
	char site[320];        /* "mm/memblock.c:LINE: text" of a BUG_ON, or "" */
	bool designed_panic;   /* it panicked by design ("cannot resize") */
};

struct mbd_judge {
	bool divergent;
	struct mbd_verdict pair;       /* the lockstep verdict */
	enum mbd_judge_kind kind;
	char key[220];
	char title[240];
	char site[320];
	struct mbd_judge_side side[2]; /* [0] baseline, [1] patch */
	/* the root cause when it is not the fault itself (judge_cause.c):
	   "cause: ...", or "" to group by key; why: what shows it */
	char cause[80];
	char cause_why[300];
};

struct mbd_judge_ctx;

/*
 * Judge base against patched. src[i] (may be NULL) is the source file that
 * variant was compiled from, to quote a BUG_ON()'s line. ropts: min_class
 * is honoured; the rest is set by the judge.
 */
struct mbd_judge_ctx *mbd_judge_new(const struct mbd_variant *base,
				    const struct mbd_variant *patched,
				    const char *const src[2],
				    const struct mbd_runner_opts *ropts);
void mbd_judge_free(struct mbd_judge_ctx *c);
/* 0, or -1 on an internal error (out of memory). */
int mbd_judge_run(struct mbd_judge_ctx *c, const struct mbd_trace *t,
		  struct mbd_judge *j);

/* The bug a judgement belongs to (scripts/check-bugs.sh groups by it):
 * its root cause when it has one, else its key. */
static inline const char *mbd_judge_bug_key(const struct mbd_judge *j)
{
	return j->cause[0] ? j->cause : j->key;
}

/* Fill j->cause after a lockstep run of pair that ended in j->pair. */
void mbd_judge_cause(const struct mbd_runner *pair, struct mbd_judge *j);

/* One JSON object on one line (no newline). */
void mbd_judge_json(FILE *out, const char *file, const struct mbd_judge *j,
		    const struct mbd_trace *t);

/*
 * "FILE:LINE: text" for the line of func where cond (BUG_ON's stringified
 * argument) stands in path, whitespace folded; buf "" when not found.
 * label replaces path in the output (e.g. "mm/memblock.c").
 */
void mbd_judge_site(const char *path, const char *label, const char *func,
		    const char *cond, char *buf, size_t n);

#endif
