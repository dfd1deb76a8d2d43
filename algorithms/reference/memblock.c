// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * mbdiff reference: a model of mainline mm/memblock.c as of v7.3 (the
 * newest release, December 2026), written for mbdiff from the kernel's
 * documented behaviour. Function names, globals, types and control flow
 * follow the kernel file so that proposed kernel patches apply to it almost
 * unchanged, and so that every quirk the kernel has (merge windows, when
 * and where arrays double, what a failed call leaves behind) is reproduced.
 *
 * Era markers modelled here:
 *  - empty types have cnt == 0 (since v6.11);
 *  - memblock_merge_regions() only looks at a window (v6.3, 2fe03412e2e1);
 *  - memblock_add_range() skips its counting pass when 2 * cnt + 1 <= max
 *    (v6.0 28e1a8f4b0ff, made "<=" by ad500fb2d11b in v6.3);
 *  - memblock_double_array() panics when resizing is not yet allowed;
 *  - node ids are checked with numa_valid_node() (v6.11);
 *  - memblock_reserve() records NUMA_NO_NODE; memblock's own reservations
 *    (allocations, grown region arrays) carry MEMBLOCK_RSRV_KERN, and
 *    allocations keep the node they were made for (v6.16, "memblock: add
 *    MEMBLOCK_RSRV_KERN flag");
 *  - memblock_add_range()'s flags WARN_ON stays quiet for requests made
 *    with MEMBLOCK_NONE (the same commit);
 *  - a region array that memblock_double_array() found for itself is
 *    accepted (accept_memory) before it is written (v6.15-rc6,
 *    da8bf5daa5e5; a no-op here);
 *  - MEMBLOCK_KHO_SCRATCH ranges (v6.16) and the scratch-only allocation
 *    phase, compiled out here as in a kernel without
 *    CONFIG_MEMBLOCK_KHO_SCRATCH;
 *  - memblock_phys_free() once slab is up hands the pages to the page
 *    allocator and, without CONFIG_ARCH_KEEP_MEMBLOCK, leaves
 *    memblock.reserved as it was (v7.1, "make memblock_free() handle late
 *    freeing"). This model is built as x86 is: no ARCH_KEEP_MEMBLOCK, no
 *    deferred struct page init, the same configuration kcompat gives the
 *    real files built as kernel variants.
 *
 * The v6.11-v6.15 model that came before is the variant mainline-6.12
 * (algorithms/patches/mainline-6.12.patch).
 */

#include <linux/kernel.h>
#include <linux/slab.h>
#include <linux/init.h>
#include <linux/bitops.h>
#include <linux/poison.h>
#include <linux/pfn.h>
#include <linux/debugfs.h>
#include <linux/kmemleak.h>
#include <linux/seq_file.h>
#include <linux/memblock.h>

#include <asm/sections.h>
#include <linux/io.h>

#include "internal.h"
#include "mm_init.h"

#define INIT_MEMBLOCK_REGIONS			128
#define INIT_PHYSMEM_REGIONS			4

#ifndef INIT_MEMBLOCK_RESERVED_REGIONS
# define INIT_MEMBLOCK_RESERVED_REGIONS		INIT_MEMBLOCK_REGIONS
#endif

#ifndef INIT_MEMBLOCK_MEMORY_REGIONS
#define INIT_MEMBLOCK_MEMORY_REGIONS		INIT_MEMBLOCK_REGIONS
#endif

unsigned long max_low_pfn;
unsigned long min_low_pfn;
unsigned long max_pfn;
unsigned long long max_possible_pfn;

#ifdef CONFIG_MEMBLOCK_KHO_SCRATCH
/* set while a kexec handover boot may only allocate from scratch ranges */
static bool kho_scratch_only;
#else
#define kho_scratch_only false
#endif

static struct memblock_region memblock_memory_init_regions[INIT_MEMBLOCK_MEMORY_REGIONS] __initdata_memblock;
static struct memblock_region memblock_reserved_init_regions[INIT_MEMBLOCK_RESERVED_REGIONS] __initdata_memblock;

/* Both types start empty: cnt 0 and a zeroed slot 0. */
struct memblock memblock __initdata_memblock = {
	.memory.regions		= memblock_memory_init_regions,
	.memory.max		= INIT_MEMBLOCK_MEMORY_REGIONS,
	.memory.name		= "memory",

	.reserved.regions	= memblock_reserved_init_regions,
	.reserved.max		= INIT_MEMBLOCK_RESERVED_REGIONS,
	.reserved.name		= "reserved",

	.bottom_up		= false,
	.current_limit		= MEMBLOCK_ALLOC_ANYWHERE,
};

/*
 * The free-range walkers filter regions only when they walk this type;
 * memblock_discard() would clear it once memblock is gone.
 */
static __refdata struct memblock_type *memblock_memory = &memblock.memory;

/* cnt and regions are re-read on every step: the body may change both. */
#define for_each_memblock_type(i, memblock_type, rgn)			\
	for (i = 0, rgn = &memblock_type->regions[0];			\
	     i < memblock_type->cnt;					\
	     i++, rgn = &memblock_type->regions[i])

#define memblock_dbg(fmt, ...)						\
	do {								\
		if (memblock_debug)					\
			pr_info(fmt, ##__VA_ARGS__);			\
	} while (0)

static int memblock_debug __initdata_memblock;
static bool system_has_some_mirror __initdata_memblock;
static int memblock_can_resize __initdata_memblock;
static int memblock_memory_in_slab __initdata_memblock;
static int memblock_reserved_in_slab __initdata_memblock;

static enum memblock_flags __init_memblock choose_memblock_flags(void)
{
	/* a handover boot allocates from the scratch ranges and nowhere else */
	if (kho_scratch_only)
		return MEMBLOCK_KHO_SCRATCH;

	return system_has_some_mirror ? MEMBLOCK_MIRROR : MEMBLOCK_NONE;
}

/* Shrink *size so that base + *size stays representable; return it. */
static inline phys_addr_t memblock_cap_size(phys_addr_t base, phys_addr_t *size)
{
	return *size = min(*size, PHYS_ADDR_MAX - base);
}

static unsigned long __init_memblock memblock_addrs_overlap(phys_addr_t base1, phys_addr_t size1,
				       phys_addr_t base2, phys_addr_t size2)
{
	return ((base1 < (base2 + size2)) && (base2 < (base1 + size1)));
}

bool __init_memblock memblock_overlaps_region(struct memblock_type *type,
					phys_addr_t base, phys_addr_t size)
{
	unsigned long i;

	memblock_cap_size(base, &size);

	for (i = 0; i < type->cnt; i++)
		if (memblock_addrs_overlap(base, size, type->regions[i].base,
					   type->regions[i].size))
			return true;
	return false;
}

/*
 * Lowest-first search: the first free range (in ascending order) that has
 * an aligned candidate with @size bytes below its end wins.
 */
static phys_addr_t __init_memblock
__memblock_find_range_bottom_up(phys_addr_t start, phys_addr_t end,
				phys_addr_t size, phys_addr_t align, int nid,
				enum memblock_flags flags)
{
	phys_addr_t this_start, this_end, cand;
	u64 i;

	for_each_free_mem_range(i, nid, flags, &this_start, &this_end, NULL) {
		this_start = clamp(this_start, start, end);
		this_end = clamp(this_end, start, end);

		cand = round_up(this_start, align);
		if (cand < this_end && this_end - cand >= size)
			return cand;
	}

	return 0;
}

/*
 * Highest-first search: walk free ranges from the top and place the block
 * as high as alignment allows inside the first one it fits in.
 */
static phys_addr_t __init_memblock
__memblock_find_range_top_down(phys_addr_t start, phys_addr_t end,
			       phys_addr_t size, phys_addr_t align, int nid,
			       enum memblock_flags flags)
{
	phys_addr_t this_start, this_end, cand;
	u64 i;

	for_each_free_mem_range_reverse(i, nid, flags, &this_start, &this_end,
					NULL) {
		this_start = clamp(this_start, start, end);
		this_end = clamp(this_end, start, end);

		if (this_end < size)
			continue;

		cand = round_down(this_end - size, align);
		if (cand >= this_start)
			return cand;
	}

	return 0;
}

/*
 * Find @size free bytes aligned to @align inside [@start, @end) on @nid.
 * ACCESSIBLE/NOLEAKTRACE ends mean "up to current_limit", and page 0 is
 * never handed out. Returns the address or 0.
 */
static phys_addr_t __init_memblock memblock_find_in_range_node(phys_addr_t size,
					phys_addr_t align, phys_addr_t start,
					phys_addr_t end, int nid,
					enum memblock_flags flags)
{
	if (end == MEMBLOCK_ALLOC_ACCESSIBLE ||
	    end == MEMBLOCK_ALLOC_NOLEAKTRACE)
		end = memblock.current_limit;

	start = max_t(phys_addr_t, start, PAGE_SIZE);
	end = max(start, end);

	if (memblock_bottom_up())
		return __memblock_find_range_bottom_up(start, end, size, align,
						       nid, flags);
	else
		return __memblock_find_range_top_down(start, end, size, align,
						      nid, flags);
}

/*
 * Node-agnostic search used for the region arrays themselves; mirrored
 * memory is preferred when the system has some, with a plain retry.
 */
static phys_addr_t __init_memblock memblock_find_in_range(phys_addr_t start,
					phys_addr_t end, phys_addr_t size,
					phys_addr_t align)
{
	phys_addr_t ret;
	enum memblock_flags flags = choose_memblock_flags();

again:
	ret = memblock_find_in_range_node(size, align, start, end,
					    NUMA_NO_NODE, flags);

	if (!ret && (flags & MEMBLOCK_MIRROR)) {
		pr_warn_ratelimited("Could not allocate %pap bytes of mirrored memory\n",
			&size);
		flags &= ~MEMBLOCK_MIRROR;
		goto again;
	}

	return ret;
}

static void __init_memblock memblock_remove_region(struct memblock_type *type, unsigned long r)
{
	type->total_size -= type->regions[r].size;
	memmove(&type->regions[r], &type->regions[r + 1],
		(type->cnt - (r + 1)) * sizeof(type->regions[r]));
	type->cnt--;

	/* Emptied: slot 0 goes back to a zero range on no valid node. */
	if (type->cnt == 0) {
		WARN_ON(type->total_size != 0);
		type->regions[0].base = 0;
		type->regions[0].size = 0;
		type->regions[0].flags = 0;
		memblock_set_region_node(&type->regions[0], MAX_NUMNODES);
	}
}

/**
 * memblock_double_array - give @type twice as many slots
 * @type: the type whose array is full
 * @new_area_start: start of a range that is about to be reserved
 * @new_area_size: its size
 *
 * The new array comes from slab when it is up, else from memblock itself.
 * When @type is memblock.reserved, the range that the caller is about to
 * reserve is not reserved yet, so the search must not put the new array
 * there: it looks above the range first and below it second.
 *
 * Return: 0 on success, -1 when no room for the new array was found.
 */
static int __init_memblock memblock_double_array(struct memblock_type *type,
						phys_addr_t new_area_start,
						phys_addr_t new_area_size)
{
	struct memblock_region *new_array, *old_array;
	phys_addr_t old_alloc_size, new_alloc_size;
	phys_addr_t old_size, new_size, addr, new_end;
	int use_slab = slab_is_available();
	int *in_slab;

	/* Growing before the caller has told us what is reserved is fatal. */
	if (!memblock_can_resize)
		panic("memblock: cannot resize %s array\n", type->name);

	old_size = type->max * sizeof(struct memblock_region);
	new_size = old_size << 1;
	/* whole pages, so that an array can later be freed in one piece */
	old_alloc_size = PAGE_ALIGN(old_size);
	new_alloc_size = PAGE_ALIGN(new_size);

	if (type == &memblock.memory)
		in_slab = &memblock_memory_in_slab;
	else
		in_slab = &memblock_reserved_in_slab;

	if (use_slab) {
		new_array = kmalloc(new_size, GFP_KERNEL);
		addr = new_array ? __pa(new_array) : 0;
	} else {
		/* the pending range only matters while growing reserved */
		if (type != &memblock.reserved)
			new_area_start = new_area_size = 0;

		addr = memblock_find_in_range(new_area_start + new_area_size,
						memblock.current_limit,
						new_alloc_size, PAGE_SIZE);
		if (!addr && new_area_size)
			addr = memblock_find_in_range(0,
				min(new_area_start, memblock.current_limit),
				new_alloc_size, PAGE_SIZE);

		if (addr) {
			/* confidential guests: the page may still need accepting */
			accept_memory(addr, new_alloc_size);
			new_array = __va(addr);
		} else {
			new_array = NULL;
		}
	}
	if (!addr) {
		pr_err("memblock: Failed to double %s array from %ld to %ld entries !\n",
		       type->name, type->max, type->max * 2);
		return -1;
	}

	new_end = addr + new_size - 1;
	memblock_dbg("memblock: %s is doubled to %ld at [%pa-%pa]",
			type->name, type->max * 2, &addr, &new_end);

	/*
	 * Switch to the new array before reserving it: when @type is reserved
	 * itself, that reservation needs the extra slots.
	 */
	memcpy(new_array, type->regions, old_size);
	memset(new_array + type->max, 0, old_size);
	old_array = type->regions;
	type->regions = new_array;
	type->max <<= 1;

	/* The static boot arrays are never given back. */
	if (*in_slab)
		kfree(old_array);
	else if (old_array != memblock_memory_init_regions &&
		 old_array != memblock_reserved_init_regions)
		memblock_free(old_array, old_alloc_size);

	/* A memblock-allocated array is a kernel reservation like any other. */
	if (!use_slab)
		BUG_ON(memblock_reserve_kern(addr, new_alloc_size));

	*in_slab = use_slab;

	return 0;
}

/**
 * memblock_merge_regions - join touching compatible neighbours
 * @type: the type to tidy up
 * @start_rgn: first index that changed
 * @end_rgn: one past the last index that changed
 *
 * Only the pairs from (@start_rgn - 1, @start_rgn) up to
 * (@end_rgn - 1, @end_rgn) can have become mergeable, so only they are
 * looked at. Overlapping neighbours mean the array is corrupt.
 */
static void __init_memblock memblock_merge_regions(struct memblock_type *type,
						   unsigned long start_rgn,
						   unsigned long end_rgn)
{
	int i = 0;

	if (start_rgn)
		i = start_rgn - 1;
	end_rgn = min(end_rgn, type->cnt - 1);
	while (i < end_rgn) {
		struct memblock_region *this = &type->regions[i];
		struct memblock_region *next = &type->regions[i + 1];

		if (this->base + this->size != next->base ||
		    memblock_get_region_node(this) !=
		    memblock_get_region_node(next) ||
		    this->flags != next->flags) {
			BUG_ON(this->base + this->size > next->base);
			i++;
			continue;
		}

		this->size += next->size;
		/* close the gap left by next (index i + 1) */
		memmove(next, next + 1, (type->cnt - (i + 2)) * sizeof(*next));
		type->cnt--;
		end_rgn--;
	}
}

/**
 * memblock_insert_region - put a region at @idx without any checks
 * @type: the type to insert into
 * @idx: where the new region goes; later regions move up one slot
 * @base: first byte
 * @size: length
 * @nid: node
 * @flags: attributes
 *
 * The caller has made sure there is a free slot and that the array stays
 * sorted and free of overlaps.
 */
static void __init_memblock memblock_insert_region(struct memblock_type *type,
						   int idx, phys_addr_t base,
						   phys_addr_t size,
						   int nid,
						   enum memblock_flags flags)
{
	struct memblock_region *rgn = &type->regions[idx];

	BUG_ON(type->cnt >= type->max);
	memmove(rgn + 1, rgn, (type->cnt - idx) * sizeof(*rgn));
	rgn->base = base;
	rgn->size = size;
	rgn->flags = flags;
	memblock_set_region_node(rgn, nid);
	type->cnt++;
	type->total_size += size;
}

/**
 * memblock_add_range - add [@base, @base + @size) to @type
 * @type: the type to add to
 * @base: first byte
 * @size: length
 * @nid: node of the new bytes
 * @flags: attributes of the new bytes
 *
 * Bytes that are already covered keep their attributes; only the holes
 * are filled, and the result is merged with its neighbours.
 *
 * Return: 0 on success, -ENOMEM if the array could not grow.
 */
static int __init_memblock memblock_add_range(struct memblock_type *type,
				phys_addr_t base, phys_addr_t size,
				int nid, enum memblock_flags flags)
{
	bool insert = false;
	phys_addr_t obase = base;
	phys_addr_t end = base + memblock_cap_size(base, &size);
	int idx, nr_new, start_rgn = -1, end_rgn;
	struct memblock_region *rgn;

	if (!size)
		return 0;

	/* An empty type just takes the range in slot 0. */
	if (type->regions[0].size == 0) {
		WARN_ON(type->cnt != 0 || type->total_size);
		type->regions[0].base = base;
		type->regions[0].size = size;
		type->regions[0].flags = flags;
		memblock_set_region_node(&type->regions[0], nid);
		type->total_size = size;
		type->cnt = 1;
		return 0;
	}

	/*
	 * One range can need at most cnt + 1 new slots (a piece in front of
	 * every region plus a tail). With that much room left there is
	 * nothing to count: insert straight away.
	 */
	if (type->cnt * 2 + 1 <= type->max)
		insert = true;

repeat:
	/*
	 * Without room guaranteed the walk runs twice: first only to count the
	 * pieces (nr_new) so the array can be grown, then again to insert.
	 */
	base = obase;
	nr_new = 0;

	for_each_memblock_type(idx, type, rgn) {
		phys_addr_t rbase = rgn->base;
		phys_addr_t rend = rbase + rgn->size;

		if (rbase >= end)
			break;
		if (rend <= base)
			continue;
		/* a hole between base and this region: it becomes a piece */
		if (rbase > base) {
#ifdef CONFIG_NUMA
			WARN_ON(nid != memblock_get_region_node(rgn));
#endif
			/* plain requests may fill holes next to flagged regions */
			WARN_ON(flags != MEMBLOCK_NONE && flags != rgn->flags);
			nr_new++;
			if (insert) {
				if (start_rgn == -1)
					start_rgn = idx;
				end_rgn = idx + 1;
				memblock_insert_region(type, idx++, base,
						       rbase - base, nid,
						       flags);
			}
		}
		/* everything up to the end of this region is settled */
		base = min(rend, end);
	}

	/* whatever is left above the last overlapping region */
	if (base < end) {
		nr_new++;
		if (insert) {
			if (start_rgn == -1)
				start_rgn = idx;
			end_rgn = idx + 1;
			memblock_insert_region(type, idx, base, end - base,
					       nid, flags);
		}
	}

	if (!nr_new)
		return 0;

	if (!insert) {
		/* cnt is re-read: growing reserved reserves the new array */
		while (type->cnt + nr_new > type->max)
			if (memblock_double_array(type, obase, size) < 0)
				return -ENOMEM;
		insert = true;
		goto repeat;
	} else {
		memblock_merge_regions(type, start_rgn, end_rgn);
		return 0;
	}
}

/**
 * memblock_add_node - add usable memory that belongs to a node
 * @base: first byte
 * @size: length
 * @nid: node
 * @flags: attributes
 *
 * Return: 0 on success, -errno on failure.
 */
int __init_memblock memblock_add_node(phys_addr_t base, phys_addr_t size,
				      int nid, enum memblock_flags flags)
{
	phys_addr_t end = base + size - 1;

	memblock_dbg("%s: [%pa-%pa] nid=%d flags=%x %pS\n", __func__,
		     &base, &end, nid, flags, (void *)_RET_IP_);

	return memblock_add_range(&memblock.memory, base, size, nid, flags);
}

/**
 * memblock_add - add usable memory with no node yet
 * @base: first byte
 * @size: length
 *
 * Return: 0 on success, -errno on failure.
 */
int __init_memblock memblock_add(phys_addr_t base, phys_addr_t size)
{
	phys_addr_t end = base + size - 1;

	memblock_dbg("%s: [%pa-%pa] %pS\n", __func__,
		     &base, &end, (void *)_RET_IP_);

	return memblock_add_range(&memblock.memory, base, size, MAX_NUMNODES, 0);
}

/**
 * memblock_isolate_range - split regions at both ends of a range
 * @type: the type to split
 * @base: first byte of the range
 * @size: its length
 * @start_rgn: out: first region inside the range
 * @end_rgn: out: one past the last region inside the range
 *
 * After this no region crosses @base or @base + @size, so the regions
 * inside can be changed or removed as a whole. Room for the two possible
 * extra regions is made first. (0, 0) means nothing is inside.
 *
 * Return: 0 on success, -ENOMEM if the array could not grow.
 */
static int __init_memblock memblock_isolate_range(struct memblock_type *type,
					phys_addr_t base, phys_addr_t size,
					int *start_rgn, int *end_rgn)
{
	phys_addr_t end = base + memblock_cap_size(base, &size);
	int idx;
	struct memblock_region *rgn;

	*start_rgn = *end_rgn = 0;

	if (!size)
		return 0;

	/* splitting at both ends creates at most two regions */
	while (type->cnt + 2 > type->max)
		if (memblock_double_array(type, base, size) < 0)
			return -ENOMEM;

	for_each_memblock_type(idx, type, rgn) {
		phys_addr_t rbase = rgn->base;
		phys_addr_t rend = rbase + rgn->size;

		if (rbase >= end)
			break;
		if (rend <= base)
			continue;

		if (rbase < base) {
			/*
			 * Crosses @base: keep the upper part here and put the
			 * lower part in front; the loop then visits the upper
			 * part, which may still cross @end.
			 */
			rgn->base = base;
			rgn->size -= base - rbase;
			type->total_size -= base - rbase;
			memblock_insert_region(type, idx, rbase, base - rbase,
					       memblock_get_region_node(rgn),
					       rgn->flags);
		} else if (rend > end) {
			/*
			 * Crosses @end: the lower part goes in front and is
			 * looked at again on the next step (idx-- below).
			 */
			rgn->base = end;
			rgn->size -= end - rbase;
			type->total_size -= end - rbase;
			memblock_insert_region(type, idx--, rbase, end - rbase,
					       memblock_get_region_node(rgn),
					       rgn->flags);
		} else {
			/* wholly inside */
			if (!*end_rgn)
				*start_rgn = idx;
			*end_rgn = idx + 1;
		}
	}

	return 0;
}

static int __init_memblock memblock_remove_range(struct memblock_type *type,
					  phys_addr_t base, phys_addr_t size)
{
	int start_rgn, end_rgn;
	int i, ret;

	ret = memblock_isolate_range(type, base, size, &start_rgn, &end_rgn);
	if (ret)
		return ret;

	for (i = end_rgn - 1; i >= start_rgn; i--)
		memblock_remove_region(type, i);
	return 0;
}

int __init_memblock memblock_remove(phys_addr_t base, phys_addr_t size)
{
	phys_addr_t end = base + size - 1;

	memblock_dbg("%s: [%pa-%pa] %pS\n", __func__,
		     &base, &end, (void *)_RET_IP_);

	return memblock_remove_range(&memblock.memory, base, size);
}

/*
 * Give the whole pages of [@start, @end) to the page allocator. That
 * allocator and the memory map are outside this model (no struct pages, no
 * deferred init), so nothing memblock can see changes; kept so the late
 * free path below reads as in the kernel.
 */
static unsigned long __free_reserved_area(phys_addr_t start, phys_addr_t end,
					  int poison)
{
	return 0;
}

/**
 * memblock_free - give back memory found through its virtual address
 * @ptr: start of the block (NULL is ignored)
 * @size: its length
 *
 * Once slab is up the pages go to the page allocator (memblock_phys_free()).
 */
void __init_memblock memblock_free(void *ptr, size_t size)
{
	if (ptr)
		memblock_phys_free(__pa(ptr), size);
}

/**
 * memblock_phys_free - give back [@base, @base + @size)
 * @base: first byte
 * @size: length
 *
 * Before slab is up the range simply leaves memblock.reserved. Afterwards
 * its pages go to the page allocator, and memblock.reserved is only kept
 * in step where memblock outlives boot (CONFIG_ARCH_KEEP_MEMBLOCK; not
 * set in this model): elsewhere it is about to be discarded anyway.
 *
 * Return: 0 on success, -errno on failure.
 */
int __init_memblock memblock_phys_free(phys_addr_t base, phys_addr_t size)
{
	phys_addr_t end = base + size - 1;
	int ret = 0;

	memblock_dbg("%s: [%pa-%pa] %pS\n", __func__,
		     &base, &end, (void *)_RET_IP_);

	kmemleak_free_part_phys(base, size);

	if (!slab_is_available() || IS_ENABLED(CONFIG_ARCH_KEEP_MEMBLOCK))
		ret = memblock_remove_range(&memblock.reserved, base, size);

	if (slab_is_available())
		__free_reserved_area(base, base + size, -1);

	return ret;
}

/**
 * __memblock_reserve - mark [@base, @base + @size) as in use
 * @base: first byte
 * @size: length
 * @nid: node to record (NUMA_NO_NODE for plain reservations)
 * @flags: attributes (MEMBLOCK_RSRV_KERN for memblock's own)
 *
 * memblock_reserve() and memblock_reserve_kern() in memblock.h wrap this.
 *
 * Return: 0 on success, -errno on failure.
 */
int __init_memblock __memblock_reserve(phys_addr_t base, phys_addr_t size,
				       int nid, enum memblock_flags flags)
{
	phys_addr_t end = base + size - 1;

	memblock_dbg("%s: [%pa-%pa] nid=%d flags=%x %pS\n", __func__,
		     &base, &end, nid, flags, (void *)_RET_IP_);

	return memblock_add_range(&memblock.reserved, base, size, nid, flags);
}

/**
 * memblock_setclr_flag - set or clear one attribute on a range
 * @type: the type to change
 * @base: first byte
 * @size: length
 * @set: 1 to set, 0 to clear
 * @flag: the attribute
 *
 * Return: 0 on success, -errno on failure.
 */
static int __init_memblock memblock_setclr_flag(struct memblock_type *type,
				phys_addr_t base, phys_addr_t size, int set, int flag)
{
	int i, ret, start_rgn, end_rgn;

	ret = memblock_isolate_range(type, base, size, &start_rgn, &end_rgn);
	if (ret)
		return ret;

	for (i = start_rgn; i < end_rgn; i++) {
		struct memblock_region *r = &type->regions[i];

		if (set)
			r->flags |= flag;
		else
			r->flags &= ~flag;
	}

	memblock_merge_regions(type, start_rgn, end_rgn);
	return 0;
}

int __init_memblock memblock_mark_hotplug(phys_addr_t base, phys_addr_t size)
{
	return memblock_setclr_flag(&memblock.memory, base, size, 1, MEMBLOCK_HOTPLUG);
}

int __init_memblock memblock_clear_hotplug(phys_addr_t base, phys_addr_t size)
{
	return memblock_setclr_flag(&memblock.memory, base, size, 0, MEMBLOCK_HOTPLUG);
}

/* Mirroring only means something with kernelcore=mirror. */
int __init_memblock memblock_mark_mirror(phys_addr_t base, phys_addr_t size)
{
	if (!mirrored_kernelcore)
		return 0;

	system_has_some_mirror = true;

	return memblock_setclr_flag(&memblock.memory, base, size, 1, MEMBLOCK_MIRROR);
}

int __init_memblock memblock_mark_nomap(phys_addr_t base, phys_addr_t size)
{
	return memblock_setclr_flag(&memblock.memory, base, size, 1, MEMBLOCK_NOMAP);
}

int __init_memblock memblock_clear_nomap(phys_addr_t base, phys_addr_t size)
{
	return memblock_setclr_flag(&memblock.memory, base, size, 0, MEMBLOCK_NOMAP);
}

int __init_memblock memblock_reserved_mark_noinit(phys_addr_t base, phys_addr_t size)
{
	return memblock_setclr_flag(&memblock.reserved, base, size, 1,
				    MEMBLOCK_RSRV_NOINIT);
}

/* Turn a plain reservation into a kernel one after the fact. */
int __init_memblock memblock_reserved_mark_kern(phys_addr_t base, phys_addr_t size)
{
	return memblock_setclr_flag(&memblock.reserved, base, size, 1,
				    MEMBLOCK_RSRV_KERN);
}

/* Scratch ranges: what a kexec handover boot may allocate from early on. */
__init int memblock_mark_kho_scratch(phys_addr_t base, phys_addr_t size)
{
	return memblock_setclr_flag(&memblock.memory, base, size, 1,
				    MEMBLOCK_KHO_SCRATCH);
}

__init int memblock_clear_kho_scratch(phys_addr_t base, phys_addr_t size)
{
	return memblock_setclr_flag(&memblock.memory, base, size, 0,
				    MEMBLOCK_KHO_SCRATCH);
}

/*
 * Whether a free-range walk over @type ignores region @m. Only memory is
 * filtered: by node, hotplug (with movable_node), mirror, nomap,
 * driver-managed and (when @flags asks for scratch) non-scratch memory.
 */
static bool should_skip_region(struct memblock_type *type,
			       struct memblock_region *m,
			       int nid, int flags)
{
	int m_nid = memblock_get_region_node(m);

	if (type != memblock_memory)
		return false;

	if (numa_valid_node(nid) && nid != m_nid)
		return true;

	if (movable_node_is_enabled() && memblock_is_hotpluggable(m) &&
	    !(flags & MEMBLOCK_HOTPLUG))
		return true;

	if ((flags & MEMBLOCK_MIRROR) && !memblock_is_mirror(m))
		return true;

	if (!(flags & MEMBLOCK_NOMAP) && memblock_is_nomap(m))
		return true;

	if (!(flags & MEMBLOCK_DRIVER_MANAGED) && memblock_is_driver_managed(m))
		return true;

	/* asked for scratch memory: everything else is out */
	if ((flags & MEMBLOCK_KHO_SCRATCH) && !memblock_is_kho_scratch(m))
		return true;

	return false;
}

/**
 * __next_mem_range - next piece of @type_a not covered by @type_b
 * @idx: cursor: region of @type_a in the low 32 bits, gap of @type_b in
 *       the high 32 bits; ULLONG_MAX once the walk is over
 * @nid: only regions of this node, unless it is not a valid node
 * @flags: region attributes to accept
 * @type_a: the ranges to walk
 * @type_b: the ranges to cut out, or NULL
 * @out_start: out: start of the piece
 * @out_end: out: end of the piece
 * @out_nid: out: node of the piece
 *
 * @type_b is seen as its complement: gap k runs from the end of region
 * k - 1 (0 for k = 0) to the base of region k (PHYS_ADDR_MAX for k = cnt).
 * Each call yields one intersection of a region of @type_a with a gap.
 */
void __next_mem_range(u64 *idx, int nid, enum memblock_flags flags,
		      struct memblock_type *type_a,
		      struct memblock_type *type_b, phys_addr_t *out_start,
		      phys_addr_t *out_end, int *out_nid)
{
	int idx_a = *idx & 0xffffffff;
	int idx_b = *idx >> 32;

	for (; idx_a < type_a->cnt; idx_a++) {
		struct memblock_region *m = &type_a->regions[idx_a];

		phys_addr_t m_start = m->base;
		phys_addr_t m_end = m->base + m->size;
		int	    m_nid = memblock_get_region_node(m);

		if (should_skip_region(type_a, m, nid, flags))
			continue;

		if (!type_b) {
			if (out_start)
				*out_start = m_start;
			if (out_end)
				*out_end = m_end;
			if (out_nid)
				*out_nid = m_nid;
			idx_a++;
			*idx = (u32)idx_a | (u64)idx_b << 32;
			return;
		}

		/* gaps of type_b that start below the end of this region */
		for (; idx_b < type_b->cnt + 1; idx_b++) {
			struct memblock_region *r;
			phys_addr_t r_start;
			phys_addr_t r_end;

			r = &type_b->regions[idx_b];
			r_start = idx_b ? r[-1].base + r[-1].size : 0;
			r_end = idx_b < type_b->cnt ?
				r->base : PHYS_ADDR_MAX;

			/* this gap is past the region: next region */
			if (r_start >= m_end)
				break;
			if (m_start < r_end) {
				if (out_start)
					*out_start =
						max(m_start, r_start);
				if (out_end)
					*out_end = min(m_end, r_end);
				if (out_nid)
					*out_nid = m_nid;
				/* step whichever of the two ends first */
				if (m_end <= r_end)
					idx_a++;
				else
					idx_b++;
				*idx = (u32)idx_a | (u64)idx_b << 32;
				return;
			}
		}
	}

	*idx = ULLONG_MAX;
}

/**
 * __next_mem_range_rev - __next_mem_range() walking from the top down
 * @idx: cursor as for __next_mem_range(); start with ULLONG_MAX
 * @nid: node filter
 * @flags: region attributes to accept
 * @type_a: the ranges to walk
 * @type_b: the ranges to cut out, or NULL
 * @out_start: out: start of the piece
 * @out_end: out: end of the piece
 * @out_nid: out: node of the piece
 */
void __init_memblock __next_mem_range_rev(u64 *idx, int nid,
					  enum memblock_flags flags,
					  struct memblock_type *type_a,
					  struct memblock_type *type_b,
					  phys_addr_t *out_start,
					  phys_addr_t *out_end, int *out_nid)
{
	int idx_a = *idx & 0xffffffff;
	int idx_b = *idx >> 32;

	if (*idx == (u64)ULLONG_MAX) {
		idx_a = type_a->cnt - 1;
		if (type_b != NULL)
			idx_b = type_b->cnt;
		else
			idx_b = 0;
	}

	for (; idx_a >= 0; idx_a--) {
		struct memblock_region *m = &type_a->regions[idx_a];

		phys_addr_t m_start = m->base;
		phys_addr_t m_end = m->base + m->size;
		int m_nid = memblock_get_region_node(m);

		if (should_skip_region(type_a, m, nid, flags))
			continue;

		if (!type_b) {
			if (out_start)
				*out_start = m_start;
			if (out_end)
				*out_end = m_end;
			if (out_nid)
				*out_nid = m_nid;
			idx_a--;
			*idx = (u32)idx_a | (u64)idx_b << 32;
			return;
		}

		/* gaps of type_b that end above the start of this region */
		for (; idx_b >= 0; idx_b--) {
			struct memblock_region *r;
			phys_addr_t r_start;
			phys_addr_t r_end;

			r = &type_b->regions[idx_b];
			r_start = idx_b ? r[-1].base + r[-1].size : 0;
			r_end = idx_b < type_b->cnt ?
				r->base : PHYS_ADDR_MAX;

			/* this gap is below the region: next region down */
			if (r_end <= m_start)
				break;
			if (m_end > r_start) {
				if (out_start)
					*out_start = max(m_start, r_start);
				if (out_end)
					*out_end = min(m_end, r_end);
				if (out_nid)
					*out_nid = m_nid;
				if (m_start >= r_start)
					idx_a--;
				else
					idx_b--;
				*idx = (u32)idx_a | (u64)idx_b << 32;
				return;
			}
		}
	}
	*idx = ULLONG_MAX;
}

/**
 * memblock_set_node - give a range of @type to node @nid
 * @base: first byte
 * @size: length
 * @type: memory or reserved
 * @nid: the node
 *
 * Return: 0 on success, -errno on failure.
 */
int __init_memblock memblock_set_node(phys_addr_t base, phys_addr_t size,
				      struct memblock_type *type, int nid)
{
#ifdef CONFIG_NUMA
	int start_rgn, end_rgn;
	int i, ret;

	ret = memblock_isolate_range(type, base, size, &start_rgn, &end_rgn);
	if (ret)
		return ret;

	for (i = start_rgn; i < end_rgn; i++)
		memblock_set_region_node(&type->regions[i], nid);

	memblock_merge_regions(type, start_rgn, end_rgn);
#endif
	return 0;
}

/*
 * What every allocation gets once its range is reserved: kmemleak tracking
 * (unless @kmemleak_trace is false) and acceptance of the memory for
 * confidential guests. Neither has state in this model.
 */
static void memblock_prep_allocation(phys_addr_t start, phys_addr_t size,
				     bool kmemleak_trace)
{
	if (kmemleak_trace)
		kmemleak_alloc_phys(start, size, 0);

	accept_memory(start, size);
}

/**
 * memblock_alloc_range_nid - find and reserve a block
 * @size: bytes wanted
 * @align: alignment (0 means SMP_CACHE_BYTES)
 * @start: lowest acceptable address
 * @end: highest acceptable end (ACCESSIBLE: current_limit)
 * @nid: preferred node, or NUMA_NO_NODE
 * @exact_nid: do not fall back to other nodes
 *
 * Falls back to any node (unless @exact_nid) and then to non-mirrored
 * memory. The block is reserved as MEMBLOCK_RSRV_KERN on the node it was
 * found for (@nid, or NUMA_NO_NODE on the fallback). Once slab is up this is a bug in the caller: it warns and hands
 * out slab memory instead.
 *
 * Return: the physical address, or 0.
 */
phys_addr_t __init memblock_alloc_range_nid(phys_addr_t size,
					phys_addr_t align, phys_addr_t start,
					phys_addr_t end, int nid,
					bool exact_nid)
{
	enum memblock_flags flags = choose_memblock_flags();
	phys_addr_t found;

	if (WARN_ON_ONCE(slab_is_available())) {
		void *vaddr = kzalloc_node(size, GFP_NOWAIT, nid);

		return vaddr ? virt_to_phys(vaddr) : 0;
	}

	if (!align) {
		/* a WARN could not even be printed this early on some arches */
		dump_stack();
		align = SMP_CACHE_BYTES;
	}

again:
	found = memblock_find_in_range_node(size, align, start, end, nid,
					    flags);
	if (found && !__memblock_reserve(found, size, nid, MEMBLOCK_RSRV_KERN))
		goto done;

	if (numa_valid_node(nid) && !exact_nid) {
		found = memblock_find_in_range_node(size, align, start,
						    end, NUMA_NO_NODE,
						    flags);
		if (found && !memblock_reserve_kern(found, size))
			goto done;
	}

	if (flags & MEMBLOCK_MIRROR) {
		flags &= ~MEMBLOCK_MIRROR;
		pr_warn_ratelimited("Could not allocate %pap bytes of mirrored memory\n",
			&size);
		goto again;
	}

	return 0;

done:
	memblock_prep_allocation(found, size, end != MEMBLOCK_ALLOC_NOLEAKTRACE);
	return found;
}

/**
 * memblock_phys_alloc_range - allocate a block inside [@start, @end)
 * @size: bytes wanted
 * @align: alignment
 * @start: lowest acceptable address
 * @end: highest acceptable end
 *
 * Return: the physical address, or 0.
 */
phys_addr_t __init memblock_phys_alloc_range(phys_addr_t size,
					     phys_addr_t align,
					     phys_addr_t start,
					     phys_addr_t end)
{
	memblock_dbg("%s: %llu bytes align=0x%llx from=%pa max_addr=%pa %pS\n",
		     __func__, (u64)size, (u64)align, &start, &end,
		     (void *)_RET_IP_);
	return memblock_alloc_range_nid(size, align, start, end, NUMA_NO_NODE,
					false);
}

/**
 * memblock_phys_alloc_try_nid - allocate a block, preferably on @nid
 * @size: bytes wanted
 * @align: alignment
 * @nid: preferred node
 *
 * Return: the physical address, or 0.
 */
phys_addr_t __init memblock_phys_alloc_try_nid(phys_addr_t size, phys_addr_t align, int nid)
{
	return memblock_alloc_range_nid(size, align, 0,
					MEMBLOCK_ALLOC_ACCESSIBLE, nid, false);
}

phys_addr_t __init_memblock memblock_phys_mem_size(void)
{
	return memblock.memory.total_size;
}

phys_addr_t __init_memblock memblock_reserved_size(void)
{
	return memblock.reserved.total_size;
}

/**
 * memblock_trim_memory - cut memory regions down to whole @align units
 * @align: the unit (a power of two)
 *
 * A region that shrinks is edited in place and total_size is left as it
 * was (as in the kernel); a region with no whole unit left is removed.
 */
void __init memblock_trim_memory(phys_addr_t align)
{
	phys_addr_t start, end, orig_start, orig_end;
	struct memblock_region *r;

	for_each_mem_region(r) {
		orig_start = r->base;
		orig_end = r->base + r->size;
		start = round_up(orig_start, align);
		end = round_down(orig_end, align);

		if (start == orig_start && end == orig_end)
			continue;

		if (start < end) {
			r->base = start;
			r->size = end - start;
		} else {
			memblock_remove_region(&memblock.memory,
					       r - memblock.memory.regions);
			/* the next region moved into this slot */
			r--;
		}
	}
}

void __init_memblock memblock_set_current_limit(phys_addr_t limit)
{
	memblock.current_limit = limit;
}

phys_addr_t __init_memblock memblock_get_current_limit(void)
{
	return memblock.current_limit;
}

void __init memblock_allow_resize(void)
{
	memblock_can_resize = 1;
}
