/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Userspace stand-ins for the parts of the kernel that mm/memblock.c uses.
 * Every header under linux/ and asm/ here just includes this file, so
 * a real mm/memblock.c compiles through the same path as our reference.
 *
 * Each variant is one translation unit, so the static context below is
 * private to it: warnings, panics, slab state and the physical-memory arena
 * of one variant never leak into another.
 */
#ifndef MBD_KCOMPAT_H
#define MBD_KCOMPAT_H

#include <limits.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "mbd_kc_rt.h"

static struct mbd_kc_ctx mbd_kc;

/*
 * The variant's memmove/memcpy/memset note where they write, so reset
 * knows how much of a boot array an input can have written (mbd_kc_wrote).
 * (name)(...) below is the C library's function, not these macros.
 */
static inline MBD_KC_NO_COVERAGE void *mbd_kc_memmove(void *d, const void *s, size_t n)
{
	/* each insertion, merge and removal step moves regions: an event of
	   its own, by direction (an insertion opens a slot, moving up) */
	if (mbd_kc.events)
		mbd_kc_event_move(&mbd_kc, (const char *)d > (const char *)s);
	mbd_kc_wrote(&mbd_kc, d, n);
	return (memmove)(d, s, n);
}

static inline MBD_KC_NO_COVERAGE void *mbd_kc_memcpy(void *d, const void *s, size_t n)
{
	mbd_kc_wrote(&mbd_kc, d, n);
	return (memcpy)(d, s, n);
}

static inline MBD_KC_NO_COVERAGE void *mbd_kc_memset(void *d, int v, size_t n)
{
	mbd_kc_wrote(&mbd_kc, d, n);
	return (memset)(d, v, n);
}
#define memmove(d, s, n) mbd_kc_memmove(d, s, n)
#define memcpy(d, s, n) mbd_kc_memcpy(d, s, n)
#define memset(d, v, n) mbd_kc_memset(d, v, n)

/* ---- types ---- */
typedef uint8_t u8;
typedef uint16_t u16;
typedef uint32_t u32;
typedef uint64_t u64;
typedef int8_t s8;
typedef int16_t s16;
typedef int32_t s32;
typedef int64_t s64;
typedef u64 phys_addr_t;
typedef u64 dma_addr_t;
typedef unsigned long ulong;
typedef unsigned int gfp_t;
typedef long long loff_t_compat;

#define CONFIG_NUMA 1
#define CONFIG_NODES_SHIFT 6
#define CONFIG_PHYS_ADDR_T_64BIT 1
#define CONFIG_HAVE_MEMBLOCK_PHYS_MAP 1
#define NODES_SHIFT CONFIG_NODES_SHIFT
#define MAX_NUMNODES (1 << NODES_SHIFT)
#define NUMA_NO_NODE (-1)

static inline bool numa_valid_node(int nid)
{
	return nid >= 0 && nid < MAX_NUMNODES;
}

/* ---- section and export annotations: no meaning in userspace ---- */
#define __init
#define __initdata
#define __initconst
#define __meminit
#define __meminitdata
#define __refdata
#define __ref
#define __init_memblock
#define __initdata_memblock
#ifndef __always_inline
#define __always_inline inline __attribute__((always_inline))
#endif
#define __maybe_unused __attribute__((unused))
#define __must_check
#define __weak __attribute__((weak))
#define EXPORT_SYMBOL(sym) extern int mbd_kc_export_##sym##_unused
#define EXPORT_SYMBOL_GPL(sym) EXPORT_SYMBOL(sym)
#define likely(x) __builtin_expect(!!(x), 1)
#define unlikely(x) __builtin_expect(!!(x), 0)
#define _RET_IP_ ((unsigned long)__builtin_return_address(0))
#define IS_ENABLED(option) 0

/* ---- arithmetic ---- */
#define min(a, b) ({ __typeof__(a) mbd_x_ = (a); __typeof__(b) mbd_y_ = (b); \
	mbd_x_ < mbd_y_ ? mbd_x_ : mbd_y_; })
