// SPDX-License-Identifier: GPL-2.0
/* unit/test_oracle's v7.3 rules: node ids, RSRV_KERN, phys_free once slab is up. */
#include "oracle_test.h"

/* ------------------------------------------------------------ v7.3 rules */

/* v6.16: memblock_reserve() records NUMA_NO_NODE, not MAX_NUMNODES */
void test_v7_reserve_nid(void)
{
	struct mbd_config cfg = cfg_default();
	struct mbd_op op = mk_op(MBD_OP_RESERVE, 0x10000, 0x1000);
	struct mbd_region nonode = { 0x10000, 0x1000, 0, MBD_NUMA_NO_NODE };
	struct mbd_region maxn = { 0x10000, 0x1000, 0, NOMAXN };
	struct mbd_oracle_finding f;
	struct snap a;

	snap_init(&a);
	g_kver = 0;
	set_type(&a.s.reserved, a.rsv, &nonode, 1, 128);
	MBD_CHECK(try_op(&cfg, NULL, &op, &a, 0, &f) == MBD_CLASS_NONE);
	set_type(&a.s.reserved, a.rsv, &maxn, 1, 128);
	MBD_CHECK(try_op(&cfg, NULL, &op, &a, 0, &f) == MBD_CLASS_COVERAGE);
	/* and the other way round for a v6.12 variant */
	g_kver = MBD_KVER(6, 12);
	MBD_CHECK(try_op(&cfg, NULL, &op, &a, 0, &f) == MBD_CLASS_NONE);
	set_type(&a.s.reserved, a.rsv, &nonode, 1, 128);
	MBD_CHECK(try_op(&cfg, NULL, &op, &a, 0, &f) == MBD_CLASS_COVERAGE);
}

/* two nodes as in setup_numa, the reservation on no node (v6.16+) */
static void setup_numa_v7(struct mbd_oracle *o, struct snap *now)
{
	struct mbd_op n0 = mk_op(MBD_OP_ADD_NODE, 0x10000, 0x10000);
	struct mbd_op n1 = mk_op(MBD_OP_ADD_NODE, 0x20000, 0x10000);
	struct mbd_op rsv = mk_op(MBD_OP_RESERVE, 0x28000, 0x8000);
	struct mbd_region m[2] = { { 0x10000, 0x10000, 0, 0 }, { 0x20000, 0x10000, 0, 1 } };
	struct mbd_region r = { 0x28000, 0x8000, 0, MBD_NUMA_NO_NODE };
	struct snap a;

	n0.nid = 0;
	n1.nid = 1;
	snap_init(&a);
	set_type(&a.s.memory, a.mem, m, 1, 128);
	ok_step(o, now, &n0, &a, 0);
	set_type(&a.s.memory, a.mem, m, 2, 128);
	ok_step(o, now, &n1, &a, 0);
	set_type(&a.s.reserved, a.rsv, &r, 1, 128);
	ok_step(o, now, &rsv, &a, 0);
}

