// SPDX-License-Identifier: GPL-2.0
/*
 * The reference memblock model against the kernel's documented behaviour
 * (mainline v6.11-v6.15): every expectation below was worked out by hand
 * from the kernel's semantics, never taken from our code. The variant is
 * driven only through the mbd_variant interface.
 */
#include <stdlib.h>

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
static uint64_t array_bytes(uint64_t n)
{
	uint64_t b = n * MBD_REGION_BYTES;

	return (b + MBD_PAGE_SIZE - 1) & ~(MBD_PAGE_SIZE - 1);
}

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

/* ------------------------------------------------------------- reserve */

static void test_reserve_shapes(struct ref_ctx *c)
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

static void test_reserve_129th(struct ref_ctx *c)
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
static void test_reserve_may_conflict(struct ref_ctx *c)
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
static void test_reserve_double_twice(struct ref_ctx *c)
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
static void test_double_cascade(struct ref_ctx *c)
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
static void test_double_free_conflict(struct ref_ctx *c)
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

/* -------------------------------------------------------------- remove */

static void test_remove(struct ref_ctx *c)
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

static void test_remove_doubling(struct ref_ctx *c)
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

static void test_phys_free(struct ref_ctx *c)
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

/* --------------------------------------------------------------- flags */

static void test_flag_split(struct ref_ctx *c, uint32_t mark, uint32_t clear,
			    uint32_t flag, const char *name)
{
	ref_begin(c, name, NULL);
	REF_OK(c, OP_ADD(SZ_1M, SZ_16M));
	REF_OK(c, ref_op_range(mark, SZ_4M, SZ_4M));
	{
		const struct ref_rgn e[] = {
			RGN(SZ_1M, 3 * SZ_1M),
			RGNX(SZ_4M, SZ_4M, flag, REF_NID),
			RGN(SZ_8M, 9 * SZ_1M),
		};
		REF_EXPECT(c, MEM, INIT_MAX, SZ_16M, e);
	}
	REF_OK(c, ref_op_range(clear, SZ_4M, SZ_4M));
	{
		const struct ref_rgn e[] = { RGN(SZ_1M, SZ_16M) };
		REF_EXPECT(c, MEM, INIT_MAX, SZ_16M, e);
	}
	/* the whole region, exactly */
	REF_OK(c, ref_op_range(mark, SZ_1M, SZ_16M));
	{
		const struct ref_rgn e[] = {
			RGNX(SZ_1M, SZ_16M, flag, REF_NID),
		};
		REF_EXPECT(c, MEM, INIT_MAX, SZ_16M, e);
	}
	/* outside memory: nothing to change */
	REF_OK(c, ref_op_range(mark, SZ_1G, SZ_1M));
	REF_EXPECT_U64(c, "memory.cnt", c->st.memory.cnt, 1);
	REF_EXPECT_EMPTY(c, RSV, INIT_MAX);
}

