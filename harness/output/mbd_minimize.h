/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Shrink a diverging trace while it keeps the same verdict key (variants,
 * type, class, op name): op-level delta debugging, then operand shrinking
 * (sizes to page or power-of-two values, addresses to earlier endpoints,
 * config max values down).
 */
#ifndef MBD_MINIMIZE_H
#define MBD_MINIMIZE_H

#include "mbd_runner.h"

struct mbd_minimize_opts {
	bool fork_each;        /* run each candidate in a child (for crashes) */
	unsigned max_runs;     /* give up after this many candidate runs */
	int verbose;
};

void mbd_minimize_opts_default(struct mbd_minimize_opts *o);

/*
 * in must diverge on r with key target (see mbd_verdict_key). out receives
 * the smallest trace found that still has that key. Returns the number of
 * candidate runs made, or -1 if in does not reproduce the key.
 */
long mbd_minimize(struct mbd_runner *r, const struct mbd_trace *in,
		  const char *target_key, const struct mbd_minimize_opts *o,
		  struct mbd_trace *out);

#endif
