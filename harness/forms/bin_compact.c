// SPDX-License-Identifier: GPL-2.0
/*
 * Trace -> the shortest structured bytes we can find: each operand as an
 * extreme, an earlier endpoint or length (+- a byte or a page), a grid
 * value, else a literal. Every choice is run through the decoder's own
 * producers against the decoder's own rings, and every op is decoded back
 * before the next is written, so the output decodes to exactly the trace
 * or the encoder fails. Short inputs matter to the op mutator
 * (mbd_mutate.h): libFuzzer's -max_len and len_control count bytes, and a
 * literal range op takes 13 bytes where reuse takes 3 to 5.
 */
#include <stdbool.h>
#include <string.h>

#include "bin_layout.h"
#include "mbd_bin.h"

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

static void add(struct cands *cs, unsigned n, unsigned b0, unsigned b1,
		unsigned b2)
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

static void add_le(struct cands *cs, unsigned sel, uint64_t v, unsigned nbytes)
{
	struct cand *c;

	if (cs->n == sizeof(cs->c) / sizeof(cs->c[0]))
		return;
	c = &cs->c[cs->n++];
	c->n = (uint8_t)(1 + nbytes);
	c->b[0] = (uint8_t)sel;
	for (unsigned i = 0; i < nbytes; i++)
		c->b[1 + i] = (uint8_t)(v >> (8 * i));
}

/* The producers' literal form: always right, so always the last resort. */
static void add_literal(struct cands *cs, uint64_t v)
{
	if (v < LIT40_LIMIT)
		add_le(cs, SEL_LIT40, v, 5);
	else
		add_le(cs, SEL_LIT64, v, 8);
}

static uint32_t ring_len(const struct ring *g)
{
	return g->n < N_RING ? g->n : N_RING;
}

/* The i-th most recent value (i < ring_len): ring_pick without the
 * modulo, inline because the scans below call it for every slot. */
static inline uint64_t ring_at(const struct ring *g, uint32_t i)
{
	return g->v[(g->n - 1 - i) % N_RING];
}

/*
 * The fine-delta code (docs/binary-format.md) that turns a into v: the
 * selector's low bits, and *x >= 0 for the extra byte it needs. -1 if
 * no code does.
 */
static inline int fine_code(uint64_t a, uint64_t v, int *x)
{
	int64_t d = (int64_t)(v - a);

	*x = -1;
	/* the common case first: v is nowhere near a */
	if (v - a + 16 > 32 && v - a != MBD_PAGE_SIZE && a - v != MBD_PAGE_SIZE)
		return -1;
	switch (d) {
	case 0: return 0;
	case 1: return 20;
	case -1: return 21;
	case (int64_t)MBD_PAGE_SIZE: return 22;
	case -(int64_t)MBD_PAGE_SIZE: return 23;
	}
	if (d < -16 || d > 16)
		return -1;
	*x = (int)(d + 16);
	return 24;
}

/* Page-delta code (-16..+15 pages) that turns a into v, or -1. */
static inline int page_code(uint64_t a, uint64_t v)
{
	int64_t d = (int64_t)(v - a);

	/* outside -16..+15 pages, or not a whole number of pages */
	if (v - a + 16 * MBD_PAGE_SIZE > 31 * MBD_PAGE_SIZE ||
	    ((v - a) & (MBD_PAGE_SIZE - 1)))
		return -1;
	d /= (int64_t)MBD_PAGE_SIZE;
	return d >= -16 && d <= 15 ? (int)(d + 16) : -1;
}

/* "selector | code, index[, extra]" when the code exists. */
static void add_reuse(struct cands *cs, unsigned sel, int code, uint32_t i, int x)
{
	if (code < 0)
		return;
	if (x < 0)
		add(cs, 2, sel | (unsigned)code, i, 0);
	else
		add(cs, 3, sel | (unsigned)code, i, (unsigned)x);
}

