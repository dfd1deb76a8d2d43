// SPDX-License-Identifier: GPL-2.0
/* Log lines that become calls: memblock=debug lines, doublings, e820, EFI, OF and node maps. */
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "import_int.h"

/*
 * arm/arm64 EFI reserve_regions() rounds an entry out to whole pages, adds
 * it and marks it nomap if its type is not usable (memblock_mark_nomap is
 * not logged). The logged add is the entry itself with 4K pages, or the
 * entry rounded out to 16K or 64K pages (a 4K entry becomes a 64K add).
 */
static bool efi_entry_added(const struct ictx *x, uint64_t base, uint64_t size)
{
	static const uint64_t pages[] = { 0x1000, 0x4000, 0x10000 };

	if (!x->efi_valid || !x->efi_nomap)
		return false;
	for (size_t i = 0; i < sizeof(pages) / sizeof(pages[0]); i++) {
		uint64_t m = pages[i] - 1;
		uint64_t a = x->efi_base & ~m, e = (x->efi_base + x->efi_size + m) & ~m;

		if (base == a && size == e - a)
			return true;
	}
	return false;
}

/* Frees made inside memblock itself (the old array after doubling, the
 * arrays at the end of boot): the model makes them itself, or not at all. */
static bool memblock_internal(const char *caller)
{
	return mbd_imp_starts(caller, "memblock_double_array") ||
	       mbd_imp_starts(caller, "memblock_free_reserved_regions") ||
	       mbd_imp_starts(caller, "memblock_discard");
}

/* memblock_xxx: [A-B] [flags 0xF] [nid=N flags=F] [caller]; v6.16+ logs
 * reservations as __memblock_reserve: [A-B] nid=N flags=F [caller] */
