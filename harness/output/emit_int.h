/* SPDX-License-Identifier: GPL-2.0 */
/* Private to harness/output/emit_*.c: one trace prepared for emit-test. */
#ifndef MBD_EMIT_INT_H
#define MBD_EMIT_INT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "mbd_emit_test.h"
#include "mbd_variant.h"

struct emit_run {
	struct mbd_trace shifted;
	struct mbd_result *res; /* one per op run */
	size_t n_run;           /* ops before the first panic */
	bool panicked;
	char panic_msg[160];
	struct mbd_state end;
	uint64_t align;         /* A */
	uint64_t span;          /* highest end of added memory, unshifted */
};

/*
 * Whether the shifted trace still diverges on o->patched, as one line for
 * the test's header; a second line when it does so at another call or in
 * another way than the trace t as found. Returns 0 or -1 (out of memory).
 */
int mbd_emit_patched_line(const struct mbd_emit_opts *o, const struct emit_run *r,
			  const struct mbd_trace *t, char *buf, size_t n);

#endif
