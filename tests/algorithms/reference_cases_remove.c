// SPDX-License-Identifier: GPL-2.0
/* unit/test_reference's removals: memblock_remove(), memblock_phys_free(), trim. */
#include "reference_test.h"

/* -------------------------------------------------------------- remove */

void test_remove(struct ref_ctx *c)
{
	ref_begin(c, "remove simple", NULL);
	REF_OK(c, OP_ADD(SZ_2K, SZ_4K));
	REF_OK(c, OP_ADD(SZ_128K, SZ_4M));
	REF_OK(c, OP_REMOVE(SZ_2K, SZ_4K));
	{
		const struct ref_rgn e[] = { RGN(SZ_128K, SZ_4M) };
		REF_EXPECT(c, MEM, INIT_MAX, SZ_4M, e);
	}

	ref_begin(c, "remove absent", NULL);
	REF_OK(c, OP_ADD(SZ_512K, SZ_4M));
	REF_OK(c, OP_REMOVE(SZ_64M, SZ_1G));
	{
		const struct ref_rgn e[] = { RGN(SZ_512K, SZ_4M) };
		REF_EXPECT(c, MEM, INIT_MAX, SZ_4M, e);
	}

	ref_begin(c, "remove overlap top", NULL);
	REF_OK(c, OP_ADD(SZ_32M, SZ_32M));
	REF_OK(c, OP_REMOVE(SZ_16M, SZ_32M));
	{
		const struct ref_rgn e[] = { RGN(SZ_32M + SZ_16M, SZ_16M) };
		REF_EXPECT(c, MEM, INIT_MAX, SZ_16M, e);
	}

	ref_begin(c, "remove overlap bottom", NULL);
	REF_OK(c, OP_ADD(SZ_32M, SZ_32M));
	REF_OK(c, OP_REMOVE(SZ_32M + SZ_16M, SZ_32M));
	{
		const struct ref_rgn e[] = { RGN(SZ_32M, SZ_16M) };
		REF_EXPECT(c, MEM, INIT_MAX, SZ_16M, e);
	}

	ref_begin(c, "remove middle", NULL);
	REF_OK(c, OP_ADD(SZ_1M, SZ_32M));
	REF_OK(c, OP_REMOVE(SZ_16M, SZ_1M));
	{
		const struct ref_rgn e[] = {
			RGN(SZ_1M, SZ_16M - SZ_1M),
			RGN(SZ_16M + SZ_1M, SZ_16M),
		};
		REF_EXPECT(c, MEM, INIT_MAX, SZ_32M - SZ_1M, e);
	}

	ref_begin(c, "remove across two", NULL);
	REF_OK(c, OP_ADD(SZ_1M, SZ_1M));
	REF_OK(c, OP_ADD(0x300000, SZ_1M));
	REF_OK(c, OP_REMOVE(0x180000, SZ_2M));
	{
		const struct ref_rgn e[] = {
			RGN(SZ_1M, SZ_512K), RGN(0x380000, SZ_512K),
		};
		REF_EXPECT(c, MEM, INIT_MAX, SZ_1M, e);
	}

	ref_begin(c, "remove everything", NULL);
	REF_OK(c, OP_ADD(SZ_1M, SZ_1M));
	REF_OK(c, OP_ADD(SZ_4M, SZ_1M));
	REF_OK(c, OP_REMOVE(0, SZ_16M));
	REF_EXPECT_EMPTY(c, MEM, INIT_MAX);
	REF_OK(c, OP_ADD(SZ_8M, SZ_1M));
	{
		const struct ref_rgn e[] = { RGN(SZ_8M, SZ_1M) };
		REF_EXPECT(c, MEM, INIT_MAX, SZ_1M, e);
	}
	REF_EXPECT_WARN(c, 0);

	ref_begin(c, "remove zero size", NULL);
	REF_OK(c, OP_ADD(SZ_1M, SZ_1M));
	REF_OK(c, OP_REMOVE(SZ_1M + SZ_4K, 0));
	{
		const struct ref_rgn e[] = { RGN(SZ_1M, SZ_1M) };
		REF_EXPECT(c, MEM, INIT_MAX, SZ_1M, e);
	}
}

