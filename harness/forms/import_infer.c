// SPDX-License-Identifier: GPL-2.0
/*
 * Calls the kernel makes that memblock=debug never shows, inferred from
 * what a MEMBLOCK dump (or the debugfs view) shows, each written with a
 * comment that says so.
 */
#include <string.h>

#include "import_int.h"

/* A gap of one dump region: what reserves it. */
struct pre_gap {
	struct ictx *x;
	uint32_t kind;  /* memblock_reserve, or _kern for an RSRV_KERN region */
};

static void pre_reserve(void *ctx, uint64_t base, uint64_t size)
{
	struct pre_gap *g = ctx;
	struct ictx *x = g->x;
	struct mbd_op op;

	memset(&op, 0, sizeof(op));
	op.kind = g->kind;
	op.base = base;
	op.size = size;
	op.nid = MBD_NUMA_NO_NODE;
	mbd_text_format_op(x->tmp, sizeof(x->tmp), &op);
	mbd_imp_printf(&x->pre, "%s\n", x->tmp);
	mbd_imp_track(x, &op);
	x->ops++;
	x->st->ops++;
}

static void gap_seen(void *ctx, uint64_t base, uint64_t size)
{
	(void)base;
	(void)size;
	*(bool *)ctx = true;
}

/*
 * The first dump after logged calls: what it shows beyond the memory the
 * trace added and the ranges it reserved was there before memblock=debug
 * (an early_param) took effect: DT/EFI memory and the DTB on arm64; the
 * kernel image, page 0 and the BIOS area on x86. Those calls go first.
 * Memory comes from the dump whole, with its nodes and flags (nomap from
 * reserved-memory, memblock_set_node: neither is logged either).
 */
void mbd_imp_infer_pre(struct ictx *x, const struct dump *d, const struct line *first)
{
	bool mem_gap = false, rsv_gap = false;

	for (size_t i = 0; i < d->n; i++) {
		const struct mbd_expect *e = &d->reg[i];

		/* memory synthesized from a map is all the memory there is */
		if (e->size && !(e->type == MBD_TYPE_MEMORY && x->mem_src))
			mbd_imp_cover_gaps(&x->cov[e->type], e->base, e->size, gap_seen,
					   e->type ? &rsv_gap : &mem_gap);
	}
	if (mem_gap) {
		mbd_imp_printf(&x->pre, "# inferred from %s:%u: memory added before memblock=debug "
			       "took effect (early_param), so never logged; with the nodes and flags "
			       "shown there\n", first->src, first->no);
		mbd_imp_emit_state(x, &x->pre, d, 1);
		x->mem_ops++;
	}
	if (!rsv_gap)
		return;
	mbd_imp_printf(&x->pre, "# inferred from %s:%u: the parts of its reserved regions no "
		       "logged call reserved, reserved before memblock=debug took effect (as "
		       "memblock_reserve_kern where the region has RSRV_KERN 0x20: memblock's own "
		       "early allocations; with no node, which NUMA init sets later)\n",
		       first->src, first->no);
	for (size_t i = 0; i < d->n; i++) {
		const struct mbd_expect *e = &d->reg[i];
		struct pre_gap g = { x, (e->flags & MBD_FLAG_RSRV_KERN) ?
				     MBD_OP_RESERVE_KERN : MBD_OP_RESERVE };

		if (e->type == MBD_TYPE_RESERVED && e->size)
			mbd_imp_cover_gaps(&x->cov[1], e->base, e->size, pre_reserve, &g);
	}
}

/*
 * reserved-memory "no-map" regions (drivers/of/fdt.c, since v5.12 and in
 * stable trees before it; earlier kernels memblock_remove() them, which is
 * logged) and non-usable EFI entries are marked with memblock_mark_nomap(),
 * which memblock=debug does not log: a NOMAP memory region of the dump no
 * emitted call marked is marked as shown before the checkpoint (so the
 * NOMAP flag is not an independent check there; the split, cnt and total
 * are). Marking a range that is NOMAP already changes nothing.
 */
void mbd_imp_infer_nomap(struct ictx *x, const struct dump *d)
{
	bool said = false;

	for (size_t i = 0; i < d->n; i++) {
		const struct mbd_expect *e = &d->reg[i];
		uint64_t end = e->size > UINT64_MAX - e->base ? UINT64_MAX : e->base + e->size;

		if (e->type != MBD_TYPE_MEMORY || !e->size || !(e->have & MBD_EXPECT_HAS_FLAGS) ||
		    !(e->flags & MBD_FLAG_NOMAP) || !mbd_iset_holes(&x->nomap, e->base, end))
			continue;
		if (!said)
			mbd_imp_printf(&x->body, "# NOMAP memory as the checkpoint shows it "
				       "(memblock_mark_nomap, from reserved-memory no-map or EFI, is "
				       "not logged)\n");
		said = true;
		mbd_imp_emit_range(x, MBD_OP_MARK_NOMAP, e->base, e->size);
	}
}

/*
 * The NUMA code sets nodes with memblock_set_node(), which memblock=debug
 * does not log: before a checkpoint that shows nodes, set them as shown
 * (node ids are then not an independent check; cnt, ranges and flags are).
 * Not when the array is nearly full: the kernel set the nodes early, and a
 * memblock_set_node() here, with fewer than two free slots, would double the
 * array where the kernel did not (memblock_isolate_range); those node ids
 * are left unchecked instead.
 */
void mbd_imp_infer_nodes(struct ictx *x, struct dump *d)
{
	bool said = false, full[2];
	size_t dropped = 0;

	for (int t = 0; t < 2; t++)
		full[t] = d->have_cnt[t] && d->cnt[t] + 2 > x->max[t];

	for (size_t i = 0; i < d->n; i++) {
		struct mbd_expect *e = &d->reg[i];
		struct mbd_op op;

		if (!e->size || !(e->have & MBD_EXPECT_HAS_NID))
			continue;
		if (full[e->type]) {
			e->have &= ~(uint32_t)MBD_EXPECT_HAS_NID;
			dropped++;
			continue;
		}
		if (!said)
			mbd_imp_printf(&x->body, "# nodes as the checkpoint shows them "
				       "(memblock_set_node from the NUMA code is not logged)\n");
		said = true;
		memset(&op, 0, sizeof(op));
		op.kind = MBD_OP_SET_NODE;
		op.type = e->type;
		op.base = e->base;
		op.size = e->size;
		op.nid = e->nid;
		mbd_imp_emit_op(x, &op);
	}
	if (dropped)
		mbd_imp_printf(&x->body, "# (the nodes of %zu regions are not checked: set by calls "
			       "memblock=debug does not log)\n", dropped);
}
