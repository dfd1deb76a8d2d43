// SPDX-License-Identifier: GPL-2.0
/* The trace model: op table and trace buffer handling. */
#include <stdlib.h>
#include <string.h>

#include "mbd_trace.h"

const struct mbd_op_info mbd_op_table[MBD_OP__COUNT] = {
	[MBD_OP_ADD] = { "memblock_add", MBD_SHAPE_RANGE },
	[MBD_OP_ADD_NODE] = { "memblock_add_node", MBD_SHAPE_RANGE_NODE },
	[MBD_OP_REMOVE] = { "memblock_remove", MBD_SHAPE_RANGE },
	[MBD_OP_RESERVE] = { "memblock_reserve", MBD_SHAPE_RANGE },
	[MBD_OP_PHYS_FREE] = { "memblock_phys_free", MBD_SHAPE_RANGE },
	[MBD_OP_MARK_HOTPLUG] = { "memblock_mark_hotplug", MBD_SHAPE_RANGE },
	[MBD_OP_CLEAR_HOTPLUG] = { "memblock_clear_hotplug", MBD_SHAPE_RANGE },
	[MBD_OP_MARK_MIRROR] = { "memblock_mark_mirror", MBD_SHAPE_RANGE },
	[MBD_OP_MARK_NOMAP] = { "memblock_mark_nomap", MBD_SHAPE_RANGE },
	[MBD_OP_CLEAR_NOMAP] = { "memblock_clear_nomap", MBD_SHAPE_RANGE },
	[MBD_OP_MARK_NOINIT] = { "memblock_reserved_mark_noinit", MBD_SHAPE_RANGE },
	[MBD_OP_SET_NODE] = { "memblock_set_node", MBD_SHAPE_SET_NODE },
	[MBD_OP_ALLOC_RANGE] = { "memblock_phys_alloc_range", MBD_SHAPE_ALLOC_RANGE },
	[MBD_OP_ALLOC_TRY_NID] = { "memblock_phys_alloc_try_nid", MBD_SHAPE_ALLOC_NID },
	[MBD_OP_SET_LIMIT] = { "memblock_set_current_limit", MBD_SHAPE_VALUE },
	[MBD_OP_ALLOW_RESIZE] = { "memblock_allow_resize", MBD_SHAPE_NONE },
	[MBD_OP_SET_BOTTOM_UP] = { "memblock_set_bottom_up", MBD_SHAPE_VALUE },
	[MBD_OP_SLAB_UP] = { "slab_available", MBD_SHAPE_NONE },
	[MBD_OP_TRIM] = { "memblock_trim_memory", MBD_SHAPE_VALUE },
	[MBD_OP_RESERVE_KERN] = { "memblock_reserve_kern", MBD_SHAPE_RANGE_NID },
};

const char *mbd_op_name(uint32_t kind)
{
	return kind < MBD_OP__COUNT ? mbd_op_table[kind].name : "?";
}

int mbd_op_lookup(const char *name, size_t len)
{
	for (int k = 0; k < MBD_OP__COUNT; k++) {
		const char *n = mbd_op_table[k].name;
		if (strlen(n) == len && memcmp(n, name, len) == 0)
			return k;
	}
	return -1;
}

void mbd_config_default(struct mbd_config *cfg)
{
	memset(cfg, 0, sizeof(*cfg));
	cfg->memory_max = MBD_INIT_REGIONS;
	cfg->reserved_max = MBD_INIT_REGIONS;
	cfg->limit = MBD_ALLOC_ANYWHERE;
}

void mbd_trace_init(struct mbd_trace *t)
{
	memset(t, 0, sizeof(*t));
	mbd_config_default(&t->cfg);
}

void mbd_trace_free(struct mbd_trace *t)
{
	free(t->ops);
	free(t->lines);
	free(t->expects);
	mbd_trace_init(t);
}

void mbd_trace_clear(struct mbd_trace *t)
{
	t->n_ops = 0;
	t->n_expects = 0;
	mbd_config_default(&t->cfg);
}

