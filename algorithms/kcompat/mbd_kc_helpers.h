/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The small kernel helpers that mm/ code uses everywhere (compiler.h,
 * math.h, bits.h, overflow.h, log2.h, printk.h, lockdep.h, ...), so a
 * patch that calls one compiles here as it does in a kernel. One thread,
 * no preemption: barriers, locks and scheduling points only have to
 * compile. Each is guarded, so a file that defines its own keeps it.
 * Included by kcompat.h after its own arithmetic and diagnostics.
 */
#ifndef MBD_KC_HELPERS_H
#define MBD_KC_HELPERS_H

/* ---- compiler.h and friends ---- */
#ifndef noinline
#define noinline __attribute__((__noinline__))
#endif
#ifndef __cold
#define __cold __attribute__((__cold__))
#endif
#ifndef __noreturn
#define __noreturn __attribute__((__noreturn__))
#endif
#ifndef __pure
#define __pure __attribute__((__pure__))
#endif
#ifndef __packed
#define __packed __attribute__((__packed__))
#endif
#ifndef __aligned
#define __aligned(x) __attribute__((__aligned__(x)))
#endif
#ifndef __printf
#define __printf(a, b) __attribute__((__format__(printf, a, b)))
#endif
#ifndef __used
#define __used __attribute__((__used__))
#endif
#ifndef __always_unused
#define __always_unused __attribute__((__unused__))
#endif
#ifndef fallthrough
#define fallthrough __attribute__((__fallthrough__))
#endif
#ifndef unreachable
#define unreachable() __builtin_unreachable()
#endif
#ifndef barrier
#define barrier() __asm__ __volatile__("" : : : "memory")
#endif
#ifndef cpu_relax
#define cpu_relax() barrier()
#endif
#ifndef smp_mb
#define smp_mb() barrier()
#define smp_rmb() barrier()
#define smp_wmb() barrier()
#define mb() barrier()
#define rmb() barrier()
#define wmb() barrier()
#endif
#ifndef READ_ONCE
#define READ_ONCE(x) (*(const volatile __typeof__(x) *)&(x))
#define WRITE_ONCE(x, val) do { *(volatile __typeof__(x) *)&(x) = (val); } while (0)
#endif
#ifndef smp_load_acquire
#define smp_load_acquire(p) READ_ONCE(*(p))
#define smp_store_release(p, v) WRITE_ONCE(*(p), v)
#endif
#ifndef data_race
#define data_race(expr) ({ __typeof__(expr) mbd_dr_ = (expr); mbd_dr_; })
#endif
#ifndef BUILD_BUG_ON
#define BUILD_BUG_ON_MSG(cond, msg) do { _Static_assert(!(cond), msg); } while (0)
#define BUILD_BUG_ON(cond) BUILD_BUG_ON_MSG(cond, "BUILD_BUG_ON(" #cond ")")
#endif
#ifndef static_assert
#define static_assert(expr, ...) _Static_assert(expr, #expr)
#endif
#ifndef container_of
#define container_of(ptr, type, member) \
	((type *)((char *)(ptr) - offsetof(type, member)))
#endif
#ifndef sizeof_field
#define sizeof_field(type, member) sizeof(((type *)0)->member)
#endif

/* ---- one thread, no preemption ---- */
#ifndef might_sleep
#define might_sleep() do { } while (0)
#define might_resched() do { } while (0)
#endif
#ifndef cond_resched
#define cond_resched() 0
#endif
#ifndef lockdep_assert_held
#define lockdep_assert_held(l) ((void)(l))
#define lockdep_assert_held_write(l) ((void)(l))
#define lockdep_assert_held_read(l) ((void)(l))
#endif
#ifndef DEFINE_SPINLOCK
typedef struct {
	int locked;
} spinlock_t;
#define DEFINE_SPINLOCK(name) spinlock_t name = { 0 }
#define spin_lock_init(l) ((void)(l))
#define spin_lock(l) ((void)(l))
#define spin_unlock(l) ((void)(l))
#define spin_lock_irqsave(l, flags) ((void)(l), (flags) = 0)
#define spin_unlock_irqrestore(l, flags) ((void)(l), (void)(flags))
#endif

