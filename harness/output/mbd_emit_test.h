/* SPDX-License-Identifier: GPL-2.0 */
/*
 * `mbdiff emit-test`: turn a trace into a C test for the kernel's
 * tools/testing/memblock suite. The expected values come from running the
 * reference variant on the trace, so the test passes on mainline.
 */
#ifndef MBD_EMIT_TEST_H
#define MBD_EMIT_TEST_H

#include <stdio.h>

#include "mbd_trace.h"
#include "mbd_variant.h"

/*
 * Every trace address a is emitted as "b + a", b being a page-aligned
 * address inside the suite's dummy memory; the expected values are computed
 * with b = MBD_EMIT_BASE (any b aligned as the trace needs gives the same
 * offsets, see emit_test.c).
 */
#define MBD_EMIT_BASE (1ULL << 32)
/* Trace addresses must stay below this (the shift must not overflow). */
#define MBD_EMIT_ADDR_LIMIT (1ULL << 39)
/* PHYS_MEM_SIZE of tools/testing/memblock/tests/common.h: the dummy
 * memory dummy_physical_memory_init() allocates (MEM_SIZE, 32 KiB, is
 * only what the suite's own tests add of it) */
#define MBD_EMIT_MEM_SIZE (16ULL << 20)

struct mbd_emit_opts {
	const char *name;    /* C identifier stem of the test functions */
	const char *source;  /* where the trace came from (comment), or NULL */
	const char *notes;   /* the trace's own comment text, or NULL */
	const struct mbd_variant *reference; /* gives the expected state */
	const struct mbd_variant *patched;   /* NULL: do not check it fails */
};

/*
 * Write the test to out. Returns 0; or -1 with a reason in why when the
 * trace cannot be expressed in the kernel suite (slab, mirror, movable,
 * huge addresses, bad name) or on out of memory.
 */
int mbd_emit_test(FILE *out, const struct mbd_trace *t,
		  const struct mbd_emit_opts *o, char *why, size_t whylen);

#endif
