/* SPDX-License-Identifier: GPL-2.0 */
/* Verdict equality for tests that run one trace two ways. */
#ifndef MBD_TEST_VERDICT_H
#define MBD_TEST_VERDICT_H

#include <stdbool.h>
#include <string.h>

#include "mbd_verdict.h"

/* Every field a report or a fuzz target reads. */
static inline bool mbd_test_same_verdict(const struct mbd_verdict *a,
					 const struct mbd_verdict *b)
{
	return a->divergent == b->divergent && a->by_oracle == b->by_oracle &&
	       a->cls == b->cls && a->where == b->where &&
	       a->op_index == b->op_index && a->op_kind == b->op_kind &&
	       a->va == b->va && a->vb == b->vb && a->ops_run == b->ops_run &&
	       a->all_panicked == b->all_panicked &&
	       a->baseline_fault == b->baseline_fault &&
	       strcmp(a->detail, b->detail) == 0 &&
	       strcmp(a->signature, b->signature) == 0;
}

#endif
