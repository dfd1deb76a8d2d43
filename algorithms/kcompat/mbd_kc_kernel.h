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
/* the buddy allocator's largest order (MAX_ORDER before v6.8 was one more) */
#define MAX_PAGE_ORDER 10
#define MAX_ORDER 11
struct seq_file;
struct dentry;

#define K(x) ((x) << (PAGE_SHIFT - 10))
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
#define free_reserved_area(...) (mbd_kc_unreached("free_reserved_area"))

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