/* grid(p): k * unit in one byte, or two for the 4 KiB and 64 KiB units. */
static void add_grid(struct cands *cs, unsigned sel, uint64_t v)
{
	static const uint64_t unit[4] = { 4 * KIB, 64 * KIB, 2 * MIB, GIB };

	for (unsigned u = 0; u < 4; u++) {
		uint64_t k = v / unit[u];

		if (v % unit[u])
			continue;
		if (k < 256)
			add(cs, 2, sel | u, (unsigned)k, 0);
		else if (u < 2 && k < 65536)
			add(cs, 3, sel | 4 | u, (unsigned)(k & 0xff), (unsigned)(k >> 8));
	}
}

/*
 * The first earlier value of g with a code into v; codes needing no extra
 * byte are preferred (one is enough: the scan stops there).
 */
static void scan_fine(struct cands *cs, unsigned sel, const struct ring *g,
		      uint64_t off, uint64_t v, bool above)
{
	bool have3 = false;

	for (uint32_t i = 0; i < ring_len(g); i++) {
		uint64_t a = ring_at(g, i);
		int x, code;

		if (above && a <= off)
			continue; /* pick_above(i) is a itself only when a > base */
		code = fine_code(a - off, v, &x);
		if (code >= 0 && x < 0) {
			add_reuse(cs, sel, code, i, x);
			return;
		}
		if (code >= 0 && !have3) {
			add_reuse(cs, sel, code, i, x);
			have3 = true;
		}
	}
}

static void scan_page(struct cands *cs, unsigned sel, const struct ring *g,
		      uint64_t off, uint64_t v, bool above)
{
	for (uint32_t i = 0; i < ring_len(g); i++) {
		uint64_t a = ring_at(g, i);
		int code;

		if (above && a <= off)
			continue;
		code = page_code(a - off, v);
		if (code >= 0) {
			add_reuse(cs, sel, code, i, -1);
			return;
		}
	}
}

enum operand { OPD_ADDR, OPD_SIZE, OPD_NID, OPD_ALIGN };

/* What the decoder's producer makes of c, with d's rings. */
static bool produces(struct sdec *d, enum operand k, uint64_t base,
		     const struct cand *c, uint64_t v)
{
	struct rd saved = d->r;
	uint64_t got = 0;
	bool ok;

	d->r.p = c->b;
	d->r.n = c->n;
	d->r.pos = 0;
	switch (k) {
	case OPD_ADDR: got = mbd_bin_addr(d); break;
	case OPD_SIZE: got = mbd_bin_size(d, base); break;
	case OPD_NID: got = (uint64_t)(int64_t)mbd_bin_nid(d); break;
	case OPD_ALIGN: got = mbd_bin_align(d); break;
	}
	ok = got == v && d->r.pos == c->n;
	d->r = saved;
	return ok;
}

/*
 * The candidates of one operand, judged as they are added: the shortest
 * that decodes to v wins, ties going to the first added. A generator whose
 * candidates are never shorter than the best so far is skipped (enough()),
 * so the ring scans run only when no one- or two-byte form was found
 * earlier: the same choice as judging all of them, at a fraction of the
 * cost (the op mutator encodes every mutated input).
 */
struct pick {
	struct cands cs;
	unsigned judged;
	const struct cand *best;
	struct sdec *d;
	enum operand k;
	uint64_t base, v;
};

static void judge(struct pick *pk)
{
	for (; pk->judged < pk->cs.n; pk->judged++) {
		const struct cand *c = &pk->cs.c[pk->judged];

		if ((!pk->best || c->n < pk->best->n) &&
		    produces(pk->d, pk->k, pk->base, c, pk->v))
			pk->best = c;
	}
}

/* Nothing the next generator adds (at least min bytes each) can win. */
static bool enough(struct pick *pk, unsigned min)
{
	judge(pk);
	return pk->best && pk->best->n <= min;
}

/* One-byte extreme forms 0xa0 | p, p ascending, for the set bits of hit. */
static void add_extremes(struct cands *cs, uint32_t hit)
{
	for (; hit; hit &= hit - 1)
		add(cs, 1, 0xa0 | (unsigned)__builtin_ctz(hit), 0, 0);
}