int mbd_imp_do_op(struct ictx *x, const struct line *l)
{
	size_t n = mbd_imp_op_name(l->s);
	const char *p = mbd_imp_skip_ws(l->s + n + 1), *caller;
	char name[64];
	uint64_t a, b;
	int kind;
	struct mbd_op op;
	uint64_t rsv_flags = 0;

	if (n >= sizeof(name) || !mbd_imp_pair(p, "[", "-", &a, &b, &p) || *p != ']')
		return -1;
	p = mbd_imp_skip_ws(p + 1);
	memcpy(name, l->s, n);
	name[n] = '\0';
	if (!strcmp(name, "memblock_free") || !strcmp(name, "__memblock_free_early"))
		kind = MBD_OP_PHYS_FREE;
	else if (!strcmp(name, "__memblock_reserve")) {
		kind = MBD_OP_RESERVE;
		x->v616 = true;         /* the v6.16+ form */
	} else
		kind = mbd_op_lookup(name, n);
	if (kind < 0 || (mbd_op_table[kind].shape != MBD_SHAPE_RANGE &&
			 mbd_op_table[kind].shape != MBD_SHAPE_RANGE_NODE))
		return -1;
	memset(&op, 0, sizeof(op));
	op.kind = (uint32_t)kind;
	op.base = a;
	op.size = mbd_imp_range_size(a, b, x->conv);
	if (mbd_imp_starts(p, "flags 0x")) {    /* 3.x/4.x: always 0 in practice */
		uint64_t f;

		if (!mbd_imp_hexnum(p + 6, &f, &p))
			return -1;
		p = mbd_imp_skip_ws(p);
	}
	if (kind == MBD_OP_ADD_NODE || name[0] == '_') {
		uint64_t f;

		if (!mbd_imp_starts(p, "nid=") || !(p[4] == '-' || (p[4] >= '0' && p[4] <= '9')))
			return -1;
		if (mbd_imp_nid(x, 0, p + 4, &op.nid, &p))
			return 0; /* out of range: the import fails */
		p = mbd_imp_skip_ws(p);
		if (!mbd_imp_starts(p, "flags=") || !mbd_imp_hexnum(p + 6, &f, &p))
			return -1;
		if (f > UINT32_MAX) {
			mbd_imp_fail(x, NULL, "flags=0x%llx out of range: at most 32 bits", (ull)f);
			return 0;
		}
		op.flags = (uint32_t)f & 0x1f;
		rsv_flags = f;
		p = mbd_imp_skip_ws(p);
	}
	caller = p;
	if (kind == MBD_OP_PHYS_FREE && memblock_internal(caller)) {
		mbd_imp_comment(x, l, " (a free made inside memblock itself: not an op)");
		x->st->known++;
		mbd_imp_track(x, &op);  /* the model makes it itself */
		return 0;
	}
	if (kind == MBD_OP_RESERVE && mbd_imp_starts(caller, "memblock_double_array")) {
		mbd_imp_comment(x, l, " (the new array's reservation, made inside memblock_double_array: not an op)");
		x->st->known++;
		mbd_imp_track(x, &op);
		/* logged all the same: not a range to infer from the first dump */
		if (!x->dumps_seen)
			mbd_imp_cover_add(&x->cov[1], op.base, op.size);
		return 0;
	}
	if (kind == MBD_OP_ADD && mbd_imp_starts(caller, "e820__memblock_setup")) {
		if (!x->resize_added) {
			mbd_imp_printf(&x->body, "# x86 e820__memblock_setup() starts with memblock_allow_resize() "
				  "(not logged)\n");
			mbd_imp_printf(&x->body, "memblock_allow_resize\n");
			x->ops++;
			x->st->ops++;
			x->resize_added = true;
		}
		x->pending_trim = true;
	}
	mbd_imp_comment(x, l, "");
	/* v6.16+: memblock's own reservations (allocations) carry RSRV_KERN
	 * and the node they were found for: memblock_reserve_kern */
	if (kind == MBD_OP_RESERVE && (rsv_flags & MBD_FLAG_RSRV_KERN))
		kind = MBD_OP_RESERVE_KERN;
	if (kind == MBD_OP_RESERVE_KERN && rsv_flags != MBD_FLAG_RSRV_KERN)
		mbd_imp_printf(&x->body, "# (reserved with flags 0x%llx: the trace's "
			       "memblock_reserve_kern sets RSRV_KERN 0x20 alone)\n",
			       (ull)rsv_flags);
	else if (kind == MBD_OP_RESERVE && (rsv_flags || op.nid >= 0) && name[0] == '_')
		mbd_imp_printf(&x->body, "# (reserved with nid %d flags 0x%llx: the trace's "
			       "memblock_reserve has neither)\n", (int)op.nid, (ull)rsv_flags);
	op.kind = (uint32_t)kind;
	if (kind == MBD_OP_RESERVE) {
		op.nid = 0;
		op.flags = 0;
	}
	mbd_imp_emit_op(x, &op);
	x->st->traced++;
	if (!x->dumps_seen && (kind == MBD_OP_ADD || kind == MBD_OP_ADD_NODE))
		mbd_imp_cover_add(&x->cov[0], op.base, op.size);
	if (!x->dumps_seen && (kind == MBD_OP_RESERVE || kind == MBD_OP_RESERVE_KERN))
		mbd_imp_cover_add(&x->cov[1], op.base, op.size);
	if (kind == MBD_OP_ADD && efi_entry_added(x, op.base, op.size)) {
		mbd_imp_printf(&x->body, "# arm/arm64 EFI reserve_regions() marks a non-usable entry nomap "
			  "right after adding it (memblock_mark_nomap is not logged)\n");
		mbd_imp_emit_range(x, MBD_OP_MARK_NOMAP, op.base, op.size);
	}
	x->efi_valid = false;
	return 0;
}

