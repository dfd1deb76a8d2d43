/* SPDX-License-Identifier: GPL-2.0 */
/* `expect` checkpoints: printing them and checking a state against them. */
#ifndef MBD_EXPECT_H
#define MBD_EXPECT_H

#include <stddef.h>

#include "mbd_trace.h"
#include "mbd_variant.h"
#include "mbd_verdict.h"

/* Format one checkpoint as an .mbt line (no newline), like snprintf. */
int mbd_text_format_expect(char *buf, size_t n, const struct mbd_expect *e);

/*
 * Check s against e. Returns MBD_CLASS_NONE when it matches; otherwise the
 * class of the mismatch (capacity: max; layout: cnt, total or a split; coverage:
 * a region's bytes, flags or nid) with a one-line description in detail.
 */
enum mbd_class mbd_expect_check(const struct mbd_expect *e, const struct mbd_state *s,
				char *detail, size_t n);

#endif
