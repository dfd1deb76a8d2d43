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
 * its own copy of the kernel's globals.
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

/*
 * Only a call that placed something (__va()) can have placed an array:
 * each new entry is noted once, as every later note would find it sized
 * already. Out of line: inlined into mbd_glue_apply(), whose dispatch has
 * coverage, this test would be an edge of its own.
 */
static __attribute__((__noinline__)) void MBD_KC_NO_COVERAGE mbd_glue_note_new(void)
{
	if (mbd_kc.n_touched == mbd_kc.n_noted)
		return;
	mbd_kc.n_noted = mbd_kc.n_touched;
	mbd_kc_note_array(&mbd_kc, memblock.memory.regions,
			  memblock.memory.max * sizeof(struct memblock_region));
	mbd_kc_note_array(&mbd_kc, memblock.reserved.regions,
			  memblock.reserved.max * sizeof(struct memblock_region));
}

/* The arrays in place now: their sizes are final (see mbd_kc_note_array). */
static void MBD_KC_NO_COVERAGE mbd_glue_note_arrays(void)
{
	if (!mbd_kc.n_touched)
		return;
	mbd_glue_note_new();
}

/*
 * The boot arrays' slots an input may have written: memmove/memcpy/memset
 * note their own writes (kcompat.h); after each call the glue adds every
 * slot up to one past each count (a count can come from direct stores,
 * such as the dummy region of files before v6.11), and the whole of an
 * array in slab memory. Reset zeroes just those.
 */
static __attribute__((__noinline__)) void MBD_KC_NO_COVERAGE mbd_glue_note_counts(void)
{
	size_t m = memblock.memory.cnt, r = memblock.reserved.cnt;

	m = m < ARRAY_SIZE(memblock_memory_init_regions) ? m + 1 :
		ARRAY_SIZE(memblock_memory_init_regions);
	r = r < ARRAY_SIZE(memblock_reserved_init_regions) ? r + 1 :
		ARRAY_SIZE(memblock_reserved_init_regions);
	/* boot arrays 0 and 1 (mbd_glue_boot_watch) */
	mbd_kc_boot_wrote(&mbd_kc, 0, m * sizeof(struct memblock_region));
	mbd_kc_boot_wrote(&mbd_kc, 1, r * sizeof(struct memblock_region));
	/* an array in slab memory: its slots take plain stores too */
	if (memblock.memory.regions != memblock_memory_init_regions)
		mbd_kc_wrote(&mbd_kc, memblock.memory.regions,
			     memblock.memory.max * sizeof(struct memblock_region));
	if (memblock.reserved.regions != memblock_reserved_init_regions)
		mbd_kc_wrote(&mbd_kc, memblock.reserved.regions,
			     memblock.reserved.max * sizeof(struct memblock_region));
}

/* once, before any call: the arrays are as the program loaded them */
static void MBD_KC_NO_COVERAGE mbd_glue_boot_watch(void)
{
	static bool watched;

	if (watched)
		return;
	watched = true;
	mbd_kc_boot_watch(&mbd_kc, 0, memblock_memory_init_regions,
			  sizeof(memblock_memory_init_regions));
	mbd_kc_boot_watch(&mbd_kc, 1, memblock_reserved_init_regions,
			  sizeof(memblock_reserved_init_regions));
}

/* what the next reset checks of each boot array: the slots the config gave */
static void MBD_KC_NO_COVERAGE mbd_glue_boot_limits(void)
{
	mbd_kc_boot_limit(&mbd_kc, 0, memblock.memory.max * sizeof(struct memblock_region));
	mbd_kc_boot_limit(&mbd_kc, 1, memblock.reserved.max * sizeof(struct memblock_region));
}

static void MBD_KC_NO_COVERAGE mbd_glue_reset_type(struct memblock_type *type,
				struct memblock_region *init,
				unsigned long max)
{
	type->regions = init;
	type->cnt = 0;
	type->max = max;
	type->total_size = 0;
}

#ifdef MBD_KERNEL_VARIANT
/*
 * The file's boot image: every object it defines, copied at the first
 * reset (before any call ran) and copied back at every later one, so
 * whatever statics this version has start each input exactly as booted.
 */
#define MBD_KSTATE(sym) static unsigned char mbd_ks_##sym[sizeof(sym)];
#include "mbd_kstate.h"
#undef MBD_KSTATE
static bool mbd_ks_saved;
/* both boot arrays load as zeroes (always so far): reset zeroes what an
 * input wrote of them (mbd_kc_boot_reset) instead of copying them back */
static bool mbd_ks_boot_zero;

