// SPDX-License-Identifier: GPL-2.0
/* Part of glue.c (included there, once per variant): reset, and what a call wrote. */

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
