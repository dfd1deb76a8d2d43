/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Extra stand-ins that only real kernel files need (kernel:NAME variants,
 * docs/kernel-variants.md); included by kcompat.h when MBD_KERNEL_VARIANT
 * is set, so the reference build is unchanged. They serve code that
 * mbdiff's operations never reach (freeing to the buddy allocator, boot
 * parameters, debugfs): such calls BUG() so a surprise shows as a panic.
 */
#ifndef MBD_KC_KERNEL_H
#define MBD_KC_KERNEL_H

#include <ctype.h>
#include <stdio.h>

/*
 * The release the file is from: MBD_K_RELEASE is VERSION << 16 |
 * PATCHLEVEL << 8 of the tree's Makefile, written into mbd_kernel_era.h at
 * staging; 0 when the tree has no Makefile (then the newest names are used).
 */
#ifndef MBD_K_RELEASE
#define MBD_K_RELEASE 0
#endif
#define MBD_K_BEFORE(v, p) \
	(MBD_K_RELEASE != 0 && MBD_K_RELEASE < ((v) << 16 | (p) << 8))

/*
 * The kernel config kcompat builds (x86_64-like, NUMA on) spelled the way
 * the file's release spells it: memblock stores node ids under
 * CONFIG_HAVE_MEMBLOCK_NODE_MAP before v5.8 and CONFIG_NEED_MULTIPLE_NODES
 * before v5.14 (both set by NUMA=y then); without them every nid is 0.
 */
#if MBD_K_BEFORE(5, 14)
#define CONFIG_NEED_MULTIPLE_NODES 1
#endif
#if MBD_K_BEFORE(5, 8)
#define CONFIG_HAVE_MEMBLOCK_NODE_MAP 1
#endif

/*
 * Complete but empty-handed types: the file does pointer arithmetic on
 * struct page and walks zones in code that is compiled, never run here.
 */
struct page {
	unsigned long flags;
};
typedef struct { long counter; } atomic_long_t;
#define MAX_NR_ZONES 4
struct zone {
	atomic_long_t managed_pages;
};
typedef struct pglist_data {
	struct zone node_zones[MAX_NR_ZONES];
} pg_data_t;
#define atomic_long_set(v, i) ((v)->counter = (i))
#define atomic_long_read(v) ((v)->counter)
/* no online nodes: the loop body is never entered */
#define for_each_online_pgdat(pgdat) for ((pgdat) = NULL; (pgdat); (pgdat) = NULL)
/*
 * The buddy allocator's largest order: MAX_PAGE_ORDER since v6.8; before,
 * MAX_ORDER, which counted one past it until v6.4.
 */
#define MAX_PAGE_ORDER 10
#if MBD_K_BEFORE(6, 4)
#define MAX_ORDER 11
#else
#define MAX_ORDER MAX_PAGE_ORDER
#endif
/* complete, for inlines of memblock.h that pass it by value (v7.2) */
enum migratetype {
	MIGRATE_UNMOVABLE,
	MIGRATE_MOVABLE,
	MIGRATE_RECLAIMABLE,
	MIGRATE_CMA,
	MIGRATE_TYPES
};
struct seq_file;
struct dentry;

#define K(x) ((x) << (PAGE_SHIFT - 10))
/* printk.h's default message prefix (memblock_dbg() uses it before v5.9) */
#ifndef pr_fmt
#define pr_fmt(fmt) fmt
#endif
#ifndef IS_ALIGNED
#define IS_ALIGNED(x, a) (((x) & ((__typeof__(x))(a) - 1)) == 0)
#endif
#define ALIGN_DOWN(x, a) ((x) & ~((__typeof__(x))(a) - 1))
#define __is_kernel(addr) ((void)(addr), 0)
#define kasan_reset_tag(addr) (addr)

