// SPDX-License-Identifier: GPL-2.0
/* unit/test_reference's allocations, and the arrays once slab is up. */
#include "reference_test.h"

/* ---------------------------------------------------------- allocation */

void test_alloc_top_down(struct ref_ctx *c)
{
	struct mbd_config cfg;

	ref_begin(c, "alloc top-down", NULL);
	REF_OK(c, OP_ADD(SZ_16M, SZ_16M));
	ref_apply(c, ref_op_alloc(SZ_4K, SZ_4K, 0, SZ_256M));
	REF_EXPECT_RET(c, 0x1fff000);
	{
		const struct ref_rgn r[] = { RGN_KERN(0x1fff000, SZ_4K) };
		REF_EXPECT(c, RSV, INIT_MAX, SZ_4K, r);
	}
	/* end below the top of memory */
	ref_apply(c, ref_op_alloc(SZ_4K, SZ_4K, 0, 0x1800000));
	REF_EXPECT_RET(c, 0x17ff000);
	/* size not a multiple of align: rounded down from end - size */
	ref_apply(c, ref_op_alloc(0x1800, SZ_64K, 0, 0));
	REF_EXPECT_RET(c, 0x1ff0000);
	{
		const struct ref_rgn r[] = {
			RGN_KERN(0x17ff000, SZ_4K), RGN_KERN(0x1ff0000, 0x1800),
			RGN_KERN(0x1fff000, SZ_4K),
		};
		REF_EXPECT(c, RSV, INIT_MAX, 0x3800, r);
	}
	{
		const struct ref_rgn m[] = { RGN(SZ_16M, SZ_16M) };
		REF_EXPECT(c, MEM, INIT_MAX, SZ_16M, m);
	}

	/* The found range skips reservations; the result does not merge
	 * with them: allocations are MEMBLOCK_RSRV_KERN since v6.16. */
	ref_begin(c, "alloc below reserved", NULL);
	REF_OK(c, OP_ADD(SZ_16M, SZ_16M));
	REF_OK(c, OP_RESERVE(0x1ff0000, SZ_64K));
	ref_apply(c, ref_op_alloc(SZ_4K, SZ_4K, 0, 0));
	REF_EXPECT_RET(c, 0x1fef000);
	{
		const struct ref_rgn r[] = {
			RGN_KERN(0x1fef000, SZ_4K), RGN_RSV(0x1ff0000, SZ_64K),
		};
		REF_EXPECT(c, RSV, INIT_MAX, 0x11000, r);
	}

	/* A hole too small in the middle is skipped. */
	ref_begin(c, "alloc skips small hole", NULL);
	REF_OK(c, OP_ADD(SZ_16M, SZ_16M));
	REF_OK(c, OP_RESERVE(0x1e00000, SZ_1M));
	REF_OK(c, OP_RESERVE(0x1f01000, 0xff000));
	ref_apply(c, ref_op_alloc(SZ_8K, SZ_4K, 0, 0));
	REF_EXPECT_RET(c, 0x1dfe000);

	ref_begin(c, "alloc nothing fits", NULL);
	REF_OK(c, OP_ADD(SZ_16M, SZ_4K));
	ref_apply(c, ref_op_alloc(SZ_8K, SZ_4K, 0, 0));
	REF_EXPECT_RET(c, 0);
	REF_EXPECT_EMPTY(c, RSV, INIT_MAX);
	ref_apply(c, ref_op_alloc(SZ_4K, SZ_4K, 0, SZ_8M));
	REF_EXPECT_RET(c, 0);
	ref_apply(c, ref_op_alloc(SZ_4K, SZ_4K, SZ_32M, MBD_ALLOC_ANYWHERE));
	REF_EXPECT_RET(c, 0);
	REF_EXPECT_EMPTY(c, RSV, INIT_MAX);
	REF_EXPECT_WARN(c, 0);

	ref_begin(c, "alloc no memory", NULL);
	ref_apply(c, ref_op_alloc(SZ_4K, SZ_4K, 0, 0));
	REF_EXPECT_RET(c, 0);
	REF_EXPECT_EMPTY(c, RSV, INIT_MAX);

	/* end 0 means current_limit; an explicit end does not. */
	mbd_config_default(&cfg);
	cfg.limit = 0x1800000;
	ref_begin(c, "alloc current_limit", &cfg);
	REF_OK(c, OP_ADD(SZ_16M, SZ_16M));
	ref_apply(c, ref_op_alloc(SZ_4K, SZ_4K, 0, MBD_ALLOC_ACCESSIBLE));
	REF_EXPECT_RET(c, 0x17ff000);
	REF_OK(c, ref_op_value(MBD_OP_SET_LIMIT, 0x1400000));
	ref_apply(c, ref_op_alloc(SZ_4K, SZ_4K, 0, 0));
	REF_EXPECT_RET(c, 0x13ff000);
	ref_apply(c, ref_op_alloc(SZ_4K, SZ_4K, 0, MBD_ALLOC_ANYWHERE));
	REF_EXPECT_RET(c, 0x1fff000);
	ref_apply(c, ref_op_alloc_nid(SZ_4K, SZ_4K, MBD_NUMA_NO_NODE));
	REF_EXPECT_RET(c, 0x13fe000);
	{
		const struct ref_rgn r[] = {
			RGN_KERN(0x13fe000, SZ_8K), RGN_KERN(0x17ff000, SZ_4K),
			RGN_KERN(0x1fff000, SZ_4K),
		};
		REF_EXPECT(c, RSV, INIT_MAX, 4 * SZ_4K, r);
	}
}

