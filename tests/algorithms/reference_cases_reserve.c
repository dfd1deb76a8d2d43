// SPDX-License-Identifier: GPL-2.0
/* unit/test_reference's memblock_reserve(): shapes, the reserved array doubling. */
#include "reference_test.h"

/* ------------------------------------------------------------- reserve */

void test_reserve_shapes(struct ref_ctx *c)
{
	const uint64_t top = MBD_PHYS_ADDR_MAX - SZ_1M;

	ref_begin(c, "reserve simple", NULL);
	REF_OK(c, OP_RESERVE(SZ_2G, SZ_128M));
	{
		const struct ref_rgn e[] = { RGN_RSV(SZ_2G, SZ_128M) };
		REF_EXPECT(c, RSV, INIT_MAX, SZ_128M, e);
	}
	REF_EXPECT_EMPTY(c, MEM, INIT_MAX);

	ref_begin(c, "reserve disjoint", NULL);
	REF_OK(c, OP_RESERVE(SZ_512M, SZ_512M));
	REF_OK(c, OP_RESERVE(SZ_256M, SZ_16M));
	{
		const struct ref_rgn e[] = {
			RGN_RSV(SZ_256M, SZ_16M), RGN_RSV(SZ_512M, SZ_512M),
		};
		REF_EXPECT(c, RSV, INIT_MAX, SZ_16M + SZ_512M, e);
	}

	ref_begin(c, "reserve overlap top", NULL);
	REF_OK(c, OP_RESERVE(SZ_1G, SZ_1G));
	REF_OK(c, OP_RESERVE(SZ_128M, SZ_1G));
	{
		const struct ref_rgn e[] = { RGN_RSV(SZ_128M, SZ_2G - SZ_128M) };
		REF_EXPECT(c, RSV, INIT_MAX, SZ_2G - SZ_128M, e);
	}

	ref_begin(c, "reserve overlap bottom", NULL);
	REF_OK(c, OP_RESERVE(SZ_2K, SZ_128K));
	REF_OK(c, OP_RESERVE(SZ_128K, SZ_128K));
	{
		const struct ref_rgn e[] = { RGN_RSV(SZ_2K, 2 * SZ_128K - SZ_2K) };
		REF_EXPECT(c, RSV, INIT_MAX, 2 * SZ_128K - SZ_2K, e);
	}

	ref_begin(c, "reserve within", NULL);
	REF_OK(c, OP_RESERVE(SZ_1M, SZ_8M));
	REF_OK(c, OP_RESERVE(SZ_2M, SZ_64K));
	{
		const struct ref_rgn e[] = { RGN_RSV(SZ_1M, SZ_8M) };
		REF_EXPECT(c, RSV, INIT_MAX, SZ_8M, e);
	}

	ref_begin(c, "reserve twice", NULL);
	REF_OK(c, OP_RESERVE(SZ_16K, SZ_2M));
	REF_OK(c, OP_RESERVE(SZ_16K, SZ_2M));
	{
		const struct ref_rgn e[] = { RGN_RSV(SZ_16K, SZ_2M) };
		REF_EXPECT(c, RSV, INIT_MAX, SZ_2M, e);
	}

	ref_begin(c, "reserve between", NULL);
	REF_OK(c, OP_RESERVE(SZ_1G, SZ_8K));
	REF_OK(c, OP_RESERVE(SZ_1G + SZ_16K, SZ_8K));
	REF_OK(c, OP_RESERVE(SZ_1G + SZ_8K, SZ_8K));
	{
		const struct ref_rgn e[] = { RGN_RSV(SZ_1G, 3 * SZ_8K) };
		REF_EXPECT(c, RSV, INIT_MAX, 3 * SZ_8K, e);
	}

	ref_begin(c, "reserve near max", NULL);
	REF_OK(c, OP_RESERVE(top, SZ_2M));
	{
		const struct ref_rgn e[] = { RGN_RSV(top, SZ_1M) };
		REF_EXPECT(c, RSV, INIT_MAX, SZ_1M, e);
	}

	ref_begin(c, "reserve zero size", NULL);
	REF_OK(c, OP_RESERVE(SZ_1M, 0));
	REF_EXPECT_EMPTY(c, RSV, INIT_MAX);
}