static void MBD_KC_NO_COVERAGE mbd_glue_ks_put(void *dst, const void *img, size_t n)
{
	if (mbd_ks_boot_zero && (dst == (void *)memblock_memory_init_regions ||
				 dst == (void *)memblock_reserved_init_regions))
		return;
	(memcpy)(dst, img, n);
}

static void MBD_KC_NO_COVERAGE mbd_glue_kstate_restore(void)
{
	if (!mbd_ks_saved) {
#define MBD_KSTATE(sym) (memcpy)(mbd_ks_##sym, (void *)&(sym), sizeof(sym));
#include "mbd_kstate.h"
#undef MBD_KSTATE
		mbd_ks_saved = true;
		mbd_ks_boot_zero =
			mbd_kc_first_set(memblock_memory_init_regions, 0,
					 sizeof(memblock_memory_init_regions)) ==
				sizeof(memblock_memory_init_regions) &&
			mbd_kc_first_set(memblock_reserved_init_regions, 0,
					 sizeof(memblock_reserved_init_regions)) ==
				sizeof(memblock_reserved_init_regions);
		if (mbd_ks_boot_zero)
			mbd_glue_boot_watch();
		return;
	}
	if (mbd_ks_boot_zero)
		mbd_kc_boot_reset(&mbd_kc);
	/* nothing ran since the last restore: every object is as booted */
	if (!mbd_kc.dirty)
		return;
#define MBD_KSTATE(sym) mbd_glue_ks_put((void *)&(sym), mbd_ks_##sym, sizeof(sym));
#include "mbd_kstate.h"
#undef MBD_KSTATE
}

static void MBD_KC_NO_COVERAGE mbd_glue_reset(const struct mbd_config *cfg, int verbose)
{
	/* looked at only when pages were written, so that a reset after a
	 * clean one takes the same path whatever ran before (stable coverage) */
	u64 most = mbd_kc.n_touched ?
		max(memblock.memory.max, memblock.reserved.max) : 0;

	mbd_glue_note_arrays();
	mbd_glue_kstate_restore();
	mbd_kc_reset(&mbd_kc, MBD_VARIANT_NAME, cfg->slab, cfg->mirror,
		     cfg->movable, verbose & ~MBD_RESET_EVENTS,
		     PAGE_ALIGN(most * sizeof(struct memblock_region)));
	mbd_kc.events = (verbose & MBD_RESET_EVENTS) != 0;
	mbd_kc.arrays_hash = mbd_glue_arrays_hash;
	/* then the configuration, as for the reference */
	memblock.memory.max = mbd_glue_max(cfg->memory_max, ARRAY_SIZE(memblock_memory_init_regions));
	memblock.reserved.max = mbd_glue_max(cfg->reserved_max,
					     ARRAY_SIZE(memblock_reserved_init_regions));
	mbd_glue_boot_limits();
	memblock.bottom_up = cfg->bottom_up;
	memblock.current_limit = mbd_glue_limit(cfg->limit);
	/* on for the messages the judge records (MBD_RESET_EVENTS: each
	   doubling among them), printed when verbose; off while fuzzing,
	   where nobody reads them */
	memblock_debug = (verbose & ~MBD_RESET_EVENTS) > 0 || mbd_kc.events;
	memblock_can_resize = cfg->resize;
}
#else
static void MBD_KC_NO_COVERAGE mbd_glue_reset(const struct mbd_config *cfg, int verbose)
{
	/* the largest array the last input can have written anywhere */
	/* looked at only when pages were written, so that a reset after a
	 * clean one takes the same path whatever ran before (stable coverage) */
	u64 most = mbd_kc.n_touched ?
		max(memblock.memory.max, memblock.reserved.max) : 0;

	/* a call that panicked did not get to note them */
	mbd_glue_note_arrays();
	mbd_glue_boot_watch();
	mbd_kc_boot_reset(&mbd_kc);
	mbd_glue_reset_type(&memblock.memory, memblock_memory_init_regions,
			    mbd_glue_max(cfg->memory_max, ARRAY_SIZE(memblock_memory_init_regions)));
	mbd_glue_reset_type(&memblock.reserved, memblock_reserved_init_regions,
			    mbd_glue_max(cfg->reserved_max,
					 ARRAY_SIZE(memblock_reserved_init_regions)));
	mbd_glue_boot_limits();
	/* last: it clears mbd_kc.dirty */
	mbd_kc_reset(&mbd_kc, MBD_VARIANT_NAME, cfg->slab, cfg->mirror,
		     cfg->movable, verbose & ~MBD_RESET_EVENTS,
		     PAGE_ALIGN(most * sizeof(struct memblock_region)));
	mbd_kc.events = (verbose & MBD_RESET_EVENTS) != 0;
	mbd_kc.arrays_hash = mbd_glue_arrays_hash;
	memblock.memory.name = "memory";
	memblock.reserved.name = "reserved";
	memblock.bottom_up = cfg->bottom_up;
	memblock.current_limit = mbd_glue_limit(cfg->limit);

	memblock_memory = &memblock.memory;
	/* on for the messages the judge records (MBD_RESET_EVENTS: each
	   doubling among them), printed when verbose; off while fuzzing,
	   where nobody reads them */
	memblock_debug = (verbose & ~MBD_RESET_EVENTS) > 0 || mbd_kc.events;
	system_has_some_mirror = false;
	memblock_can_resize = cfg->resize;
	memblock_memory_in_slab = 0;
	memblock_reserved_in_slab = 0;
	max_low_pfn = min_low_pfn = max_pfn = 0;
	max_possible_pfn = 0;
}
#endif

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

