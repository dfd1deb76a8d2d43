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

/* Can the byte forms carry op (normalized)? nid -1..64, flags up to 0x1f,
 * type and bottom-up 0 or 1. */
int mbd_bin_op_fits(const struct mbd_op *op, enum mbd_decoder dec);

/* The kind a structured opcode byte stands for (the op mutator draws new
 * calls this way, so their mix is the decoder's). */
uint32_t mbd_bin_kind_of(uint8_t opcode);
/* The structured address producer's extremes (docs/binary-format.md). */
extern const uint64_t mbd_bin_addr_extreme[32];
/*
 * The structured size producer's extremes: entry p (0..31) for a range at
 * base, some relative to base so base + size hits a chosen end. Inline:
 * the encoder tries all 32 for every size operand.
 */
static inline uint64_t mbd_bin_size_extreme(unsigned p, uint64_t base)
{
	const uint64_t kib = 1ULL << 10, mib = 1ULL << 20, gib = 1ULL << 30;
	const uint64_t tib = 1ULL << 40, pmax = MBD_PHYS_ADDR_MAX;

	switch (p) {
	case 0: return 0;
	case 1: return 1;
	case 2: return 4 * kib;
	case 3: return 2 * mib;
	case 4: return gib;
	case 5: return 4 * gib;
	case 6: return tib;
	case 7: return pmax;
	case 8: return pmax - 4 * kib + 1;
	case 9: return 1ULL << 63;
	case 10: return pmax - base;         /* ends exactly at PHYS_ADDR_MAX */
	case 11: return pmax - base + 1;     /* base + size wraps to 0 */
	case 12: return pmax - base + 2;     /* wraps to 1 */
	case 13: return pmax - base + 4 * kib;
	case 14: return pmax - base - 4 * kib + 1; /* ends at the top page */
	case 15: return pmax - base + 1 + mib;
	case 16: return tib - base;          /* ends at 1 TiB */
	case 17: return 4 * gib - base;      /* ends at 4 GiB */
	case 18: return 0x7fffffffffffffffULL;
	case 19: return pmax - 1;
	case 20: return 16;
	case 21: return 64;
	case 22: return 4 * kib - 1;
	case 23: return 4 * kib + 1;
	case 24: return 64 * kib;
	case 25: return mib;
	case 26: return 16 * mib;
	case 27: return 128 * mib;
	case 28: return 256 * gib;
	case 29: return pmax / 2;
	case 30: return base;
	default: return pmax - base - 1;
	}
}

/* Enough bytes for any trace in either encoding. */
#define MBD_BIN_MAX_LEN (16 + 40 * MBD_FUZZ_MAX_OPS)

/*
 * Encode t for the structured decoder as short as the producers allow
 * (earlier endpoints and lengths, extremes, grid values before literals;
 * bin_compact.c). buf holds cap bytes (MBD_BIN_MAX_LEN is always enough).
 * If ends is not NULL it gets n_ops + 1 entries: ends[i] bytes encode the
 * config and the first i ops, so any such prefix is itself a valid input.
 * Returns the length, or -1 for what mbd_bin_encode() refuses or a buffer
 * too small.
 */
long mbd_bin_encode_compact(const struct mbd_trace *t, uint8_t *buf, size_t cap,
			    size_t *ends);
/*
 * The same, keeping the bytes of hint (hint_len bytes, any structured
 * input) for the longest prefix of it that decodes to t's config and first
 * calls: the op mutator passes the input it mutated, so only the calls
 * from the first changed one on are encoded again. The result decodes to
 * t as above; it is as short as mbd_bin_encode_compact()'s whenever the
 * hint's prefix was written by it (every input the op mutator made).
 */
long mbd_bin_encode_compact_from(const struct mbd_trace *t, uint8_t *buf,
				 size_t cap, size_t *ends, const uint8_t *hint,
				 size_t hint_len);

/* "structured"/"naive" <-> enum; returns -1 for an unknown name. */
int mbd_decoder_lookup(const char *name);
const char *mbd_decoder_name(enum mbd_decoder d);

#endif
