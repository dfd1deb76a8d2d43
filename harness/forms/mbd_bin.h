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
 * base is mbd_bin_size_at[p] + (base & plus[p]) - (base & minus[p]), some
 * relative to base so base + size hits a chosen end (the table is in
 * bin_decode.c, docs/binary-format.md). Masks, not a switch: the encoder
 * tries all 32 for every size operand, as one vector loop.
 */
struct mbd_bin_size_ext {
	uint64_t at[32];
	uint64_t plus[32];  /* ~0: + base */
	uint64_t minus[32]; /* ~0: - base */
};
extern const struct mbd_bin_size_ext mbd_bin_size_ext;

static inline uint64_t mbd_bin_size_extreme(unsigned p, uint64_t base)
{
	const struct mbd_bin_size_ext *e = &mbd_bin_size_ext;

	return e->at[p] + (base & e->plus[p]) - (base & e->minus[p]);
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
/*
 * What a reader of a compact encoding knows after each of its calls: the
 * rings of earlier values and where the call ends. Given back with that
 * encoding as the hint (and the ops it decodes to), an encode starts at
 * the first call the new trace does not share with it, instead of reading
 * every call before that again. The op mutator keeps them for its last
 * output, which libFuzzer mutates next (-mutate_depth).
 */
struct mbd_bin_marks;
struct mbd_bin_marks *mbd_bin_marks_new(void);
void mbd_bin_marks_free(struct mbd_bin_marks *mk);

/*
 * The same for a t whose ops are all normalized already (mbd_op_normalize),
 * as far as fit bytes go: *n_fit gets how many calls end within fit bytes
 * (ends[] is filled up to there, and one past), and the length of the
 * config and those calls is returned; calls beyond are not encoded. The
 * bytes of a prefix do not depend on the calls after it, so these are
 * mbd_bin_encode_compact_from()'s first bytes. hint_marks and hint_ops, if
 * not NULL, are the marks this encoder left for hint and the calls hint
 * decodes to; marks, if not NULL (and not hint_marks), gets the marks of
 * the result. Neither changes the bytes written.
 */
long mbd_bin_encode_compact_normal(const struct mbd_trace *t, uint8_t *buf,
				   size_t cap, size_t *ends, const uint8_t *hint,
				   size_t hint_len, size_t fit, size_t *n_fit,
				   const struct mbd_bin_marks *hint_marks,
				   const struct mbd_op *hint_ops,
				   struct mbd_bin_marks *marks);

/* "structured"/"naive" <-> enum; returns -1 for an unknown name. */
int mbd_decoder_lookup(const char *name);
const char *mbd_decoder_name(enum mbd_decoder d);

#endif