/*
 * struct memblock_region and struct mbd_region hold the same fields at the
 * same offsets, without padding, in every kernel so far: a snapshot then
 * copies and compares regions as bytes. Otherwise field by field.
 */
#define MBD_FIELD_SAME(f)						\
	(offsetof(struct memblock_region, f) == offsetof(struct mbd_region, f) && \
	 sizeof(((struct memblock_region *)0)->f) == sizeof(((struct mbd_region *)0)->f))
#define MBD_REGIONS_AS_BYTES						\
	(sizeof(struct memblock_region) == sizeof(struct mbd_region) &&	\
	 sizeof(struct mbd_region) == 2 * sizeof(u64) + 2 * sizeof(u32) && \
	 MBD_FIELD_SAME(base) && MBD_FIELD_SAME(size) &&		\
	 MBD_FIELD_SAME(flags) && MBD_FIELD_SAME(nid))

/* The count a snapshot reports (*cnt) and how many regions it copies. */
static size_t MBD_KC_NO_COVERAGE mbd_glue_copy_count(const struct memblock_type *type,
						     size_t *cnt)
{
	size_t n;

	*cnt = type->cnt;
#if defined(MBD_KERNEL_VARIANT) && MBD_K_EMPTY_DUMMY
	/* before v6.11 an empty type is one zero-sized dummy entry: report it
	 * as the empty array it stands for, so eras compare */
	if (*cnt == 1 && type->regions[0].size == 0)
		*cnt = 0;
#endif
	n = *cnt;
	if (n > type->max)
		n = type->max;
	if (n > MBD_SNAPSHOT_MAX_REGIONS)
		n = MBD_SNAPSHOT_MAX_REGIONS;
	return n;
}

/* One array as the events see it: what a snapshot would copy of it. */
static uint64_t MBD_KC_NO_COVERAGE mbd_glue_type_hash(uint64_t h,
						      const struct memblock_type *type,
						      const struct memblock_region *init)
{
	size_t cnt, n = mbd_glue_copy_count(type, &cnt);

	h = mbd_kc_hash_u64(h, cnt);
	h = mbd_kc_hash_u64(h, type->max);
	h = mbd_kc_hash_u64(h, type->total_size);
	/* by physical address: each variant has its own arena and init array */
	h = mbd_kc_hash_u64(h, type->regions == init ? 0 : (u64)__pa(type->regions) + 1);
	for (size_t i = 0; i < n; i++) {
		const struct memblock_region *r = &type->regions[i];

		h = mbd_kc_hash_u64(h, r->base);
		h = mbd_kc_hash_u64(h, r->size);
		h = mbd_kc_hash_u64(h, (u64)r->flags << 32 | (u32)memblock_get_region_node(r));
	}
	return h;
}

static void MBD_KC_NO_COVERAGE mbd_glue_arrays_hash(uint64_t h[2])
{
	h[0] = mbd_glue_type_hash(MBD_KC_HASH_SEED, &memblock.memory,
				  memblock_memory_init_regions);
	h[1] = mbd_glue_type_hash(MBD_KC_HASH_SEED, &memblock.reserved,
				  memblock_reserved_init_regions);
}

