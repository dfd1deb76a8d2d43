// SPDX-License-Identifier: GPL-2.0
/*
 * Frees memblock=debug never shows. Since v7.2 free_reserved_area() (the
 * initrd, the kernel's init sections, reserve_mem releases) removes its
 * range from memblock.reserved on ARCH_KEEP_MEMBLOCK kernels with
 * memblock_remove_range(), which logs nothing; the kernel prints only
 * "Freeing NAME memory: NK" (the pages it gave to the buddy allocator).
 * The range is where the kernel's final debugfs view shows a hole in what
 * the trace reserved whose whole pages make exactly those N KiB; each
 * such free is written before that view, with a comment naming its line.
 * A hole no "Freeing" line accounts for is left to the checkpoint.
 */
#include <string.h>

#include "import_int.h"

/* "Freeing NAME memory: NK" */
int mbd_imp_do_freeing(struct ictx *x, const struct line *l)
{
	const char *p = strstr(l->s, " memory: ");
	uint64_t kib;

	if (!p || !mbd_imp_decnum(p + 9, &kib, &p) || *p != 'K' || *mbd_imp_skip_ws(p + 1))
		return -1;
	mbd_imp_comment(x, l, " (free_reserved_area(): v7.2+ removes the range from "
			"memblock.reserved unlogged; placed by the final debugfs view, if any)");
	x->st->known++;
	if (x->n_frees < MBD_IMP_MAX_FREES) {
		x->frees[x->n_frees].no = l->no;
		x->frees[x->n_frees].kib = kib;
		x->frees[x->n_frees].used = false;
		x->n_frees++;
	}
	return 0;
}

void mbd_imp_note_memnodes(struct ictx *x, const struct dump *d)
{
	size_t n = 0;

	for (size_t i = 0; i < d->n; i++) {
		const struct mbd_expect *e = &d->reg[i];

		if (e->type != MBD_TYPE_MEMORY || !e->size || !(e->have & MBD_EXPECT_HAS_NID))
			continue;
		if (n == MBD_IMP_MAX_FREES)
			return;         /* more banks than kept: keep the earlier view */
		x->memnodes[n].start = e->base;
		x->memnodes[n].end = e->base + e->size;
		x->memnodes[n].nid = e->nid;
		n++;
	}
	if (n)
		x->n_memnodes = n;
}

/*
 * "Memory: NK/MK available" (mem_init_print_info) follows memblock_free_all(),
 * whose memmap_init_reserved_pages() sets every reserved region's node from
 * the memory regions it lies in, memblock_set_node(memory region, reserved,
 * its nid), unlogged; neighbours that then agree merge. Written here for
 * v6.16+ logs (the kernels the lab checks this on), memory as last shown.
 */
int mbd_imp_do_meminfo(struct ictx *x, const struct line *l)
{
	mbd_imp_comment(x, l, "");
	x->st->known++;
	if (!x->v616 || !x->n_memnodes)
		return 0;
	mbd_imp_printf(&x->body, "# inferred: memblock_free_all() ran just before this line; its "
		       "memmap_init_reserved_pages() gives reserved regions the node of the memory "
		       "they lie in (memblock_set_node, not logged), memory as the last dump showed it\n");
	for (size_t i = 0; i < x->n_memnodes; i++) {
		struct mbd_op op;

		memset(&op, 0, sizeof(op));
		op.kind = MBD_OP_SET_NODE;
		op.type = MBD_TYPE_RESERVED;
		op.base = x->memnodes[i].start;
		op.size = x->memnodes[i].end - x->memnodes[i].start;
		op.nid = x->memnodes[i].nid;
		mbd_imp_emit_op(x, &op);
	}
	return 0;
}

/* Whole 4 KiB pages of [s, e), as __free_reserved_area() counts them. */
static uint64_t kib_freed(uint64_t s, uint64_t e)
{
	uint64_t first = (s + MBD_PAGE_SIZE - 1) / MBD_PAGE_SIZE, last = e / MBD_PAGE_SIZE;

	return last > first ? (last - first) * (MBD_PAGE_SIZE / 1024) : 0;
}

static void place(struct ictx *x, uint64_t s, uint64_t e)
{
	for (size_t i = 0; i < x->n_frees; i++) {
		struct freeing *f = &x->frees[i];
		struct mbd_op op;

		if (f->used || f->kib != kib_freed(s, e))
			continue;
		f->used = true;
		mbd_imp_printf(&x->body, "# inferred from %s:%u (\"Freeing ... memory: %lluK\"): "
			       "free_reserved_area() removed [0x%llx-0x%llx] from memblock.reserved "
			       "without a memblock=debug line (v7.2+, ARCH_KEEP_MEMBLOCK); the range "
			       "is the hole the final view shows there\n",
			       x->cur ? x->cur->src : "", f->no, (ull)f->kib, (ull)s, (ull)(e - 1));
		memset(&op, 0, sizeof(op));
		op.kind = MBD_OP_PHYS_FREE;
		op.base = s;
		op.size = e - s;
		mbd_imp_emit_op(x, &op);
		return;
	}
}

/* Before the final view of reserved (d): the logged "Freeing" lines. */
void mbd_imp_infer_frees(struct ictx *x, const struct dump *d)
{
	struct mbd_iset h;
	size_t i = 0;

	if (!x->n_frees)
		return;
	mbd_iset_init(&h);
	for (size_t k = 0; k < x->rsv.n; k++)
		if (mbd_iset_push(&h, x->rsv.v[k].start, x->rsv.v[k].end, 0, 0))
			x->body.oom = 1;
	for (size_t k = 0; k < d->n; k++) {
		const struct mbd_expect *e = &d->reg[k];

		if (e->size && mbd_iset_sub(&h, e->base, e->base + e->size))
			x->body.oom = 1;
	}
	/* maximal holes: touching pieces are one free */
	while (i < h.n) {
		uint64_t s = h.v[i].start, e = h.v[i].end;

		for (i++; i < h.n && h.v[i].start == e; i++)
			e = h.v[i].end;
		place(x, s, e);
	}
	mbd_iset_free(&h);
	x->n_frees = 0;
}