static void test_flags(struct ref_ctx *c)
{
	struct mbd_config cfg;

	test_flag_split(c, MBD_OP_MARK_HOTPLUG, MBD_OP_CLEAR_HOTPLUG,
			MBD_FLAG_HOTPLUG, "hotplug split");
	test_flag_split(c, MBD_OP_MARK_NOMAP, MBD_OP_CLEAR_NOMAP,
			MBD_FLAG_NOMAP, "nomap split");

	/* Marking two adjacent blocks of different nodes keeps them apart. */
	ref_begin(c, "hotplug two nodes", NULL);
	REF_OK(c, ref_op_node(SZ_1M, SZ_1M, 0, 0));
	REF_OK(c, ref_op_node(SZ_2M, SZ_1M, 1, 0));
	REF_OK(c, ref_op_range(MBD_OP_MARK_HOTPLUG, SZ_1M, SZ_2M));
	{
		const struct ref_rgn e[] = {
			RGNX(SZ_1M, SZ_1M, MBD_FLAG_HOTPLUG, 0),
			RGNX(SZ_2M, SZ_1M, MBD_FLAG_HOTPLUG, 1),
		};
		REF_EXPECT(c, MEM, INIT_MAX, SZ_2M, e);
	}

	/* A range over a hole marks the two partial pieces only. */
	ref_begin(c, "hotplug over hole", NULL);
	REF_OK(c, OP_ADD(SZ_1M, SZ_1M));
	REF_OK(c, OP_ADD(0x300000, SZ_1M));
	REF_OK(c, ref_op_range(MBD_OP_MARK_HOTPLUG, 0x180000, SZ_2M));
	{
		const struct ref_rgn e[] = {
			RGN(SZ_1M, SZ_512K),
			RGNX(0x180000, SZ_512K, MBD_FLAG_HOTPLUG, REF_NID),
			RGNX(0x300000, SZ_512K, MBD_FLAG_HOTPLUG, REF_NID),
			RGN(0x380000, SZ_512K),
		};
		REF_EXPECT(c, MEM, INIT_MAX, SZ_2M, e);
	}

	/* Without kernelcore=mirror the call does nothing. */
	ref_begin(c, "mirror off", NULL);
	REF_OK(c, OP_ADD(SZ_1M, SZ_16M));
	REF_OK(c, ref_op_range(MBD_OP_MARK_MIRROR, SZ_4M, SZ_4M));
	{
		const struct ref_rgn e[] = { RGN(SZ_1M, SZ_16M) };
		REF_EXPECT(c, MEM, INIT_MAX, SZ_16M, e);
	}

	mbd_config_default(&cfg);
	cfg.mirror = true;
	ref_begin(c, "mirror on", &cfg);
	REF_OK(c, OP_ADD(SZ_1M, SZ_16M));
	REF_OK(c, ref_op_range(MBD_OP_MARK_MIRROR, SZ_4M, SZ_4M));
	{
		const struct ref_rgn e[] = {
			RGN(SZ_1M, 3 * SZ_1M),
			RGNX(SZ_4M, SZ_4M, MBD_FLAG_MIRROR, REF_NID),
			RGN(SZ_8M, 9 * SZ_1M),
		};
		REF_EXPECT(c, MEM, INIT_MAX, SZ_16M, e);
	}

	/* noinit acts on reserved only. */
	ref_begin(c, "reserved noinit", NULL);
	REF_OK(c, OP_ADD(SZ_1M, SZ_1M));
	REF_OK(c, OP_RESERVE(SZ_1M, SZ_1M));
	REF_OK(c, ref_op_range(MBD_OP_MARK_NOINIT, 0x140000, 0x40000));
	{
		const struct ref_rgn r[] = {
			RGN_RSV(SZ_1M, 0x40000),
			RGNX(0x140000, 0x40000, MBD_FLAG_RSRV_NOINIT,
			     REF_NO_NODE),
			RGN_RSV(0x180000, SZ_512K),
		};
		const struct ref_rgn m[] = { RGN(SZ_1M, SZ_1M) };

		REF_EXPECT(c, RSV, INIT_MAX, SZ_1M, r);
		REF_EXPECT(c, MEM, INIT_MAX, SZ_1M, m);
	}
	/* reserving it again is covered: the flag stays, nothing merges */
	REF_OK(c, OP_RESERVE(0x140000, 0x40000));
	REF_EXPECT_U64(c, "reserved.cnt", c->st.reserved.cnt, 3);
	REF_EXPECT_WARN(c, 0);
}

