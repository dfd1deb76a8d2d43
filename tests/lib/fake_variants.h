/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Tiny in-memory memblock models for the runner and minimizer tests, so
 * those tests do not depend on the kernel-dialect variants. All share one
 * plain interval algorithm (sorted array, merge neighbours with equal flags
 * and nid); each buggy one differs in exactly one documented way.
 */
#ifndef MBD_FAKE_VARIANTS_H
#define MBD_FAKE_VARIANTS_H

#include "mbd_variant.h"

/* Correct models (two instances, so "good vs good" is a real comparison). */
extern const struct mbd_variant mbd_fake_good;
extern const struct mbd_variant mbd_fake_good2;
/* memblock_phys_free right after a memblock_reserve with the same base is
 * ignored: a reserved/coverage bug needing a 2-op pattern. */
extern const struct mbd_variant mbd_fake_pair_bug;
/* memblock_remove forgets to lower memory.total_size (layout; oracle:
 * invariant). */
extern const struct mbd_variant mbd_fake_total_bug;
/* memblock_add of exactly MBD_FAKE_PANIC_SIZE bytes panics: x and x2 with
 * the same message, y with another one. */
#define MBD_FAKE_PANIC_SIZE 0x7000ULL
extern const struct mbd_variant mbd_fake_panic_x;
extern const struct mbd_variant mbd_fake_panic_x2;
extern const struct mbd_variant mbd_fake_panic_y;
/* memblock_add of exactly MBD_FAKE_WARN_SIZE bytes hits a WARN_ON. */
#define MBD_FAKE_WARN_SIZE 0x3000ULL
extern const struct mbd_variant mbd_fake_warn;
/* memblock_remove whose base equals the previous op's memblock_reserve base
 * calls abort(): the process dies (for fork_each minimization). */
extern const struct mbd_variant mbd_fake_crash;

#endif
