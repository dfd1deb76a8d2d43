// SPDX-License-Identifier: GPL-2.0
/*
 * Wraps one variant's memblock.c into a struct mbd_variant. The build
 * compiles this file once per variant (see docs/HACKING.md) with
 *   MBD_VARIANT_ID       C identifier (name with '-' as '_')
 *   MBD_VARIANT_NAME     "name"
 *   MBD_VARIANT_KIND     MBD_KIND_REFERENCE / _PATCH / _MUTANT / _KERNEL
 *   MBD_VARIANT_SUMMARY  "one line"
 *   MBD_VARIANT_VERSION  "v7.3": the kernel it models (optional)
 *   MBD_VARIANT_KVER     MBD_KVER(7, 3) of that kernel (optional, 0 newest)
 * and then localizes every symbol but the descriptor, so each variant keeps
 * its own copy of the kernel's globals. Its parts glue_reset.c (reset, and
 * what a call wrote) and glue_snapshot.c (snapshots) are included below:
 * one translation unit with memblock.c, whose statics they read.
 *
 * A kernel tree's own file (MBD_KERNEL_VARIANT, docs/kernel-variants.md)
 * also gets mbd_kernel_era.h (which API it has) and mbd_kstate.h (every
 * data/bss object nm found in it), both generated when it is staged.
 */
#ifdef MBD_KERNEL_VARIANT
#include "mbd_kernel_era.h"
#endif
/* Boot arrays large enough for any config (MBD_MAX_BOOT_REGIONS), which
 * asks for the kernel's real initial size, e.g. arm64's 128 + NR_CPUS + 1.
 * Files before v6.3 size memory with their own INIT_MEMBLOCK_REGIONS. */
#define INIT_MEMBLOCK_RESERVED_REGIONS 1024
#define INIT_MEMBLOCK_MEMORY_REGIONS 1024
#include "memblock.c"

#include "mbd_variant.h"

#define MBD_CAT2(a, b) a##b
#define MBD_CAT(a, b) MBD_CAT2(a, b)
#define MBD_DESC MBD_CAT(mbd_variant_, MBD_VARIANT_ID)

_Static_assert(sizeof(struct memblock_region) == MBD_REGION_BYTES,
	       "the oracle assumes 24-byte regions");
_Static_assert(ARRAY_SIZE(memblock_memory_init_regions) >= MBD_INIT_REGIONS &&
	       ARRAY_SIZE(memblock_reserved_init_regions) == MBD_MAX_BOOT_REGIONS,
	       "boot arrays must hold the largest max a config asks for");

static void mbd_glue_arrays_hash(uint64_t h[2]);

static unsigned long MBD_KC_NO_COVERAGE mbd_glue_max(uint32_t want, size_t slots)
{
	/* a smaller max just uses fewer of the boot array's slots */
	if (want < 1)
		return 1;
	if (want > slots)
		return slots;
	return want;
}

static phys_addr_t MBD_KC_NO_COVERAGE mbd_glue_limit(u64 limit)
{
	/* region arrays must land inside the host arena */
	return limit < MBD_KC_PHYS_LIMIT ? limit : MBD_KC_PHYS_LIMIT;
}

#include "glue_reset.c"

#ifdef MBD_KERNEL_VARIANT
/* the calls whose form changed across versions */
#if MBD_K_ADD_NODE_FLAGS
#define mbd_k_add_node(b, s, n, f) memblock_add_node(b, s, n, f)
#else
#define mbd_k_add_node(b, s, n, f) memblock_add_node(b, s, n)
#endif
#if MBD_K_HAS_PHYS_FREE
#define mbd_k_phys_free(b, s) memblock_phys_free(b, s)
#else
#define mbd_k_phys_free(b, s) memblock_free(b, s)
#endif
#if MBD_K_HAS_MARK_NOINIT
#define mbd_k_mark_noinit(b, s) memblock_reserved_mark_noinit(b, s)
#else
/* older files have no NOINIT flag: the call does nothing there */
#define mbd_k_mark_noinit(b, s) ((void)(b), (void)(s), 0)
#endif
#if MBD_K_HAS_RESERVE_KERN
#define MBD_GLUE_RESERVE_KERN 1
#endif
#else
#define mbd_k_add_node(b, s, n, f) memblock_add_node(b, s, n, f)
#define mbd_k_phys_free(b, s) memblock_phys_free(b, s)
#define mbd_k_mark_noinit(b, s) memblock_reserved_mark_noinit(b, s)
#define MBD_GLUE_RESERVE_KERN 1
#endif

/*
 * memblock_reserve_kern() and RSRV_KERN are v6.16: a file without them,
 * or a model of an older kernel (mainline-6.12), stops with the same
 * message, so two such variants never differ on it.
 */
static int mbd_glue_reserve_kern(const struct mbd_op *op)
{
#ifdef MBD_GLUE_RESERVE_KERN
#ifdef MBD_VARIANT_KVER
	if (MBD_VARIANT_KVER && MBD_VARIANT_KVER < MBD_KVER(6, 16))
		mbd_kc_panic(&mbd_kc, "memblock_reserve_kern: no such call before v6.16 (kcompat)");
#endif
	return __memblock_reserve(op->base, op->size, op->nid, MEMBLOCK_RSRV_KERN);
#else
	(void)op;
	mbd_kc_panic(&mbd_kc, "memblock_reserve_kern: no such call before v6.16 (kcompat)");
#endif
}

