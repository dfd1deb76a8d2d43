// SPDX-License-Identifier: GPL-2.0
/*
 * New operands and calls. They come from the trace's own edges (the ends
 * of its ranges and bounds) +- a byte or a page, the decoder's extremes, a
 * page grid, and sizes that end exactly on an edge.
 */
#include <string.h>

#include "mutate_int.h"

/* The edges and sizes the trace already uses: where new calls aim. */
void mbd_mut_collect(struct mctx *c)
{
	const struct mbd_mutator *m = c->m;

	c->n_edges = 0;
	c->n_sizes = 0;
	if (m->cfg.limit != MBD_ALLOC_ANYWHERE)
		c->edges[c->n_edges++] = m->cfg.limit;
	for (size_t i = 0; i < m->n && i < MAX_OPS; i++) {
		const struct mbd_op *op = &m->ops[i];

		if (is_range(op->kind)) {
			c->edges[c->n_edges++] = op->base;
			c->edges[c->n_edges++] = capped_end(op->base, op->size);
		} else if (op->kind == MBD_OP_ALLOC_RANGE) {
			c->edges[c->n_edges++] = op->start;
			c->edges[c->n_edges++] = op->end;
		} else if (op->kind == MBD_OP_SET_LIMIT) {
			c->edges[c->n_edges++] = op->value;
		}
		if (is_range(op->kind) || mbd_op_table[op->kind].shape == MBD_SHAPE_ALLOC_RANGE ||
		    mbd_op_table[op->kind].shape == MBD_SHAPE_ALLOC_NID)
			c->sizes[c->n_sizes++] = op->size;
	}
}

/* Mostly none; else a byte, a page, a few bytes or a few pages. */
int64_t mbd_mut_delta(struct mctx *c)
{
	switch (below(c, 12)) {
	case 0: return 1;
	case 1: return -1;
	case 2: return (int64_t)PAGE;
	case 3: return -(int64_t)PAGE;
	case 4: return (int64_t)below(c, 33) - 16;
	case 5: return ((int64_t)below(c, 33) - 16) * (int64_t)PAGE;
	default: return 0;
	}
}

static uint64_t grid(struct mctx *c)
{
	static const uint64_t unit[4] = { 4096, 65536, 2ULL << 20, 1ULL << 30 };

	uint64_t k = below(c, 256);

	return k * unit[below(c, 4)];
}

/* Each draw its own statement: the order of a call's arguments is the
 * compiler's, and the same seed must give the same input in every build. */
uint64_t mbd_mut_gen_addr(struct mctx *c)
{
	uint32_t r = below(c, 100);
	uint64_t a;

	if (r < 55 && c->n_edges) {
		uint64_t e = c->edges[below(c, (uint32_t)c->n_edges)];

		return add_sat(e, mbd_mut_delta(c));
	}
	if (r < 70)
		return mbd_bin_addr_extreme[below(c, 32)];
	if (r < 85)
		return grid(c);
	if (r < 93 && c->n_edges) {
		uint64_t x = c->edges[below(c, (uint32_t)c->n_edges)];
		uint64_t y = c->edges[below(c, (uint32_t)c->n_edges)];
		uint64_t lo = x < y ? x : y, hi = x < y ? y : x;

		return (lo + (hi - lo) / 2) & ~(below(c, 2) ? PAGE - 1 : 0);
	}
	a = rnd(c) & (TIB_ - 1);
	return a & ~(below(c, 2) ? PAGE - 1 : 0);
}

/* A size for a range at base: ending on an edge is the common case. */
uint64_t mbd_mut_gen_size(struct mctx *c, uint64_t base)
{
	uint32_t r = below(c, 100);

	if (r < 40 && c->n_edges) {
		for (int tries = 0; tries < 4; tries++) {
			uint64_t e = c->edges[below(c, (uint32_t)c->n_edges)];

			if (e > base)
				return add_sat(e - base, mbd_mut_delta(c));
		}
	}
	if (r < 55 && c->n_sizes) {
		uint64_t l = c->sizes[below(c, (uint32_t)c->n_sizes)];

		return add_sat(l, mbd_mut_delta(c));
	}
	if (r < 70)
		return below(c, 2) ? below(c, 33) : (uint64_t)(1 + below(c, 16)) * PAGE;
	if (r < 82)
		return mbd_bin_size_extreme(below(c, 32), base);
	if (r < 92)
		return grid(c);
	return rnd(c) & (TIB_ - 1);
}

int32_t mbd_mut_gen_nid(struct mctx *c)
{
	switch (below(c, 8)) {
	case 0: return MBD_NUMA_NO_NODE;
	case 1: return MBD_MAX_NUMNODES;
	case 2: return (int32_t)below(c, MBD_MAX_NUMNODES + 2) - 1;
	default: return (int32_t)below(c, 4);
	}
}

uint64_t mbd_mut_gen_align(struct mctx *c)
{
	switch (below(c, 8)) {
	case 0: return 0;
	case 1: return rnd(c);
	default: return 1ULL << below(c, 22);
	}
}

/* A kind as the structured decoder deals opcode bytes, and now and then
 * any kind of the op table (escaped ones such as memblock_reserve_kern
 * have no opcode byte of their own). */
uint32_t mbd_mut_gen_kind(struct mctx *c)
{
	if (below(c, 8) == 0)
		return below(c, MBD_OP__COUNT);
	return mbd_bin_kind_of((uint8_t)below(c, 256));
}

/* Operands of the kind op->kind has, none kept. */
void mbd_mut_fill_op(struct mctx *c, struct mbd_op *op)
{
	uint32_t kind = op->kind;

	memset(op, 0, sizeof(*op));
	op->kind = kind;
	op->base = mbd_mut_gen_addr(c);
	op->size = mbd_mut_gen_size(c, op->base);
	op->nid = mbd_mut_gen_nid(c);
	op->flags = below(c, 2) ? 0 : below(c, 0x20);
	op->type = below(c, 2);
	op->start = below(c, 3) ? 0 : mbd_mut_gen_addr(c);
	op->end = below(c, 3) ? mbd_mut_gen_addr(c) : (below(c, 2) ? MBD_ALLOC_ANYWHERE : 0);
	if (mbd_op_table[kind].shape == MBD_SHAPE_ALLOC_RANGE)
		op->size = mbd_mut_gen_size(c, op->start);
	if (mbd_op_table[kind].shape == MBD_SHAPE_ALLOC_NID)
		op->size = mbd_mut_gen_size(c, 0);
	op->align = mbd_mut_gen_align(c);
	if (kind == MBD_OP_SET_LIMIT)
		op->value = below(c, 4) ? mbd_mut_gen_addr(c) : MBD_ALLOC_ANYWHERE;
	else if (kind == MBD_OP_SET_BOTTOM_UP)
		op->value = below(c, 2);
	else
		op->value = mbd_mut_gen_align(c);
	mbd_op_normalize(op);
}

uint32_t mbd_mut_gen_max(struct mctx *c)
{
	switch (below(c, 4)) {
	case 0: return MBD_INIT_REGIONS;
	case 1: return 1 + below(c, MBD_INIT_REGIONS);
	default: return 1 + below(c, 8);
	}
}