#define max(a, b) ({ __typeof__(a) mbd_x_ = (a); __typeof__(b) mbd_y_ = (b); \
	mbd_x_ > mbd_y_ ? mbd_x_ : mbd_y_; })
#define min_t(t, a, b) ({ t mbd_x_ = (a); t mbd_y_ = (b); mbd_x_ < mbd_y_ ? mbd_x_ : mbd_y_; })
#define max_t(t, a, b) ({ t mbd_x_ = (a); t mbd_y_ = (b); mbd_x_ > mbd_y_ ? mbd_x_ : mbd_y_; })
#define clamp(v, lo, hi) min(max(v, lo), hi)
/* the power-of-two mask forms, as in include/linux/math.h */
#define __round_mask(x, y) ((__typeof__(x))((y) - 1))
#define round_up(x, y) ((((x) - 1) | __round_mask(x, y)) + 1)
#define round_down(x, y) ((x) & ~__round_mask(x, y))
#define ALIGN(x, a) (((x) + ((__typeof__(x))(a) - 1)) & ~((__typeof__(x))(a) - 1))
#define ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))
#define ULLONG_MAX_COMPAT (~0ULL)
#ifndef ULLONG_MAX
#define ULLONG_MAX (~0ULL)
#endif

#define PAGE_SHIFT 12
#define PAGE_SIZE (1UL << PAGE_SHIFT)
#define PAGE_MASK (~(PAGE_SIZE - 1))
#define PAGE_ALIGN(addr) ALIGN(addr, PAGE_SIZE)
#define PFN_UP(x) (((x) + PAGE_SIZE - 1) >> PAGE_SHIFT)
#define PFN_DOWN(x) ((x) >> PAGE_SHIFT)
#define PFN_PHYS(x) ((phys_addr_t)(x) << PAGE_SHIFT)
#define PHYS_PFN(x) ((unsigned long)((x) >> PAGE_SHIFT))
#define PHYS_ADDR_MAX (~(phys_addr_t)0)
#define SMP_CACHE_BYTES 64
#define SZ_1M 0x00100000
#define SZ_4K 0x00001000

#define ENOMEM 12
#define EINVAL 22
#define ENOENT 2
#define EBUSY 16

/* ---- diagnostics ---- */
#define WARN_ON(cond) ({ bool mbd_c_ = !!(cond);			\
	if (unlikely(mbd_c_))						\
		mbd_kc_warn(&mbd_kc, __func__, "WARN_ON(" #cond ")");	\
	unlikely(mbd_c_); })
#define WARN(cond, ...) ({ bool mbd_c_ = !!(cond);			\
	if (unlikely(mbd_c_))						\
		mbd_kc_warn(&mbd_kc, __func__, "WARN(" #cond ")");	\
	unlikely(mbd_c_); })
/* "once" per reset: a site remembers the epoch it last fired in */
#define WARN_ON_ONCE(cond) ({ static unsigned int mbd_ep_;		\
	bool mbd_c_ = !!(cond);						\
	if (unlikely(mbd_c_) && mbd_ep_ != mbd_kc.epoch) {		\
		mbd_ep_ = mbd_kc.epoch;					\
		mbd_kc_warn(&mbd_kc, __func__, "WARN_ON_ONCE(" #cond ")"); \
	}								\
	unlikely(mbd_c_); })
#define WARN_ONCE(cond, ...) ({ static unsigned int mbd_ep_;		\
	bool mbd_c_ = !!(cond);						\
	if (unlikely(mbd_c_) && mbd_ep_ != mbd_kc.epoch) {		\
		mbd_ep_ = mbd_kc.epoch;					\
		mbd_kc_warn(&mbd_kc, __func__, "WARN_ONCE(" #cond ")");	\
	}								\
	unlikely(mbd_c_); })
