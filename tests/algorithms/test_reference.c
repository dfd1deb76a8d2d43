// SPDX-License-Identifier: GPL-2.0
/*
 * The reference memblock model against the kernel's documented behaviour
 * (mainline v6.11-v6.15): every expectation, here (init, add, the memory
 * array doubling) and in reference_cases_*.c (reference_test.h), was worked
 * out by hand from the kernel's semantics, never taken from our code. The
 * variant is driven only through the mbd_variant interface.
 */
#include <stdlib.h>

#include "ref_helpers.h"
#include "reference_test.h"

/* the counts of every file of this test (mbd_test.h) */
int mbd_test_passed, mbd_test_failed;

/* ---------------------------------------------------------------- init */

static void test_init(struct ref_ctx *c)
{
	struct mbd_config cfg;

	ref_begin(c, "init default", NULL);
	REF_EXPECT_EMPTY(c, MEM, INIT_MAX);
	REF_EXPECT_EMPTY(c, RSV, INIT_MAX);
	REF_EXPECT_FLAG(c, "memory static", c->st.memory.regions_static, true);
	REF_EXPECT_FLAG(c, "reserved static", c->st.reserved.regions_static,
			true);
	REF_EXPECT_FLAG(c, "memory slab", c->st.memory.regions_slab, false);
	REF_EXPECT_WARN(c, 0);

	ref_cfg(&cfg, 5, 3, false);
	ref_begin(c, "init small max", &cfg);
	REF_EXPECT_EMPTY(c, MEM, 5);
	REF_EXPECT_EMPTY(c, RSV, 3);
}

/* ----------------------------------------------------------------- add */

static void test_add_shapes(struct ref_ctx *c)
{
	ref_begin(c, "add simple", NULL);
	ref_apply(c, OP_ADD(SZ_1G, SZ_4M));
	REF_EXPECT_RET(c, 0);
	{
		const struct ref_rgn e[] = { RGN(SZ_1G, SZ_4M) };
		REF_EXPECT(c, MEM, INIT_MAX, SZ_4M, e);
	}
	REF_EXPECT_EMPTY(c, RSV, INIT_MAX);

	ref_begin(c, "add node", NULL);
	REF_OK(c, ref_op_node(SZ_1M, SZ_16M, 1, MBD_FLAG_HOTPLUG));
	{
		const struct ref_rgn e[] = {
			RGNX(SZ_1M, SZ_16M, MBD_FLAG_HOTPLUG, 1),
		};
		REF_EXPECT(c, MEM, INIT_MAX, SZ_16M, e);
	}

	/* Added high first: the array is still sorted by base. */
	ref_begin(c, "add disjoint", NULL);
	REF_OK(c, OP_ADD(SZ_1G + SZ_16K, SZ_8K));
	REF_OK(c, OP_ADD(SZ_1G, SZ_8K));
	{
		const struct ref_rgn e[] = {
			RGN(SZ_1G, SZ_8K), RGN(SZ_1G + SZ_16K, SZ_8K),
		};
		REF_EXPECT(c, MEM, INIT_MAX, SZ_16K, e);
	}

	ref_begin(c, "add overlap top", NULL);
	REF_OK(c, OP_ADD(SZ_512M, SZ_1G));
	REF_OK(c, OP_ADD(SZ_256M, SZ_512M));
	{
		const struct ref_rgn e[] = { RGN(SZ_256M, SZ_1G + SZ_256M) };
		REF_EXPECT(c, MEM, INIT_MAX, SZ_1G + SZ_256M, e);
	}

	ref_begin(c, "add overlap bottom", NULL);
	REF_OK(c, OP_ADD(SZ_128M, SZ_512M));
	REF_OK(c, OP_ADD(SZ_256M, SZ_1G));
	{
		const struct ref_rgn e[] = { RGN(SZ_128M, SZ_1G + SZ_128M) };
		REF_EXPECT(c, MEM, INIT_MAX, SZ_1G + SZ_128M, e);
	}

	ref_begin(c, "add within", NULL);
	REF_OK(c, OP_ADD(SZ_8M, SZ_32M));
	REF_OK(c, OP_ADD(SZ_16M, SZ_1M));
	{
		const struct ref_rgn e[] = { RGN(SZ_8M, SZ_32M) };
		REF_EXPECT(c, MEM, INIT_MAX, SZ_32M, e);
	}

	ref_begin(c, "add twice", NULL);
	REF_OK(c, OP_ADD(SZ_16K, SZ_2M));
	REF_OK(c, OP_ADD(SZ_16K, SZ_2M));
	{
		const struct ref_rgn e[] = { RGN(SZ_16K, SZ_2M) };
		REF_EXPECT(c, MEM, INIT_MAX, SZ_2M, e);
	}

	ref_begin(c, "add between", NULL);
	REF_OK(c, OP_ADD(SZ_1G, SZ_8K));
	REF_OK(c, OP_ADD(SZ_1G + SZ_16K, SZ_8K));
	REF_OK(c, OP_ADD(SZ_1G + SZ_8K, SZ_8K));
	{
		const struct ref_rgn e[] = { RGN(SZ_1G, 3 * SZ_8K) };
		REF_EXPECT(c, MEM, INIT_MAX, 3 * SZ_8K, e);
	}

	/* One add spanning three regions and the gaps around them. */
	ref_begin(c, "add over many", NULL);
	REF_OK(c, OP_ADD(0x10000, 0x10000));
	REF_OK(c, OP_ADD(0x30000, 0x10000));
	REF_OK(c, OP_ADD(0x50000, 0x10000));
	REF_OK(c, OP_ADD(0x8000, 0x70000));
	{
		const struct ref_rgn e[] = { RGN(0x8000, 0x70000) };
		REF_EXPECT(c, MEM, INIT_MAX, 0x70000, e);
	}
	REF_EXPECT_WARN(c, 0);
}

