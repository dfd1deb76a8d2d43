/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The op-level mutator behind the fuzz targets' --mutator=ops: an input is
 * decoded to its trace, mutated as calls (insert, delete, duplicate, move,
 * change kind, move an address to an earlier range's edge or a byte or a
 * page off it, change sizes, array sizes and the boot config), and encoded
 * again (mbd_bin_encode_compact for the structured decoder). Cross-over
 * splices the calls of two inputs. Reentrant: all state is in the
 * mbd_mutator, and the output depends only on the input bytes and the seed.
 */
#ifndef MBD_MUTATE_H
#define MBD_MUTATE_H

#include <stddef.h>
#include <stdint.h>

#include "mbd_bin.h"

struct mbd_mutator;

/* Inputs are read and written for decoder dec. NULL when out of memory. */
struct mbd_mutator *mbd_mutator_new(enum mbd_decoder dec);
void mbd_mutator_free(struct mbd_mutator *m);

/*
 * Mutate the input data[0..size) in place (data has room for max bytes).
 * Returns the new size (<= max), or 0 when no mutated trace fits in max
 * bytes (the caller then mutates bytes instead).
 */
size_t mbd_mutate(struct mbd_mutator *m, uint8_t *data, size_t size, size_t max,
		  uint64_t seed);

/*
 * Write into out (max bytes) a trace made of calls of both inputs: a's
 * config, a run of a's calls, a run of b's, then the rest of a's. Returns
 * the size, or 0 when nothing fits.
 */
size_t mbd_crossover(struct mbd_mutator *m, const uint8_t *a, size_t na,
		     const uint8_t *b, size_t nb, uint8_t *out, size_t max,
		     uint64_t seed);

/*
 * If data is the last input m wrote in its compact form (structured
 * decoder), the trace mbd_bin_decode() gives for it, else NULL: valid
 * until m's next mutation. The encoder decodes every call it writes, so
 * the two are the same by construction (test_mutate checks it).
 */
const struct mbd_trace *mbd_mutator_last(const struct mbd_mutator *m,
					 const uint8_t *data, size_t size);

#endif
