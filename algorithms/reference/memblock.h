/* SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef _LINUX_MEMBLOCK_H
#define _LINUX_MEMBLOCK_H

/*
 * mbdiff's model of include/linux/memblock.h as of v7.3, reduced to
 * what the early-boot region bookkeeping needs. Written for mbdiff from the
 * documented behaviour; names and layout follow the kernel so that patches
 * against it read like kernel patches.
 */

#include <linux/init.h>
#include <linux/mm.h>
#include <asm/dma.h>

extern unsigned long max_low_pfn;
extern unsigned long min_low_pfn;
extern unsigned long max_pfn;
extern unsigned long long max_possible_pfn;

/**
 * enum memblock_flags - attributes of a memory region
 * @MEMBLOCK_NONE: nothing special
 * @MEMBLOCK_HOTPLUG: firmware says the range can be hot-removed
 * @MEMBLOCK_MIRROR: mirrored (reliable) memory
 * @MEMBLOCK_NOMAP: keep out of the kernel's direct map
 * @MEMBLOCK_DRIVER_MANAGED: added by a driver, not by firmware
 * @MEMBLOCK_RSRV_NOINIT: reserved range whose struct pages stay uninitialised
 * @MEMBLOCK_RSRV_KERN: reserved by or for the kernel itself (every memblock
 *	allocation, memblock_reserve_kern())
 * @MEMBLOCK_KHO_SCRATCH: memory a kexec handover boot may allocate from
 *	before it knows what the previous kernel handed over
 * @MEMBLOCK_RSRV_HUGETLB: reserved early for huge pages
 */
enum memblock_flags {
	MEMBLOCK_NONE		= 0x0,
	MEMBLOCK_HOTPLUG	= 0x1,
	MEMBLOCK_MIRROR		= 0x2,
	MEMBLOCK_NOMAP		= 0x4,
	MEMBLOCK_DRIVER_MANAGED = 0x8,
	MEMBLOCK_RSRV_NOINIT	= 0x10,
	MEMBLOCK_RSRV_KERN	= 0x20,
	MEMBLOCK_KHO_SCRATCH	= 0x40,
	MEMBLOCK_RSRV_HUGETLB	= 0x80,
};

/**
 * struct memblock_region - one contiguous range of physical memory
 * @base: first byte
 * @size: length in bytes
 * @flags: enum memblock_flags
 * @nid: NUMA node (only with CONFIG_NUMA)
 */
struct memblock_region {
	phys_addr_t base;
	phys_addr_t size;
	enum memblock_flags flags;
#ifdef CONFIG_NUMA
	int nid;
#endif
};

/**
 * struct memblock_type - a sorted array of regions
 * @cnt: regions in use
 * @max: capacity of @regions
 * @total_size: sum of the sizes of the regions in use
 * @regions: the array
 * @name: "memory", "reserved" or "physmem"
 */
struct memblock_type {
	unsigned long cnt;
	unsigned long max;
	phys_addr_t total_size;
	struct memblock_region *regions;
	char *name;
};

/**
 * struct memblock - the allocator's whole state
 * @bottom_up: allocate upwards from the kernel instead of from the top
 * @current_limit: highest address an allocation may use
 * @memory: usable memory
 * @reserved: memory in use
 */
struct memblock {
	bool bottom_up;
	phys_addr_t current_limit;
	struct memblock_type memory;
	struct memblock_type reserved;
};

extern struct memblock memblock;

#define MEMBLOCK_ALLOC_ANYWHERE		(~(phys_addr_t)0)
#define MEMBLOCK_ALLOC_ACCESSIBLE	0
#define MEMBLOCK_ALLOC_NOLEAKTRACE	1
#define MEMBLOCK_LOW_LIMIT		0

#ifndef ARCH_LOW_ADDRESS_LIMIT
#define ARCH_LOW_ADDRESS_LIMIT		0xffffffffUL
#endif

int memblock_add_node(phys_addr_t base, phys_addr_t size, int nid,
		      enum memblock_flags flags);
int memblock_add(phys_addr_t base, phys_addr_t size);
int memblock_remove(phys_addr_t base, phys_addr_t size);
int memblock_phys_free(phys_addr_t base, phys_addr_t size);
int __memblock_reserve(phys_addr_t base, phys_addr_t size, int nid,
		       enum memblock_flags flags);

/* Reservations made by callers belong to no node and carry no flags. */
static __always_inline int memblock_reserve(phys_addr_t base, phys_addr_t size)
{
	return __memblock_reserve(base, size, NUMA_NO_NODE, 0);
}

/* The kernel's own: no node, MEMBLOCK_RSRV_KERN. */
static __always_inline int memblock_reserve_kern(phys_addr_t base, phys_addr_t size)
{
	return __memblock_reserve(base, size, NUMA_NO_NODE, MEMBLOCK_RSRV_KERN);
}
void memblock_free(void *ptr, size_t size);
void memblock_trim_memory(phys_addr_t align);
bool memblock_overlaps_region(struct memblock_type *type,
			      phys_addr_t base, phys_addr_t size);
int memblock_mark_hotplug(phys_addr_t base, phys_addr_t size);
int memblock_clear_hotplug(phys_addr_t base, phys_addr_t size);
int memblock_mark_mirror(phys_addr_t base, phys_addr_t size);
int memblock_mark_nomap(phys_addr_t base, phys_addr_t size);
int memblock_clear_nomap(phys_addr_t base, phys_addr_t size);
int memblock_reserved_mark_noinit(phys_addr_t base, phys_addr_t size);
int memblock_reserved_mark_kern(phys_addr_t base, phys_addr_t size);
int memblock_mark_kho_scratch(phys_addr_t base, phys_addr_t size);
int memblock_clear_kho_scratch(phys_addr_t base, phys_addr_t size);
int memblock_set_node(phys_addr_t base, phys_addr_t size,
		      struct memblock_type *type, int nid);
