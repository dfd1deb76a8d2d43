/* SPDX-License-Identifier: GPL-2.0 */
/* Between lift.c (candidates, the judge) and lift_build.c (one candidate). */
#ifndef MBD_LIFT_INT_H
#define MBD_LIFT_INT_H

#include "mbd_lift.h"

/* What one call of the reproducer finds and does, per array. */
struct mbd_lift_step {
	uint64_t cnt[2], max[2];  /* before the call: [0] memory, [1] reserved */
	unsigned doublings[2];    /* how often the call doubles each array */
};

/* The reproducer run on the side that is wrong: one step per call up to
 * the first panic. */
struct mbd_lift_profile {
	struct mbd_lift_step *steps;
	size_t n;
};

int mbd_lift_profile(const struct mbd_variant *v, const struct mbd_trace *t,
		     struct mbd_lift_profile *p);

/*
 * Build the candidate for address scale s, the fillers above the
 * reproducer's addresses or (below) under them, into out, the fillers counted in
 * *n_fillers. Returns 0, or 1 with why set when this scale cannot be
 * built (the addresses overflow, no room above them), -1 when out of
 * memory.
 */
int mbd_lift_build(const struct mbd_variant *v, const struct mbd_trace *t,
		   const struct mbd_lift_profile *p, unsigned s, bool below,
		   const struct mbd_lift_opts *o, struct mbd_trace *out,
		   size_t *n_fillers, char *why, size_t why_len);

#endif
