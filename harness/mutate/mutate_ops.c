// SPDX-License-Identifier: GPL-2.0
/*
 * The mutations of a trace's calls: insert, delete, duplicate, move, change
 * kind, move an address or a size, change the small operands, the boot
 * config, repeat a run. Byte mutations of the structured form mostly re-aim
 * operand references, so a good call rarely survives its neighbours
 * changing; here the calls are the unit.
 */
#include <string.h>

#include "mutate_int.h"

static struct mbd_op *pick_op(struct mctx *c)
{
	return c->m->n ? &c->m->ops[below(c, (uint32_t)c->m->n)] : NULL;
}

static void insert_at(struct mbd_mutator *m, size_t at, const struct mbd_op *op)
{
	if (m->n >= MAX_OPS)
		return;
	memmove(&m->ops[at + 1], &m->ops[at], (m->n - at) * sizeof(m->ops[0]));
	m->ops[at] = *op;
	m->n++;
}

void mbd_mut_delete_at(struct mbd_mutator *m, size_t at)
{
	memmove(&m->ops[at], &m->ops[at + 1], (m->n - at - 1) * sizeof(m->ops[0]));
	m->n--;
}

static void mut_insert(struct mctx *c)
{
	struct mbd_op op;

	op.kind = mbd_mut_gen_kind(c);
	mbd_mut_fill_op(c, &op);
	insert_at(c->m, below(c, (uint32_t)c->m->n + 1), &op);
}

static void mut_delete(struct mctx *c)
{
	if (c->m->n)
		mbd_mut_delete_at(c->m, below(c, (uint32_t)c->m->n));
}

static void mut_duplicate(struct mctx *c)
{
	struct mbd_op *op = pick_op(c);
	struct mbd_op copy;

	if (!op)
		return;
	copy = *op;
	insert_at(c->m, below(c, (uint32_t)c->m->n + 1), &copy);
}

/* Swap two calls, or move one elsewhere: order is what matters here. */
static void mut_swap(struct mctx *c)
{
	struct mbd_mutator *m = c->m;
	size_t i, j;
	struct mbd_op t;

	if (m->n < 2)
		return;
	i = below(c, (uint32_t)m->n);
	j = below(c, (uint32_t)m->n);
	t = m->ops[i];
	if (below(c, 2)) {
		m->ops[i] = m->ops[j];
		m->ops[j] = t;
	} else {
		mbd_mut_delete_at(m, i);
		insert_at(m, j, &t);
	}
}

/* Another call: the same operands if the shape allows, else the same
 * range (or bounds from it). */
static void mut_kind(struct mctx *c)
{
	struct mbd_op *op = pick_op(c);
	struct mbd_op old;

	if (!op)
		return;
	old = *op;
	op->kind = mbd_mut_gen_kind(c);
	if (mbd_op_table[op->kind].shape != mbd_op_table[old.kind].shape) {
		mbd_mut_fill_op(c, op);
		if (is_range(old.kind) && is_range(op->kind)) {
			op->base = old.base;
			op->size = old.size;
		} else if (is_range(old.kind) && op->kind == MBD_OP_ALLOC_RANGE) {
			op->start = old.base;
			op->end = capped_end(old.base, old.size);
		}
	}
	if (op->kind == MBD_OP_SET_BOTTOM_UP && op->value > 1)
		op->value &= 1;
	mbd_op_normalize(op);
}

/* Nudge v: an edge, a byte or a page off, or a fresh address. */
static uint64_t nudge(struct mctx *c, uint64_t v)
{
	switch (below(c, 4)) {
	case 0: return mbd_mut_gen_addr(c);
	case 1: return c->n_edges ? c->edges[below(c, (uint32_t)c->n_edges)] : v;
	default: {
		int64_t d = mbd_mut_delta(c);

		return add_sat(v, d ? d : 1);
	}
	}
}

/* Move an address: the base (keeping the size or the end), an allocation
 * bound, a limit. */
static void mut_addr(struct mctx *c)
{
	struct mbd_op *op = pick_op(c);

	if (!op)
		return;
	if (is_range(op->kind)) {
		uint64_t end = capped_end(op->base, op->size);

		op->base = nudge(c, op->base);
		if (below(c, 2) && end > op->base)
			op->size = end - op->base;
	} else if (op->kind == MBD_OP_ALLOC_RANGE) {
		if (below(c, 2))
			op->start = nudge(c, op->start);
		else
			op->end = below(c, 8) ? nudge(c, op->end) : (below(c, 2) ? 0 : MBD_ALLOC_ANYWHERE);
	} else if (op->kind == MBD_OP_SET_LIMIT) {
		op->value = below(c, 8) ? nudge(c, op->value) : MBD_ALLOC_ANYWHERE;
	} else {
		mut_insert(c);
	}
}