void test_alloc_bottom_up(struct ref_ctx *c)
{
	struct mbd_config cfg;

	mbd_config_default(&cfg);
	cfg.bottom_up = true;
	ref_begin(c, "alloc bottom-up", &cfg);
	REF_OK(c, OP_ADD(0, SZ_16M));
	/* the first page is never handed out */
	ref_apply(c, ref_op_alloc(SZ_4K, SZ_4K, 0, SZ_16M));
	REF_EXPECT_RET(c, SZ_4K);
	ref_apply(c, ref_op_alloc(SZ_4K, SZ_4K, SZ_4K, SZ_16M));
	REF_EXPECT_RET(c, SZ_8K);
	ref_apply(c, ref_op_alloc(SZ_4K, SZ_16K, 0x5000, SZ_16M));
	REF_EXPECT_RET(c, 0x8000);
	{
		const struct ref_rgn r[] = {
			RGN_KERN(SZ_4K, SZ_8K), RGN_KERN(0x8000, SZ_4K),
		};
		REF_EXPECT(c, RSV, INIT_MAX, 3 * SZ_4K, r);
	}
	/* above the range: nothing */
	ref_apply(c, ref_op_alloc(SZ_4K, SZ_4K, SZ_16M, SZ_32M));
	REF_EXPECT_RET(c, 0);

	ref_begin(c, "alloc bottom-up by call", NULL);
	REF_OK(c, OP_ADD(SZ_16M, SZ_16M));
	REF_OK(c, ref_op_value(MBD_OP_SET_BOTTOM_UP, 1));
	ref_apply(c, ref_op_alloc(SZ_4K, SZ_4K, 0, 0));
	REF_EXPECT_RET(c, SZ_16M);
	REF_OK(c, ref_op_value(MBD_OP_SET_BOTTOM_UP, 0));
	ref_apply(c, ref_op_alloc(SZ_4K, SZ_4K, 0, 0));
	REF_EXPECT_RET(c, 0x1fff000);
}

void test_alloc_nid(struct ref_ctx *c)
{
	ref_begin(c, "alloc try_nid", NULL);
	REF_OK(c, ref_op_node(SZ_16M, SZ_16M, 0, 0));
	REF_OK(c, ref_op_node(SZ_32M, SZ_16M, 1, 0));
	ref_apply(c, ref_op_alloc_nid(SZ_4K, SZ_4K, 0));
	REF_EXPECT_RET(c, 0x1fff000);
	ref_apply(c, ref_op_alloc_nid(SZ_4K, SZ_4K, 1));
	REF_EXPECT_RET(c, 0x2fff000);
	ref_apply(c, ref_op_alloc_nid(SZ_4K, SZ_4K, MBD_NUMA_NO_NODE));
	REF_EXPECT_RET(c, 0x2ffe000);
	{
		/* reserved on the node asked for (NUMA_NO_NODE: none) */
		const struct ref_rgn r[] = {
			RGNX(0x1fff000, SZ_4K, REF_RSRV_KERN, 0),
			RGN_KERN(0x2ffe000, SZ_4K),
			RGNX(0x2fff000, SZ_4K, REF_RSRV_KERN, 1),
		};
		REF_EXPECT(c, RSV, INIT_MAX, 3 * SZ_4K, r);
	}

	/* node 0 has 8K: a 16K request falls back to any node */
	ref_begin(c, "alloc try_nid fallback", NULL);
	REF_OK(c, ref_op_node(SZ_16M, SZ_8K, 0, 0));
	REF_OK(c, ref_op_node(SZ_32M, SZ_16M, 1, 0));
	ref_apply(c, ref_op_alloc_nid(SZ_16K, SZ_4K, 0));
	REF_EXPECT_RET(c, 0x2ffc000);
	ref_apply(c, ref_op_alloc_nid(SZ_8K, SZ_4K, 0));
	REF_EXPECT_RET(c, SZ_16M);
	{
		const struct ref_rgn r[] = {
			RGNX(SZ_16M, SZ_8K, REF_RSRV_KERN, 0),
			RGN_KERN(0x2ffc000, SZ_16K),
		};
		REF_EXPECT(c, RSV, INIT_MAX, SZ_16K + SZ_8K, r);
	}
	REF_EXPECT_WARN(c, 0);
}

