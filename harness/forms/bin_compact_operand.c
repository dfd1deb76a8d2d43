// SPDX-License-Identifier: GPL-2.0
/*
 * An op's operands in the compact encoding: the candidate forms of each
 * (an extreme, an earlier value, a grid value, a literal), and the
 * shortest of them that the decoder's own producer turns into the value.
 */
#include "bin_compact_int.h"

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
	struct rfilt *rf; /* RF_N, of d's rings */
	bool trust;       /* take candidates unchecked (struct enc) */
	enum operand k;
	uint64_t base, v;
};

static void judge(struct pick *pk)
{
	for (; pk->judged < pk->cs.n; pk->judged++) {
		const struct cand *c = &pk->cs.c[pk->judged];

		if ((!pk->best || c->n < pk->best->n) &&
		    (pk->trust || produces(pk->d, pk->k, pk->base, c, pk->v)))
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

static void addr_cands(struct pick *pk)
{
	const struct sdec *d = pk->d;
	struct cands *cs = &pk->cs;
	uint64_t v = pk->v;

	add_extremes(cs, mbd_compact_addr_extreme_hits(v));
	if (enough(pk, 2))
		return;
	if (!ring_len(&d->ends_low) && v % MIB == 0 && v / MIB < 256)
		add(cs, 2, 0x00, (unsigned)(v / MIB), 0); /* empty ring: i MiB */
	if (enough(pk, 2))
		return;
	mbd_compact_scan_fine(cs, 0x00, &pk->rf[RF_LOW], &d->ends_low, 0, v, false);
	if (enough(pk, 2))
		return;
	mbd_compact_scan_page(cs, 0xe0, &pk->rf[RF_ALL], &d->ends_all, 0, v, false);
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
	add_extremes(cs, mbd_compact_size_extreme_hits(base, v));
	if (enough(pk, 2))
		return;
	if (!ring_len(&d->lens) && v % MBD_PAGE_SIZE == 0 && v / MBD_PAGE_SIZE < 256)
		add(cs, 2, 0x00, (unsigned)(v / MBD_PAGE_SIZE), 0);
	if (enough(pk, 2))
		return;
	mbd_compact_scan_fine(cs, 0x00, &pk->rf[RF_LENS], &d->lens, 0, v, false);
	if (enough(pk, 2))
		return;
	mbd_compact_scan_fine(cs, 0x20, &pk->rf[RF_LOW], &d->ends_low, base, v, true);
	if (enough(pk, 2))
		return;
	mbd_compact_scan_page(cs, 0xe0, &pk->rf[RF_ALL], &d->ends_all, base, v, true);
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

/* The shortest candidate that decodes to v; false if none does. */
static bool put_operand(struct out *o, struct enc *e, enum operand k,
			uint64_t base, uint64_t v)
{
	struct pick pk;

	/* field by field: an initializer would zero all twelve candidates,
	 * a quarter of this function's time */
	pk.cs.n = 0;
	pk.judged = 0;
	pk.best = NULL;
	pk.d = &e->d;
	pk.rf = e->rf;
	pk.trust = e->trust;
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
bool mbd_compact_put_op(struct out *o, struct enc *e, const struct mbd_op *op)
{
	bool ok = true;
	uint8_t code[2];

	put(o, code, mbd_bin_opcode(op->kind, code));
	switch (mbd_op_table[op->kind].shape) {
	case MBD_SHAPE_RANGE:
	case MBD_SHAPE_RANGE_NODE:
	case MBD_SHAPE_RANGE_NID:
	case MBD_SHAPE_SET_NODE:
		ok = put_operand(o, e, OPD_ADDR, 0, op->base) &&
		     put_operand(o, e, OPD_SIZE, op->base, op->size);
		if (mbd_op_table[op->kind].shape == MBD_SHAPE_RANGE_NODE) {
			ok = ok && put_operand(o, e, OPD_NID, 0, (uint64_t)(int64_t)op->nid);
			put_u8(o, op->flags ? SEL_FLAGS_SET | op->flags : 0);
		} else if (mbd_op_table[op->kind].shape == MBD_SHAPE_RANGE_NID) {
			ok = ok && put_operand(o, e, OPD_NID, 0, (uint64_t)(int64_t)op->nid);
		} else if (mbd_op_table[op->kind].shape == MBD_SHAPE_SET_NODE) {
			put_u8(o, op->type);
			ok = ok && put_operand(o, e, OPD_NID, 0, (uint64_t)(int64_t)op->nid);
		}
		return ok;
	case MBD_SHAPE_ALLOC_RANGE:
		return put_operand(o, e, OPD_ADDR, 0, op->start) &&
		       put_operand(o, e, OPD_ADDR, 0, op->end) &&
		       put_operand(o, e, OPD_SIZE, op->start, op->size) &&
		       put_operand(o, e, OPD_ALIGN, 0, op->align);
	case MBD_SHAPE_ALLOC_NID:
		return put_operand(o, e, OPD_SIZE, 0, op->size) &&
		       put_operand(o, e, OPD_ALIGN, 0, op->align) &&
		       put_operand(o, e, OPD_NID, 0, (uint64_t)(int64_t)op->nid);
	case MBD_SHAPE_VALUE:
		if (op->kind == MBD_OP_SET_LIMIT)
			return put_operand(o, e, OPD_ADDR, 0, op->value);
		if (op->kind == MBD_OP_SET_BOTTOM_UP) {
			put_u8(o, (unsigned)op->value);
			return true;
		}
		return put_operand(o, e, OPD_ALIGN, 0, op->value);
	case MBD_SHAPE_NONE:
		return true;
	}
	return false;
}

/* An address operand alone: the config's limit. */
bool mbd_compact_put_addr(struct out *o, struct enc *e, uint64_t v)
{
	return put_operand(o, e, OPD_ADDR, 0, v);
}