void memblock_allow_resize(void);
void memblock_set_current_limit(phys_addr_t limit);
phys_addr_t memblock_get_current_limit(void);
phys_addr_t memblock_phys_mem_size(void);
phys_addr_t memblock_reserved_size(void);

phys_addr_t memblock_alloc_range_nid(phys_addr_t size, phys_addr_t align,
				     phys_addr_t start, phys_addr_t end,
				     int nid, bool exact_nid);
phys_addr_t memblock_phys_alloc_range(phys_addr_t size, phys_addr_t align,
				      phys_addr_t start, phys_addr_t end);
phys_addr_t memblock_phys_alloc_try_nid(phys_addr_t size, phys_addr_t align,
					int nid);

static inline phys_addr_t memblock_phys_alloc(phys_addr_t size,
					      phys_addr_t align)
{
	return memblock_phys_alloc_range(size, align, 0,
					 MEMBLOCK_ALLOC_ACCESSIBLE);
}

void __next_mem_range(u64 *idx, int nid, enum memblock_flags flags,
		      struct memblock_type *type_a,
		      struct memblock_type *type_b, phys_addr_t *out_start,
		      phys_addr_t *out_end, int *out_nid);

void __next_mem_range_rev(u64 *idx, int nid, enum memblock_flags flags,
			  struct memblock_type *type_a,
			  struct memblock_type *type_b, phys_addr_t *out_start,
			  phys_addr_t *out_end, int *out_nid);

/* Walk type_a minus type_b (free ranges when a = memory, b = reserved). */
#define __for_each_mem_range(i, type_a, type_b, nid, flags,		\
			     p_start, p_end, p_nid)			\
	for (i = 0, __next_mem_range(&i, nid, flags, type_a, type_b,	\
				     p_start, p_end, p_nid);		\
	     i != (u64)ULLONG_MAX;					\
	     __next_mem_range(&i, nid, flags, type_a, type_b,		\
			      p_start, p_end, p_nid))

/* The same walk from the top down. */
#define __for_each_mem_range_rev(i, type_a, type_b, nid, flags,	\
				 p_start, p_end, p_nid)			\
	for (i = (u64)ULLONG_MAX,					\
		     __next_mem_range_rev(&i, nid, flags, type_a, type_b, \
					  p_start, p_end, p_nid);	\
	     i != (u64)ULLONG_MAX;					\
	     __next_mem_range_rev(&i, nid, flags, type_a, type_b,	\
				  p_start, p_end, p_nid))

#define for_each_free_mem_range(i, nid, flags, p_start, p_end, p_nid)	\
	__for_each_mem_range(i, &memblock.memory, &memblock.reserved,	\
			     nid, flags, p_start, p_end, p_nid)

#define for_each_free_mem_range_reverse(i, nid, flags, p_start, p_end,	\
					p_nid)				\
	__for_each_mem_range_rev(i, &memblock.memory, &memblock.reserved, \
				 nid, flags, p_start, p_end, p_nid)

#define for_each_mem_region(region)					\
	for (region = memblock.memory.regions;				\
	     region < (memblock.memory.regions + memblock.memory.cnt);	\
	     region++)

#define for_each_reserved_mem_region(region)				\
	for (region = memblock.reserved.regions;			\
	     region < (memblock.reserved.regions + memblock.reserved.cnt); \
	     region++)

static inline bool memblock_is_hotpluggable(struct memblock_region *m)
{
	return m->flags & MEMBLOCK_HOTPLUG;
}

static inline bool memblock_is_mirror(struct memblock_region *m)
{
	return m->flags & MEMBLOCK_MIRROR;
}

static inline bool memblock_is_nomap(struct memblock_region *m)
{
	return m->flags & MEMBLOCK_NOMAP;
}

static inline bool memblock_is_reserved_noinit(struct memblock_region *m)
{
	return m->flags & MEMBLOCK_RSRV_NOINIT;
}

static inline bool memblock_is_driver_managed(struct memblock_region *m)
{
	return m->flags & MEMBLOCK_DRIVER_MANAGED;
}

static inline bool memblock_is_kho_scratch(struct memblock_region *m)
{
	return m->flags & MEMBLOCK_KHO_SCRATCH;
}

#ifdef CONFIG_NUMA
static inline void memblock_set_region_node(struct memblock_region *r, int nid)
{
	r->nid = nid;
}

static inline int memblock_get_region_node(const struct memblock_region *r)
{
	return r->nid;
}
#else
static inline void memblock_set_region_node(struct memblock_region *r, int nid)
{
}

static inline int memblock_get_region_node(const struct memblock_region *r)
{
	return 0;
}
#endif

/**
 * memblock_set_bottom_up - choose the allocation direction
 * @enable: true for bottom-up, false for top-down
 */
static inline void memblock_set_bottom_up(bool enable)
{
	memblock.bottom_up = enable;
}

/**
 * memblock_bottom_up - the current allocation direction
 *
 * Return: true when allocations go bottom-up.
 */
static inline bool memblock_bottom_up(void)
{
	return memblock.bottom_up;
}

#endif /* _LINUX_MEMBLOCK_H */
