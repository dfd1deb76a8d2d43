/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The compact encoder's pieces (bin_compact*.c), private to forms/:
 *   bin_compact.c          the calls: each op written and decoded back,
 *                          undone and written again checked when that
 *                          fails; the hint's bytes kept where they still
 *                          hold; the entries of mbd_bin.h
 *   bin_compact_operand.c  an op's operands, each the shortest candidate
 *                          the decoder's own producer turns into its value
 *   bin_compact_scan.c     candidates that reuse an earlier value of a ring,
 *                          and the filters that skip scans finding nothing
 *   bin_compact_extreme.c  which of the producers' extremes equal a value
 *   bin_compact_marks.c    what a reader knew after each call (mbd_bin_marks)
 * Calls point one way: bin_compact.c -> operand, marks; operand -> scan,
 * extreme. The encoder reads the decoder's own state (bin_layout.h), so it
 * stays beside the decoder and changes with the byte layout.
 */
#ifndef MBD_BIN_COMPACT_INT_H
#define MBD_BIN_COMPACT_INT_H

#include <stdbool.h>
#include <stdint.h>
#include <string.h>

#include "bin_layout.h"
#include "mbd_bin.h"

/*
 * test_compact_paths.c compiles these files a second time without their
 * shortcuts (MBD_COMPACT_NO_SHORTCUTS) and links that copy beside the
 * library's: every function they share is declared at the end of this
 * file and named here for the copy, so that neither encoder calls into
 * the other.
 */
#ifdef MBD_COMPACT_NO_SHORTCUTS
#define mbd_compact_put_op slow_compact_put_op
#define mbd_compact_put_addr slow_compact_put_addr
#define mbd_compact_scan_fine slow_compact_scan_fine
#define mbd_compact_scan_page slow_compact_scan_page
#define mbd_compact_addr_extreme_hits slow_compact_addr_extreme_hits
#define mbd_compact_size_extreme_hits slow_compact_size_extreme_hits
#define mbd_compact_mark slow_compact_mark
#define mbd_compact_mark_done slow_compact_mark_done
#define mbd_compact_shared_calls slow_compact_shared_calls
#define mbd_compact_resume slow_compact_resume
#endif

/* One candidate encoding of an operand. */
struct cand {
	uint8_t b[10];
	uint8_t n;
};

/* Candidates, shortest first wins (ties: first added). */
struct cands {
	struct cand c[12];
	unsigned n;
};

static inline void add(struct cands *cs, unsigned n, unsigned b0,
		       unsigned b1, unsigned b2)
{
	struct cand *c;

	if (cs->n == sizeof(cs->c) / sizeof(cs->c[0]))
		return;
	c = &cs->c[cs->n++];
	c->n = (uint8_t)n;
	c->b[0] = (uint8_t)b0;
	c->b[1] = (uint8_t)b1;
	c->b[2] = (uint8_t)b2;
}

static inline uint32_t ring_len(const struct ring *g)
{
	return g->n < N_RING ? g->n : N_RING;
}

/*
 * Which 64 KiB granules a ring's values fall in, as a 1024-bit filter kept
 * by the encoder beside the decoder's ring: a scan below can only find a
 * value within a page (fine) or 16 pages (page) of its target, so when no
 * granule near the target is in the filter, the scan would find nothing
 * and is skipped. Values that left the ring stay in the filter: a false
 * positive only costs the scan.
 */
#define RF_WORDS 16u
#define GRANULE_SHIFT 16

struct rfilt {
	uint64_t w[RF_WORDS];
	uint32_t seen; /* ring values added so far (the ring's n then) */
};

enum { RF_LOW, RF_ALL, RF_LENS, RF_N };

/*
 * The encoder's decoder and the filters of its rings. trust: every
 * candidate is taken to decode to its value, so only the call's decode
 * checks the choice. The pick is then the first of the shortest, which is
 * the checked pick whenever the call decodes right (nothing shorter can be
 * valid, and an earlier one of the same length was not there); when it
 * does not (a step that saturates), the call is encoded again checked.
 */
struct enc {
	struct sdec d;
	struct rfilt rf[RF_N];
	bool trust;
};

/* Output buffer; full means the encoding does not fit. */
struct out {
	uint8_t *p;
	size_t n, cap;
	bool full;
};