/* "memblock: reserved is doubled to 256 at [...]" */
int mbd_imp_do_doubled(struct ictx *x, const struct line *l)
{
	const char *p = l->s + 10;
	struct mbd_expect e;
	uint64_t v;

	memset(&e, 0, sizeof(e));
	e.type = mbd_imp_starts(p, "reserved") ? MBD_TYPE_RESERVED : MBD_TYPE_MEMORY;
	p = strstr(p, " is doubled to ");
	if (!p || !mbd_imp_decnum(p + 15, &v, &p))
		return -1;
	mbd_imp_comment(x, l, "");
	if (!x->ops) {
		mbd_imp_printf(&x->body, "# (no op before it: nothing to check)\n");
		return 0;
	}
	if (v == UINT64_MAX) { /* saturated: past 64 bits */
		mbd_imp_fail(x, NULL, "doubled to a number that does not fit in 64 bits");
		return 0;
	}
	e.what = MBD_EXPECT_HEAD;
	e.max = v;
	e.have = MBD_EXPECT_HAS_MAX;
	mbd_imp_emit_expect(x, &e);
	x->st->checkpoints++;
	return 0;
}

/*
 * BIOS-e820: [mem A-B] TYPE, or the old "A - B (TYPE)" (exclusive); with
 * memmap=/mem= the kernel prints the table it uses again, as "user: [mem
 * A-B] TYPE" after "user-defined physical RAM map:", and adds that one.
 */
int mbd_imp_do_e820(struct ictx *x, const struct line *l)
{
	bool user = mbd_imp_starts(l->s, "user: ");
	const char *p = mbd_imp_skip_ws(l->s + (user ? 6 : 10)), *ty;
	uint64_t a, b, size;

	if (x->mem_src == L_E820 && x->e820_user && !user) {
		mbd_imp_comment(x, l, " (the firmware's map: the user-defined one below is what is added)");
		x->st->known++;
		return 0;
	}

	if (mbd_imp_pair(p, "[mem ", "-", &a, &b, &p) && *p == ']') {
		size = b - a + 1;
		ty = mbd_imp_skip_ws(p + 1);
	} else if (mbd_imp_pair(p, "", " - ", &a, &b, &p)) {
		size = b - a;
		ty = mbd_imp_skip_ws(p);
		if (*ty == '(')
			ty++;
	} else {
		return -1;
	}
	if (x->mem_src != L_E820) {
		mbd_imp_comment(x, l, " (map only: the trace has the calls)");
		x->st->known++;
		return 0;
	}
	if (!x->resize_added) {
		mbd_imp_printf(&x->body, "# x86 e820__memblock_setup(): allow resizing, add every usable "
			  "(and reserved-kern) entry, reserve soft-reserved ones, then trim to pages\n");
		mbd_imp_printf(&x->body, "memblock_allow_resize\n");
		x->ops++;
		x->st->ops++;
		x->resize_added = true;
	}
	mbd_imp_comment(x, l, "");
	if (mbd_imp_starts(ty, "usable") || mbd_imp_starts(ty, "reserved-kern") || mbd_imp_starts(ty, "reserved kernel"))
		mbd_imp_emit_range(x, MBD_OP_ADD, a, size);
	else if (mbd_imp_starts(ty, "soft reserved"))
		mbd_imp_emit_range(x, MBD_OP_RESERVE, a, size);
	x->st->map_entries++;
	return 0;
}

/*
 * "e820: update [mem A-B] usable ==> reserved" and "e820: remove [mem A-B]
 * [usable]" (trim_bios_range, MTRR trim, memmap=...) change the e820 table
 * e820__memblock_setup() adds later, so the range leaves (or joins) the
 * memory the map added. Only those printed before it count: after the first
 * traced call or the first line that follows the memblock setup
 * (x->e820_cut), an update changes the e820 table alone.
 */