static void test_set_node(struct ref_ctx *c)
{
	ref_begin(c, "set_node split", NULL);
	REF_OK(c, OP_ADD(SZ_1M, SZ_16M));
	REF_OK(c, ref_op_set_node(SZ_4M, SZ_4M, MEM, 1));
	{
		const struct ref_rgn e[] = {
			RGN(SZ_1M, 3 * SZ_1M), RGNX(SZ_4M, SZ_4M, 0, 1),
			RGN(SZ_8M, 9 * SZ_1M),
		};
		REF_EXPECT(c, MEM, INIT_MAX, SZ_16M, e);
	}
	/* back to the neighbours' nid: one region again */
	REF_OK(c, ref_op_set_node(SZ_4M, SZ_4M, MEM, REF_NID));
	{
		const struct ref_rgn e[] = { RGN(SZ_1M, SZ_16M) };
		REF_EXPECT(c, MEM, INIT_MAX, SZ_16M, e);
	}
	REF_OK(c, ref_op_set_node(SZ_4M, SZ_4M, MEM, 2));
	REF_OK(c, ref_op_set_node(0, SZ_32M, MEM, 2));
	{
		const struct ref_rgn e[] = { RGNX(SZ_1M, SZ_16M, 0, 2) };
		REF_EXPECT(c, MEM, INIT_MAX, SZ_16M, e);
	}

	ref_begin(c, "set_node reserved", NULL);
	REF_OK(c, OP_RESERVE(SZ_1M, SZ_1M));
	REF_OK(c, OP_RESERVE(SZ_4M, SZ_1M));
	REF_OK(c, ref_op_set_node(SZ_1M, SZ_1M, RSV, 3));
	{
		const struct ref_rgn e[] = {
			RGNX(SZ_1M, SZ_1M, 0, 3), RGN_RSV(SZ_4M, SZ_1M),
		};
		REF_EXPECT(c, RSV, INIT_MAX, SZ_2M, e);
	}
	REF_EXPECT_EMPTY(c, MEM, INIT_MAX);
}

/* ---------------------------------------------------------- allocation */

static void test_alloc_top_down(struct ref_ctx *c)
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

static void test_alloc_bottom_up(struct ref_ctx *c)
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

static void test_alloc_nid(struct ref_ctx *c)
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

/* ---------------------------------------------------------------- trim */

static void test_trim(struct ref_ctx *c)
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

/* ------------------------------------------------------------ warnings */