void test_reserve_129th(struct ref_ctx *c)
{
	static struct ref_rgn e[INIT_MAX + 3];
	const uint64_t mem = SZ_1G, base = SZ_256M;
	const uint64_t sz = array_bytes(2 * INIT_MAX);
	const uint64_t arr = mem + SZ_1M - sz;
	struct mbd_config cfg;
	uint64_t total;

	ref_cfg(&cfg, INIT_MAX, INIT_MAX, true);
	ref_begin(c, "reserve 129th", &cfg);
	REF_OK(c, OP_ADD(mem, SZ_1M));
	for (uint64_t i = 0; i <= INIT_MAX; i++) {
		REF_OK(c, OP_RESERVE(base + i * SZ_8K, SZ_4K));
		e[i] = (struct ref_rgn)RGN_RSV(base + i * SZ_8K, SZ_4K);
		if (i == INIT_MAX - 1)
			ref_expect_at(c, RSV, INIT_MAX, INIT_MAX * SZ_4K, e,
				      INIT_MAX, __LINE__);
	}
	/* 129 reservations plus the new array itself, at the top of memory. */
	e[INIT_MAX + 1] = (struct ref_rgn)RGN_KERN(arr, sz);
	total = (INIT_MAX + 1) * SZ_4K + sz;
	ref_expect_at(c, RSV, 2 * INIT_MAX, total, e, INIT_MAX + 2, __LINE__);
	REF_EXPECT_U64(c, "reserved.regions_pa", c->st.reserved.regions_pa,
		       arr);
	REF_EXPECT_FLAG(c, "reserved static", c->st.reserved.regions_static,
			false);
	{
		const struct ref_rgn m[] = { RGN(mem, SZ_1M) };
		REF_EXPECT(c, MEM, INIT_MAX, SZ_1M, m);
	}

	/* And reserving still works afterwards. */
	REF_OK(c, OP_RESERVE(SZ_16K, SZ_16K));
	memmove(&e[1], &e[0], (INIT_MAX + 2) * sizeof(e[0]));
	e[0] = (struct ref_rgn)RGN_RSV(SZ_16K, SZ_16K);
	ref_expect_at(c, RSV, 2 * INIT_MAX, total + SZ_16K, e, INIT_MAX + 3,
		      __LINE__);
}

/*
 * Doubling reserved while reserving [m1, m1 + 16K): top-down, the highest
 * free space is that very range; the array must come from m0 instead.
 */
void test_reserve_may_conflict(struct ref_ctx *c)
{
	static struct ref_rgn e[INIT_MAX + 2];
	const uint64_t m0 = SZ_256M, m1 = 0x30000000, base = SZ_512M;
	const uint64_t sz = array_bytes(2 * INIT_MAX);
	struct mbd_config cfg;

	ref_cfg(&cfg, INIT_MAX, INIT_MAX, true);
	ref_begin(c, "reserve may conflict", &cfg);
	REF_OK(c, OP_ADD(m0, SZ_64K));
	REF_OK(c, OP_ADD(m1, SZ_16K));
	for (uint64_t i = 0; i < INIT_MAX; i++) {
		REF_OK(c, OP_RESERVE(base + i * SZ_8K, SZ_4K));
		e[i + 1] = (struct ref_rgn)RGN_RSV(base + i * SZ_8K, SZ_4K);
	}
	REF_OK(c, OP_RESERVE(m1, SZ_16K));
	e[0] = (struct ref_rgn)RGN_KERN(m0 + SZ_64K - sz, sz);
	e[INIT_MAX + 1] = (struct ref_rgn)RGN_RSV(m1, SZ_16K);
	ref_expect_at(c, RSV, 2 * INIT_MAX, INIT_MAX * SZ_4K + sz + SZ_16K,
		      e, INIT_MAX + 2, __LINE__);
	REF_EXPECT_U64(c, "reserved.regions_pa", c->st.reserved.regions_pa,
		       m0 + SZ_64K - sz);
}

/* reserved.max 2 -> 4 -> 8: the second doubling frees the first array. */
void test_reserve_double_twice(struct ref_ctx *c)
{
	struct mbd_config cfg;

	ref_cfg(&cfg, INIT_MAX, 2, true);
	ref_begin(c, "reserve doubling twice", &cfg);
	REF_OK(c, OP_ADD(SZ_16M, SZ_1M));
	REF_OK(c, OP_RESERVE(SZ_1M, SZ_4K));
	REF_OK(c, OP_RESERVE(SZ_2M, SZ_4K));
	REF_OK(c, OP_RESERVE(0x300000, SZ_4K));
	{
		const struct ref_rgn r[] = {
			RGN_RSV(SZ_1M, SZ_4K), RGN_RSV(SZ_2M, SZ_4K),
			RGN_RSV(0x300000, SZ_4K), RGN_KERN(0x10ff000, SZ_4K),
		};
		REF_EXPECT(c, RSV, 4, 4 * SZ_4K, r);
	}
	REF_OK(c, OP_RESERVE(SZ_4M, SZ_4K));
	{
		/* 0x10ff000 (the first array) is free again */
		const struct ref_rgn r[] = {
			RGN_RSV(SZ_1M, SZ_4K), RGN_RSV(SZ_2M, SZ_4K),
			RGN_RSV(0x300000, SZ_4K), RGN_RSV(SZ_4M, SZ_4K),
			RGN_KERN(0x10fe000, SZ_4K),
		};
		REF_EXPECT(c, RSV, 8, 5 * SZ_4K, r);
		REF_EXPECT_U64(c, "reserved.regions_pa",
			       c->st.reserved.regions_pa, 0x10fe000);
	}

	ref_cfg(&cfg, INIT_MAX, 1, false);
	ref_begin(c, "reserve full no resize", &cfg);
	REF_OK(c, OP_RESERVE(SZ_1M, SZ_4K));
	ref_apply(c, OP_RESERVE(SZ_2M, SZ_4K));
	REF_EXPECT_PANIC(c, MSG_RESERVED);
}

