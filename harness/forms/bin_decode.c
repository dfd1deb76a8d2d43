// SPDX-License-Identifier: GPL-2.0
/*
 * Fuzzer bytes -> trace (bin_encode.c is the way back). Both decoders share the config header; the
 * structured one draws operands from "producers" that make corner cases
 * likely (earlier endpoints +- small deltas, page grid, extremes), the naive
 * one reads raw literals (ablation baseline). Every byte string decodes;
 * reads past the end yield zeros. The byte layout is in docs/binary-format.md
 * and the two must change together.
 */
#include <stdlib.h>
#include <string.h>

#include "bin_layout.h"
#include "mbd_bin.h"

static uint8_t rd_u8(struct rd *r)
{
	uint8_t b = r->pos < r->n ? r->p[r->pos] : 0;

	r->pos++;
	return b;
}

/* Little-endian value of nbytes (1..8) bytes. */
static uint64_t rd_le(struct rd *r, unsigned nbytes)
{
	uint64_t v = 0;

	for (unsigned i = 0; i < nbytes; i++)
		v |= (uint64_t)rd_u8(r) << (8 * i);
	return v;
}

static uint64_t rd_u64(struct rd *r)
{
	return rd_le(r, 8);
}

/*
 * Literal operand: a 5-byte form keeps mutated values below 1 TiB, where
 * memblock can place its arrays; the 8-byte form reaches everything.
 */
static uint64_t rd_literal(struct rd *r, unsigned p)
{
	return rd_le(r, p < 24 ? 5 : 8);
}

static void ring_push(struct ring *g, uint64_t v)
{
	g->v[g->n % N_RING] = v;
	g->n++;
}

static uint32_t ring_count(const struct ring *g)
{
	return g->n < N_RING ? g->n : N_RING;
}

/* i-th most recent value (mod count); an empty ring stands for i * unit. */
static uint64_t ring_pick(const struct ring *g, uint8_t i, uint64_t unit)
{
	uint32_t cnt = ring_count(g);

	if (!cnt)
		return (uint64_t)i * unit;
	return g->v[(g->n - 1 - i % cnt) % N_RING];
}

/*
 * The first value above base, searching from the i-th most recent towards
 * older ones, so "end exactly there" does not wrap; if there is none, the
 * i-th one (base + size then wraps: an overflow case).
 */
static uint64_t ring_pick_above(const struct ring *g, uint8_t i, uint64_t base)
{
	uint32_t cnt = ring_count(g);

	for (uint32_t k = 0; k < cnt; k++) {
		uint64_t e = g->v[(g->n - 1 - (i + k) % cnt) % N_RING];

		if (e > base)
			return e;
	}
	return ring_pick(g, i, MIB);
}

static void push_end(struct sdec *d, uint64_t v)
{
	ring_push(&d->ends_all, v);
	if (v <= TIB)
		ring_push(&d->ends_low, v);
}

static void push_len(struct sdec *d, uint64_t v)
{
	if (v <= TIB)
		ring_push(&d->lens, v);
}

/* The end memblock itself uses: base + size capped at PHYS_ADDR_MAX. */
static uint64_t capped_end(uint64_t base, uint64_t size)
{
	return size > PMAX - base ? PMAX : base + size;
}

/*
 * a + delta, saturating at 0 and PHYS_ADDR_MAX: a small step below 0 should
 * land on 0, not wrap to the top (the extremes table reaches the top).
 */
static uint64_t add_sat(uint64_t a, int64_t delta)
{
	if (delta < 0)
		return (uint64_t)-delta > a ? 0 : a - (uint64_t)-delta;
	return (uint64_t)delta > PMAX - a ? PMAX : a + (uint64_t)delta;
}

/*
 * Fine delta from the low five selector bits: most codes mean "exactly the
 * reused value", so touching and equal ranges are the common case; the
 * rest step one byte or page, or -16..+16 bytes from an extra byte.
 */
static int64_t fine_delta(struct rd *r, unsigned p)
{
	switch (p) {
	case 20: return 1;
	case 21: return -1;
	case 22: return (int64_t)MBD_PAGE_SIZE;
	case 23: return -(int64_t)MBD_PAGE_SIZE;
	}
	if (p < 20)
		return 0;
	return (int64_t)(rd_u8(r) % 33) - 16;
}