/* ---------------------------------------------------------------- slab */

void test_slab(struct ref_ctx *c)
{
	struct mbd_config cfg;

	ref_cfg(&cfg, 2, INIT_MAX, true);
	cfg.slab = true;
	ref_begin(c, "slab doubling", &cfg);
	REF_OK(c, OP_ADD(SZ_1M, SZ_1M));
	REF_OK(c, OP_ADD(SZ_4M, SZ_1M));
	REF_OK(c, OP_ADD(SZ_8M, SZ_1M));
	{
		const struct ref_rgn m[] = {
			RGN(SZ_1M, SZ_1M), RGN(SZ_4M, SZ_1M), RGN(SZ_8M, SZ_1M),
		};
		REF_EXPECT(c, MEM, 4, 3 * SZ_1M, m);
	}
	REF_EXPECT_EMPTY(c, RSV, INIT_MAX);
	REF_EXPECT_FLAG(c, "memory slab", c->st.memory.regions_slab, true);
	REF_EXPECT_FLAG(c, "memory static", c->st.memory.regions_static,
			false);
	REF_OK(c, OP_ADD(0xc00000, SZ_1M));
	REF_OK(c, OP_ADD(SZ_16M, SZ_1M));
	REF_EXPECT_U64(c, "memory.max", c->st.memory.max, 8);
	REF_EXPECT_U64(c, "memory.cnt", c->st.memory.cnt, 5);
	REF_EXPECT_EMPTY(c, RSV, INIT_MAX);
	REF_EXPECT_FLAG(c, "memory slab", c->st.memory.regions_slab, true);

	/* slab comes up mid-trace: the first doubling used memblock, the
	 * second kmalloc; freeing the memblock array then goes to the page
	 * allocator and leaves reserved alone (v7.1, no ARCH_KEEP_MEMBLOCK) */
	ref_cfg(&cfg, 2, INIT_MAX, true);
	ref_begin(c, "slab comes up", &cfg);
	REF_OK(c, OP_ADD(SZ_1M, SZ_1M));
	REF_OK(c, OP_ADD(SZ_4M, SZ_1M));
	REF_OK(c, OP_ADD(SZ_8M, SZ_1M));
	{
		const struct ref_rgn r[] = { RGN_KERN(0x4ff000, SZ_4K) };
		REF_EXPECT(c, RSV, INIT_MAX, SZ_4K, r);
	}
	REF_EXPECT_FLAG(c, "memory slab", c->st.memory.regions_slab, false);
	REF_OK(c, ref_op_range(MBD_OP_SLAB_UP, 0, 0));
	REF_OK(c, OP_ADD(0xc00000, SZ_1M));
	REF_OK(c, OP_ADD(SZ_16M, SZ_1M));
	REF_EXPECT_U64(c, "memory.max", c->st.memory.max, 8);
	{
		const struct ref_rgn r[] = { RGN_KERN(0x4ff000, SZ_4K) };
		REF_EXPECT(c, RSV, INIT_MAX, SZ_4K, r);
	}
	REF_EXPECT_FLAG(c, "memory slab", c->st.memory.regions_slab, true);
	/* so does memblock_phys_free() itself once slab is up */
	REF_OK(c, ref_op_range(MBD_OP_PHYS_FREE, 0x4ff000, SZ_4K));
	{
		const struct ref_rgn r[] = { RGN_KERN(0x4ff000, SZ_4K) };
		REF_EXPECT(c, RSV, INIT_MAX, SZ_4K, r);
	}

	/* memblock_allow_resize as a call */
	ref_cfg(&cfg, 1, INIT_MAX, false);
	ref_begin(c, "allow_resize call", &cfg);
	REF_OK(c, OP_ADD(SZ_1M, SZ_1M));
	REF_OK(c, ref_op_range(MBD_OP_ALLOW_RESIZE, 0, 0));
	REF_OK(c, OP_ADD(SZ_4M, SZ_1M));
	REF_EXPECT_U64(c, "memory.max", c->st.memory.max, 2);
	{
		/* PAGE_ALIGN(2 * 24) at the top of [1M, 2M) */
		const struct ref_rgn r[] = { RGN_KERN(SZ_2M - SZ_4K, SZ_4K) };
		REF_EXPECT(c, RSV, INIT_MAX, SZ_4K, r);
	}
}