static inline void put(struct out *o, const uint8_t *b, size_t n)
{
	if (o->full || o->cap - o->n < n) {
		o->full = true;
		return;
	}
	memcpy(o->p + o->n, b, n);
	o->n += n;
}

static inline void put_u8(struct out *o, unsigned b)
{
	uint8_t x = (uint8_t)b;

	put(o, &x, 1);
}

static inline bool same_config(const struct mbd_config *a, const struct mbd_config *b)
{
	return a->memory_max == b->memory_max && a->reserved_max == b->reserved_max &&
	       a->resize == b->resize && a->slab == b->slab &&
	       a->bottom_up == b->bottom_up && a->mirror == b->mirror &&
	       a->movable == b->movable && a->limit == b->limit;
}

/* Every field of a and b, as memcmp() would (no padding), without a
 * library call: the encoder compares two calls for every call it writes. */
_Static_assert(sizeof(struct mbd_op) == 4 * sizeof(uint32_t) + 6 * sizeof(uint64_t),
	       "op_same() compares every field of struct mbd_op");
static inline bool op_same(const struct mbd_op *a, const struct mbd_op *b)
{
	return a->kind == b->kind && a->base == b->base && a->size == b->size &&
	       a->flags == b->flags && a->nid == b->nid && a->type == b->type &&
	       a->align == b->align && a->start == b->start && a->end == b->end &&
	       a->value == b->value;
}

/* The three ring counts of d, to undo or compare what one call pushed. */
static inline void ring_counts(const struct sdec *d, uint32_t n[RF_N])
{
	n[RF_LOW] = d->ends_low.n;
	n[RF_ALL] = d->ends_all.n;
	n[RF_LENS] = d->lens.n;
}

static inline bool wrapped(const struct sdec *d)
{
	return d->ends_all.n > N_RING || d->ends_low.n > N_RING || d->lens.n > N_RING;
}

/*
 * mbd_bin.h's marks: ends[i] and counts[i] are the reader after the config
 * (i = 0) and after call i; d's rings hold the values below their counts
 * at the end (no value is overwritten below 128: valid is false past it).
 */
struct mbd_bin_marks {
	bool valid;
	struct mbd_config cfg;
	size_t len, calls;
	size_t ends[MBD_FUZZ_MAX_OPS + 1];
	uint32_t counts[MBD_FUZZ_MAX_OPS + 1][RF_N];
	struct sdec d;
};

/* bin_compact_operand.c */
/* op's opcode and operands into o, each operand at e's rings; false when
 * an operand has no form that decodes to it. */
bool mbd_compact_put_op(struct out *o, struct enc *e, const struct mbd_op *op);
bool mbd_compact_put_addr(struct out *o, struct enc *e, uint64_t v);

/* bin_compact_scan.c: candidates for selector sel from the first earlier
 * value of g with a code into v (fine: 0, a byte or a page off, or -16..16
 * bytes; page: -16..+15 pages), off subtracted from each value first;
 * above skips values not above off. */
void mbd_compact_scan_fine(struct cands *cs, unsigned sel, struct rfilt *f,
			   const struct ring *g, uint64_t off, uint64_t v,
			   bool above);
void mbd_compact_scan_page(struct cands *cs, unsigned sel, struct rfilt *f,
			   const struct ring *g, uint64_t off, uint64_t v,
			   bool above);

/* bin_compact_extreme.c: bit p set when extreme p is v (for a size, that
 * of a range at base). */
uint32_t mbd_compact_addr_extreme_hits(uint64_t v);
uint32_t mbd_compact_size_extreme_hits(uint64_t base, uint64_t v);

/* bin_compact_marks.c */
void mbd_compact_mark(struct mbd_bin_marks *mk, size_t i, const struct sdec *d,
		      size_t end);
void mbd_compact_mark_done(struct mbd_bin_marks *mk, const struct mbd_config *cfg,
			   size_t len, size_t calls, const struct sdec *d);
size_t mbd_compact_shared_calls(const struct mbd_trace *t,
				const struct mbd_bin_marks *mk,
				const struct mbd_op *ops, size_t hint_len);
void mbd_compact_resume(struct sdec *h, const struct mbd_bin_marks *mk, size_t k,
			const uint8_t *hint, size_t hint_len);

#endif