/* Page delta -16..+15 pages: neighbouring pages of an earlier endpoint. */
static int64_t page_delta(unsigned p)
{
	return ((int64_t)p - 16) * (int64_t)MBD_PAGE_SIZE;
}

/*
 * k * unit, unit from p & 3; k is one byte, or two bytes (p & 4) for the
 * 4 KiB and 64 KiB units, so the grid stays below 256 GiB.
 */
static uint64_t grid(struct rd *r, unsigned p)
{
	static const uint64_t unit[4] = { 4 * KIB, 64 * KIB, 2 * MIB, GIB };
	uint64_t k = rd_u8(r);

	if ((p & 4) && (p & 3) < 2)
		k |= (uint64_t)rd_u8(r) << 8;
	return k * unit[p & 3];
}

/* Values boot code and the arithmetic in memblock care about. */
const uint64_t mbd_bin_addr_extreme[32] = {
	0, 1, 4 * KIB, 640 * KIB,
	MIB, 16 * MIB, 2 * GIB, 3 * GIB,
	4 * GIB - 4 * KIB, 4 * GIB - 1, 4 * GIB, 4 * GIB + 4 * KIB,
	512 * GIB, TIB - 4 * KIB, TIB, TIB + 1,
	1ULL << 48, 0x7fffffffffffffffULL, 1ULL << 63, 0xffffffff00000000ULL,
	PMAX - 2 * MIB + 1, PMAX - 4 * KIB + 1, PMAX - 4 * KIB, PMAX - 16,
	PMAX - 1, PMAX, 2 * MIB, GIB,
	2 * GIB - 4 * KIB, 4 * KIB - 1, 16, PMAX - 255,
};

#define M1 (~0ULL)
/* PMAX - base + x: at = PMAX + x, minus base (wrapping as the kernel's
 * phys_addr_t does). */
const struct mbd_bin_size_ext mbd_bin_size_ext = {
	.at = {
		0, 1, 4 * KIB, 2 * MIB,
		GIB, 4 * GIB, TIB, PMAX,
		PMAX - 4 * KIB + 1, 1ULL << 63,
		PMAX,                   /* 10: ends exactly at PHYS_ADDR_MAX */
		PMAX + 1,               /* 11: base + size wraps to 0 */
		PMAX + 2,               /* 12: wraps to 1 */
		PMAX + 4 * KIB,         /* 13 */
		PMAX - 4 * KIB + 1,     /* 14: ends at the top page */
		PMAX + 1 + MIB,         /* 15 */
		TIB,                    /* 16: ends at 1 TiB */
		4 * GIB,                /* 17: ends at 4 GiB */
		0x7fffffffffffffffULL, PMAX - 1, 16, 64,
		4 * KIB - 1, 4 * KIB + 1, 64 * KIB, MIB,
		16 * MIB, 128 * MIB, 256 * GIB, PMAX / 2,
		0,                      /* 30: base itself */
		PMAX - 1,               /* 31: ends one below PHYS_ADDR_MAX */
	},
	.plus = { [30] = M1 },
	.minus = { [10] = M1, [11] = M1, [12] = M1, [13] = M1, [14] = M1,
		   [15] = M1, [16] = M1, [17] = M1, [31] = M1 },
};
#undef M1

static uint64_t produce_addr(struct sdec *d)
{
	struct rd *r = &d->r;
	uint8_t s = rd_u8(r);
	unsigned p = s & 0x1f;
	uint64_t a, b, lo, hi;

	switch (s >> 5) {
	case 0: case 1: case 2: /* earlier endpoint + fine delta */
		a = ring_pick(&d->ends_low, rd_u8(r), MIB);
		return add_sat(a, fine_delta(r, p));
	case 3:
		return grid(r, p);
	case 4: /* between two endpoints: nested ranges */
		a = ring_pick(&d->ends_low, rd_u8(r), MIB);
		b = ring_pick(&d->ends_low, rd_u8(r), MIB);
		lo = a < b ? a : b;
		hi = a < b ? b : a;
		switch (p & 3) {
		case 0: return lo + (hi - lo) / 2;
		case 1: return (lo + (hi - lo) / 2) & ~(MBD_PAGE_SIZE - 1);
		case 2: return lo + (hi - lo) / 4;
		default: return lo + (hi - lo) / 4 * 3;
		}
	case 5:
		return mbd_bin_addr_extreme[p];
	case 6:
		return rd_literal(r, p);
	default: /* any earlier endpoint + page delta */
		a = ring_pick(&d->ends_all, rd_u8(r), MIB);
		return add_sat(a, page_delta(p));
	}
}