static void test_add_attrs(struct ref_ctx *c)
{
	ref_begin(c, "add adjacent other nid", NULL);
	REF_OK(c, ref_op_node(SZ_1M, SZ_1M, 0, 0));
	REF_OK(c, ref_op_node(SZ_2M, SZ_1M, 1, 0));
	{
		const struct ref_rgn e[] = {
			RGNX(SZ_1M, SZ_1M, 0, 0), RGNX(SZ_2M, SZ_1M, 0, 1),
		};
		REF_EXPECT(c, MEM, INIT_MAX, SZ_2M, e);
	}
	REF_EXPECT_WARN(c, 0);

	ref_begin(c, "add adjacent other flags", NULL);
	REF_OK(c, ref_op_node(SZ_2M, SZ_1M, 0, MBD_FLAG_HOTPLUG));
	REF_OK(c, ref_op_node(SZ_1M, SZ_1M, 0, 0));
	{
		const struct ref_rgn e[] = {
			RGNX(SZ_1M, SZ_1M, 0, 0),
			RGNX(SZ_2M, SZ_1M, MBD_FLAG_HOTPLUG, 0),
		};
		REF_EXPECT(c, MEM, INIT_MAX, SZ_2M, e);
	}
	REF_EXPECT_WARN(c, 0);

	ref_begin(c, "add adjacent same attrs", NULL);
	REF_OK(c, ref_op_node(SZ_2M, SZ_1M, 3, MBD_FLAG_NOMAP));
	REF_OK(c, ref_op_node(SZ_1M, SZ_1M, 3, MBD_FLAG_NOMAP));
	{
		const struct ref_rgn e[] = {
			RGNX(SZ_1M, SZ_2M, MBD_FLAG_NOMAP, 3),
		};
		REF_EXPECT(c, MEM, INIT_MAX, SZ_2M, e);
	}

	/* memblock_add uses MAX_NUMNODES: no merge with a node-0 block. */
	ref_begin(c, "add next to node 0", NULL);
	REF_OK(c, ref_op_node(SZ_1M, SZ_1M, 0, 0));
	REF_OK(c, OP_ADD(SZ_2M, SZ_1M));
	{
		const struct ref_rgn e[] = {
			RGNX(SZ_1M, SZ_1M, 0, 0), RGN(SZ_2M, SZ_1M),
		};
		REF_EXPECT(c, MEM, INIT_MAX, SZ_2M, e);
	}
}