static int grow(struct mbd_trace *t, size_t need)
{
	size_t cap;
	struct mbd_op *ops;
	uint32_t *lines;

	if (need <= t->cap)
		return 0;
	cap = t->cap ? t->cap * 2 : 64;
	while (cap < need)
		cap *= 2;
	ops = realloc(t->ops, cap * sizeof(*ops));
	if (!ops)
		return -1;
	t->ops = ops;
	lines = realloc(t->lines, cap * sizeof(*lines));
	if (!lines)
		return -1;
	t->lines = lines;
	t->cap = cap;
	return 0;
}

int mbd_trace_push(struct mbd_trace *t, const struct mbd_op *op, uint32_t line)
{
	if (grow(t, t->n_ops + 1))
		return -1;
	t->ops[t->n_ops] = *op;
	t->lines[t->n_ops] = line;
	t->n_ops++;
	return 0;
}

int mbd_trace_set_ops(struct mbd_trace *t, const struct mbd_op *ops, size_t n)
{
	if (grow(t, n))
		return -1;
	if (n) {
		memcpy(t->ops, ops, n * sizeof(*ops));
		memset(t->lines, 0, n * sizeof(*t->lines));
	}
	t->n_ops = n;
	return 0;
}

int mbd_trace_copy(struct mbd_trace *dst, const struct mbd_trace *src)
{
	if (grow(dst, src->n_ops))
		return -1;
	dst->cfg = src->cfg;
	if (src->n_ops) {
		memcpy(dst->ops, src->ops, src->n_ops * sizeof(*src->ops));
		memcpy(dst->lines, src->lines, src->n_ops * sizeof(*src->lines));
	}
	dst->n_ops = src->n_ops;
	return 0;
}

static int grow_expects(struct mbd_trace *t, size_t need)
{
	size_t cap = t->expects_cap ? t->expects_cap : 16;
	struct mbd_expect *e;

	if (need <= t->expects_cap)
		return 0;
	while (cap < need)
		cap *= 2;
	e = realloc(t->expects, cap * sizeof(*e));
	if (!e)
		return -1;
	t->expects = e;
	t->expects_cap = cap;
	return 0;
}

int mbd_trace_push_expect(struct mbd_trace *t, const struct mbd_expect *e)
{
	if (grow_expects(t, t->n_expects + 1))
		return -1;
	t->expects[t->n_expects++] = *e;
	return 0;
}

int mbd_trace_copy_expects(struct mbd_trace *dst, const struct mbd_trace *src)
{
	if (grow_expects(dst, src->n_expects))
		return -1;
	if (src->n_expects)
		memcpy(dst->expects, src->expects, src->n_expects * sizeof(*src->expects));
	dst->n_expects = src->n_expects;
	return 0;
}

void mbd_op_normalize(struct mbd_op *op)
{
	struct mbd_op n;

	memset(&n, 0, sizeof(n));
	n.kind = op->kind;
	if (op->kind >= MBD_OP__COUNT) {
		*op = n;
		return;
	}
	switch (mbd_op_table[op->kind].shape) {
	case MBD_SHAPE_RANGE_NODE:
		n.flags = op->flags;
		/* fall through */
	case MBD_SHAPE_RANGE_NID:
		n.nid = op->nid;
		/* fall through */
	case MBD_SHAPE_RANGE:
		n.base = op->base;
		n.size = op->size;
		break;
	case MBD_SHAPE_SET_NODE:
		n.base = op->base;
		n.size = op->size;
		n.type = op->type;
		n.nid = op->nid;
		break;
	case MBD_SHAPE_ALLOC_RANGE:
		n.size = op->size;
		n.align = op->align;
		n.start = op->start;
		n.end = op->end;
		break;
	case MBD_SHAPE_ALLOC_NID:
		n.size = op->size;
		n.align = op->align;
		n.nid = op->nid;
		break;
	case MBD_SHAPE_VALUE:
		n.value = op->value;
		break;
	case MBD_SHAPE_NONE:
		break;
	}
	*op = n;
}
