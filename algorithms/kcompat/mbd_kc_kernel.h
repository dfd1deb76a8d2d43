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

struct page;
struct zone;
struct pglist_data;
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

/* boot parameters are never parsed here */
#define early_param(str, fn) \
	static int (*mbd_kc_early_##fn)(char *) __attribute__((unused)) = fn
#define __setup(str, fn) early_param(str, fn)

#endif
