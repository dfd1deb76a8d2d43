/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The op mutator's pieces (mutate*.c), private to mutate/:
 *   mutate.c        the mutator, mbd_mutate() and mbd_crossover()
 *   mutate_load.c   input bytes to calls: the cache of decoded inputs and
 *                   the hashes of inputs this mutator wrote
 *   mutate_emit.c   calls back to bytes: the compact form, else the plain
 *                   one, cut to fit
 *   mutate_ops.c    the mutations, one of them drawn by weight
 *   mutate_gen.c    new operands and calls, aimed at the trace's own edges
 * Calls point one way: mutate.c -> load, emit, ops; emit -> load, ops;
 * ops -> gen.
 */
#ifndef MBD_MUTATE_INT_H
#define MBD_MUTATE_INT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "mbd_mutate.h"

#define MAX_OPS MBD_FUZZ_MAX_OPS
#define PAGE MBD_PAGE_SIZE
#define TIB_ (1ULL << 40)
#define KNOWN_SLOTS 16384u /* a power of two: 128 KiB per mutator */
#define LOADED_SLOTS 1024u /* a power of two: about 5 MiB, on first use */
#define LOADED_MAX_LEN 512u /* longer inputs are decoded every time */

/* A decoded input: libFuzzer mutates and splices the same corpus inputs
 * over and over, and each would be decoded again. */
struct loaded {
	uint64_t h; /* mbd_mut_hash() of bytes[0..len); 0: empty slot */
	size_t len;
	uint8_t bytes[LOADED_MAX_LEN];
	struct mbd_config cfg;
	size_t n;
	struct mbd_op ops[MAX_OPS];
};

struct mbd_mutator {
	enum mbd_decoder dec;
	struct mbd_trace in;           /* decoded input (buffers reused) */
	struct mbd_config cfg;         /* the trace being built */
	struct mbd_op ops[2 * MAX_OPS];
	size_t n;
	uint8_t buf[MBD_BIN_MAX_LEN];
	size_t ends[MAX_OPS + 1];
	/* hashes of inputs this mutator wrote (compact by construction),
	 * one per slot: a later input found here keeps its unchanged
	 * prefix instead of being encoded again (mbd_mut_emit()) */
	uint64_t made[KNOWN_SLOTS];
	/* the last compact output and the trace it decodes to (the fuzz
	   target runs it next: mbd_mutator_last() spares it the decode) */
	uint8_t last[MBD_BIN_MAX_LEN];
	size_t last_len;
	struct mbd_trace last_trace;
	/* the encoder's marks of last (marks[mk]) and of the next output:
	   an encode with last as its hint starts at the first changed call */
	struct mbd_bin_marks *marks[2];
	unsigned mk;
	struct loaded *loaded; /* LOADED_SLOTS, by hash */
};

/* One mutation's view: the random stream and the trace's values. */
struct mctx {
	uint64_t s;
	struct mbd_mutator *m;
	uint64_t edges[2 * MAX_OPS + 1];
	size_t n_edges;
	uint64_t sizes[MAX_OPS];
	size_t n_sizes;
};

/* splitmix64: a seed gives one stream, whatever ran before. Inline, as
 * every draw of every file takes it. */
static inline uint64_t rnd(struct mctx *c)
{
	uint64_t z = (c->s += 0x9e3779b97f4a7c15ULL);

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
	return z ^ (z >> 31);
}

static inline uint32_t below(struct mctx *c, uint32_t n)
{
	return n ? (uint32_t)(rnd(c) % n) : 0;
}

static inline bool is_range(uint32_t kind)
{
	return mbd_shape_is_range(mbd_op_table[kind].shape);
}

static inline uint64_t capped_end(uint64_t base, uint64_t size)
{
	return size > MBD_PHYS_ADDR_MAX - base ? MBD_PHYS_ADDR_MAX : base + size;
}

static inline uint64_t add_sat(uint64_t a, int64_t d)
{
	if (d < 0)
		return (uint64_t)-d > a ? 0 : a - (uint64_t)-d;
	return (uint64_t)d > MBD_PHYS_ADDR_MAX - a ? MBD_PHYS_ADDR_MAX : a + (uint64_t)d;
}

/* mutate_load.c */
uint64_t mbd_mut_hash(const uint8_t *p, size_t n);
/* Bytes this mutator wrote (their hash): see mbd_mut_made_here(). */
void mbd_mut_remember(struct mbd_mutator *m, const uint8_t *p, size_t n);
/* Did this mutator write the bytes of hash h (their compact form)? */
bool mbd_mut_made_here(const struct mbd_mutator *m, uint64_t h);
/* Input bytes (h: their hash) -> m's trace; true if data is m's last
 * output, whose encoder marks m keeps. */
bool mbd_mut_load(struct mbd_mutator *m, const uint8_t *data, size_t size,
		  uint64_t h);

/* mutate_emit.c: m's trace into out (max bytes), keeping hint's bytes for
 * the calls they still give; the size, or 0 when nothing worth running
 * fits. */
size_t mbd_mut_emit(struct mbd_mutator *m, uint8_t *out, size_t max,
		    const uint8_t *hint, size_t hint_len, bool hint_is_last);

/* mutate_ops.c */
void mbd_mut_delete_at(struct mbd_mutator *m, size_t at);
/* One mutation, drawn by weight, of m's trace. */
void mbd_mut_once(struct mctx *c);

/* mutate_gen.c */
void mbd_mut_collect(struct mctx *c);
int64_t mbd_mut_delta(struct mctx *c);
uint64_t mbd_mut_gen_addr(struct mctx *c);
uint64_t mbd_mut_gen_size(struct mctx *c, uint64_t base);
int32_t mbd_mut_gen_nid(struct mctx *c);
uint64_t mbd_mut_gen_align(struct mctx *c);
uint32_t mbd_mut_gen_kind(struct mctx *c);
/* A boot array's max. */
uint32_t mbd_mut_gen_max(struct mctx *c);
void mbd_mut_fill_op(struct mctx *c, struct mbd_op *op);

#endif