int mbd_imp_do_e820_update(struct ictx *x, const struct line *l)
{
	bool upd = mbd_imp_starts(l->s, "e820: update ");
	const char *p = mbd_imp_skip_ws(l->s + 12), *arrow = strstr(l->s, " ==> "), *ty;
	uint64_t a, b;
	bool was, now;

	if (!mbd_imp_pair(p, "[mem ", "-", &a, &b, &p) || *p != ']' || (upd && !arrow) || b < a)
		return -1;
	ty = mbd_imp_skip_ws(p + 1);
	/* a remove without a type takes every type out; with one, only that type */
	was = !*ty || mbd_imp_starts(ty, "usable");
	now = upd && mbd_imp_starts(arrow + 5, "usable");
	if (x->mem_src != L_E820 || was == now || (x->e820_cut && l >= x->e820_cut)) {
		mbd_imp_comment(x, l, x->mem_src != L_E820 ? " (map only: the trace has the calls)" :
				was == now ? "" : " (after e820__memblock_setup: the e820 table "
				"changes, memblock does not)");
		x->st->known++;
		return 0;
	}
	mbd_imp_comment(x, l, " (the updated e820 table is what e820__memblock_setup adds)");
	mbd_imp_emit_range(x, now ? MBD_OP_ADD : MBD_OP_REMOVE, a, b - a + 1);
	x->st->map_entries++;
	return 0;
}

/*
 * The first line of ls[0..n) that x86's e820__memblock_setup() precedes: a
 * traced call or dump, or a message printed after memblock holds the map.
 */
const struct line *mbd_imp_e820_cut(const struct line *ls, size_t n)
{
	static const char *const after[] = {
		"init_memory_mapping: ", "Zone ranges:", "Early memory node ranges", "RAMDISK: ",
		"NUMA: ", "SRAT: ", "No NUMA configuration found", "Faking a node at ",
		"NODE_DATA(", "Initmem setup node ", "MEMBLOCK configuration:", "crashkernel",
	};

	for (size_t i = 0; i < n; i++) {
		if (ls[i].cls == L_OP || ls[i].cls == L_ALLOC || ls[i].cls == L_DUMP ||
		    ls[i].cls == L_DOUBLED || ls[i].cls == L_STATE)
			return &ls[i];
		for (size_t k = 0; k < sizeof(after) / sizeof(after[0]); k++)
			if (ls[i].cls != L_HEADER && mbd_imp_starts(ls[i].s, after[k]))
				return &ls[i];
	}
	return NULL;
}

/* OF: reserved mem: A..B (N KiB) [no]map ... : reserve, or mark nomap. */
int mbd_imp_do_of(struct ictx *x, const struct line *l)
{
	const char *p = l->s + 18;
	uint64_t a, b;

	if (!mbd_imp_pair(p, "", "..", &a, &b, &p))
		return -1;
	if (x->trace && (!strstr(p, " nomap") ||
			 mbd_iset_holes(&x->removed, a, b + 1 ? b + 1 : UINT64_MAX) == 0)) {
		/* reserve (and, before v5.12, no-map's memblock_remove) are logged */
		mbd_imp_comment(x, l, " (DT summary: the trace has the calls)");
		x->st->known++;
		return 0;
	}
	if (x->trace) {
		/* the kernel prints this only when early_init_dt_reserve_memory() succeeded */
		mbd_imp_comment(x, l, " (DT reserved-memory no-map: memblock_mark_nomap, which "
				"memblock=debug does not log)");
		mbd_imp_emit_range(x, MBD_OP_MARK_NOMAP, a, b - a + 1);
		x->st->map_entries++;
		return 0;
	}
	mbd_imp_comment(x, l, " (DT reserved-memory: nomap -> memblock_mark_nomap, else memblock_reserve)");
	mbd_imp_emit_range(x, strstr(p, " nomap") ? MBD_OP_MARK_NOMAP : MBD_OP_RESERVE, a, b - a + 1);
	x->st->map_entries++;
	return 0;
}

static bool has_type(const char *s, const char *t)
{
	const char *q = strchr(s, '[');

	return q && mbd_imp_starts(q + 1, t);
}

/*
 * EFI_ACPI_RECLAIM_MEMORY: before v4.18 arm marked it nomap like every
 * non-usable type; since f56ab9a5b73c ("efi/arm: Don't mark ACPI reclaim
 * memory as MEMBLOCK_NOMAP") it is usable memory, reserved instead.
 */
