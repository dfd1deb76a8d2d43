/* SPDX-License-Identifier: GPL-2.0 */
/* Human-readable divergence reports ending in one stable signature line. */
#ifndef MBD_REPORT_H
#define MBD_REPORT_H

#include <stdio.h>

#include "mbd_runner.h"

/*
 * Print: the trace up to and including the diverging op (as .mbt text), the
 * class and detail, the results of the op, both arrays of the differing type
 * side by side with differing rows marked, and last the signature line.
 */
void mbd_report_print(FILE *out, const struct mbd_runner *r,
		      const struct mbd_trace *t, const struct mbd_verdict *v);

/*
 * The same verdict in at most 72 columns: each variant's result and its
 * arrays after the diverging op, one variant after the other, then the
 * detail and the signature line (report_narrow.c).
 */
void mbd_report_narrow(FILE *out, const struct mbd_runner *r,
		       const struct mbd_trace *t, const struct mbd_verdict *v);

/* One line for a clean run: "mbdiff: ok reference~zhou-2025 (N ops)". */
void mbd_report_ok(FILE *out, const struct mbd_runner *r,
		   const struct mbd_trace *t, const struct mbd_verdict *v);

#endif
