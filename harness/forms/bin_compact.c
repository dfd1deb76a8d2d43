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
#include <stdatomic.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <threads.h>

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

static unsigned rf_hash(uint64_t a)
{
	return (unsigned)(((a >> GRANULE_SHIFT) * 0x9e3779b97f4a7c15ULL) >> 54);
}

/* Add the values g got since the last look (at most its last N_RING). */
static void rf_sync(struct rfilt *f, const struct ring *g)
{
	uint32_t i = g->n - f->seen > N_RING ? g->n - N_RING : f->seen;

	for (; i != g->n; i++) {
		unsigned h = rf_hash(g->v[i % N_RING]);

		f->w[h >> 6] |= 1ULL << (h & 63);
	}
	f->seen = g->n;
}

static bool rf_has(const struct rfilt *f, uint64_t a)
{
	unsigned h = rf_hash(a);

	return f->w[h >> 6] >> (h & 63) & 1;
}

/* Might g hold a value in [x - below, x + above] (mod 2^64)? The span is
 * under two granules, so its two ends and the granule after the first
 * name every granule it touches. */
static bool rf_near(struct rfilt *f, const struct ring *g, uint64_t x,
		    uint64_t below, uint64_t above)
{
	uint64_t lo = x - below;

#ifdef MBD_COMPACT_NO_SHORTCUTS
	return true; /* test_compact_paths: every scan */
#endif
	rf_sync(f, g);
	return rf_has(f, lo) || rf_has(f, lo + (1ULL << GRANULE_SHIFT)) ||
	       rf_has(f, x + above);
}

/*
 * The first earlier value of g with a code into v; codes needing no extra
 * byte are preferred (one is enough: the scan stops there).
 */