/*
 * memory.max 2, reserved.max 1: the third memory block doubles memory;
 * reserving the new memory array doubles reserved, and that nested
 * reservation of the reserved array then doubles reserved once more.
 */
void test_double_cascade(struct ref_ctx *c)
{
	struct mbd_config cfg;

	ref_cfg(&cfg, 2, 1, true);
	ref_begin(c, "memory doubling doubles reserved", &cfg);
	REF_OK(c, OP_RESERVE(SZ_1M, SZ_4K));
	REF_OK(c, OP_ADD(SZ_16M, SZ_1M));
	REF_OK(c, OP_ADD(SZ_32M, SZ_1M));
	REF_OK(c, OP_ADD(0x3000000, SZ_1M));
	{
		const struct ref_rgn m[] = {
			RGN(SZ_16M, SZ_1M), RGN(SZ_32M, SZ_1M),
			RGN(0x3000000, SZ_1M),
		};
		/* memory array at 0x20ff000; reserved arrays 0x20fe000 (freed)
		 * then 0x20fd000, both found below the excluded 0x20ff000 */
		const struct ref_rgn r[] = {
			RGN_RSV(SZ_1M, SZ_4K), RGN_KERN(0x20fd000, SZ_4K),
			RGN_KERN(0x20ff000, SZ_4K),
		};

		REF_EXPECT(c, MEM, 4, 3 * SZ_1M, m);
		REF_EXPECT(c, RSV, 4, 3 * SZ_4K, r);
		REF_EXPECT_U64(c, "memory.regions_pa", c->st.memory.regions_pa,
			       0x20ff000);
		REF_EXPECT_U64(c, "reserved.regions_pa",
			       c->st.reserved.regions_pa, 0x20fd000);
	}
	REF_EXPECT_WARN(c, 0);
}

/*
 * A latent upstream bug the model must keep: memblock_double_array(memory)
 * frees the old memory array from reserved BEFORE reserving the new one.
 * That free isolates in reserved (needs cnt + 2 <= max), so reserved may
 * double, and its search sees the new memory array as free memory:
 * reserved's array is written over it (both at 0x8000). Reserved then
 * doubles once more (to 0x4000) and the memory array is left holding
 * reserved's old slots: unsorted and overlapping.
 */
void test_double_free_conflict(struct ref_ctx *c)
{
	struct mbd_config cfg;

	ref_cfg(&cfg, 2, 1, true);
	ref_begin(c, "old memory array free doubles reserved", &cfg);
	REF_OK(c, OP_ADD(0, SZ_4K));
	REF_OK(c, OP_ADD(0x2000, SZ_4K));
	REF_OK(c, OP_ADD(0x4000, SZ_4K)); /* memory array -> 0x2000 */
	REF_OK(c, OP_ADD(0x8000, SZ_4K));
	REF_EXPECT_U64(c, "memory.regions_pa", c->st.memory.regions_pa,
		       0x2000);
	REF_OK(c, OP_ADD(0, SZ_8K));
	{
		/* reserved's old slots (kernel reservations since v6.16)
		 * no longer merge with [0, 8K) */
		const struct ref_rgn m[] = {
			RGN(0, SZ_8K), RGN_KERN(0x2000, SZ_4K),
			RGN_KERN(0x8000, SZ_4K), RGN(0x4000, SZ_4K),
			RGN(0x8000, SZ_4K),
		};
		const struct ref_rgn r[] = {
			RGN_KERN(0x4000, SZ_4K), RGN_KERN(0x8000, SZ_4K),
		};

		REF_EXPECT(c, MEM, 8, 0x6000, m);
		REF_EXPECT(c, RSV, 4, SZ_8K, r);
		REF_EXPECT_U64(c, "memory.regions_pa", c->st.memory.regions_pa,
			       0x8000);
		REF_EXPECT_U64(c, "reserved.regions_pa",
			       c->st.reserved.regions_pa, 0x4000);
	}
	REF_EXPECT_WARN(c, 0);
}