/* v6.16: an allocation is MEMBLOCK_RSRV_KERN on the node it was found for */
void test_v7_alloc_kern(void)
{
	struct mbd_config cfg = cfg_default();
	struct mbd_oracle_finding f;
	struct snap a;
	struct mbd_op op;
	struct mbd_region m[2] = { { 0x10000, 0x10000, 0, 0 }, { 0x20000, 0x10000, 0, 1 } };

	g_kver = 0;
	snap_init(&a);
	set_type(&a.s.memory, a.mem, m, 2, 128);
	/* node 1, 0x4000 bytes: the top of its free [0x20000,0x28000) */
	op = mk_nid_alloc(0x4000, 0x1000, 1);
	{
		struct mbd_region r[2] = {
			{ 0x24000, 0x4000, MBD_FLAG_RSRV_KERN, 1 },
			{ 0x28000, 0x8000, 0, MBD_NUMA_NO_NODE },
		};
		struct mbd_region plain[2] = {
			{ 0x24000, 0x4000, 0, MBD_NUMA_NO_NODE },
			{ 0x28000, 0x8000, 0, MBD_NUMA_NO_NODE },
		};

		set_type(&a.s.reserved, a.rsv, r, 2, 128);
		MBD_CHECK(try_op(&cfg, setup_numa_v7, &op, &a, 0x24000, &f) == MBD_CLASS_NONE);
		/* a plain reservation (the v6.12 way, or a patch that lost the
		 * flags) is a coverage finding */
		set_type(&a.s.reserved, a.rsv, plain, 2, 128);
		MBD_CHECK(try_op(&cfg, setup_numa_v7, &op, &a, 0x24000, &f) == MBD_CLASS_COVERAGE);
	}
	/* node 1 cannot hold 0x10000: the any-node retry, so no node */
	op = mk_nid_alloc(0x10000, 0x1000, 1);
	{
		struct mbd_region r[2] = {
			{ 0x10000, 0x10000, MBD_FLAG_RSRV_KERN, MBD_NUMA_NO_NODE },
			{ 0x28000, 0x8000, 0, MBD_NUMA_NO_NODE },
		};

		set_type(&a.s.reserved, a.rsv, r, 2, 128);
		MBD_CHECK(try_op(&cfg, setup_numa_v7, &op, &a, 0x10000, &f) == MBD_CLASS_NONE);
		r[0].nid = 1;
		set_type(&a.s.reserved, a.rsv, r, 2, 128);
		MBD_CHECK(try_op(&cfg, setup_numa_v7, &op, &a, 0x10000, &f) == MBD_CLASS_COVERAGE);
	}
	g_kver = MBD_KVER(6, 12);
}

/* v7.1: once slab is up, memblock_phys_free() leaves reserved as it was */
static void setup_rsv_one_v7(struct mbd_oracle *o, struct snap *now)
{
	struct mbd_op rsv = mk_op(MBD_OP_RESERVE, 0x10000, 0x1000);
	struct mbd_region r = { 0x10000, 0x1000, 0, MBD_NUMA_NO_NODE };
	struct snap a;

	snap_init(&a);
	set_type(&a.s.reserved, a.rsv, &r, 1, 128);
	ok_step(o, now, &rsv, &a, 0);
}

void test_v7_phys_free_after_slab(void)
{
	struct mbd_config cfg = cfg_default();
	struct mbd_op op = mk_op(MBD_OP_PHYS_FREE, 0x10000, 0x1000);
	struct mbd_region r = { 0x10000, 0x1000, 0, MBD_NUMA_NO_NODE };
	struct mbd_oracle_finding f;
	struct snap kept, gone;

	snap_init(&kept);
	snap_init(&gone);
	set_type(&kept.s.reserved, kept.rsv, &r, 1, 128);
	g_kver = 0;
	cfg.slab = true;
	MBD_CHECK(try_op(&cfg, setup_rsv_one_v7, &op, &kept, 0, &f) == MBD_CLASS_NONE);
	MBD_CHECK(try_op(&cfg, setup_rsv_one_v7, &op, &gone, 0, &f) == MBD_CLASS_COVERAGE);
	/* before slab: removed, as always */
	cfg.slab = false;
	MBD_CHECK(try_op(&cfg, setup_rsv_one_v7, &op, &gone, 0, &f) == MBD_CLASS_NONE);
	/* v7.0 and older remove it after slab too */
	g_kver = MBD_KVER(7, 0);
	cfg.slab = true;
	MBD_CHECK(try_op(&cfg, setup_rsv_one_v7, &op, &gone, 0, &f) == MBD_CLASS_NONE);
	MBD_CHECK(try_op(&cfg, setup_rsv_one_v7, &op, &kept, 0, &f) == MBD_CLASS_COVERAGE);
	g_kver = MBD_KVER(6, 12);
}
