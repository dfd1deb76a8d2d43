/* SPDX-License-Identifier: GPL-2.0 */
/*
 * An address-space picture of a replay (`mbdiff replay --svg`): memory and
 * reserved regions of every variant after the last op the runner ran (the
 * diverging one, or the last of a clean trace), one row per type and
 * variant on a shared axis. The axis gives every interval between two
 * region boundaries the same width, so a page next to a terabyte stays
 * visible; boundaries are labelled in hex. Where a variant's coverage,
 * flags, node or split differs from the baseline's, the range is drawn in
 * red (elements of class "diff"); a clean run has none.
 */
#ifndef MBD_SVG_H
#define MBD_SVG_H

#include <stdio.h>

#include "mbd_runner.h"

/*
 * Write the picture for the run r just made of t (verdict v) to out; input
 * names the file in the picture. Returns 0, or -1 when out of memory.
 */
int mbd_svg_write(FILE *out, const struct mbd_runner *r,
		  const struct mbd_trace *t, const struct mbd_verdict *v,
		  const char *input);

#endif