/* Which extremes equal v: branch-free, so the compiler vectorizes it. */
static uint32_t addr_extreme_hits(uint64_t v)
{
	uint32_t hit = 0;

	for (unsigned p = 0; p < 32; p++)
		hit |= (uint32_t)(mbd_bin_addr_extreme[p] == v) << p;
	return hit;
}

static uint32_t size_extreme_hits(uint64_t base, uint64_t v)
{
	uint32_t hit = 0;

	for (unsigned p = 0; p < 32; p++)
		hit |= (uint32_t)(mbd_bin_size_extreme(p, base) == v) << p;
	return hit;
}

static void addr_cands(struct pick *pk)
{
	const struct sdec *d = pk->d;
	struct cands *cs = &pk->cs;
	uint64_t v = pk->v;

	add_extremes(cs, addr_extreme_hits(v));
	if (enough(pk, 2))
		return;
	if (!ring_len(&d->ends_low) && v % MIB == 0 && v / MIB < 256)
		add(cs, 2, 0x00, (unsigned)(v / MIB), 0); /* empty ring: i MiB */
	if (enough(pk, 2))
		return;
	scan_fine(cs, 0x00, &d->ends_low, 0, v, false);
	if (enough(pk, 2))
		return;
	scan_page(cs, 0xe0, &d->ends_all, 0, v, false);
	if (enough(pk, 2))
		return;
	add_grid(cs, 0x60, v);
	if (enough(pk, 6))
		return;
	add_literal(cs, v);
}

static void size_cands(struct pick *pk)
{
	const struct sdec *d = pk->d;
	struct cands *cs = &pk->cs;
	uint64_t base = pk->base, v = pk->v;

	if (v < 32)
		add(cs, 1, 0x60 | (unsigned)v, 0, 0);
	if (enough(pk, 1))
		return;
	add_extremes(cs, size_extreme_hits(base, v));
	if (enough(pk, 2))
		return;
	if (!ring_len(&d->lens) && v % MBD_PAGE_SIZE == 0 && v / MBD_PAGE_SIZE < 256)
		add(cs, 2, 0x00, (unsigned)(v / MBD_PAGE_SIZE), 0);
	if (enough(pk, 2))
		return;
	scan_fine(cs, 0x00, &d->lens, 0, v, false);
	if (enough(pk, 2))
		return;
	scan_fine(cs, 0x20, &d->ends_low, base, v, true);
	if (enough(pk, 2))
		return;
	scan_page(cs, 0xe0, &d->ends_all, base, v, true);
	if (enough(pk, 2))
		return;
	add_grid(cs, 0x80, v);
	if (enough(pk, 6))
		return;
	add_literal(cs, v);
}

static void nid_cands(struct pick *pk)
{
	struct cands *cs = &pk->cs;
	int32_t nid = (int32_t)(int64_t)pk->v;

	if (nid >= 0 && nid <= 3)
		add(cs, 1, (unsigned)nid, 0, 0);
	else if (nid == MBD_NUMA_NO_NODE)
		add(cs, 1, 0xc0, 0, 0);
	else if (nid == MBD_MAX_NUMNODES)
		add(cs, 1, 0xe0, 0, 0);
	add(cs, 2, SEL_NID_LIT, (unsigned)(nid + 1) & 0xffu, 0);
}

static void align_cands(struct pick *pk)
{
	struct cands *cs = &pk->cs;
	uint64_t v = pk->v;

	if (v == 0)
		add(cs, 1, SEL_ALIGN_ZERO, 0, 0);
	for (unsigned k = 0; k < 22; k++)
		if (v == 1ULL << k)
			add(cs, 1, k, 0, 0);
	if (enough(pk, 9))
		return;
	add_le(cs, SEL_ALIGN_LIT, v, 8);
}

/* Output buffer; full means the encoding does not fit. */
struct out {
	uint8_t *p;
	size_t n, cap;
	bool full;
};

static void put(struct out *o, const uint8_t *b, size_t n)
{
	if (o->full || o->cap - o->n < n) {
		o->full = true;
		return;
	}
	memcpy(o->p + o->n, b, n);
	o->n += n;
}