static uint64_t produce_size(struct sdec *d, uint64_t base)
{
	struct rd *r = &d->r;
	uint8_t s = rd_u8(r);
	unsigned p = s & 0x1f;
	uint64_t a, b;

	switch (s >> 5) {
	case 0: /* earlier length + fine delta */
		a = ring_pick(&d->lens, rd_u8(r), MBD_PAGE_SIZE);
		return add_sat(a, fine_delta(r, p));
	case 1: /* end at an earlier endpoint (+ fine delta) */
		a = ring_pick_above(&d->ends_low, rd_u8(r), base);
		return add_sat(a - base, fine_delta(r, p));
	case 2: /* distance between two earlier endpoints */
		a = ring_pick(&d->ends_low, rd_u8(r), MIB);
		b = ring_pick(&d->ends_low, rd_u8(r), MIB);
		return add_sat(a < b ? b - a : a - b, fine_delta(r, p));
	case 3:
		return p;
	case 4:
		return grid(r, p);
	case 5:
		return mbd_bin_size_extreme(p, base);
	case 6:
		return rd_literal(r, p);
	default: /* end near any earlier endpoint, page steps */
		a = ring_pick_above(&d->ends_all, rd_u8(r), base);
		return add_sat(a - base, page_delta(p));
	}
}

/* Mostly real small nodes; NUMA_NO_NODE and MAX_NUMNODES are special. */
static int32_t produce_nid(struct rd *r)
{
	uint8_t b = rd_u8(r);

	if (b < 0xc0)
		return b & 3;
	if (b < 0xe0)
		return MBD_NUMA_NO_NODE;
	if (b < SEL_NID_LIT)
		return MBD_MAX_NUMNODES;
	return (int32_t)(rd_u8(r) % (MBD_MAX_NUMNODES + 2)) - 1;
}

static uint32_t produce_flags(struct rd *r)
{
	uint8_t b = rd_u8(r);

	return b < SEL_FLAGS_SET ? 0 : b & 0x1fu;
}

static uint64_t produce_align(struct rd *r)
{
	uint8_t b = rd_u8(r);

	if (b < SEL_ALIGN_ZERO)
		return 1ULL << (b % 22);
	if (b < SEL_ALIGN_LIT)
		return 0;
	return rd_u64(r);
}

/* 0x00-0x5f: 1..8 (small arrays double early); 0x60-0x7f: 128; else 1..128 */
static uint32_t decode_max(uint8_t b)
{
	if (b < 0x60)
		return 1u + (b & 7u);
	if (b < 0x80)
		return MBD_INIT_REGIONS;
	return 1u + (b & 0x7fu);
}

/* Shared header; the limit operand comes from the decoder's own producer. */
static void decode_config(struct sdec *d, enum mbd_decoder dec,
			  struct mbd_config *c)
{
	uint8_t f;

	c->memory_max = decode_max(rd_u8(&d->r));
	c->reserved_max = decode_max(rd_u8(&d->r));
	f = rd_u8(&d->r);
	c->resize = f & 1;
	c->slab = (f >> 1) & 1;
	c->bottom_up = (f >> 2) & 1;
	c->mirror = (f >> 3) & 1;
	c->movable = (f >> 4) & 1;
	c->limit = MBD_ALLOC_ANYWHERE;
	if ((f >> 5) >= 6) {
		c->limit = dec == MBD_DECODER_NAIVE ? rd_u64(&d->r)
						    : produce_addr(d);
		push_end(d, c->limit);
	}
}

/*
 * Opcode byte -> kind, as contiguous byte ranges: kind k covers the bytes
 * from mbd_bin_op_start[k] up to the next start (the comment gives the width).
 * Boot-time workhorses get wide ranges, one-shot state changes narrow ones.
 * The starts ascend in kind order; a new kind needs a new table.
 */
_Static_assert(MBD_OP__COUNT == MBD_BIN_OPCODE_KINDS + 1,
	       "a new kind needs an escape: update op_start and docs/binary-format.md");