static void test_add_limits(struct ref_ctx *c)
{
	const uint64_t top = MBD_PHYS_ADDR_MAX - SZ_1M;
	const uint64_t wrap = MBD_PHYS_ADDR_MAX - SZ_4K + 1; /* 2^64 - 4K */

	ref_begin(c, "add near max", NULL);
	REF_OK(c, OP_ADD(top, SZ_2M));
	{
		const struct ref_rgn e[] = { RGN(top, SZ_1M) };
		REF_EXPECT(c, MEM, INIT_MAX, SZ_1M, e);
	}

	/* base + size wraps past 2^64: the last byte is never covered. */
	ref_begin(c, "add wrapping", NULL);
	REF_OK(c, OP_ADD(wrap, SZ_8K));
	{
		const struct ref_rgn e[] = { RGN(wrap, SZ_4K - 1) };
		REF_EXPECT(c, MEM, INIT_MAX, SZ_4K - 1, e);
	}

	ref_begin(c, "add zero size", NULL);
	ref_apply(c, OP_ADD(SZ_1M, 0));
	REF_EXPECT_RET(c, 0);
	REF_EXPECT_EMPTY(c, MEM, INIT_MAX);
	REF_OK(c, OP_ADD(SZ_2M, SZ_1M));
	REF_OK(c, OP_ADD(SZ_1M, 0));
	REF_OK(c, OP_ADD(SZ_2M + SZ_512K, 0));
	{
		const struct ref_rgn e[] = { RGN(SZ_2M, SZ_1M) };
		REF_EXPECT(c, MEM, INIT_MAX, SZ_1M, e);
	}
}

/* ------------------------------------------------------ memory doubling */

static void test_add_129th(struct ref_ctx *c)
{
	static struct ref_rgn e[INIT_MAX + 1];
	const uint64_t big = SZ_256M, small = SZ_512M;
	struct mbd_config cfg;

	ref_cfg(&cfg, INIT_MAX, INIT_MAX, true);
	ref_begin(c, "add 129th region", &cfg);
	REF_OK(c, OP_ADD(big, SZ_1M));
	e[0] = (struct ref_rgn)RGN(big, SZ_1M);
	for (uint64_t i = 0; i < INIT_MAX; i++) {
		REF_OK(c, OP_ADD(small + i * 128, 64));
		e[i + 1] = (struct ref_rgn)RGN(small + i * 128, 64);
		if (i == INIT_MAX - 2)
			ref_expect_at(c, MEM, INIT_MAX, SZ_1M + (i + 1) * 64,
				      e, INIT_MAX, __LINE__);
	}
	ref_expect_at(c, MEM, 2 * INIT_MAX, SZ_1M + INIT_MAX * 64, e,
		      INIT_MAX + 1, __LINE__);
	/* The 64-byte blocks cannot hold it: the top of the big block does. */
	{
		const uint64_t sz = array_bytes(2 * INIT_MAX);
		const struct ref_rgn r[] = { RGN_KERN(big + SZ_1M - sz, sz) };

		REF_EXPECT_U64(c, "new array size", sz, 8192);
		REF_EXPECT(c, RSV, INIT_MAX, sz, r);
		REF_EXPECT_U64(c, "memory.regions_pa", c->st.memory.regions_pa,
			       big + SZ_1M - sz);
	}
	REF_EXPECT_FLAG(c, "memory static", c->st.memory.regions_static,
			false);
	REF_EXPECT_FLAG(c, "memory slab", c->st.memory.regions_slab, false);
	REF_EXPECT_WARN(c, 0);
}

