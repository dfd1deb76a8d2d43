/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Run one trace and get its verdict key, in this process or in a child
 * (then a child killed by a signal or a sanitizer gives "crash", a hung one
 * "timeout"). The minimizer's candidate test, also used by `mbdiff minimize`
 * to learn the key of its input without risking the parent process.
 */
#ifndef MBD_PROBE_H
#define MBD_PROBE_H

#include "mbd_runner.h"

/* key receives "" when t does not diverge; *ops_run is 0 when unknown. */
void mbd_probe_key(struct mbd_runner *r, const struct mbd_trace *t,
		   bool in_child, int verbose, char *key, size_t n,
		   size_t *ops_run);

#endif