static void test_warnings(struct ref_ctx *c)
{
	struct mbd_config cfg;
	const struct ref_rgn e3[] = {
		RGNX(SZ_1M, SZ_1M, 0, 0), RGNX(SZ_2M, SZ_1M, 0, 1),
		RGNX(0x300000, SZ_1M, 0, 0),
	};
	const struct ref_rgn e4[] = {
		RGNX(SZ_1M, SZ_1M, 0, 0), RGNX(SZ_2M, SZ_1M, 0, 1),
		RGNX(0x300000, SZ_1M, 0, 0), RGNX(SZ_8M, SZ_1M, 0, 1),
	};

	/* cnt 1, max 3: 2*1+1 <= 3, one pass, one WARN for the gap piece */
	ref_cfg(&cfg, 3, INIT_MAX, false);
	ref_begin(c, "warn shortcut cnt1 max3", &cfg);
	REF_OK(c, ref_op_node(SZ_2M, SZ_1M, 1, 0));
	REF_OK(c, ref_op_node(SZ_1M, 3 * SZ_1M, 0, 0));
	REF_EXPECT_WARN(c, 1);
	REF_EXPECT(c, MEM, 3, 3 * SZ_1M, e3);

	/* cnt 2, max 4: 5 > 4, counting pass + insert pass: two WARNs */
	ref_cfg(&cfg, 4, INIT_MAX, false);
	ref_begin(c, "warn two passes cnt2 max4", &cfg);
	REF_OK(c, ref_op_node(SZ_2M, SZ_1M, 1, 0));
	REF_OK(c, ref_op_node(SZ_8M, SZ_1M, 1, 0));
	REF_EXPECT_WARN(c, 0);
	REF_OK(c, ref_op_node(SZ_1M, 3 * SZ_1M, 0, 0));
	REF_EXPECT_WARN(c, 2);
	REF_EXPECT(c, MEM, 4, 3 * SZ_1M + SZ_1M, e4);

	/* cnt 2, max 5: 5 <= 5, shortcut again */
	ref_cfg(&cfg, 5, INIT_MAX, false);
	ref_begin(c, "warn shortcut cnt2 max5", &cfg);
	REF_OK(c, ref_op_node(SZ_2M, SZ_1M, 1, 0));
	REF_OK(c, ref_op_node(SZ_8M, SZ_1M, 1, 0));
	REF_OK(c, ref_op_node(SZ_1M, 3 * SZ_1M, 0, 0));
	REF_EXPECT_WARN(c, 1);
	REF_EXPECT(c, MEM, 5, 4 * SZ_1M, e4);

	/* Only a tail piece above the region: no WARN. */
	ref_begin(c, "warn none for tail", NULL);
	REF_OK(c, ref_op_node(SZ_2M, SZ_1M, 1, 0));
	REF_OK(c, ref_op_node(SZ_2M, SZ_2M, 0, 0));
	REF_EXPECT_WARN(c, 0);
	{
		const struct ref_rgn e[] = {
			RGNX(SZ_2M, SZ_1M, 0, 1), RGNX(0x300000, SZ_1M, 0, 0),
		};
		REF_EXPECT(c, MEM, INIT_MAX, SZ_2M, e);
	}

	/* Fully covered: no piece, no WARN, attributes left alone. */
	ref_begin(c, "warn none when covered", NULL);
	REF_OK(c, ref_op_node(SZ_1M, SZ_4M, 1, MBD_FLAG_HOTPLUG));
	REF_OK(c, OP_ADD(SZ_2M, SZ_1M));
	REF_EXPECT_WARN(c, 0);
	{
		const struct ref_rgn e[] = {
			RGNX(SZ_1M, SZ_4M, MBD_FLAG_HOTPLUG, 1),
		};
		REF_EXPECT(c, MEM, INIT_MAX, SZ_4M, e);
	}

	/* Same nid, different flags: no WARN for a MEMBLOCK_NONE request
	 * (v6.16) ... */
	ref_begin(c, "warn flags", NULL);
	REF_OK(c, ref_op_node(SZ_2M, SZ_1M, 5, MBD_FLAG_HOTPLUG));
	REF_OK(c, ref_op_node(SZ_1M, 3 * SZ_1M, 5, 0));
	REF_EXPECT_WARN(c, 0);
	{
		const struct ref_rgn e[] = {
			RGNX(SZ_1M, SZ_1M, 0, 5),
			RGNX(SZ_2M, SZ_1M, MBD_FLAG_HOTPLUG, 5),
			RGNX(0x300000, SZ_1M, 0, 5),
		};
		REF_EXPECT(c, MEM, INIT_MAX, 3 * SZ_1M, e);
	}
	/* ... one for a flagged request that differs */
	ref_begin(c, "warn flags set", NULL);
	REF_OK(c, ref_op_node(SZ_2M, SZ_1M, 5, MBD_FLAG_HOTPLUG));
	REF_OK(c, ref_op_node(SZ_1M, 3 * SZ_1M, 5, MBD_FLAG_MIRROR));
	REF_EXPECT_WARN(c, 1);

	/* nid and flags both differ: two WARNs for one flagged gap, one
	 * (nid) for a plain one. */
	ref_begin(c, "warn nid and flags", NULL);
	REF_OK(c, ref_op_node(SZ_2M, SZ_1M, 5, MBD_FLAG_HOTPLUG));
	REF_OK(c, ref_op_node(SZ_1M, 3 * SZ_1M, 6, MBD_FLAG_NOMAP));
	REF_EXPECT_WARN(c, 2);
	ref_begin(c, "warn nid only", NULL);
	REF_OK(c, ref_op_node(SZ_2M, SZ_1M, 5, MBD_FLAG_HOTPLUG));
	REF_OK(c, OP_ADD(SZ_1M, 3 * SZ_1M));
	REF_EXPECT_WARN(c, 1);
	REF_EXPECT_U64(c, "memory.cnt", c->st.memory.cnt, 3);
}

/* ---------------------------------------------------------------- slab */

static void test_slab(struct ref_ctx *c)
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