static bool acpi_reclaim_nomap(const struct ictx *x)
{
	const struct mbd_era *e = &x->st->era;

	return e->major && (e->major < 4 || (e->major == 4 && e->minor < 18));
}

/* arm "efi:   A-B [Type|...]" or x86 "efi: memNN: [Type|...] range=[A-B]". */
int mbd_imp_do_efi(struct ictx *x, const struct line *l)
{
	const char *p = mbd_imp_skip_ws(l->s + 4), *r;
	uint64_t a, b, size, m = (x->page ? x->page : 0x1000) - 1, ra, re;
	bool usable, wb, reclaim;

	if ((r = strstr(p, "range=[")) && mbd_imp_pair(r, "range=[", "-", &a, &b, &r))
		size = *r == ')' ? b - a : b - a + 1;
	else if (mbd_imp_pair(p, "", "-", &a, &b, &r))
		size = b - a + 1;
	else
		return -1;
	reclaim = has_type(p, "ACPI Reclaim");
	usable = has_type(p, "Conventional") || has_type(p, "Loader") || has_type(p, "Boot") ||
		 has_type(p, "Persistent") || (reclaim && !acpi_reclaim_nomap(x));
	/* is_memory(): write-back, write-through or write-combining */
	wb = strstr(p, "|WB|") || strstr(p, "|WT|") || strstr(p, "|WC|");
	if (x->mem_src != L_EFI) {
		mbd_imp_comment(x, l, " (map only: the trace or e820 has the calls)");
		x->st->known++;
		/* arm: the logged memblock_add for it may follow; see do_op
		 * (x86's "memNN: ... range=" map is not what adds memory) */
		x->efi_valid = wb && !strstr(p, "range=[");
		x->efi_nomap = !usable;
		x->efi_base = a;
		x->efi_size = size;
		return 0;
	}
	mbd_imp_comment(x, l, " (arm64 EFI reserve_regions(): WB memory is added, non-usable types marked nomap)");
	x->st->map_entries++;
	if (!wb)
		return 0;
	/* memrange_efi_to_native(): out to whole pages of the kernel's size */
	ra = a & ~m;
	re = a + size > UINT64_MAX - m ? 0 : (a + size + m) & ~m;
	if (re && re > ra) {
		a = ra;
		size = re - ra;
	}
	mbd_imp_emit_range(x, MBD_OP_ADD, a, size);
	if (!usable)
		mbd_imp_emit_range(x, MBD_OP_MARK_NOMAP, a, size);
	if (reclaim && !acpi_reclaim_nomap(x))
		mbd_imp_emit_range(x, MBD_OP_RESERVE, a, size);
	return 0;
}

/* "node   N: [mem A-B]" after "Early memory node ranges". */
int mbd_imp_do_node(struct ictx *x, const struct line *l)
{
	const char *p = mbd_imp_skip_ws(l->s + 5);
	uint64_t nid, a, b;
	struct mbd_op op;

	if (!mbd_imp_decnum(p, &nid, &p) || *p != ':' || !mbd_imp_pair(mbd_imp_skip_ws(p + 1), "[mem ", "-", &a, &b, &p))
		return -1;
	if (x->mem_src != L_NODE) {
		mbd_imp_comment(x, l, " (result summary: not an op)");
		x->st->known++;
		return 0;
	}
	mbd_imp_comment(x, l, " (final memory as memblock_add_node: no other memory source in this log)");
	memset(&op, 0, sizeof(op));
	op.kind = MBD_OP_ADD_NODE;
	op.base = a;
	op.size = b - a + 1;
	if (mbd_imp_nid(x, 0, mbd_imp_skip_ws(l->s + 5), &op.nid, &p))
		return 0;
	mbd_imp_emit_op(x, &op);
	x->st->map_entries++;
	return 0;
}
