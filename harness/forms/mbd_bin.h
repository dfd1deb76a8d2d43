/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The binary form fuzzers mutate. Every byte string decodes to a valid,
 * bounded trace. The structure-aware decoder picks addresses so that corner
 * cases are likely (earlier endpoints +- small deltas, page grid, extremes);
 * the naive decoder reads raw 64-bit operands (ablation baseline).
 * See docs/binary-format.md.
 */
#ifndef MBD_BIN_H
#define MBD_BIN_H

#include "mbd_trace.h"

enum mbd_decoder { MBD_DECODER_STRUCTURED = 0, MBD_DECODER_NAIVE = 1 };

/* Decode; never fails. Ops beyond MBD_FUZZ_MAX_OPS are dropped. */
void mbd_bin_decode(const uint8_t *data, size_t size, enum mbd_decoder dec,
		    struct mbd_trace *t);

/*
 * Encode t so that mbd_bin_decode(dec) gives back exactly t (same config,
 * same ops). Returns 0 with a malloc'd buffer in *out, or -1 (out of memory,
 * or more than MBD_FUZZ_MAX_OPS ops, or a config the format cannot carry).
 */
int mbd_bin_encode(const struct mbd_trace *t, enum mbd_decoder dec,
		   uint8_t **out, size_t *len);

/* "structured"/"naive" <-> enum; returns -1 for an unknown name. */
int mbd_decoder_lookup(const char *name);
const char *mbd_decoder_name(enum mbd_decoder d);

#endif