/* ---- math.h, minmax.h ---- */
#ifndef DIV_ROUND_UP
#define DIV_ROUND_UP(n, d) (((n) + (d) - 1) / (d))
#endif
#ifndef DIV_ROUND_UP_ULL
#define DIV_ROUND_UP_ULL(n, d) DIV_ROUND_UP((unsigned long long)(n), (d))
#endif
#ifndef roundup
#define roundup(x, y) ({ __typeof__(y) mbd_y_ = (y); (((x) + mbd_y_ - 1) / mbd_y_) * mbd_y_; })
#define rounddown(x, y) ({ __typeof__(x) mbd_x_ = (x); mbd_x_ - (mbd_x_ % (y)); })
#endif
#ifndef min3
#define min3(a, b, c) min(min(a, b), c)
#define max3(a, b, c) max(max(a, b), c)
#endif
#ifndef umin
#define umin(a, b) min_t(unsigned long long, a, b)
#define umax(a, b) max_t(unsigned long long, a, b)
#endif
#ifndef clamp_t
#define clamp_t(t, v, lo, hi) min_t(t, max_t(t, v, lo), hi)
#define clamp_val(v, lo, hi) clamp_t(__typeof__(v), v, lo, hi)
#endif
#ifndef min_not_zero
#define min_not_zero(a, b) ({ __typeof__(a) mbd_a_ = (a); __typeof__(b) mbd_b_ = (b); \
	mbd_a_ == 0 ? mbd_b_ : (mbd_b_ == 0 ? mbd_a_ : min(mbd_a_, mbd_b_)); })
#endif
#ifndef in_range
/* start <= val < start + len, written so that start + len cannot wrap */
#define in_range(val, start, len) ((val) >= (start) && (val) - (start) < (len))
#endif
#ifndef swap
#define swap(a, b) do { __typeof__(a) mbd_t_ = (a); (a) = (b); (b) = mbd_t_; } while (0)
#endif

/* ---- overflow.h: the checked forms, and sizes that saturate ---- */
#ifndef check_add_overflow
#define check_add_overflow(a, b, d) __builtin_add_overflow(a, b, d)
#define check_sub_overflow(a, b, d) __builtin_sub_overflow(a, b, d)
#define check_mul_overflow(a, b, d) __builtin_mul_overflow(a, b, d)
#endif
static inline size_t mbd_kc_size_mul(size_t a, size_t b)
{
	size_t r;

	return __builtin_mul_overflow(a, b, &r) ? SIZE_MAX : r;
}
static inline size_t mbd_kc_size_add(size_t a, size_t b)
{
	size_t r;

	return __builtin_add_overflow(a, b, &r) ? SIZE_MAX : r;
}
#ifndef size_mul
#define size_mul(a, b) mbd_kc_size_mul(a, b)
#define size_add(a, b) mbd_kc_size_add(a, b)
#endif
#ifndef array_size
#define array_size(a, b) size_mul(a, b)
#define array3_size(a, b, c) size_mul(size_mul(a, b), c)
#endif
#ifndef struct_size
#define struct_size(p, member, n) \
	size_add(sizeof(*(p)), size_mul(sizeof(*(p)->member), n))
#endif