static void scan_fine(struct cands *cs, unsigned sel, struct rfilt *f,
		      const struct ring *g, uint64_t off, uint64_t v, bool above)
{
	bool have3 = false;

	/* a - off is within a page of v */
	if (!rf_near(f, g, v + off, MBD_PAGE_SIZE, MBD_PAGE_SIZE))
		return;

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

static void scan_page(struct cands *cs, unsigned sel, struct rfilt *f,
		      const struct ring *g, uint64_t off, uint64_t v, bool above)
{
	/* a - off is v - 15 .. v + 16 pages */
	if (!rf_near(f, g, v + off, 15 * MBD_PAGE_SIZE, 16 * MBD_PAGE_SIZE))
		return;
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

/*
 * Which extremes equal v, by lookup: the 32-slot scans were a third of the
 * encoder's own time. One small hash table per kind of slot maps a value
 * to the slots holding it: the address table, and the size table as three
 * (a slot is at[p], at[p] - base or at[p] + base). Built once from the
 * decoder's tables, so it cannot go stale.
 */
#ifndef MBD_COMPACT_NO_SHORTCUTS /* test_compact_paths: the scans */
enum { X_ADDR, X_SIZE, X_SIZE_MINUS, X_SIZE_PLUS, X_N };

#define X_SLOTS 64u /* a power of two, twice the 32 values */

struct xslot {
	uint64_t key;
	uint32_t hits; /* bit p: slot p holds key */
	bool used;
};

static struct xslot xtab[X_N][X_SLOTS];
static bool size_scan; /* a size mask neither 0 nor ~0: scan instead */
static once_flag xtab_once = ONCE_FLAG_INIT;
static atomic_bool xtab_ready; /* call_once is a libc call each time */

static unsigned x_hash(uint64_t v)
{
	return (unsigned)((v * 0x9e3779b97f4a7c15ULL) >> 58) & (X_SLOTS - 1);
}

static void x_add(struct xslot *t, uint64_t key, unsigned p)
{
	unsigned i = x_hash(key);

	while (t[i].used && t[i].key != key)
		i = (i + 1) & (X_SLOTS - 1);
	t[i].used = true;
	t[i].key = key;
	t[i].hits |= 1u << p;
}

static void x_build(void)
{
	const struct mbd_bin_size_ext *e = &mbd_bin_size_ext;

	for (unsigned p = 0; p < 32; p++) {
		x_add(xtab[X_ADDR], mbd_bin_addr_extreme[p], p);
		/* size_extreme(p, base) = at + (base & plus) - (base & minus) */
		if ((e->plus[p] && e->plus[p] != ~0ULL) ||
		    (e->minus[p] && e->minus[p] != ~0ULL))
			size_scan = true;
		else if (e->plus[p] == e->minus[p])
			x_add(xtab[X_SIZE], e->at[p], p);
		else if (e->minus[p])
			x_add(xtab[X_SIZE_MINUS], e->at[p], p);
		else
			x_add(xtab[X_SIZE_PLUS], e->at[p], p);
	}
	/* the tables are whole: later callers skip call_once */
	atomic_store_explicit(&xtab_ready, true, memory_order_release);
}

static void x_ready(void)
{
	if (!atomic_load_explicit(&xtab_ready, memory_order_acquire))
		call_once(&xtab_once, x_build);
}

static uint32_t x_get(unsigned k, uint64_t key)
{
	const struct xslot *t = xtab[k];

	for (unsigned i = x_hash(key); t[i].used; i = (i + 1) & (X_SLOTS - 1))
		if (t[i].key == key)
			return t[i].hits;
	return 0;
}
#endif

static uint32_t addr_extreme_hits(uint64_t v)
{
#ifdef MBD_COMPACT_NO_SHORTCUTS
	uint32_t hit = 0;

	for (unsigned p = 0; p < 32; p++)
		hit |= (uint32_t)(mbd_bin_addr_extreme[p] == v) << p;
	return hit;
#else
	x_ready();
	return x_get(X_ADDR, v);
#endif
}

/* Slot p holds at[p] + (base & plus[p]) - (base & minus[p]): equal to v
 * when at[p] is v, v + base or v - base (mod 2^64) for its kind. */
static uint32_t size_extreme_hits(uint64_t base, uint64_t v)
{
	uint32_t hit = 0;

#ifndef MBD_COMPACT_NO_SHORTCUTS
	x_ready();
	if (!size_scan)
		return x_get(X_SIZE, v) | x_get(X_SIZE_MINUS, v + base) |
		       x_get(X_SIZE_PLUS, v - base);
#endif
	/* test_compact_paths, or a table this lookup cannot hold */
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
	scan_fine(cs, 0x00, &pk->rf[RF_LOW], &d->ends_low, 0, v, false);
	if (enough(pk, 2))
		return;
	scan_page(cs, 0xe0, &pk->rf[RF_ALL], &d->ends_all, 0, v, false);
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
	scan_fine(cs, 0x00, &pk->rf[RF_LENS], &d->lens, 0, v, false);
	if (enough(pk, 2))
		return;
	scan_fine(cs, 0x20, &pk->rf[RF_LOW], &d->ends_low, base, v, true);
	if (enough(pk, 2))
		return;
	scan_page(cs, 0xe0, &pk->rf[RF_ALL], &d->ends_all, base, v, true);
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

/* The filters empty (they fill from the rings when next asked). */
static void enc_reset(struct enc *e)
{
	memset(e->rf, 0, sizeof(e->rf));
	e->trust = false;
}

/* d from the start of data. */
static void enc_start(struct enc *e, const uint8_t *data, size_t size,
		      struct mbd_config *c)
{
	mbd_bin_start(&e->d, data, size, MBD_DECODER_STRUCTURED, c);
	enc_reset(e);
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
static bool put_op(struct out *o, struct enc *e, const struct mbd_op *op)
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

static bool same_config(const struct mbd_config *a, const struct mbd_config *b)
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

/* Decode bytes [from, o->n) as the next op: it must be exactly want. */
static bool decodes_to(struct sdec *d, const struct out *o, size_t from,
		       const struct mbd_op *want)
{
	struct mbd_op got;

	d->r.p = o->p + from;
	d->r.n = o->n - from;
	d->r.pos = 0;
	mbd_bin_next_op(d, MBD_DECODER_STRUCTURED, &got);
	return d->r.pos == d->r.n && op_same(&got, want);
}

/* The three ring counts of d, to undo or compare what one call pushed. */
static void ring_counts(const struct sdec *d, uint32_t n[RF_N])
{
	n[RF_LOW] = d->ends_low.n;
	n[RF_ALL] = d->ends_all.n;
	n[RF_LENS] = d->lens.n;
}

static bool same_ring_pushes(const struct ring *a, const struct ring *b,
			     uint32_t from)
{
	if (a->n != b->n || a->n > N_RING)
		return false;
	return memcmp(&a->v[from], &b->v[from], (a->n - from) * sizeof(a->v[0])) == 0;
}

/* a and b had equal rings at counts n: did the last call push the same? */
static bool same_pushes(const struct sdec *a, const struct sdec *b,
			const uint32_t n[RF_N])
{
	return same_ring_pushes(&a->ends_low, &b->ends_low, n[RF_LOW]) &&
	       same_ring_pushes(&a->ends_all, &b->ends_all, n[RF_ALL]) &&
	       same_ring_pushes(&a->lens, &b->lens, n[RF_LENS]);
}

/* e as a reader of o's bytes, which hold the config and calls calls. */
static void rebuild(struct enc *e, const struct out *o, size_t calls)
{
	struct mbd_config got;
	struct mbd_op op;

	enc_start(e, o->p, o->n, &got);
	for (size_t i = 0; i < calls; i++)
		mbd_bin_next_op(&e->d, MBD_DECODER_STRUCTURED, &op);
}

static bool wrapped(const struct sdec *d)
{
	return d->ends_all.n > N_RING || d->ends_low.n > N_RING || d->lens.n > N_RING;
}

/*
 * e as the hint's reader h was at counts n, before the call it read last
 * (o's calls calls): pushes only append below N_RING, so dropping them
 * undoes them; past it (a limit and 64 ranges) e reads o again.
 */
static void take_back(struct enc *e, const struct sdec *h, const uint32_t n[RF_N],
		      const struct out *o, size_t calls)
{
	if (wrapped(h)) {
		rebuild(e, o, calls);
		return;
	}
	e->d = *h;
	e->d.ends_low.n = n[RF_LOW];
	e->d.ends_all.n = n[RF_ALL];
	e->d.lens.n = n[RF_LENS];
	enc_reset(e);
}

/* Take back the pushes of the call e decoded since counts n; o holds the
 * calls before it (calls of them). */
static void undo_call(struct enc *e, const uint32_t n[RF_N], const struct out *o,
		      size_t calls)
{
	struct ring *g[RF_N] = { &e->d.ends_low, &e->d.ends_all, &e->d.lens };

	if (wrapped(&e->d)) {
		rebuild(e, o, calls);
		return;
	}
	for (unsigned k = 0; k < RF_N; k++) {
		g[k]->n = n[k];
		/* the filter keeps the values: a superset is fine */
		if (e->rf[k].seen > n[k])
			e->rf[k].seen = n[k];
	}
}

/* Op into o at e's rings (after calls calls), decoded back; unchecked
 * candidates first. */
static bool put_call(struct out *o, struct enc *e, const struct mbd_op *op,
		     size_t calls)
{
	size_t from = o->n;
	uint32_t n[RF_N];

	ring_counts(&e->d, n);
#ifndef MBD_COMPACT_NO_SHORTCUTS /* test_compact_paths: checked only */
	bool ok;

	e->trust = true;
	ok = put_op(o, e, op) && !o->full && decodes_to(&e->d, o, from, op);
	e->trust = false;
	if (ok)
		return true;
#endif
	o->n = from;
	o->full = false;
	undo_call(e, n, o, calls);
	return put_op(o, e, op) && !o->full && decodes_to(&e->d, o, from, op);
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

struct mbd_bin_marks *mbd_bin_marks_new(void)
{
	return calloc(1, sizeof(struct mbd_bin_marks));
}

void mbd_bin_marks_free(struct mbd_bin_marks *mk)
{
	free(mk);
}

/* After call i (0: the config), d read up to end. */
static void mark(struct mbd_bin_marks *mk, size_t i, const struct sdec *d,
		 size_t end)
{
	if (!mk)
		return;
	ring_counts(d, mk->counts[i]);
	mk->ends[i] = end;
}

static void copy_ring(struct ring *dst, const struct ring *src, uint32_t n)
{
	memcpy(dst->v, src->v, n * sizeof(src->v[0]));
	dst->n = n;
}

/* The marks of an encoding of len bytes, calls calls, whose reader is d. */
static void mark_done(struct mbd_bin_marks *mk, const struct mbd_config *cfg,
		      size_t len, size_t calls, const struct sdec *d)
{
	if (!mk)
		return;
	mk->valid = !wrapped(d);
	if (!mk->valid)
		return; /* the first values are gone */
	mk->cfg = *cfg;
	mk->len = len;
	mk->calls = calls;
	copy_ring(&mk->d.ends_low, &d->ends_low, d->ends_low.n);
	copy_ring(&mk->d.ends_all, &d->ends_all, d->ends_all.n);
	copy_ring(&mk->d.lens, &d->lens, d->lens.n);
}

/* How many of t's first calls hint shares (its marks and calls), 0 if the
 * marks are not of a hint like it. */
static size_t shared_calls(const struct mbd_trace *t, const struct mbd_bin_marks *mk,
			   const struct mbd_op *ops, size_t hint_len)
{
	size_t k = 0, n;

	if (!mk || !ops || !mk->valid || mk->len != hint_len ||
	    !same_config(&mk->cfg, &t->cfg))
		return 0;
	n = t->n_ops < mk->calls ? t->n_ops : mk->calls;
	while (k < n && op_same(&t->ops[k], &ops[k]))
		k++;
	return k;
}

/* h as a reader of hint that has read its config and k calls. */
static void resume(struct sdec *h, const struct mbd_bin_marks *mk, size_t k,
		   const uint8_t *hint, size_t hint_len)
{
	h->r.p = hint;
	h->r.n = hint_len;
	h->r.pos = mk->ends[k];
	copy_ring(&h->ends_low, &mk->d.ends_low, mk->counts[k][RF_LOW]);
	copy_ring(&h->ends_all, &mk->d.ends_all, mk->counts[k][RF_ALL]);
	copy_ring(&h->lens, &mk->d.lens, mk->counts[k][RF_LENS]);
}

static long encode(const struct mbd_trace *t, bool normal, uint8_t *buf,
		   size_t cap, size_t *ends, const uint8_t *hint, size_t hint_len,
		   size_t fit, size_t *n_fit, const struct mbd_bin_marks *hint_marks,
		   const struct mbd_op *hint_ops, struct mbd_bin_marks *marks);

long mbd_bin_encode_compact(const struct mbd_trace *t, uint8_t *buf, size_t cap,
			    size_t *ends)
{
	size_t n;

	return encode(t, false, buf, cap, ends, NULL, 0, SIZE_MAX, &n, NULL, NULL, NULL);
}

long mbd_bin_encode_compact_from(const struct mbd_trace *t, uint8_t *buf,
				 size_t cap, size_t *ends, const uint8_t *hint,
				 size_t hint_len)
{
	size_t n;

	return encode(t, false, buf, cap, ends, hint, hint_len, SIZE_MAX, &n,
		      NULL, NULL, NULL);
}

long mbd_bin_encode_compact_normal(const struct mbd_trace *t, uint8_t *buf,
				   size_t cap, size_t *ends, const uint8_t *hint,
				   size_t hint_len, size_t fit, size_t *n_fit,
				   const struct mbd_bin_marks *hint_marks,
				   const struct mbd_op *hint_ops,
				   struct mbd_bin_marks *marks)
{
	if (marks == hint_marks)
		marks = NULL;
	return encode(t, true, buf, cap, ends, hint, hint_len, fit, n_fit,
		      hint_marks, hint_ops, marks);
}

/*
 * The encoding of a call depends only on the call and the rings before it.
 * So, reading the hint along (h), a call equal to the hint's call at the
 * same position keeps the hint's bytes for as long as the rings agree: the
 * common prefix, and after a call changed in place (a node, flags, kind of
 * the same shape, the config but not the limit) the calls after it. Once
 * a call pushes other values (one inserted, deleted or moved), the rings
 * never agree again and every later call is encoded here. normal: t's ops
 * are normalized already.
 */
static long encode(const struct mbd_trace *t, bool normal, uint8_t *buf,
		   size_t cap, size_t *ends, const uint8_t *hint, size_t hint_len,
		   size_t fit, size_t *n_fit, const struct mbd_bin_marks *hint_marks,
		   const struct mbd_op *hint_ops, struct mbd_bin_marks *marks)
{
	struct enc e;
	struct sdec h;
	struct mbd_config got;
	struct out o = { buf, 0, cap, false };
	uint8_t hdr[3] = { 0, 0, 0 };
	/* live: h's rings are a reader of buf's; cur: so are e's (else only
	 * h is up to date) */
	bool live = false, cur = true;
	size_t i = 0, k = 0;

	if (marks)
		marks->valid = false;
	if (t->n_ops > MBD_FUZZ_MAX_OPS || mbd_bin_header(&t->cfg, hdr))
		return -1;
	if (hint && normal)
		k = shared_calls(t, hint_marks, hint_ops, hint_len);
	if (k) {
		/* the config and the first k calls as the hint has them, and
		 * h where reading them would leave it */
		resume(&h, hint_marks, k, hint, hint_len);
		live = true;
		cur = false;
		put(&o, hint, hint_marks->ends[k]);
		if (o.full)
			return -1;
		for (i = 0; i <= k; i++) {
			if (ends)
				ends[i] = hint_marks->ends[i];
			if (marks) {
				memcpy(marks->counts[i], hint_marks->counts[i],
				       sizeof(marks->counts[i]));
				marks->ends[i] = hint_marks->ends[i];
			}
			if (hint_marks->ends[i] > fit) {
				/* cut as below: the config and the calls
				 * before call i - 1 (the config alone, even
				 * past fit, when i is 0) */
				size_t c = i ? i - 1 : 0;

				*n_fit = c;
				mark_done(marks, &t->cfg, hint_marks->ends[c], c, &h);
				return (long)hint_marks->ends[c];
			}
		}
		i = k;
		goto calls;
	}
	if (hint) {
		mbd_bin_start(&h, hint, hint_len, MBD_DECODER_STRUCTURED, &got);
		live = h.r.pos <= hint_len && got.limit == t->cfg.limit;
	}
	if (live && same_config(&got, &t->cfg)) {
		/* the hint's header bytes as they are */
		put(&o, hint, h.r.pos);
		cur = false;
	} else {
		/* empty rings for the limit operand, then the real header */
		enc_start(&e, hdr, 2, &got);
		put(&o, hdr, 3);
		if (t->cfg.limit != MBD_ALLOC_ANYWHERE &&
		    !put_operand(&o, &e, OPD_ADDR, 0, t->cfg.limit))
			return -1;
		if (o.full)
			return -1;
		enc_start(&e, buf, o.n, &got);
		if (e.d.r.pos != o.n || !same_config(&got, &t->cfg))
			return -1;
	}
	if (o.full)
		return -1;
	if (ends)
		ends[0] = o.n;
	mark(marks, 0, cur ? &e.d : &h, o.n);
	*n_fit = 0;
	if (o.n > fit) {
		mark_done(marks, &t->cfg, o.n, 0, cur ? &e.d : &h);
		return (long)o.n;
	}
calls:
	for (; i < t->n_ops; i++) {
		struct mbd_op op = t->ops[i], hop;
		size_t from = o.n;
		uint32_t n[RF_N] = { 0, 0, 0 };
		bool kept = false;

		if (!normal)
			mbd_op_normalize(&op);
		if (op.kind >= MBD_OP__COUNT)
			return -1;
		if (live) {
			size_t hfrom = h.r.pos;

			ring_counts(&h, n);
			mbd_bin_next_op(&h, MBD_DECODER_STRUCTURED, &hop);
			/* a call cut short by the end reads zeros: not the hint's */
			live = h.r.pos <= hint_len;
			kept = live && op_same(&hop, &op);
			if (kept) {
				put(&o, hint + hfrom, h.r.pos - hfrom);
				if (o.full || (cur && !decodes_to(&e.d, &o, from, &op)))
					return -1;
			} else if (!cur) {
				take_back(&e, &h, n, &o, i);
				cur = true;
			}
		}
		if (!kept) {
			if (!put_call(&o, &e, &op, i))
				return -1;
			/* the same pushes: h again stands for a reader of buf */
			if (live && same_pushes(&e.d, &h, n))
				cur = false;
			else
				live = false;
		}
		if (ends)
			ends[i + 1] = o.n;
		mark(marks, i + 1, cur ? &e.d : &h, o.n);
		if (o.n > fit) {
			*n_fit = i;
			mark_done(marks, &t->cfg, from, i, cur ? &e.d : &h);
			return (long)from;
		}
	}
	*n_fit = t->n_ops;
	mark_done(marks, &t->cfg, o.n, t->n_ops, cur ? &e.d : &h);
	return (long)o.n;
}
