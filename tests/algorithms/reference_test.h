/* SPDX-License-Identifier: GPL-2.0 */
/* What the files of unit/test_reference share: sizes, names, array bytes, the cases. */
#ifndef MBD_REFERENCE_TEST_H
#define MBD_REFERENCE_TEST_H

#include "ref_helpers.h"

#define SZ_2K 0x800ULL
#define SZ_4K 0x1000ULL
#define SZ_8K 0x2000ULL
#define SZ_16K 0x4000ULL
#define SZ_64K 0x10000ULL
#define SZ_128K 0x20000ULL
#define SZ_512K 0x80000ULL
#define SZ_1M 0x100000ULL
#define SZ_2M 0x200000ULL
#define SZ_4M 0x400000ULL
#define SZ_8M 0x800000ULL
#define SZ_16M 0x1000000ULL
#define SZ_32M 0x2000000ULL
#define SZ_64M 0x4000000ULL
#define SZ_128M 0x8000000ULL
#define SZ_256M 0x10000000ULL
#define SZ_512M 0x20000000ULL
#define SZ_1G 0x40000000ULL
#define SZ_2G 0x80000000ULL

#define MEM MBD_TYPE_MEMORY
#define RSV MBD_TYPE_RESERVED
#define INIT_MAX MBD_INIT_REGIONS
#define MSG_MEMORY "memblock: cannot resize memory array"
#define MSG_RESERVED "memblock: cannot resize reserved array"

/* PAGE_ALIGN(n * sizeof(struct memblock_region)) */
static inline uint64_t array_bytes(uint64_t n)
{
	uint64_t b = n * MBD_REGION_BYTES;

	return (b + MBD_PAGE_SIZE - 1) & ~(MBD_PAGE_SIZE - 1);
}

/* The cases of the other files, which main() (test_reference.c) calls. */
/* reference_cases_reserve.c */
void test_reserve_shapes(struct ref_ctx *c);
void test_reserve_129th(struct ref_ctx *c);
void test_reserve_may_conflict(struct ref_ctx *c);
void test_reserve_double_twice(struct ref_ctx *c);
void test_double_cascade(struct ref_ctx *c);
void test_double_free_conflict(struct ref_ctx *c);
/* reference_cases_remove.c */
void test_remove(struct ref_ctx *c);
void test_remove_doubling(struct ref_ctx *c);
void test_phys_free(struct ref_ctx *c);
void test_trim(struct ref_ctx *c);
/* reference_cases_flags.c */
void test_flags(struct ref_ctx *c);
void test_set_node(struct ref_ctx *c);
void test_warnings(struct ref_ctx *c);
/* reference_cases_alloc.c */
void test_alloc_top_down(struct ref_ctx *c);
void test_alloc_bottom_up(struct ref_ctx *c);
void test_alloc_nid(struct ref_ctx *c);
void test_slab(struct ref_ctx *c);

#endif
