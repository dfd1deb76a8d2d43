// SPDX-License-Identifier: GPL-2.0
/*
 * kcompat's stand-ins for the common kernel helpers (mbd_kc_helpers.h)
 * give the kernel's results, so a patch that calls them is judged on what
 * it does: bit arithmetic at its edges, sizes that saturate, the _once
 * prints re-armed by reset, VM_BUG_ON checked.
 */
#define MBD_KERNEL_VARIANT 1
#include "kcompat.h"

#include "mbd_test.h"

/* counted here instead of printed: the _once forms expand to this name */
static int printed;
#define mbd_kc_printk(c, ...) ((void)(c), printed++)

struct flex {
	int n;
	u64 item[];
};

struct holder {
	int a;
	long member;
};

static int once_site(void)
{
	return pr_warn_once("memblock: %d\n", 1);
}

static void bug_site(int v)
{
	VM_BUG_ON(v > 2);
}

static void test_bits(void)
{
	MBD_CHECK_EQ_U64(fls(0), 0);
	MBD_CHECK_EQ_U64(fls(1), 1);
	MBD_CHECK_EQ_U64(fls(0x80000000u), 32);
	MBD_CHECK_EQ_U64(fls64(0), 0);
	MBD_CHECK_EQ_U64(fls64(1ULL << 63), 64);
	MBD_CHECK_EQ_U64(__fls(1UL << 40), 40);
	MBD_CHECK_EQ_U64(ffs(0), 0);
	MBD_CHECK_EQ_U64(ffs(0x10), 5);
	MBD_CHECK_EQ_U64(__ffs(0x10UL), 4);
	MBD_CHECK(ilog2(0ULL) == -1);
	MBD_CHECK_EQ_U64(ilog2(1ULL), 0);
	MBD_CHECK_EQ_U64(ilog2(4096ULL), 12);
	MBD_CHECK_EQ_U64(ilog2(4097ULL), 12);
	MBD_CHECK_EQ_U64(order_base_2(1ULL), 0);
	MBD_CHECK_EQ_U64(order_base_2(4097ULL), 13);
	MBD_CHECK(!is_power_of_2(0));
	MBD_CHECK(is_power_of_2(1UL << 40));
	MBD_CHECK(!is_power_of_2(6));
	MBD_CHECK_EQ_U64(roundup_pow_of_two(5UL), 8);
	MBD_CHECK_EQ_U64(roundup_pow_of_two(8UL), 8);
	MBD_CHECK_EQ_U64(rounddown_pow_of_two(9UL), 8);
	MBD_CHECK_EQ_U64(BIT(63), 1ULL << 63);
	MBD_CHECK_EQ_U64(GENMASK(7, 4), 0xf0);
	MBD_CHECK_EQ_U64(GENMASK(63, 0), ~0ULL);
	MBD_CHECK_EQ_U64(GENMASK_ULL(39, 12), 0xfffffff000ULL);
	MBD_CHECK_EQ_U64(upper_32_bits(0x123456789abcdef0ULL), 0x12345678);
	MBD_CHECK_EQ_U64(lower_32_bits(0x123456789abcdef0ULL), 0x9abcdef0);
}

static void test_math(void)
{
	phys_addr_t a = 3, b = 9, d;
	u32 small;

	MBD_CHECK_EQ_U64(DIV_ROUND_UP(9, 4), 3);
	MBD_CHECK_EQ_U64(DIV_ROUND_UP(8, 4), 2);
	MBD_CHECK_EQ_U64(roundup(10, 3), 12);
	MBD_CHECK_EQ_U64(rounddown(10, 3), 9);
	MBD_CHECK_EQ_U64(min3(5, 2, 9), 2);
	MBD_CHECK_EQ_U64(max3(5, 2, 9), 9);
	MBD_CHECK_EQ_U64(clamp_t(int, 12, 0, 10), 10);
	MBD_CHECK_EQ_U64(min_not_zero(0, 7), 7);
	MBD_CHECK_EQ_U64(min_not_zero(4, 7), 4);
	MBD_CHECK(in_range(0xfffffffffffff000ULL, 0xfffffffffffff000ULL, 0x1000ULL));
	MBD_CHECK(!in_range(0x2000ULL, 0x1000ULL, 0x1000ULL));
	swap(a, b);
	MBD_CHECK(a == 9 && b == 3);
	MBD_CHECK(check_add_overflow(PHYS_ADDR_MAX, (phys_addr_t)1, &d));
	MBD_CHECK(!check_sub_overflow((phys_addr_t)5, (phys_addr_t)3, &d) && d == 2);
	MBD_CHECK(check_mul_overflow(0x10000u, 0x10000u, &small));
	MBD_CHECK_EQ_U64(array_size(SIZE_MAX / 2, 3), SIZE_MAX);
	MBD_CHECK_EQ_U64(struct_size((struct flex *)NULL, item, 4), sizeof(struct flex) + 32);
	MBD_CHECK_EQ_U64(struct_size((struct flex *)NULL, item, SIZE_MAX / 4), SIZE_MAX);
	MBD_CHECK_EQ_U64(SZ_4G, 1ULL << 32);
	MBD_CHECK_EQ_U64(sizeof_field(struct holder, member), sizeof(long));
}

static void test_compiler(void)
{
	struct holder h = { .a = 1, .member = 2 };
	long *m = &h.member;
	unsigned long v = 5;

	MBD_CHECK(container_of(m, struct holder, member) == &h);
	WRITE_ONCE(v, READ_ONCE(v) + 1);
	MBD_CHECK_EQ_U64(data_race(v), 6);
	cpu_relax();
	might_sleep();
	BUILD_BUG_ON(sizeof(u64) != 8);
	MBD_CHECK_EQ_U64(cond_resched(), 0);
}

/* the _once prints: once per reset epoch, and true each time */
static void test_once(void)
{
	int i, all = 1;

	printed = 0;
	mbd_kc.epoch = 1;
	for (i = 0; i < 3; i++)
		all &= once_site();
	MBD_CHECK(all);
	MBD_CHECK_EQ_U64(printed, 1);
	mbd_kc.epoch = 2;
	once_site();
	once_site();
	MBD_CHECK_EQ_U64(printed, 2);
}

/* VM_BUG_ON is BUG_ON (CONFIG_DEBUG_VM): it panics the call */
static void test_vm_bug(void)
{
	mbd_kc.panicked = false;
	mbd_kc.armed = true;
	if (setjmp(mbd_kc.panic_jmp) == 0) {
		bug_site(1);
		MBD_CHECK(!mbd_kc.panicked);
		bug_site(3);
		MBD_CHECK(0 && "VM_BUG_ON(3 > 2) did not panic");
	}
	mbd_kc.armed = false;
	MBD_CHECK(mbd_kc.panicked);
}

int main(void)
{
	test_bits();
	test_math();
	test_compiler();
	test_once();
	test_vm_bug();
	return mbd_test_done();
}