static void MBD_KC_NO_COVERAGE mbd_glue_copy_type(struct mbd_type_state *out,
			       const struct memblock_type *type,
			       const struct memblock_region *init, int in_slab)
{
	size_t cnt;
	size_t n = mbd_glue_copy_count(type, &cnt);

	out->cnt = cnt;
	out->max = type->max;
	out->total_size = type->total_size;
	out->regions_static = type->regions == init;
	out->regions_slab = !out->regions_static && in_slab;
	out->regions_pa = out->regions_static ? 0 : __pa(type->regions);
	if (mbd_type_state_reserve(out, n))
		n = out->cap;
	out->n_copied = n;
	(memset)(&out->empty_slot, 0, sizeof(out->empty_slot));
	if (cnt == 0 && type->max > 0) {
		out->empty_slot.base = type->regions[0].base;
		out->empty_slot.size = type->regions[0].size;
		out->empty_slot.flags = type->regions[0].flags;
		out->empty_slot.nid = memblock_get_region_node(&type->regions[0]);
	}
	if (MBD_REGIONS_AS_BYTES) {
		/* no buffer yet when there is nothing to copy */
		if (n)
			(memcpy)(out->regions, type->regions, n * sizeof(*out->regions));
		return;
	}
	for (size_t i = 0; i < n; i++) {
		const struct memblock_region *r = &type->regions[i];

		out->regions[i].base = r->base;
		out->regions[i].size = r->size;
		out->regions[i].flags = r->flags;
		out->regions[i].nid = memblock_get_region_node(r);
	}
}

/* mbd_glue_copy_type() would write exactly s: its fields, in its order. */
static bool MBD_KC_NO_COVERAGE mbd_glue_same_type(const struct mbd_type_state *s,
			       const struct memblock_type *type,
			       const struct memblock_region *init, int in_slab)
{
	size_t cnt;
	size_t n = mbd_glue_copy_count(type, &cnt);
	bool is_static = type->regions == init;

	/* a snapshot capped by a failed reserve is never "the same" */
	if (s->cnt != cnt || s->max != type->max || s->total_size != type->total_size ||
	    s->regions_static != is_static ||
	    s->regions_slab != (!is_static && in_slab) ||
	    s->regions_pa != (is_static ? 0 : (u64)__pa(type->regions)) ||
	    s->n_copied != n)
		return false;
	if (cnt == 0 && type->max > 0) {
		if (s->empty_slot.base != type->regions[0].base ||
		    s->empty_slot.size != type->regions[0].size ||
		    s->empty_slot.flags != (uint32_t)type->regions[0].flags ||
		    s->empty_slot.nid != memblock_get_region_node(&type->regions[0]))
			return false;
	} else if (s->empty_slot.base || s->empty_slot.size ||
		   s->empty_slot.flags || s->empty_slot.nid) {
		return false;
	}
	if (MBD_REGIONS_AS_BYTES)
		return !n || (memcmp)(s->regions, type->regions, n * sizeof(*s->regions)) == 0;
	for (size_t i = 0; i < n; i++) {
		const struct memblock_region *r = &type->regions[i];
		const struct mbd_region *x = &s->regions[i];

		if (x->base != r->base || x->size != r->size ||
		    x->flags != (uint32_t)r->flags ||
		    x->nid != memblock_get_region_node(r))
			return false;
	}
	return true;
}

static bool MBD_KC_NO_COVERAGE mbd_glue_same_as(const struct mbd_state *s)
{
	/* events are not compared: a variant that parts is snapshot anyway */
	return s->warnings == mbd_kc.warnings &&
	       mbd_glue_same_type(&s->memory, &memblock.memory,
				  memblock_memory_init_regions,
				  memblock_memory_in_slab) &&
	       mbd_glue_same_type(&s->reserved, &memblock.reserved,
				  memblock_reserved_init_regions,
				  memblock_reserved_in_slab);
}

static void MBD_KC_NO_COVERAGE mbd_glue_snapshot(struct mbd_state *out)
{
	mbd_glue_copy_type(&out->memory, &memblock.memory,
			   memblock_memory_init_regions, memblock_memory_in_slab);
	mbd_glue_copy_type(&out->reserved, &memblock.reserved,
			   memblock_reserved_init_regions,
			   memblock_reserved_in_slab);
	out->warnings = mbd_kc.warnings;
	_Static_assert(MBD_KC_MAX_EVENTS == MBD_MAX_EVENTS, "one event bound");
	out->n_events = mbd_kc.events ? mbd_kc.n_events : 0;
	out->events_cut = mbd_kc.events && mbd_kc.events_cut;
	for (unsigned int i = 0; i < out->n_events; i++) {
		out->events[i].text = mbd_kc.ev[i].text;
		out->events[i].arrays[0] = mbd_kc.ev[i].arrays[0];
		out->events[i].arrays[1] = mbd_kc.ev[i].arrays[1];
		out->events[i].growth = mbd_kc.ev[i].growth;
	}
}

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