#define BUG_ON(cond) do {						\
	if (unlikely(cond))						\
		mbd_kc_bug(&mbd_kc, __func__, "BUG_ON(" #cond ")");	\
} while (0)
#define BUG() mbd_kc_bug(&mbd_kc, __func__, "BUG()")
#define panic(...) mbd_kc_panic(&mbd_kc, __VA_ARGS__)
#define dump_stack() do { } while (0)

#define KERN_ERR "\0013"
#define KERN_WARNING "\0014"
#define KERN_INFO "\0016"
#define KERN_DEBUG "\0017"
#define KERN_CONT ""
#define printk(...) mbd_kc_printk(&mbd_kc, __VA_ARGS__)
#define pr_emerg(...) mbd_kc_printk(&mbd_kc, __VA_ARGS__)
#define pr_err(...) mbd_kc_printk(&mbd_kc, __VA_ARGS__)
#define pr_warn(...) mbd_kc_printk(&mbd_kc, __VA_ARGS__)
#define pr_notice(...) mbd_kc_printk(&mbd_kc, __VA_ARGS__)
#define pr_info(...) mbd_kc_printk(&mbd_kc, __VA_ARGS__)
#define pr_cont(...) mbd_kc_printk(&mbd_kc, __VA_ARGS__)
#define pr_debug(...) do { } while (0)
#define pr_err_ratelimited(...) mbd_kc_printk(&mbd_kc, __VA_ARGS__)
#define pr_warn_ratelimited(...) mbd_kc_printk(&mbd_kc, __VA_ARGS__)
#define pr_info_ratelimited(...) mbd_kc_printk(&mbd_kc, __VA_ARGS__)

/* ---- memory: physical addresses live in the variant's arena ---- */
#define __va(pa) mbd_kc_va(&mbd_kc, (u64)(pa))
#define __pa(va) mbd_kc_pa(&mbd_kc, (va))
#define phys_to_virt(pa) __va(pa)
#define virt_to_phys(va) __pa(va)
#define __pa_symbol(x) __pa(x)

#define GFP_KERNEL 0x1u
#define GFP_NOWAIT 0x2u
#define GFP_ATOMIC 0x4u
#define __GFP_ZERO 0x8u

static inline void *kmalloc(size_t size, gfp_t gfp)
{
	return mbd_kc_kmalloc(&mbd_kc, size, gfp & __GFP_ZERO);
}

static inline void *kzalloc(size_t size, gfp_t gfp)
{
	(void)gfp;
	return mbd_kc_kmalloc(&mbd_kc, size, true);
}

static inline void *kzalloc_node(size_t size, gfp_t gfp, int nid)
{
	(void)nid;
	return kzalloc(size, gfp);
}

/* the heap is a per-input bump allocator, released at reset */
static inline void kfree(const void *p)
{
	(void)p;
}

static inline bool slab_is_available(void)
{
	return mbd_kc.slab;
}

#define mirrored_kernelcore (mbd_kc.mirror)

static inline bool movable_node_is_enabled(void)
{
	return mbd_kc.movable;
}

/* ---- hooks memblock calls that have no state to model here ---- */
static inline void mbd_kc_kmemleak_alloc_phys(phys_addr_t p, size_t s)
{
	(void)p; (void)s;
}
/* (phys, size, gfp) since v6.0; (phys, size, min_count, gfp) before */
#define kmemleak_alloc_phys(p, s, ...) mbd_kc_kmemleak_alloc_phys(p, s)
static inline void kmemleak_free_part_phys(phys_addr_t p, size_t s)
{
	(void)p; (void)s;
}
static inline void kmemleak_ignore_phys(phys_addr_t p)
{
	(void)p;
}
static inline void accept_memory(phys_addr_t start, unsigned long size)
{
	(void)start; (void)size;
}

#include "mbd_kc_helpers.h"

#ifdef MBD_KERNEL_VARIANT
#include "mbd_kc_kernel.h"
#endif

#endif
