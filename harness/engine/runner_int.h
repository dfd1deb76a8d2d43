// SPDX-License-Identifier: GPL-2.0
/*
 * The runner's private state, shared by runner.c (the lockstep loop) and
 * runner_setup.c (making, freeing and reading a runner).
 */
#ifndef MBD_RUNNER_INT_H
#define MBD_RUNNER_INT_H

#include "mbd_oracle.h"
#include "mbd_runner.h"

/*
 * States the baseline keeps for its deferred oracle steps: after op j is
 * ring[(j + 1) % LAZY_RING]; at most LAZY_RING - 2 steps wait.
 */
#define LAZY_RING 66

struct mbd_slot {
	const struct mbd_variant *var;
	struct mbd_state *ring; /* 2 states, LAZY_RING for a lazy baseline */
	size_t ring_n, pos;     /* after == &ring[pos] */
	/* a lazy baseline: op j's result at res_ring[j % LAZY_RING], and
	   its oracle has stepped the trace's ops before lazy_next */
	struct mbd_result *res_ring;
	const struct mbd_trace *trace;
	size_t lazy_next, applied;
	struct mbd_state *before;
	struct mbd_state *after;
	struct mbd_result res;
	struct mbd_oracle *oracle; /* NULL when opts.oracle is off */
	/*
	 * Every state and result so far equals the baseline's (and both are
	 * judged by the same contract): the comparison is known to find
	 * nothing and the baseline's oracle step stands for this one's. Its
	 * before/after buffers are then stale: the baseline's stand for them.
	 */
	bool same;
	bool oracle_behind;     /* same, and its oracle skipped steps */
};

struct mbd_runner {
	struct mbd_runner_opts opts;
	size_t n;
	struct mbd_slot *slot;
	bool lazy;              /* opts.lazy_baseline_oracle, and it applies */
	bool strict;            /* MBDIFF_RESET_CHECK: same_as checked too */
};

#endif