static void put_u8(struct out *o, unsigned b)
{
	uint8_t x = (uint8_t)b;

	put(o, &x, 1);
}

/* The shortest candidate that decodes to v; false if none does. */
static bool put_operand(struct out *o, struct sdec *d, enum operand k,
			uint64_t base, uint64_t v)
{
	struct pick pk;

	/* field by field: an initializer would zero all twelve candidates,
	 * a quarter of this function's time */
	pk.cs.n = 0;
	pk.judged = 0;
	pk.best = NULL;
	pk.d = d;
	pk.k = k;
	pk.base = base;
	pk.v = v;

	switch (k) {
	case OPD_ADDR: addr_cands(&pk); break;
	case OPD_SIZE: size_cands(&pk); break;
	case OPD_NID: nid_cands(&pk); break;
	case OPD_ALIGN: align_cands(&pk); break;
	}
	judge(&pk);
	if (!pk.best)
		return false;
	put(o, pk.best->b, pk.best->n);
	return true;
}

/* The operands of op in the order decode_op_structured() reads them. */
static bool put_op(struct out *o, struct sdec *d, const struct mbd_op *op)
{
	bool ok = true;
	uint8_t code[2];

	put(o, code, mbd_bin_opcode(op->kind, code));
	switch (mbd_op_table[op->kind].shape) {
	case MBD_SHAPE_RANGE:
	case MBD_SHAPE_RANGE_NODE:
	case MBD_SHAPE_RANGE_NID:
	case MBD_SHAPE_SET_NODE:
		ok = put_operand(o, d, OPD_ADDR, 0, op->base) &&
		     put_operand(o, d, OPD_SIZE, op->base, op->size);
		if (mbd_op_table[op->kind].shape == MBD_SHAPE_RANGE_NODE) {
			ok = ok && put_operand(o, d, OPD_NID, 0, (uint64_t)(int64_t)op->nid);
			put_u8(o, op->flags ? SEL_FLAGS_SET | op->flags : 0);
		} else if (mbd_op_table[op->kind].shape == MBD_SHAPE_RANGE_NID) {
			ok = ok && put_operand(o, d, OPD_NID, 0, (uint64_t)(int64_t)op->nid);
		} else if (mbd_op_table[op->kind].shape == MBD_SHAPE_SET_NODE) {
			put_u8(o, op->type);
			ok = ok && put_operand(o, d, OPD_NID, 0, (uint64_t)(int64_t)op->nid);
		}
		return ok;
	case MBD_SHAPE_ALLOC_RANGE:
		return put_operand(o, d, OPD_ADDR, 0, op->start) &&
		       put_operand(o, d, OPD_ADDR, 0, op->end) &&
		       put_operand(o, d, OPD_SIZE, op->start, op->size) &&
		       put_operand(o, d, OPD_ALIGN, 0, op->align);
	case MBD_SHAPE_ALLOC_NID:
		return put_operand(o, d, OPD_SIZE, 0, op->size) &&
		       put_operand(o, d, OPD_ALIGN, 0, op->align) &&
		       put_operand(o, d, OPD_NID, 0, (uint64_t)(int64_t)op->nid);
	case MBD_SHAPE_VALUE:
		if (op->kind == MBD_OP_SET_LIMIT)
			return put_operand(o, d, OPD_ADDR, 0, op->value);
		if (op->kind == MBD_OP_SET_BOTTOM_UP) {
			put_u8(o, (unsigned)op->value);
			return true;
		}
		return put_operand(o, d, OPD_ALIGN, 0, op->value);
	case MBD_SHAPE_NONE:
		return true;
	}
	return false;
}

static bool same_config(const struct mbd_config *a, const struct mbd_config *b)
{
	return a->memory_max == b->memory_max && a->reserved_max == b->reserved_max &&
	       a->resize == b->resize && a->slab == b->slab &&
	       a->bottom_up == b->bottom_up && a->mirror == b->mirror &&
	       a->movable == b->movable && a->limit == b->limit;
}