/* no struct page array: the memory map is never walked here */
static inline bool deferred_pages_enabled(void)
{
	return false;
}
static inline struct page *mbd_kc_no_page(const char *what)
{
	mbd_kc_bug(&mbd_kc, what, "struct page is not modelled by kcompat");
}
#define pfn_to_page(pfn) ((void)(pfn), mbd_kc_no_page("pfn_to_page"))
#define page_to_pfn(page) ((void)(page), (unsigned long)mbd_kc_no_page("page_to_pfn"))
#define page_address(page) ((void *)((void)(page), mbd_kc_no_page("page_address")))
#define pfn_valid(pfn) ((void)(pfn), 0)
#define for_each_valid_pfn(pfn, lo, hi) \
	for ((pfn) = (lo); (pfn) < (hi) && pfn_valid(pfn); (pfn)++)
#define free_reserved_page(page) ((void)(page), mbd_kc_no_page("free_reserved_page"))
#define __SetPageReserved(page) ((void)(page), mbd_kc_no_page("__SetPageReserved"))
#define totalram_pages_add(n) ((void)(n))
#define totalram_pages_inc() do { } while (0)

/*
 * Handing memory to the buddy allocator and parsing boot parameters happen
 * after memblock's work is done; mbdiff never calls them. Reaching one is
 * a BUG so that a surprise shows as a panic, not as silent success.
 */
static inline long mbd_kc_unreached(const char *what)
{
	mbd_kc_bug(&mbd_kc, what, "not modelled by kcompat");
}
/* variadic where the argument list changed between versions */
#define memblock_free_pages(...) ((void)mbd_kc_unreached("memblock_free_pages"))
#define reserve_bootmem_region(...) ((void)mbd_kc_unreached("reserve_bootmem_region"))
#define early_pfn_to_nid(pfn) ((void)(pfn), (int)mbd_kc_unreached("early_pfn_to_nid"))
#define memparse(p, retp) ((void)(p), (void)(retp), \
	(unsigned long long)mbd_kc_unreached("memparse"))
#define strscpy(dst, src, ...) ((void)(dst), (void)(src), mbd_kc_unreached("strscpy"))
#define PAGE_ALIGN_DOWN(addr) ALIGN_DOWN(addr, PAGE_SIZE)
#define pageblock_order 9
#define pageblock_nr_pages (1UL << pageblock_order)
#define pageblock_start_pfn(pfn) ALIGN_DOWN((pfn), pageblock_nr_pages)
#define pageblock_align(pfn) ALIGN((pfn), pageblock_nr_pages)
#define __ffs(x) ((unsigned long)__builtin_ctzl(x))

#define page_init_poison(...) ((void)mbd_kc_unreached("page_init_poison"))
#define init_deferred_page(pfn, nid) ((void)(pfn), (void)(nid), \
	(void)mbd_kc_unreached("init_deferred_page"))
/* no kexec handover: no scratch area for an allocation to overlap */
#define kho_scratch_overlap(base, size) ((void)(base), (void)(size), false)

/*
 * Stand-ins for functions that moved into mm/memblock.c in some release.
 * Staging looks for a definition of each name guarded like this in the
 * file and sets MBD_K_DEFINES_<name> when it has one, so the file's own
 * definition is compiled instead of being mangled by the macro.
 */
#ifndef MBD_K_DEFINES_free_reserved_area
/* in mm/page_alloc.c, then in memblock.c (v7.2 has it there) */
#define free_reserved_area(...) (mbd_kc_unreached("free_reserved_area"))
#endif

/* one thread: locks only have to compile */
struct mutex {
	int locked;
};
#define DEFINE_MUTEX(name) struct mutex name = { 0 }
#define mutex_lock(m) ((void)(m))
#define mutex_unlock(m) ((void)(m))
/* cleanup.h's guard(mutex)(&lock): a no-op statement here */
#define guard(type) mbd_kc_guard_##type
#define mbd_kc_guard_mutex(m) ((void)(m))

/* boot parameters are never parsed here */
#define early_param(str, fn) \
	static int (*mbd_kc_early_##fn)(char *) __attribute__((unused)) = fn
#define __setup(str, fn) early_param(str, fn)

#endif