static void test_add_small_max(struct ref_ctx *c)
{
	struct mbd_config cfg;

	ref_cfg(&cfg, 2, INIT_MAX, true);
	ref_begin(c, "add doubling max 2", &cfg);
	REF_OK(c, OP_ADD(SZ_1M, SZ_1M));
	REF_OK(c, OP_ADD(SZ_4M, SZ_1M));
	REF_EXPECT_EMPTY(c, RSV, INIT_MAX);
	REF_OK(c, OP_ADD(SZ_8M, SZ_1M));
	{
		const struct ref_rgn m[] = {
			RGN(SZ_1M, SZ_1M), RGN(SZ_4M, SZ_1M), RGN(SZ_8M, SZ_1M),
		};
		/* 4 * 24 bytes round up to one page, at the top of [4M,5M) */
		const struct ref_rgn r[] = { RGN_KERN(0x4ff000, SZ_4K) };

		REF_EXPECT(c, MEM, 4, 3 * SZ_1M, m);
		REF_EXPECT(c, RSV, INIT_MAX, SZ_4K, r);
		REF_EXPECT_U64(c, "memory.regions_pa", c->st.memory.regions_pa,
			       0x4ff000);
	}
	/* The fourth fits; the fifth doubles again and frees the old array. */
	REF_OK(c, OP_ADD(0xc00000, SZ_1M));
	REF_OK(c, OP_ADD(SZ_16M, SZ_1M));
	{
		const struct ref_rgn m[] = {
			RGN(SZ_1M, SZ_1M), RGN(SZ_4M, SZ_1M), RGN(SZ_8M, SZ_1M),
			RGN(0xc00000, SZ_1M), RGN(SZ_16M, SZ_1M),
		};
		const struct ref_rgn r[] = { RGN_KERN(0xcff000, SZ_4K) };

		REF_EXPECT(c, MEM, 8, 5 * SZ_1M, m);
		REF_EXPECT(c, RSV, INIT_MAX, SZ_4K, r);
		REF_EXPECT_U64(c, "memory.regions_pa", c->st.memory.regions_pa,
			       0xcff000);
	}

	/* Bottom-up: the lowest fit above the first page. */
	ref_cfg(&cfg, 2, INIT_MAX, true);
	cfg.bottom_up = true;
	ref_begin(c, "add doubling bottom-up", &cfg);
	REF_OK(c, OP_ADD(0, SZ_1M));
	REF_OK(c, OP_ADD(SZ_4M, SZ_1M));
	REF_OK(c, OP_ADD(SZ_8M, SZ_1M));
	{
		const struct ref_rgn m[] = {
			RGN(0, SZ_1M), RGN(SZ_4M, SZ_1M), RGN(SZ_8M, SZ_1M),
		};
		const struct ref_rgn r[] = { RGN_KERN(SZ_4K, SZ_4K) };

		REF_EXPECT(c, MEM, 4, 3 * SZ_1M, m);
		REF_EXPECT(c, RSV, INIT_MAX, SZ_4K, r);
	}

	/* The same, but the bottom-up switch happens as a call. */
	ref_cfg(&cfg, 2, INIT_MAX, true);
	ref_begin(c, "set_bottom_up then double", &cfg);
	REF_OK(c, ref_op_value(MBD_OP_SET_BOTTOM_UP, 1));
	REF_OK(c, OP_ADD(0, SZ_1M));
	REF_OK(c, OP_ADD(SZ_4M, SZ_1M));
	REF_OK(c, OP_ADD(SZ_8M, SZ_1M));
	{
		const struct ref_rgn r[] = { RGN_KERN(SZ_4K, SZ_4K) };
		REF_EXPECT(c, RSV, INIT_MAX, SZ_4K, r);
	}
}

static void test_add_panic(struct ref_ctx *c)
{
	struct mbd_config cfg;

	ref_cfg(&cfg, 2, INIT_MAX, false);
	ref_begin(c, "add full no resize", &cfg);
	REF_OK(c, OP_ADD(SZ_1M, SZ_1M));
	REF_OK(c, OP_ADD(SZ_4M, SZ_1M));
	ref_apply(c, OP_ADD(SZ_8M, SZ_1M));
	REF_EXPECT_PANIC(c, MSG_MEMORY);
	{
		const struct ref_rgn m[] = { RGN(SZ_1M, SZ_1M),
					     RGN(SZ_4M, SZ_1M) };
		REF_EXPECT(c, MEM, 2, SZ_2M, m);
	}

	/* A covered range needs no new slot: no panic. */
	ref_begin(c, "add full within", &cfg);
	REF_OK(c, OP_ADD(SZ_1M, SZ_1M));
	REF_OK(c, OP_ADD(SZ_4M, SZ_1M));
	REF_OK(c, OP_ADD(SZ_1M, SZ_512K));
	REF_EXPECT_U64(c, "memory.cnt", c->st.memory.cnt, 2);
	/* Bridging the gap would merge into one region, but the piece is
	 * counted before merging: cnt + 1 > max still asks to double. */
	ref_apply(c, OP_ADD(SZ_2M, SZ_2M));
	REF_EXPECT_PANIC(c, MSG_MEMORY);

	/* The kernel's boot default: 128 slots, resizing not yet allowed. */
	ref_begin(c, "add 129th no resize", NULL);
	for (uint64_t i = 0; i < INIT_MAX; i++)
		REF_OK(c, OP_ADD(SZ_1M + i * SZ_2M, SZ_1M));
	ref_apply(c, OP_ADD(SZ_1G, SZ_1M));
	REF_EXPECT_PANIC(c, MSG_MEMORY);

	/* Slab or not, the permission check comes first. */
	ref_cfg(&cfg, 1, INIT_MAX, false);
	cfg.slab = true;
	ref_begin(c, "add full slab no resize", &cfg);
	REF_OK(c, OP_ADD(SZ_1M, SZ_1M));
	ref_apply(c, OP_ADD(SZ_4M, SZ_1M));
	REF_EXPECT_PANIC(c, MSG_MEMORY);
}

