/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What `mbdiff check` (scripts/check.sh) asks of the fuzz target: keep
 * searching past the first divergence, one file per distinct signature,
 * and run every input on the kernel's boot-sized arrays.
 */
#ifndef MBD_FUZZ_KEEP_H
#define MBD_FUZZ_KEEP_H

#include <stdint.h>
#include <stdio.h>

#include "fuzz_options.h"
#include "mbd_trace.h"
#include "mbd_verdict.h"

/* The kernel's INIT_MEMBLOCK_REGIONS: boot arrays have this many slots. */
#define MBD_BOOT_SLOTS 128

/* FNV-1a of a signature key (mbd_verdict_key): the name of its files. */
uint64_t mbd_fuzz_key_hash(const char *key);

/*
 * --config=boot: out = in on 128-slot arrays with resize allowed, preceded
 * by up to 127 memory banks and 127 small reservations at realistic
 * addresses (how many comes from the input's first two bytes), so the
 * decoded calls run against nearly full arrays. Returns 0 or -1 (no memory).
 */
int mbd_fuzz_boot_expand(const uint8_t *data, size_t size,
			 const struct mbd_trace *in, struct mbd_trace *out);

/*
 * --keep-going: record the divergence v of trace t. A signature key seen
 * for the first time is written to DIR/HASH.mbt (the trace) and
 * DIR/HASH.sig (key and signature line), atomically, and announced on err
 * ("mbdiff: unexplained difference: SIG", then the file). Returns
 * MBD_KEEP_WANTED when the target should stop (--want matched),
 * MBD_KEEP_NEW after writing a new key, MBD_KEEP_SEEN to go on quietly
 * (a key seen before, or not the --want key), -1 on a write error (printed
 * to err).
 */
enum { MBD_KEEP_SEEN = 0, MBD_KEEP_NEW = 1, MBD_KEEP_WANTED = 2 };

int mbd_fuzz_keep(const struct mbd_fuzz_opts *o, const struct mbd_trace *t,
		  const struct mbd_verdict *v, FILE *err);

#endif
