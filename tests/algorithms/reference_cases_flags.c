// SPDX-License-Identifier: GPL-2.0
/* unit/test_reference's region attributes: flags, nodes, and the WARNs of a mismatch. */
#include "reference_test.h"

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

void test_flags(struct ref_ctx *c)
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

void test_set_node(struct ref_ctx *c)
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

/* ------------------------------------------------------------ warnings */

void test_warnings(struct ref_ctx *c)
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
