/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The lockstep runner: reset every variant, apply each op to all of them,
 * snapshot, compare each variant with the first (the baseline) and let one
 * oracle per variant check it. Stops at the first op where anything differs.
 */
#ifndef MBD_RUNNER_H
#define MBD_RUNNER_H

#include "mbd_trace.h"
#include "mbd_variant.h"
#include "mbd_verdict.h"

struct mbd_runner_opts {
	bool oracle;            /* run the oracle (default true) */
	enum mbd_class min_class; /* ignore differences below this (default
				     MBD_CLASS_DEFAULT_MIN) */
	int verbose;            /* kernel pr_* and memblock_dbg to stderr */
	/*
	 * A differential verdict assumes a sound baseline. When the baseline
	 * itself hits a BUG_ON() or fails the oracle, true (the default)
	 * ends the trace there as a baseline fault (v->baseline_fault, not
	 * divergent: such inputs are findings about the baseline, reported by
	 * running it alone); false reports the divergence that follows.
	 */
	bool skip_baseline_faults;
	/*
	 * With skip_baseline_faults false: a baseline oracle fault while
	 * every other variant is still on the baseline's path (same state and
	 * results so far, so the same fault) ends the trace as a baseline
	 * fault, not a divergence. The variants share it; a fault only the
	 * baseline has is still a divergence (a patch that fixes it).
	 * Default false.
	 */
	bool skip_shared_faults;
	/* check the trace's `expect` checkpoints against the baseline
	   (default true); false compares the variants only */
	bool expects;
	/*
	 * With skip_baseline_faults and n > 1: while every variant equals
	 * the baseline, its oracle steps are deferred and replayed only when
	 * something happens (a variant parts, a panic, a checkpoint, a
	 * report asks for the oracle), so every divergence and every baseline
	 * fault before one is exactly as without it. A trace in which nothing
	 * happens ends without the replay: it reads "no divergence" even if
	 * the baseline's oracle would have found a fault, which only the
	 * fuzz targets accept (both are no crash there). And the baseline
	 * runs on past a fault not seen yet: the fuzz targets set this only
	 * for a reference baseline, as a patch may corrupt memory there.
	 * Default false.
	 */
	bool lazy_baseline_oracle;
	/* record each call's messages in the states (mbd_state.events,
	   MBD_RESET_EVENTS): for the judge's root cause. Default false. */
	bool events;
};

void mbd_runner_opts_default(struct mbd_runner_opts *o);

struct mbd_runner;

/* variants[0] is the baseline; n >= 1 (n == 1 runs the oracle only). */
struct mbd_runner *mbd_runner_new(const struct mbd_variant *const *variants,
				  size_t n, const struct mbd_runner_opts *o);
void mbd_runner_free(struct mbd_runner *r);

/*
 * Run the whole trace. Returns 1 and fills v on a divergence, 0 when all
 * variants agree (v->divergent false, v->ops_run set), -1 on an internal
 * error (out of memory).
 */
int mbd_runner_run(struct mbd_runner *r, const struct mbd_trace *t,
		   struct mbd_verdict *v);

/* After a run: what variant i looked like before and after the last op run
 * (the diverging one), and that op's result. For reports. */
size_t mbd_runner_count(const struct mbd_runner *r);
const struct mbd_variant *mbd_runner_variant(const struct mbd_runner *r, size_t i);
const struct mbd_state *mbd_runner_before(const struct mbd_runner *r, size_t i);
const struct mbd_state *mbd_runner_after(const struct mbd_runner *r, size_t i);
const struct mbd_result *mbd_runner_result(const struct mbd_runner *r, size_t i);
struct mbd_oracle *mbd_runner_oracle(const struct mbd_runner *r, size_t i);

#endif