static void test_add_enomem(struct ref_ctx *c)
{
	struct mbd_config cfg;
	const struct ref_rgn m[] = { RGN(SZ_16M, SZ_1M), RGN(SZ_32M, SZ_1M) };
	const struct ref_rgn r[] = {
		RGN_RSV(SZ_16M, SZ_1M), RGN_RSV(SZ_32M, SZ_1M),
	};

	/* All memory is reserved: the new array has nowhere to go. */
	ref_cfg(&cfg, 2, INIT_MAX, true);
	ref_begin(c, "add enomem", &cfg);
	REF_OK(c, OP_ADD(SZ_16M, SZ_1M));
	REF_OK(c, OP_ADD(SZ_32M, SZ_1M));
	REF_OK(c, OP_RESERVE(SZ_16M, SZ_1M));
	REF_OK(c, OP_RESERVE(SZ_32M, SZ_1M));
	ref_apply(c, OP_ADD(0x3000000, SZ_1M));
	REF_EXPECT_NO_PANIC(c);
	REF_EXPECT_RET(c, REF_ENOMEM);
	REF_EXPECT(c, MEM, 2, SZ_2M, m);
	REF_EXPECT(c, RSV, INIT_MAX, SZ_2M, r);
	REF_EXPECT_WARN(c, 0);

	/* isolate needs two spare slots, so a split fails the same way. */
	ref_apply(c, OP_REMOVE(SZ_16M + SZ_64K, SZ_64K));
	REF_EXPECT_NO_PANIC(c);
	REF_EXPECT_RET(c, REF_ENOMEM);
	REF_EXPECT(c, MEM, 2, SZ_2M, m);

	/* No memory at all: doubling reserved fails too. */
	ref_cfg(&cfg, INIT_MAX, 1, true);
	ref_begin(c, "reserve enomem", &cfg);
	REF_OK(c, OP_RESERVE(SZ_1M, SZ_4K));
	ref_apply(c, OP_RESERVE(SZ_2M, SZ_4K));
	REF_EXPECT_NO_PANIC(c);
	REF_EXPECT_RET(c, REF_ENOMEM);
	{
		const struct ref_rgn r[] = { RGN_RSV(SZ_1M, SZ_4K) };
		REF_EXPECT(c, RSV, 1, SZ_4K, r);
	}
}

int main(void)
{
	struct ref_ctx c;

	memset(&c, 0, sizeof(c));
	c.file = __FILE__;
	c.v = mbd_variant_find("reference");
	if (!c.v) {
		fprintf(stderr, "variant \"reference\" is not linked in\n");
		MBD_CHECK(c.v != NULL);
		return mbd_test_done();
	}
	mbd_state_init(&c.st);

	test_init(&c);
	test_add_shapes(&c);
	test_add_attrs(&c);
	test_add_limits(&c);
	test_add_129th(&c);
	test_add_small_max(&c);
	test_add_panic(&c);
	test_add_enomem(&c);
	test_reserve_shapes(&c);
	test_reserve_129th(&c);
	test_reserve_may_conflict(&c);
	test_reserve_double_twice(&c);
	test_double_cascade(&c);
	test_double_free_conflict(&c);
	test_remove(&c);
	test_remove_doubling(&c);
	test_phys_free(&c);
	test_flags(&c);
	test_set_node(&c);
	test_alloc_top_down(&c);
	test_alloc_bottom_up(&c);
	test_alloc_nid(&c);
	test_trim(&c);
	test_warnings(&c);
	test_slab(&c);

	mbd_state_free(&c.st);
	return mbd_test_done();
}
