/* SPDX-License-Identifier: GPL-2.0 */
/*
 * mbdiff's stand-in for tools/testing/memblock/tests/common.h: just what the
 * tests `mbdiff emit-test` writes use, so they build and run against one of
 * our variants (compiled with kcompat) without a kernel tree. Written from
 * the suite's documented conventions, not copied from it.
 */
#ifndef MBD_KT_COMMON_H
#define MBD_KT_COMMON_H

#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <linux/memblock.h>
#include <linux/sizes.h>

#ifndef SZ_32K
#define SZ_32K 0x8000
#endif
#define MEM_SIZE SZ_32K
/* the dummy memory the suite mallocs (tests/common.h of the real suite) */
#define PHYS_MEM_SIZE 0x1000000

/* A failed check ends the program with a message (the suite asserts). */
#define MBD_KT_FAIL(_a, _op, _b) do {					\
	test_fail();							\
	fprintf(stderr, "%s:%d: ASSERT(%s %s %s) failed: 0x%llx vs 0x%llx\n", \
		__FILE__, __LINE__, #_a, #_op, #_b,			\
		(unsigned long long)(_a), (unsigned long long)(_b));	\
	exit(1);							\
} while (0)

#define ASSERT_EQ(_expected, _seen) do {				\
	if (!((_expected) == (_seen)))					\
		MBD_KT_FAIL(_expected, ==, _seen);			\
} while (0)
#define ASSERT_NE(_expected, _seen) do {				\
	if (!((_expected) != (_seen)))					\
		MBD_KT_FAIL(_expected, !=, _seen);			\
} while (0)
#define ASSERT_LT(_expected, _seen) do {				\
	if (!((_expected) < (_seen)))					\
		MBD_KT_FAIL(_expected, <, _seen);			\
} while (0)

#define PREFIX_PUSH() prefix_push(__func__)

void reset_memblock_regions(void);
void reset_memblock_attributes(void);
void dummy_physical_memory_init(void);
void dummy_physical_memory_cleanup(void);
phys_addr_t dummy_physical_memory_base(void);

void test_fail(void);
void test_pass(void);
void test_print(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
void prefix_reset(void);
void prefix_push(const char *prefix);
void prefix_pop(void);

static inline void test_pass_pop(void)
{
	test_pass();
	prefix_pop();
}

#endif