void test_remove_doubling(struct ref_ctx *c)
{
	struct mbd_config cfg;

	/* cnt 2 + 2 > max 2: isolate doubles memory before splitting. */
	ref_cfg(&cfg, 2, INIT_MAX, true);
	ref_begin(c, "remove isolate doubling", &cfg);
	REF_OK(c, OP_ADD(SZ_16M, SZ_1M));
	REF_OK(c, OP_ADD(SZ_32M, SZ_1M));
	REF_OK(c, OP_REMOVE(0x1040000, SZ_64K));
	{
		const struct ref_rgn m[] = {
			RGN(SZ_16M, 0x40000), RGN(0x1050000, 0xb0000),
			RGN(SZ_32M, SZ_1M),
		};
		const struct ref_rgn r[] = { RGN_KERN(0x20ff000, SZ_4K) };

		REF_EXPECT(c, MEM, 4, SZ_2M - SZ_64K, m);
		REF_EXPECT(c, RSV, INIT_MAX, SZ_4K, r);
	}

	/* Even removing a whole region needs the two spare slots. */
	ref_cfg(&cfg, 2, INIT_MAX, false);
	ref_begin(c, "remove isolate no resize", &cfg);
	REF_OK(c, OP_ADD(SZ_16M, SZ_1M));
	ref_apply(c, OP_REMOVE(SZ_16M, SZ_1M));
	REF_EXPECT_PANIC(c, MSG_MEMORY);

	/* cnt 0 + 2 <= 2: no doubling */
	ref_begin(c, "remove isolate fits", &cfg);
	REF_OK(c, OP_REMOVE(SZ_16M, SZ_1M));
	REF_EXPECT_EMPTY(c, MEM, 2);
}

/* ----------------------------------------------------------- phys_free */

void test_phys_free(struct ref_ctx *c)
{
	struct mbd_config cfg;

	ref_begin(c, "free simple", NULL);
	REF_OK(c, OP_RESERVE(SZ_4M, SZ_1M));
	REF_OK(c, OP_RESERVE(SZ_8M, SZ_1M));
	REF_OK(c, OP_FREE(SZ_4M, SZ_1M));
	{
		const struct ref_rgn e[] = { RGN_RSV(SZ_8M, SZ_1M) };
		REF_EXPECT(c, RSV, INIT_MAX, SZ_1M, e);
	}

	ref_begin(c, "free absent", NULL);
	REF_OK(c, OP_RESERVE(SZ_2M, SZ_8K));
	REF_OK(c, OP_FREE(SZ_16M, SZ_128K));
	{
		const struct ref_rgn e[] = { RGN_RSV(SZ_2M, SZ_8K) };
		REF_EXPECT(c, RSV, INIT_MAX, SZ_8K, e);
	}

	ref_begin(c, "free overlap top", NULL);
	REF_OK(c, OP_RESERVE(SZ_8M, SZ_32M));
	REF_OK(c, OP_FREE(SZ_4M, SZ_8M));
	{
		const struct ref_rgn e[] = { RGN_RSV(SZ_8M + SZ_4M, SZ_32M - SZ_4M) };
		REF_EXPECT(c, RSV, INIT_MAX, SZ_32M - SZ_4M, e);
	}

	ref_begin(c, "free overlap bottom", NULL);
	REF_OK(c, OP_RESERVE(SZ_8M, SZ_32M));
	REF_OK(c, OP_FREE(SZ_32M, SZ_32M));
	{
		const struct ref_rgn e[] = { RGN_RSV(SZ_8M, SZ_32M - SZ_8M) };
		REF_EXPECT(c, RSV, INIT_MAX, SZ_32M - SZ_8M, e);
	}

	ref_begin(c, "free middle", NULL);
	REF_OK(c, OP_RESERVE(SZ_1M, SZ_1M));
	REF_OK(c, OP_FREE(SZ_1M + SZ_4K, SZ_4K));
	{
		const struct ref_rgn e[] = {
			RGN_RSV(SZ_1M, SZ_4K), RGN_RSV(SZ_1M + SZ_8K, SZ_1M - SZ_8K),
		};
		REF_EXPECT(c, RSV, INIT_MAX, SZ_1M - SZ_4K, e);
	}

	ref_begin(c, "free everything", NULL);
	REF_OK(c, OP_RESERVE(SZ_1M, SZ_1M));
	REF_OK(c, OP_FREE(SZ_1M, SZ_1M));
	REF_EXPECT_EMPTY(c, RSV, INIT_MAX);
	REF_OK(c, OP_RESERVE(SZ_2M, SZ_4K));
	{
		const struct ref_rgn e[] = { RGN_RSV(SZ_2M, SZ_4K) };
		REF_EXPECT(c, RSV, INIT_MAX, SZ_4K, e);
	}
	REF_EXPECT_WARN(c, 0);

	/*
	 * reserved.max 2: isolate doubles to 4 (new array 0x10ff000 takes
	 * a slot, so 3 + 2 > 4) and again to 8, freeing 0x10ff000.
	 */
	ref_cfg(&cfg, INIT_MAX, 2, true);
	ref_begin(c, "free isolate doubling", &cfg);
	REF_OK(c, OP_ADD(SZ_16M, SZ_1M));
	REF_OK(c, OP_RESERVE(SZ_1M, SZ_64K));
	REF_OK(c, OP_RESERVE(SZ_2M, SZ_4K));
	REF_OK(c, OP_FREE(SZ_1M + SZ_16K, SZ_4K));
	{
		const struct ref_rgn r[] = {
			RGN_RSV(SZ_1M, SZ_16K), RGN_RSV(SZ_1M + 0x5000, 0xb000),
			RGN_RSV(SZ_2M, SZ_4K), RGN_KERN(0x10fe000, SZ_4K),
		};
		REF_EXPECT(c, RSV, 8, 0x11000, r);
	}

	ref_cfg(&cfg, INIT_MAX, 2, false);
	ref_begin(c, "free isolate no resize", &cfg);
	REF_OK(c, OP_RESERVE(SZ_1M, SZ_64K));
	ref_apply(c, OP_FREE(SZ_1M + SZ_16K, SZ_4K));
	REF_EXPECT_PANIC(c, MSG_RESERVED);
}