/* Decode bytes [from, o->n) as the next op: it must be exactly want. */
static bool decodes_to(struct sdec *d, const struct out *o, size_t from,
		       const struct mbd_op *want)
{
	struct mbd_op got;

	d->r.p = o->p + from;
	d->r.n = o->n - from;
	d->r.pos = 0;
	mbd_bin_next_op(d, MBD_DECODER_STRUCTURED, &got);
	return d->r.pos == d->r.n && memcmp(&got, want, sizeof(got)) == 0;
}

/*
 * How many of t's calls the hint's bytes give, config first; *end gets
 * the offset after them and ends[] their ends. 0 calls with *end == 0: not
 * even the config matches.
 */
static size_t hint_prefix(const struct mbd_trace *t, const uint8_t *hint,
			  size_t len, size_t *end, size_t *ends)
{
	struct sdec d;
	struct mbd_config got;
	size_t k;

	*end = 0;
	mbd_bin_start(&d, hint, len, MBD_DECODER_STRUCTURED, &got);
	if (d.r.pos > len || !same_config(&got, &t->cfg))
		return 0;
	*end = d.r.pos;
	if (ends)
		ends[0] = *end;
	for (k = 0; k < t->n_ops; k++) {
		struct mbd_op want = t->ops[k], op;

		mbd_op_normalize(&want);
		mbd_bin_next_op(&d, MBD_DECODER_STRUCTURED, &op);
		/* a call cut short by the end reads zeros: not the hint's */
		if (d.r.pos > len || memcmp(&op, &want, sizeof(op)) != 0)
			break;
		*end = d.r.pos;
		if (ends)
			ends[k + 1] = *end;
	}
	return k;
}

long mbd_bin_encode_compact(const struct mbd_trace *t, uint8_t *buf, size_t cap,
			    size_t *ends)
{
	return mbd_bin_encode_compact_from(t, buf, cap, ends, NULL, 0);
}

long mbd_bin_encode_compact_from(const struct mbd_trace *t, uint8_t *buf,
				 size_t cap, size_t *ends, const uint8_t *hint,
				 size_t hint_len)
{
	struct sdec d;
	struct mbd_config got;
	struct out o = { buf, 0, cap, false };
	uint8_t hdr[3] = { 0, 0, 0 };
	size_t first = 0, end = 0;

	if (t->n_ops > MBD_FUZZ_MAX_OPS || mbd_bin_header(&t->cfg, hdr))
		return -1;
	if (hint)
		first = hint_prefix(t, hint, hint_len, &end, ends);
	if (end) {
		/* the hint's bytes as they are; the decoder state after them
		 * is what a reader of buf will have */
		put(&o, hint, end);
		if (o.full)
			return -1;
		mbd_bin_start(&d, buf, o.n, MBD_DECODER_STRUCTURED, &got);
		for (size_t i = 0; i < first; i++) {
			struct mbd_op op;

			mbd_bin_next_op(&d, MBD_DECODER_STRUCTURED, &op);
		}
	} else {
		/* empty rings for the limit operand, then the real header */
		mbd_bin_start(&d, hdr, 2, MBD_DECODER_STRUCTURED, &got);
		put(&o, hdr, 3);
		if (t->cfg.limit != MBD_ALLOC_ANYWHERE &&
		    !put_operand(&o, &d, OPD_ADDR, 0, t->cfg.limit))
			return -1;
		if (o.full)
			return -1;
		mbd_bin_start(&d, buf, o.n, MBD_DECODER_STRUCTURED, &got);
		if (d.r.pos != o.n || !same_config(&got, &t->cfg))
			return -1;
		if (ends)
			ends[0] = o.n;
	}
	for (size_t i = first; i < t->n_ops; i++) {
		struct mbd_op op = t->ops[i];
		size_t from = o.n;

		mbd_op_normalize(&op);
		if (op.kind >= MBD_OP__COUNT || !put_op(&o, &d, &op) || o.full ||
		    !decodes_to(&d, &o, from, &op))
			return -1;
		if (ends)
			ends[i + 1] = o.n;
	}
	return (long)o.n;
}