const uint8_t mbd_bin_op_start[MBD_OP__COUNT] = {
	[MBD_OP_ADD] = 0x00,             /*  32 */
	[MBD_OP_ADD_NODE] = 0x20,        /*  24 */
	[MBD_OP_REMOVE] = 0x38,          /*  20 */
	[MBD_OP_RESERVE] = 0x4c,         /*  40 */
	[MBD_OP_PHYS_FREE] = 0x74,       /*  24 */
	[MBD_OP_MARK_HOTPLUG] = 0x8c,    /*   8 */
	[MBD_OP_CLEAR_HOTPLUG] = 0x94,   /*   6 */
	[MBD_OP_MARK_MIRROR] = 0x9a,     /*   8 */
	[MBD_OP_MARK_NOMAP] = 0xa2,      /*   8 */
	[MBD_OP_CLEAR_NOMAP] = 0xaa,     /*   6 */
	[MBD_OP_MARK_NOINIT] = 0xb0,     /*   6 */
	[MBD_OP_SET_NODE] = 0xb6,        /*  12 */
	[MBD_OP_ALLOC_RANGE] = 0xc2,     /*  24 */
	[MBD_OP_ALLOC_TRY_NID] = 0xda,   /*  14 */
	[MBD_OP_SET_LIMIT] = 0xe8,       /*   8 */
	[MBD_OP_ALLOW_RESIZE] = 0xf0,    /*   4 */
	[MBD_OP_SET_BOTTOM_UP] = 0xf4,   /*   6 */
	[MBD_OP_SLAB_UP] = 0xfa,         /*   3 */
	[MBD_OP_TRIM] = 0xfd,            /*   3 */
	/* escapes: set_bottom_up's value byte >= SEL_RESERVE_KERN */
	[MBD_OP_RESERVE_KERN] = 0xf4,
};

/* The last kind whose range starts at or below b: the starts rise, so it
 * is how many of them after the first b reaches (no data-dependent loop:
 * the encoder decodes every call it writes). */
static uint32_t structured_kind(uint8_t b)
{
	uint32_t k = 0;

	for (uint32_t i = 1; i < MBD_BIN_OPCODE_KINDS; i++)
		k += b >= mbd_bin_op_start[i];
	return k;
}

static void decode_op_structured(struct sdec *d, struct mbd_op *op)
{
	struct rd *r = &d->r;

	op->kind = structured_kind(rd_u8(r));
	if (op->kind == MBD_OP_SET_BOTTOM_UP) {
		uint8_t v = rd_u8(r);

		if (v < SEL_RESERVE_KERN) {
			op->value = v & 1;
			return;
		}
		op->kind = MBD_OP_RESERVE_KERN;
	}
	switch (mbd_op_table[op->kind].shape) {
	case MBD_SHAPE_RANGE:
	case MBD_SHAPE_RANGE_NODE:
	case MBD_SHAPE_RANGE_NID:
	case MBD_SHAPE_SET_NODE:
		op->base = produce_addr(d);
		op->size = produce_size(d, op->base);
		if (mbd_op_table[op->kind].shape == MBD_SHAPE_RANGE_NODE) {
			op->nid = produce_nid(r);
			op->flags = produce_flags(r);
		} else if (mbd_op_table[op->kind].shape == MBD_SHAPE_RANGE_NID) {
			op->nid = produce_nid(r);
		} else if (mbd_op_table[op->kind].shape == MBD_SHAPE_SET_NODE) {
			op->type = rd_u8(r) & 1;
			op->nid = produce_nid(r);
		}
		push_end(d, op->base);
		push_end(d, capped_end(op->base, op->size));
		push_len(d, op->size);
		break;
	case MBD_SHAPE_ALLOC_RANGE:
		/* bounds first, so the size can fit [start, earlier end) */
		op->start = produce_addr(d);
		op->end = produce_addr(d);
		op->size = produce_size(d, op->start);
		op->align = produce_align(r);
		push_end(d, op->start);
		push_end(d, op->end);
		push_len(d, op->size);
		break;
	case MBD_SHAPE_ALLOC_NID:
		op->size = produce_size(d, 0);
		op->align = produce_align(r);
		op->nid = produce_nid(r);
		push_len(d, op->size);
		break;
	case MBD_SHAPE_VALUE:
		if (op->kind == MBD_OP_SET_LIMIT) {
			op->value = produce_addr(d);
			push_end(d, op->value);
		} else {
			op->value = produce_align(r);
		}
		break;
	case MBD_SHAPE_NONE:
		break;
	}
}

/* nid -1 (NUMA_NO_NODE) .. 64 (MAX_NUMNODES): what the .mbt form accepts */
static int32_t naive_nid(uint8_t b)
{
	return (int32_t)(b % 66u) - 1;
}