/* ---- bits.h, bitops.h, log2.h, kernel.h ---- */
#ifndef BIT
#define BIT(nr) (1UL << (nr))
#define BIT_ULL(nr) (1ULL << (nr))
#endif
#ifndef GENMASK
#define GENMASK(h, l) ((~0UL << (l)) & (~0UL >> (63 - (h))))
#define GENMASK_ULL(h, l) ((~0ULL << (l)) & (~0ULL >> (63 - (h))))
#endif
#ifndef upper_32_bits
#define upper_32_bits(n) ((u32)(((n) >> 16) >> 16))
#define lower_32_bits(n) ((u32)((n) & 0xffffffff))
#endif
/* fls: 1-based index of the highest set bit, 0 for 0, as in bitops.h */
static inline int mbd_kc_fls(unsigned int x)
{
	return x ? 32 - __builtin_clz(x) : 0;
}
static inline int mbd_kc_fls64(u64 x)
{
	return x ? 64 - __builtin_clzll(x) : 0;
}
#ifndef fls
#define fls(x) mbd_kc_fls(x)
#define fls64(x) mbd_kc_fls64(x)
#define fls_long(x) mbd_kc_fls64(x)
#define __fls(x) ((unsigned long)(63 - __builtin_clzl(x)))
#define ffs(x) __builtin_ffs(x)
#define __ffs64(x) ((unsigned long)__builtin_ctzll(x))
#endif
#ifndef ilog2
/* -1 for 0, like __ilog2_u64() */
#define ilog2(n) (mbd_kc_fls64(n) - 1)
#define order_base_2(n) ((n) > 1 ? ilog2((n) - 1) + 1 : 0)
#endif
static inline bool mbd_kc_is_power_of_2(unsigned long n)
{
	return n != 0 && (n & (n - 1)) == 0;
}
#ifndef is_power_of_2
#define is_power_of_2(n) mbd_kc_is_power_of_2(n)
#define roundup_pow_of_two(n) (1UL << mbd_kc_fls64((n) - 1))
#define rounddown_pow_of_two(n) (1UL << (mbd_kc_fls64(n) - 1))
#endif

/* ---- sizes.h ---- */
#ifndef SZ_1K
#define SZ_1K 0x00000400
#define SZ_2K 0x00000800
#define SZ_8K 0x00002000
#define SZ_16K 0x00004000
#define SZ_32K 0x00008000
#define SZ_64K 0x00010000
#define SZ_128K 0x00020000
#define SZ_256K 0x00040000
#define SZ_512K 0x00080000
#define SZ_2M 0x00200000
#define SZ_4M 0x00400000
#define SZ_8M 0x00800000
#define SZ_16M 0x01000000
#define SZ_32M 0x02000000
#define SZ_64M 0x04000000
#define SZ_128M 0x08000000
#define SZ_256M 0x10000000
#define SZ_512M 0x20000000
#define SZ_1G 0x40000000
#define SZ_2G 0x80000000
#define SZ_4G 0x100000000ULL
#endif

/*
 * printk.h's _once forms: once per reset, like WARN_ON_ONCE; true every
 * time, like the kernel's DO_ONCE_LITE().
 */
#define mbd_kc_print_once(...) ({ static unsigned int mbd_ep_;		\
	if (mbd_ep_ != mbd_kc.epoch) {					\
		mbd_ep_ = mbd_kc.epoch;					\
		mbd_kc_printk(&mbd_kc, __VA_ARGS__);			\
	}								\
	true; })
#ifndef printk_once
#define printk_once(...) mbd_kc_print_once(__VA_ARGS__)
#define pr_emerg_once(...) mbd_kc_print_once(__VA_ARGS__)
#define pr_err_once(...) mbd_kc_print_once(__VA_ARGS__)
#define pr_warn_once(...) mbd_kc_print_once(__VA_ARGS__)
#define pr_notice_once(...) mbd_kc_print_once(__VA_ARGS__)
#define pr_info_once(...) mbd_kc_print_once(__VA_ARGS__)
#define pr_debug_once(...) do { } while (0)
#endif

/*
 * CONFIG_DEBUG_VM on, as in the kernels developers test with: a patch's
 * VM_BUG_ON is an assertion it makes about memblock's state, and here it
 * is checked.
 */
#ifndef VM_BUG_ON
#define VM_BUG_ON(cond) BUG_ON(cond)
#define VM_WARN_ON(cond) ((void)WARN_ON(cond))
#define VM_WARN_ON_ONCE(cond) ((void)WARN_ON_ONCE(cond))
#define VM_WARN_ONCE(cond, ...) ((void)WARN_ONCE(cond, __VA_ARGS__))
#endif

#endif
