// SPDX-License-Identifier: GPL-2.0
/*
 * Trace -> fuzzer bytes: the literal forms of docs/binary-format.md, so a
 * .mbt converts to a file every decoder reads back to the same trace.
 */
#include <stdlib.h>
#include <string.h>

#include "bin_layout.h"
#include "mbd_bin.h"

/* Encoder side: a bounded output buffer. */
struct wr {
	uint8_t *p;
	size_t n;
};

static void wr_u8(struct wr *w, unsigned b)
{
	w->p[w->n++] = (uint8_t)b;
}

static void wr_u64(struct wr *w, uint64_t v)
{
	for (unsigned i = 0; i < 8; i++)
		wr_u8(w, (unsigned)(v >> (8 * i)) & 0xffu);
}

/* Address or size in the structured decoder's literal mode. */
static void wr_literal(struct wr *w, uint64_t v)
{
	unsigned nbytes = v < LIT40_LIMIT ? 5 : 8;

	wr_u8(w, nbytes == 5 ? SEL_LIT40 : SEL_LIT64);
	for (unsigned i = 0; i < nbytes; i++)
		wr_u8(w, (unsigned)(v >> (8 * i)) & 0xffu);
}

/* Header byte for max m (1..128), or -1. */
static int encode_max(uint32_t m)
{
	if (m < 1 || m > MBD_INIT_REGIONS)
		return -1;
	if (m <= 8)
		return (int)(m - 1);
	return (int)(0x80u | (m - 1));
}

/* Largest record: opcode + four 9-byte operands. */
#define MAX_OP_BYTES 37u
#define MAX_HDR_BYTES 12u

int mbd_bin_op_fits(const struct mbd_op *op, enum mbd_decoder dec)
{
	int32_t lo = MBD_NUMA_NO_NODE;
	int32_t hi = MBD_MAX_NUMNODES;

	(void)dec;

	if (op->kind >= MBD_OP__COUNT || op->flags > 0x1f || op->type > 1)
		return 0;
	if (op->nid < lo || op->nid > hi)
		return 0;
	if (op->kind == MBD_OP_SET_BOTTOM_UP && op->value > 1)
		return 0;
	return 1;
}

unsigned mbd_bin_opcode(uint32_t kind, uint8_t out[2])
{
	out[0] = mbd_bin_op_start[kind];
	if (kind != MBD_OP_RESERVE_KERN)
		return 1;
	out[1] = SEL_RESERVE_KERN;
	return 2;
}

static void encode_op_structured(struct wr *w, const struct mbd_op *op)
{
	uint8_t code[2];

	for (unsigned i = 0, n = mbd_bin_opcode(op->kind, code); i < n; i++)
		wr_u8(w, code[i]);
	switch (mbd_op_table[op->kind].shape) {
	case MBD_SHAPE_RANGE:
	case MBD_SHAPE_RANGE_NODE:
	case MBD_SHAPE_RANGE_NID:
	case MBD_SHAPE_SET_NODE:
		wr_literal(w, op->base);
		wr_literal(w, op->size);
		if (mbd_op_table[op->kind].shape == MBD_SHAPE_RANGE_NODE) {
			wr_u8(w, SEL_NID_LIT);
			wr_u8(w, (unsigned)(op->nid + 1));
			wr_u8(w, SEL_FLAGS_SET | op->flags);
		} else if (mbd_op_table[op->kind].shape == MBD_SHAPE_RANGE_NID) {
			wr_u8(w, SEL_NID_LIT);
			wr_u8(w, (unsigned)(op->nid + 1));
		} else if (mbd_op_table[op->kind].shape == MBD_SHAPE_SET_NODE) {
			wr_u8(w, op->type);
			wr_u8(w, SEL_NID_LIT);
			wr_u8(w, (unsigned)(op->nid + 1));
		}
		break;
	case MBD_SHAPE_ALLOC_RANGE:
		wr_literal(w, op->start);
		wr_literal(w, op->end);
		wr_literal(w, op->size);
		wr_u8(w, SEL_ALIGN_LIT);
		wr_u64(w, op->align);
		break;
	case MBD_SHAPE_ALLOC_NID:
		wr_literal(w, op->size);
		wr_u8(w, SEL_ALIGN_LIT);
		wr_u64(w, op->align);
		wr_u8(w, SEL_NID_LIT);
		wr_u8(w, (unsigned)(op->nid + 1));
		break;
	case MBD_SHAPE_VALUE:
		if (op->kind == MBD_OP_SET_LIMIT) {
			wr_literal(w, op->value);
		} else if (op->kind == MBD_OP_SET_BOTTOM_UP) {
			wr_u8(w, (unsigned)op->value);
		} else {
			wr_u8(w, SEL_ALIGN_LIT);
			wr_u64(w, op->value);
		}
		break;
	case MBD_SHAPE_NONE:
		break;
	}
}