static void decode_op_naive(struct rd *r, struct mbd_op *op)
{
	op->kind = rd_u8(r) % MBD_BIN_OPCODE_KINDS;
	if (op->kind == MBD_OP_SET_BOTTOM_UP) {
		uint8_t v = rd_u8(r);

		if (v < SEL_RESERVE_KERN) {
			op->value = v & 1u;
			return;
		}
		op->kind = MBD_OP_RESERVE_KERN;
	}
	switch (mbd_op_table[op->kind].shape) {
	case MBD_SHAPE_RANGE:
		op->base = rd_u64(r);
		op->size = rd_u64(r);
		break;
	case MBD_SHAPE_RANGE_NID:
		op->base = rd_u64(r);
		op->size = rd_u64(r);
		op->nid = naive_nid(rd_u8(r));
		break;
	case MBD_SHAPE_RANGE_NODE:
		op->base = rd_u64(r);
		op->size = rd_u64(r);
		op->nid = naive_nid(rd_u8(r));
		op->flags = rd_u8(r) & 0x1fu;
		break;
	case MBD_SHAPE_SET_NODE:
		op->base = rd_u64(r);
		op->size = rd_u64(r);
		op->type = rd_u8(r) & 1;
		op->nid = naive_nid(rd_u8(r));
		break;
	case MBD_SHAPE_ALLOC_RANGE:
		op->size = rd_u64(r);
		op->align = rd_u64(r);
		op->start = rd_u64(r);
		op->end = rd_u64(r);
		break;
	case MBD_SHAPE_ALLOC_NID:
		op->size = rd_u64(r);
		op->align = rd_u64(r);
		op->nid = naive_nid(rd_u8(r));
		break;
	case MBD_SHAPE_VALUE:
		op->value = rd_u64(r);
		break;
	case MBD_SHAPE_NONE:
		break;
	}
}

void mbd_bin_start(struct sdec *d, const uint8_t *data, size_t size,
		   enum mbd_decoder dec, struct mbd_config *c)
{
	d->r.p = data;
	d->r.n = data ? size : 0;
	d->r.pos = 0;
	d->ends_low.n = 0;
	d->ends_all.n = 0;
	d->lens.n = 0;
	decode_config(d, dec, c);
}

/* Zeroed, then only the fields of the op's shape set: normalized as
 * mbd_op_normalize() has it (test_compact_paths checks), without a call. */
void mbd_bin_next_op(struct sdec *d, enum mbd_decoder dec, struct mbd_op *op)
{
	memset(op, 0, sizeof(*op));
	if (dec == MBD_DECODER_NAIVE)
		decode_op_naive(&d->r, op);
	else
		decode_op_structured(d, op);
}

void mbd_bin_decode(const uint8_t *data, size_t size, enum mbd_decoder dec,
		    struct mbd_trace *t)
{
	struct sdec d;
	struct mbd_op op;

	mbd_trace_clear(t);
	mbd_bin_start(&d, data, size, dec, &t->cfg);
	while (d.r.pos < d.r.n && t->n_ops < MBD_FUZZ_MAX_OPS) {
		mbd_bin_next_op(&d, dec, &op);
		if (mbd_trace_push(t, &op, 0))
			break; /* out of memory: keep the valid prefix */
	}
}

uint32_t mbd_bin_kind_of(uint8_t opcode)
{
	return structured_kind(opcode);
}

/* The producers, for the compact encoder (bin_compact.c). */
uint64_t mbd_bin_addr(struct sdec *d)
{
	return produce_addr(d);
}

uint64_t mbd_bin_size(struct sdec *d, uint64_t base)
{
	return produce_size(d, base);
}

int32_t mbd_bin_nid(struct sdec *d)
{
	return produce_nid(&d->r);
}

uint64_t mbd_bin_align(struct sdec *d)
{
	return produce_align(&d->r);
}

int mbd_decoder_lookup(const char *name)
{
	if (!name)
		return -1;
	if (strcmp(name, "structured") == 0)
		return MBD_DECODER_STRUCTURED;
	if (strcmp(name, "naive") == 0)
		return MBD_DECODER_NAIVE;
	return -1;
}

const char *mbd_decoder_name(enum mbd_decoder d)
{
	switch (d) {
	case MBD_DECODER_STRUCTURED: return "structured";
	case MBD_DECODER_NAIVE: return "naive";
	}
	return "?";
}