static void mbd_glue_call(const struct mbd_op *op, struct mbd_result *res)
{
	struct memblock_type *type;

	switch (op->kind) {
	case MBD_OP_ADD:
		res->ret = memblock_add(op->base, op->size);
		break;
	case MBD_OP_ADD_NODE:
		res->ret = mbd_k_add_node(op->base, op->size, op->nid,
					  (enum memblock_flags)op->flags);
		break;
	case MBD_OP_REMOVE:
		res->ret = memblock_remove(op->base, op->size);
		break;
	case MBD_OP_RESERVE:
		res->ret = memblock_reserve(op->base, op->size);
		break;
	case MBD_OP_RESERVE_KERN:
		res->ret = mbd_glue_reserve_kern(op);
		break;
	case MBD_OP_PHYS_FREE:
		res->ret = mbd_k_phys_free(op->base, op->size);
		break;
	case MBD_OP_MARK_HOTPLUG:
		res->ret = memblock_mark_hotplug(op->base, op->size);
		break;
	case MBD_OP_CLEAR_HOTPLUG:
		res->ret = memblock_clear_hotplug(op->base, op->size);
		break;
	case MBD_OP_MARK_MIRROR:
		res->ret = memblock_mark_mirror(op->base, op->size);
		break;
	case MBD_OP_MARK_NOMAP:
		res->ret = memblock_mark_nomap(op->base, op->size);
		break;
	case MBD_OP_CLEAR_NOMAP:
		res->ret = memblock_clear_nomap(op->base, op->size);
		break;
	case MBD_OP_MARK_NOINIT:
		res->ret = mbd_k_mark_noinit(op->base, op->size);
		break;
	case MBD_OP_SET_NODE:
		type = op->type == MBD_TYPE_RESERVED ? &memblock.reserved :
						      &memblock.memory;
		res->ret = memblock_set_node(op->base, op->size, type, op->nid);
		break;
	case MBD_OP_ALLOC_RANGE:
		res->ret = (int64_t)memblock_phys_alloc_range(op->size, op->align,
							      op->start, op->end);
		break;
	case MBD_OP_ALLOC_TRY_NID:
		res->ret = (int64_t)memblock_phys_alloc_try_nid(op->size, op->align,
								op->nid);
		break;
	case MBD_OP_SET_LIMIT:
		memblock_set_current_limit(mbd_glue_limit(op->value));
		break;
	case MBD_OP_ALLOW_RESIZE:
		memblock_allow_resize();
		break;
	case MBD_OP_SET_BOTTOM_UP:
		memblock_set_bottom_up(op->value != 0);
		break;
	case MBD_OP_SLAB_UP:
		mbd_kc.slab = true;
		break;
	case MBD_OP_TRIM:
		memblock_trim_memory(op->value);
		break;
	default:
		break;
	}
}

static void mbd_glue_apply(const struct mbd_op *op, struct mbd_result *res)
{
	res->ret = 0;
	res->panicked = false;
	res->panic_msg[0] = '\0';

	if (setjmp(mbd_kc.panic_jmp)) {
		/* BUG_ON()/panic() inside the call: the kernel would stop here */
		res->panicked = true;
		(memcpy)(res->panic_msg, mbd_kc.panic_msg, sizeof(res->panic_msg));
		res->panic_msg[sizeof(res->panic_msg) - 1] = '\0';
		if (mbd_kc.events)
			mbd_kc_events_end(&mbd_kc);
		mbd_glue_note_counts();
		return;
	}
	mbd_kc.dirty = true;
	if (mbd_kc.events)
		mbd_kc_events_begin(&mbd_kc);
	mbd_kc.armed = true;
	mbd_glue_call(op, res);
	mbd_kc.armed = false;
	if (mbd_kc.events)
		mbd_kc_events_end(&mbd_kc);
	mbd_glue_note_counts();
	/* the size of an array this call placed: reset zeroes just that */
	mbd_glue_note_arrays();
}

#include "glue_snapshot.c"

#ifndef MBD_VARIANT_VERSION
#define MBD_VARIANT_VERSION ""
#endif
#ifndef MBD_VARIANT_KVER
#define MBD_VARIANT_KVER 0
#endif

#ifdef MBD_VARIANT_OWN_COVERAGE
/*
 * The bounds of this object's counter and PC-table sections: the build
 * renames the sections to ones of this variant alone and these symbols to
 * the linker's __start_/__stop_ symbols of those (cmake/MbdVariants.cmake).
 */
extern uint8_t mbd_own_cov_counters[] __attribute__((weak, visibility("hidden")));
extern uint8_t mbd_own_cov_counters_end[] __attribute__((weak, visibility("hidden")));
extern const uintptr_t mbd_own_cov_pcs[] __attribute__((weak, visibility("hidden")));
extern const uintptr_t mbd_own_cov_pcs_end[] __attribute__((weak, visibility("hidden")));
#define MBD_OWN_COV(sym) sym
#else
#define MBD_OWN_COV(sym) NULL
#endif

const struct mbd_variant MBD_DESC = {
	.name = MBD_VARIANT_NAME,
	.kind = MBD_VARIANT_KIND,
	.summary = MBD_VARIANT_SUMMARY,
	.version = MBD_VARIANT_VERSION,
	.kver = MBD_VARIANT_KVER,
	.reset = mbd_glue_reset,
	.apply = mbd_glue_apply,
	.snapshot = mbd_glue_snapshot,
	.same_as = mbd_glue_same_as,
	.cov_counters = MBD_OWN_COV(mbd_own_cov_counters),
	.cov_counters_end = MBD_OWN_COV(mbd_own_cov_counters_end),
	.cov_pcs = MBD_OWN_COV(mbd_own_cov_pcs),
	.cov_pcs_end = MBD_OWN_COV(mbd_own_cov_pcs_end),
};