static void encode_op_naive(struct wr *w, const struct mbd_op *op)
{
	if (op->kind == MBD_OP_RESERVE_KERN) {
		wr_u8(w, MBD_OP_SET_BOTTOM_UP);
		wr_u8(w, SEL_RESERVE_KERN);
	} else {
		wr_u8(w, op->kind);
	}
	switch (mbd_op_table[op->kind].shape) {
	case MBD_SHAPE_RANGE:
		wr_u64(w, op->base);
		wr_u64(w, op->size);
		break;
	case MBD_SHAPE_RANGE_NID:
		wr_u64(w, op->base);
		wr_u64(w, op->size);
		wr_u8(w, (unsigned)(op->nid + 1));
		break;
	case MBD_SHAPE_RANGE_NODE:
		wr_u64(w, op->base);
		wr_u64(w, op->size);
		wr_u8(w, (unsigned)(op->nid + 1));
		wr_u8(w, op->flags);
		break;
	case MBD_SHAPE_SET_NODE:
		wr_u64(w, op->base);
		wr_u64(w, op->size);
		wr_u8(w, op->type);
		wr_u8(w, (unsigned)(op->nid + 1));
		break;
	case MBD_SHAPE_ALLOC_RANGE:
		wr_u64(w, op->size);
		wr_u64(w, op->align);
		wr_u64(w, op->start);
		wr_u64(w, op->end);
		break;
	case MBD_SHAPE_ALLOC_NID:
		wr_u64(w, op->size);
		wr_u64(w, op->align);
		wr_u8(w, (unsigned)(op->nid + 1));
		break;
	case MBD_SHAPE_VALUE:
		if (op->kind == MBD_OP_SET_BOTTOM_UP)
			wr_u8(w, (unsigned)op->value);
		else
			wr_u64(w, op->value);
		break;
	case MBD_SHAPE_NONE:
		break;
	}
}

int mbd_bin_header(const struct mbd_config *c, uint8_t hdr[3])
{
	int mm = encode_max(c->memory_max), rm = encode_max(c->reserved_max);

	if (mm < 0 || rm < 0)
		return -1;
	hdr[0] = (uint8_t)mm;
	hdr[1] = (uint8_t)rm;
	hdr[2] = (uint8_t)((unsigned)c->resize | (unsigned)c->slab << 1 |
			   (unsigned)c->bottom_up << 2 | (unsigned)c->mirror << 3 |
			   (unsigned)c->movable << 4);
	if (c->limit != MBD_ALLOC_ANYWHERE)
		hdr[2] |= CFG_LIMIT_OPERAND;
	return 0;
}

int mbd_bin_encode(const struct mbd_trace *t, enum mbd_decoder dec,
		   uint8_t **out, size_t *len)
{
	const struct mbd_config *c = &t->cfg;
	struct wr w;
	struct mbd_op op;
	uint8_t hdr[3];

	*out = NULL;
	*len = 0;
	if (mbd_bin_header(c, hdr) || t->n_ops > MBD_FUZZ_MAX_OPS)
		return -1;
	if (dec != MBD_DECODER_STRUCTURED && dec != MBD_DECODER_NAIVE)
		return -1;
	for (size_t i = 0; i < t->n_ops; i++) {
		op = t->ops[i];
		mbd_op_normalize(&op);
		if (!mbd_bin_op_fits(&op, dec))
			return -1;
	}
	w.p = malloc(MAX_HDR_BYTES + t->n_ops * MAX_OP_BYTES);
	if (!w.p)
		return -1;
	w.n = 0;
	for (unsigned i = 0; i < 3; i++)
		wr_u8(&w, hdr[i]);
	if (c->limit != MBD_ALLOC_ANYWHERE) {
		if (dec == MBD_DECODER_STRUCTURED)
			wr_literal(&w, c->limit);
		else
			wr_u64(&w, c->limit);
	}
	for (size_t i = 0; i < t->n_ops; i++) {
		op = t->ops[i];
		mbd_op_normalize(&op);
		if (dec == MBD_DECODER_NAIVE)
			encode_op_naive(&w, &op);
		else
			encode_op_structured(&w, &op);
	}
	*out = w.p;
	*len = w.n;
	return 0;
}