/* ---------------------------------------------------------------- trim */

void test_trim(struct ref_ctx *c)
{
	ref_begin(c, "trim", NULL);
	REF_OK(c, OP_ADD(0x10800, 0x3000));
	REF_OK(c, OP_ADD(0x20000, 0x2000));
	REF_OK(c, OP_ADD(0x30100, 0x800));
	REF_OK(c, OP_ADD(0x32100, 0x800));
	REF_OK(c, OP_ADD(0x40000, 0x1000));
	REF_OK(c, ref_op_value(MBD_OP_TRIM, SZ_4K));
	{
		/* The shrink of the first region is not subtracted from
		 * total_size; the two removed regions are. */
		const struct ref_rgn e[] = {
			RGN(0x11000, 0x2000), RGN(0x20000, 0x2000),
			RGN(0x40000, 0x1000),
		};
		REF_EXPECT(c, MEM, INIT_MAX, 0x6000, e);
	}

	ref_begin(c, "trim all", NULL);
	REF_OK(c, OP_ADD(0x100, 0x800));
	REF_OK(c, ref_op_value(MBD_OP_TRIM, SZ_4K));
	REF_EXPECT_EMPTY(c, MEM, INIT_MAX);
	REF_EXPECT_WARN(c, 0);

	/*
	 * The stale total_size surfaces later: removing the shrunk region
	 * leaves cnt 0 with total 0x1000 (WARN in remove_region), and the
	 * next add into the empty type WARNs again, then resets the total.
	 */
	ref_begin(c, "trim stale total", NULL);
	REF_OK(c, OP_ADD(0x10800, 0x3000));
	REF_OK(c, ref_op_value(MBD_OP_TRIM, SZ_4K));
	{
		const struct ref_rgn e[] = { RGN(0x11000, 0x2000) };
		REF_EXPECT(c, MEM, INIT_MAX, 0x3000, e);
	}
	REF_OK(c, OP_REMOVE(0, SZ_1M));
	REF_EXPECT_U64(c, "memory.cnt", c->st.memory.cnt, 0);
	REF_EXPECT_U64(c, "memory.total_size", c->st.memory.total_size,
		       0x1000);
	REF_EXPECT_WARN(c, 1);
	REF_OK(c, OP_ADD(SZ_1M, SZ_1M));
	{
		const struct ref_rgn e[] = { RGN(SZ_1M, SZ_1M) };
		REF_EXPECT(c, MEM, INIT_MAX, SZ_1M, e);
	}
	REF_EXPECT_WARN(c, 2);
}