static void mut_size(struct mctx *c)
{
	struct mbd_op *op = pick_op(c);
	uint64_t base;

	if (!op)
		return;
	switch (mbd_op_table[op->kind].shape) {
	case MBD_SHAPE_ALLOC_RANGE: base = op->start; break;
	case MBD_SHAPE_ALLOC_NID: base = 0; break;
	case MBD_SHAPE_VALUE:
	case MBD_SHAPE_NONE:
		mut_insert(c);
		return;
	default: base = op->base; break;
	}
	switch (below(c, 4)) {
	case 0: {
		int64_t d = mbd_mut_delta(c);

		op->size = add_sat(op->size, d ? d : (int64_t)PAGE);
		break;
	}
	case 1: op->size = below(c, 2) ? op->size * 2 : op->size / 2; break;
	default: op->size = mbd_mut_gen_size(c, base); break;
	}
}

/* Shift a range whole: the same size a byte, a page or to an edge away. */
static void mut_shift(struct mctx *c)
{
	struct mbd_op *op = pick_op(c);

	if (!op || !is_range(op->kind)) {
		mut_addr(c);
		return;
	}
	op->base = nudge(c, op->base);
}

/* nid, flags, type, align, the bottom-up switch, trim's alignment. */
static void mut_small(struct mctx *c)
{
	struct mbd_op *op = pick_op(c);

	if (!op)
		return;
	if (op->kind == MBD_OP_SET_BOTTOM_UP)
		op->value ^= 1;
	else if (op->kind == MBD_OP_TRIM)
		op->value = mbd_mut_gen_align(c);
	else if (op->kind == MBD_OP_SET_LIMIT)
		op->value = mbd_mut_gen_addr(c);
	else if (below(c, 4) == 0)
		op->nid = mbd_mut_gen_nid(c);
	else if (below(c, 3) == 0)
		op->flags = below(c, 3) ? 1u << below(c, 5) : below(c, 0x20);
	else if (below(c, 2))
		op->type ^= 1;
	else
		op->align = mbd_mut_gen_align(c);
	mbd_op_normalize(op);
}

/* The boot state: array sizes, resize, slab, bottom-up, mirror, movable,
 * the current limit. */
static void mut_config(struct mctx *c)
{
	struct mbd_config *g = &c->m->cfg;

	switch (below(c, 8)) {
	case 0: g->memory_max = mbd_mut_gen_max(c); break;
	case 1: g->reserved_max = mbd_mut_gen_max(c); break;
	case 2: g->resize = !g->resize; break;
	case 3: g->slab = !g->slab; break;
	case 4: g->bottom_up = !g->bottom_up; break;
	case 5: g->mirror = !g->mirror; break;
	case 6: g->movable = !g->movable; break;
	default: g->limit = below(c, 2) ? MBD_ALLOC_ANYWHERE : mbd_mut_gen_addr(c); break;
	}
}

/* Copy a run of calls elsewhere in the trace. */
static void mut_repeat(struct mctx *c)
{
	struct mbd_mutator *m = c->m;
	size_t from, len, at;

	if (!m->n || m->n >= MAX_OPS)
		return;
	from = below(c, (uint32_t)m->n);
	len = 1 + below(c, (uint32_t)(m->n - from));
	if (len > MAX_OPS - m->n)
		len = MAX_OPS - m->n;
	at = below(c, (uint32_t)m->n + 1);
	/* ops has room for 2 * MAX_OPS: stage the run past the end */
	memcpy(&m->ops[m->n], &m->ops[from], len * sizeof(m->ops[0]));
	memmove(&m->ops[at + len], &m->ops[at], (m->n - at + len) * sizeof(m->ops[0]));
	memcpy(&m->ops[at], &m->ops[m->n + len], len * sizeof(m->ops[0]));
	m->n += len;
}

typedef void (*mut_fn)(struct mctx *c);

/* Weighted: aiming addresses and sizes at edges first, then structure. */
static const struct {
	mut_fn fn;
	unsigned weight;
} mutations[] = {
	{ mut_insert, 14 }, { mut_delete, 8 }, { mut_duplicate, 6 },
	{ mut_swap, 6 },    { mut_kind, 8 },   { mut_addr, 16 },
	{ mut_size, 16 },   { mut_shift, 6 },  { mut_small, 6 },
	{ mut_config, 8 },  { mut_repeat, 4 },
};

void mbd_mut_once(struct mctx *c)
{
	unsigned total = 0, r;
	size_t k;

	for (k = 0; k < sizeof(mutations) / sizeof(mutations[0]); k++)
		total += mutations[k].weight;
	r = below(c, total);
	for (k = 0; r >= mutations[k].weight; k++)
		r -= mutations[k].weight;
	mbd_mut_collect(c);
	mutations[k].fn(c);
}

