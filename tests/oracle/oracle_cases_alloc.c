// SPDX-License-Identifier: GPL-2.0
/* unit/test_oracle's allocations: where each must land, and what is checked of it. */
#include "oracle_test.h"

/* ----------------------------------------------------------- allocations */

/* memory [0, 1M), reserved [0xf0000, 0x100000) */
static void setup_alloc(struct mbd_oracle *o, struct snap *now)
{
	struct mbd_op add = mk_op(MBD_OP_ADD, 0, MB(1));
	struct mbd_op rsv = mk_op(MBD_OP_RESERVE, 0xf0000, 0x10000);
	struct mbd_region m = { 0, MB(1), 0, NOMAXN };
	struct mbd_region r = { 0xf0000, 0x10000, 0, NOMAXN };
	struct snap a;

	snap_init(&a);
	set_type(&a.s.memory, a.mem, &m, 1, 128);
	ok_step(o, now, &add, &a, 0);
	set_type(&a.s.reserved, a.rsv, &r, 1, 128);
	ok_step(o, now, &rsv, &a, 0);
}

void test_alloc_top_down(void)
{
	struct mbd_config cfg = cfg_default();
	struct mbd_op op = mk_alloc(0x1000, 0x1000, 0, MBD_ALLOC_ACCESSIBLE);
	struct mbd_region m = { 0, MB(1), 0, NOMAXN };
	/* top-down: highest free piece [0x1000, 0xf0000): cand 0xef000; the
	 * reservation merges with [0xf0000, 0x100000) (both nid 64, flags 0) */
	struct mbd_region r = { 0xef000, 0x11000, 0, NOMAXN };
	struct mbd_region r2[2] = { { 0xee000, 0x1000, 0, NOMAXN }, { 0xf0000, 0x10000, 0, NOMAXN } };
	struct mbd_oracle_finding f;
	struct snap a;

	snap_init(&a);
	set_type(&a.s.memory, a.mem, &m, 1, 128);
	set_type(&a.s.reserved, a.rsv, &r, 1, 128);
	MBD_CHECK(try_op(&cfg, setup_alloc, &op, &a, 0xef000, &f) == MBD_CLASS_NONE);

	/* a valid but different address is still a wrong answer */
	set_type(&a.s.reserved, a.rsv, r2, 2, 128);
	MBD_CHECK(try_op(&cfg, setup_alloc, &op, &a, 0xee000, &f) == MBD_CLASS_RETURN);
	MBD_CHECK_STR(f.detail, "alloc returned 0xee000, expected 0xef000");

	/* failure where the kernel succeeds */
	set_type(&a.s.reserved, a.rsv, r2 + 1, 1, 128);
	MBD_CHECK(try_op(&cfg, setup_alloc, &op, &a, 0, &f) == MBD_CLASS_RETURN);

	/* end bound 0x80000, align 0 -> 64: cand = 0x80000 - 0x1000 */
	op = mk_alloc(0x1000, 0, 0, 0x80000);
	{
		struct mbd_region r3[2] = { { 0x7f000, 0x1000, 0, NOMAXN },
					    { 0xf0000, 0x10000, 0, NOMAXN } };

		set_type(&a.s.reserved, a.rsv, r3, 2, 128);
		MBD_CHECK(try_op(&cfg, setup_alloc, &op, &a, 0x7f000, &f) == MBD_CLASS_NONE);
	}
	/* unaligned end 0x80800: round_down(0x7f800, 0x1000) = 0x7f000 */
	op = mk_alloc(0x1000, 0x1000, 0, 0x80800);
	{
		struct mbd_region r3[2] = { { 0x7f000, 0x1000, 0, NOMAXN },
					    { 0xf0000, 0x10000, 0, NOMAXN } };

		set_type(&a.s.reserved, a.rsv, r3, 2, 128);
		MBD_CHECK(try_op(&cfg, setup_alloc, &op, &a, 0x7f000, &f) == MBD_CLASS_NONE);
		MBD_CHECK(try_op(&cfg, setup_alloc, &op, &a, 0x7f800, &f) == MBD_CLASS_COVERAGE);
	}
	/* size 0: top-down returns round_down(0xf0000, 0x1000) and reserves nothing */
	op = mk_alloc(0, 0x1000, 0, MBD_ALLOC_ACCESSIBLE);
	set_type(&a.s.reserved, a.rsv, r2 + 1, 1, 128);
	MBD_CHECK(try_op(&cfg, setup_alloc, &op, &a, 0xf0000, &f) == MBD_CLASS_NONE);
}

static void setup_alloc_bu(struct mbd_oracle *o, struct snap *now)
{
	struct mbd_op add = mk_op(MBD_OP_ADD, 0, MB(1));
	struct mbd_op rsv = mk_op(MBD_OP_RESERVE, 0x1000, 0x2000);
	struct mbd_op bu = mk_value(MBD_OP_SET_BOTTOM_UP, 1);
	struct mbd_region m = { 0, MB(1), 0, NOMAXN };
	struct mbd_region r = { 0x1000, 0x2000, 0, NOMAXN };
	struct snap a;

	snap_init(&a);
	set_type(&a.s.memory, a.mem, &m, 1, 128);
	ok_step(o, now, &add, &a, 0);
	set_type(&a.s.reserved, a.rsv, &r, 1, 128);
	ok_step(o, now, &rsv, &a, 0);
	ok_step(o, now, &bu, &a, 0);
}

void test_alloc_bottom_up(void)
{
	struct mbd_config cfg = cfg_default();
	struct mbd_op op = mk_alloc(0x2000, 0x1000, 0, MBD_ALLOC_ACCESSIBLE);
	struct mbd_region m = { 0, MB(1), 0, NOMAXN };
	/* bottom-up from PAGE_SIZE: [0x1000,0x3000) is reserved, so the
	 * first fit is 0x3000, which merges with the reservation below */
	struct mbd_region r = { 0x1000, 0x4000, 0, NOMAXN };
	struct mbd_oracle_finding f;
	struct snap a;

	snap_init(&a);
	set_type(&a.s.memory, a.mem, &m, 1, 128);
	set_type(&a.s.reserved, a.rsv, &r, 1, 128);
	MBD_CHECK(try_op(&cfg, setup_alloc_bu, &op, &a, 0x3000, &f) == MBD_CLASS_NONE);
	/* a top-down answer is wrong here */
	{
		struct mbd_region r2[2] = { { 0x1000, 0x2000, 0, NOMAXN },
					    { 0xfe000, 0x2000, 0, NOMAXN } };

		set_type(&a.s.reserved, a.rsv, r2, 2, 128);
		MBD_CHECK(try_op(&cfg, setup_alloc_bu, &op, &a, 0xfe000, &f) == MBD_CLASS_RETURN);
	}
	/* start 0x5001, align 0x1000: round_up to 0x6000 */
	op = mk_alloc(0x1000, 0x1000, 0x5001, MBD_ALLOC_ACCESSIBLE);
	{
		struct mbd_region r3[2] = { { 0x1000, 0x2000, 0, NOMAXN },
					    { 0x6000, 0x1000, 0, NOMAXN } };

		set_type(&a.s.reserved, a.rsv, r3, 2, 128);
		MBD_CHECK(try_op(&cfg, setup_alloc_bu, &op, &a, 0x6000, &f) == MBD_CLASS_NONE);
	}
}

/* bottom-up with a free piece [0x3100,0x3800) whose rounded-up start
 * 0x4000 lies past its end: it must be skipped, the answer is 0x8000 */
void test_alloc_bottom_up_past_end(void)
{
	struct mbd_config cfg = cfg_default();
	struct mbd_oracle *o = oracle_new();
	struct mbd_op add = mk_op(MBD_OP_ADD, 0, MB(1));
	struct mbd_op r1 = mk_op(MBD_OP_RESERVE, 0x1000, 0x2100);
	struct mbd_op r2 = mk_op(MBD_OP_RESERVE, 0x3800, 0x4800);
	struct mbd_op al = mk_alloc(0x1000, 0x1000, 0, MBD_ALLOC_ACCESSIBLE);
	struct mbd_region m = { 0, MB(1), 0, NOMAXN };
	struct mbd_region r[2] = { { 0x1000, 0x2100, 0, NOMAXN }, { 0x3800, 0x5800, 0, NOMAXN } };
	struct mbd_oracle_finding f;
	struct snap now, a;

	cfg.bottom_up = true;
	mbd_oracle_reset(o, &cfg);
	snap_init(&now);
	snap_init(&a);
	set_type(&a.s.memory, a.mem, &m, 1, 128);
	ok_step(o, &now, &add, &a, 0);
	set_type(&a.s.reserved, a.rsv, r, 1, 128);
	ok_step(o, &now, &r1, &a, 0);
	r[1].size = 0x4800;
	set_type(&a.s.reserved, a.rsv, r, 2, 128);
	ok_step(o, &now, &r2, &a, 0);
	r[1].size = 0x5800;     /* [0x8000,0x9000) merges into [0x3800,0x8000) */
	set_type(&a.s.reserved, a.rsv, r, 2, 128);
	MBD_CHECK(step(o, &al, &now, &a, 0x8000, &f) == MBD_CLASS_NONE);
	mbd_oracle_free(o);
}

/* top-down, size 0: memory B [0x1000,0x1800) and A [0x2000,0x3000), A fully
 * reserved. The gap below A's reservation ends exactly at A's start, so
 * no (empty) piece is yielded at 0x2000; the answer is round_down(0x1800,
 * 0x800) = 0x1800 from B, and nothing is reserved. */
void test_alloc_size0_boundary(void)
{
	struct mbd_config cfg = cfg_default();
	struct mbd_oracle *o = oracle_new();
	struct mbd_op b = mk_op(MBD_OP_ADD, 0x1000, 0x800);
	struct mbd_op aa = mk_op(MBD_OP_ADD, 0x2000, 0x1000);
	struct mbd_op rs = mk_op(MBD_OP_RESERVE, 0x2000, 0x1000);
	struct mbd_op al = mk_alloc(0, 0x800, 0, MBD_ALLOC_ACCESSIBLE);
	struct mbd_region m[2] = { { 0x1000, 0x800, 0, NOMAXN }, { 0x2000, 0x1000, 0, NOMAXN } };
	struct mbd_region r = { 0x2000, 0x1000, 0, NOMAXN };
	struct mbd_oracle_finding f;
	struct snap now, a;

	mbd_oracle_reset(o, &cfg);
	snap_init(&now);
	snap_init(&a);
	set_type(&a.s.memory, a.mem, m, 1, 128);
	ok_step(o, &now, &b, &a, 0);
	set_type(&a.s.memory, a.mem, m, 2, 128);
	ok_step(o, &now, &aa, &a, 0);
	set_type(&a.s.reserved, a.rsv, &r, 1, 128);
	ok_step(o, &now, &rs, &a, 0);
	MBD_CHECK(step(o, &al, &now, &a, 0x1800, &f) == MBD_CLASS_NONE);
	MBD_CHECK(step(o, &al, &now, &a, 0x2000, &f) == MBD_CLASS_RETURN);
	mbd_oracle_free(o);
}

/* memory: node 0 [0x10000,0x20000), node 1 [0x20000,0x30000) (touching);
 * reserved [0x28000,0x30000) */
static void setup_numa(struct mbd_oracle *o, struct snap *now)
{
	struct mbd_op n0 = mk_op(MBD_OP_ADD_NODE, 0x10000, 0x10000);
	struct mbd_op n1 = mk_op(MBD_OP_ADD_NODE, 0x20000, 0x10000);
	struct mbd_op rsv = mk_op(MBD_OP_RESERVE, 0x28000, 0x8000);
	struct mbd_region m[2] = { { 0x10000, 0x10000, 0, 0 }, { 0x20000, 0x10000, 0, 1 } };
	struct mbd_region r = { 0x28000, 0x8000, 0, NOMAXN };
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

void test_alloc_numa(void)
{
	struct mbd_config cfg = cfg_default();
	struct mbd_op op = mk_alloc(0x10000, 0x1000, 0, MBD_ALLOC_ACCESSIBLE);
	struct mbd_region m[2] = { { 0x10000, 0x10000, 0, 0 }, { 0x20000, 0x10000, 0, 1 } };
	struct mbd_oracle_finding f;
	struct snap a;

	snap_init(&a);
	set_type(&a.s.memory, a.mem, m, 2, 128);
	/* node 1's free piece [0x20000,0x28000) is too small; the bytes
	 * [0x18000,0x28000) are free but straddle two runs, so the answer is
	 * node 0's top: 0x20000 - 0x10000 = 0x10000 */
	{
		struct mbd_region r[2] = { { 0x10000, 0x10000, 0, NOMAXN },
					   { 0x28000, 0x8000, 0, NOMAXN } };

		set_type(&a.s.reserved, a.rsv, r, 2, 128);
		MBD_CHECK(try_op(&cfg, setup_numa, &op, &a, 0x10000, &f) == MBD_CLASS_NONE);
	}
	{
		struct mbd_region r[1] = { { 0x18000, 0x18000, 0, NOMAXN } };

		set_type(&a.s.reserved, a.rsv, r, 1, 128);
		MBD_CHECK(try_op(&cfg, setup_numa, &op, &a, 0x18000, &f) == MBD_CLASS_RETURN);
	}
	/* node 1, 0x4000 bytes: top of [0x20000,0x28000) is 0x24000 */
	op = mk_nid_alloc(0x4000, 0x1000, 1);
	{
		struct mbd_region r[1] = { { 0x24000, 0xc000, 0, NOMAXN } };

		set_type(&a.s.reserved, a.rsv, r, 1, 128);
		MBD_CHECK(try_op(&cfg, setup_numa, &op, &a, 0x24000, &f) == MBD_CLASS_NONE);
	}
	/* node 0 asked: its top 0x1c000, not node 1's 0x24000 */
	op = mk_nid_alloc(0x4000, 0x1000, 0);
	{
		struct mbd_region r[2] = { { 0x1c000, 0x4000, 0, NOMAXN },
					   { 0x28000, 0x8000, 0, NOMAXN } };

		set_type(&a.s.reserved, a.rsv, r, 2, 128);
		MBD_CHECK(try_op(&cfg, setup_numa, &op, &a, 0x1c000, &f) == MBD_CLASS_NONE);
	}
	/* node 1 cannot hold 0x10000: fall back to any node -> 0x10000 */
	op = mk_nid_alloc(0x10000, 0x1000, 1);
	{
		struct mbd_region r[2] = { { 0x10000, 0x10000, 0, NOMAXN },
					   { 0x28000, 0x8000, 0, NOMAXN } };

		set_type(&a.s.reserved, a.rsv, r, 2, 128);
		MBD_CHECK(try_op(&cfg, setup_numa, &op, &a, 0x10000, &f) == MBD_CLASS_NONE);
	}
}

/* reserved array full and resize disallowed: the kernel would panic, so the
 * address is only checked loosely */
static void setup_full_rsv(struct mbd_oracle *o, struct snap *now)
{
	struct mbd_op add = mk_op(MBD_OP_ADD, 0, MB(1));
	struct mbd_op rsv = mk_op(MBD_OP_RESERVE, 0x80000, 0x10000);
	struct mbd_region m = { 0, MB(1), 0, NOMAXN };
	struct mbd_region r = { 0x80000, 0x10000, 0, NOMAXN };
	struct snap a;

	snap_init(&a);
	set_type(&a.s.memory, a.mem, &m, 1, 128);
	ok_step(o, now, &add, &a, 0);
	set_type(&a.s.reserved, a.rsv, &r, 1, 1);
	now->s.reserved.max = 1;
	ok_step(o, now, &rsv, &a, 0);
}

void test_alloc_weak_checks(void)
{
	struct mbd_config cfg = cfg_default();
	struct mbd_op op = mk_alloc(0x1000, 0x1000, 0, MBD_ALLOC_ACCESSIBLE);
	struct mbd_region m = { 0, MB(1), 0, NOMAXN };
	struct mbd_oracle_finding f;
	struct snap a;

	cfg.resize = false;
	cfg.reserved_max = 1;
	snap_init(&a);
	set_type(&a.s.memory, a.mem, &m, 1, 128);
	/* the variant grew its array by kmalloc: no reservation for it */
	{
		struct mbd_region r[2] = { { 0x50000, 0x1000, 0, NOMAXN },
					   { 0x80000, 0x10000, 0, NOMAXN } };

		set_type(&a.s.reserved, a.rsv, r, 2, 2);
		a.s.reserved.regions_slab = true;
		a.s.reserved.regions_pa = 0x10000000000ULL;
		MBD_CHECK(try_op(&cfg, setup_full_rsv, &op, &a, 0x50000, &f) == MBD_CLASS_NONE);
	}
	/* inside the reservation: a finding even without an exact answer */
	{
		struct mbd_region r[1] = { { 0x80000, 0x10000, 0, NOMAXN } };

		set_type(&a.s.reserved, a.rsv, r, 1, 2);
		a.s.reserved.regions_slab = true;
		a.s.reserved.regions_pa = 0x10000000000ULL;
		MBD_CHECK(try_op(&cfg, setup_full_rsv, &op, &a, 0x80000, &f) == MBD_CLASS_RETURN);
		MBD_CHECK_STR(f.detail, "alloc [0x80000-0x81000) overlaps reserved");
		/* failing is possible too when the outcome is unclear */
		MBD_CHECK(try_op(&cfg, setup_full_rsv, &op, &a, 0x0, &f) == MBD_CLASS_NONE);
	}
	{
		struct mbd_region r[2] = { { 0x40800, 0x1000, 0, NOMAXN },
					   { 0x80000, 0x10000, 0, NOMAXN } };

		set_type(&a.s.reserved, a.rsv, r, 2, 2);
		a.s.reserved.regions_slab = true;
		a.s.reserved.regions_pa = 0x10000000000ULL;
		MBD_CHECK(try_op(&cfg, setup_full_rsv, &op, &a, 0x40800, &f) == MBD_CLASS_RETURN);
		MBD_CHECK(strstr(f.detail, "not aligned") != NULL);
	}
	{
		/* above the requested end 0x40000 */
		struct mbd_op op2 = mk_alloc(0x1000, 0x1000, 0, 0x40000);
		struct mbd_region r[2] = { { 0x50000, 0x1000, 0, NOMAXN },
					   { 0x80000, 0x10000, 0, NOMAXN } };

		set_type(&a.s.reserved, a.rsv, r, 2, 2);
		a.s.reserved.regions_slab = true;
		a.s.reserved.regions_pa = 0x10000000000ULL;
		MBD_CHECK(try_op(&cfg, setup_full_rsv, &op2, &a, 0x50000, &f) == MBD_CLASS_RETURN);
		MBD_CHECK(strstr(f.detail, "outside") != NULL);
	}
	{
		/* beyond memory */
		struct mbd_region r[2] = { { 0x80000, 0x10000, 0, NOMAXN },
					   { 0x100000, 0x1000, 0, NOMAXN } };

		set_type(&a.s.reserved, a.rsv, r, 2, 2);
		a.s.reserved.regions_slab = true;
		a.s.reserved.regions_pa = 0x10000000000ULL;
		MBD_CHECK(try_op(&cfg, setup_full_rsv, &op, &a, 0x100000, &f) == MBD_CLASS_RETURN);
		MBD_CHECK(strstr(f.detail, "not inside one memory run") != NULL);
	}
}

/* memory [0, 0x3000); reserved three far regions, max 3 (full) */
static void setup_tight(struct mbd_oracle *o, struct snap *now)
{
	struct mbd_op add = mk_op(MBD_OP_ADD, 0, 0x3000);
	struct mbd_region m = { 0, 0x3000, 0, NOMAXN };
	struct mbd_region r[3] = { { MB(16), 0x1000, 0, NOMAXN }, { MB(17), 0x1000, 0, NOMAXN },
				   { MB(18), 0x1000, 0, NOMAXN } };
	struct snap a;

	now->s.reserved.max = 3;
	snap_init(&a);
	a.s.reserved.max = 3;
	set_type(&a.s.memory, a.mem, &m, 1, 128);
	ok_step(o, now, &add, &a, 0);
	for (size_t i = 0; i < 3; i++) {
		struct mbd_op op = mk_op(MBD_OP_RESERVE, r[i].base, r[i].size);

		set_type(&a.s.reserved, a.rsv, r, i + 1, 3);
		ok_step(o, now, &op, &a, 0);
	}
}

void test_alloc_double_room(void)
{
	struct mbd_config cfg = cfg_default();
	struct mbd_op op = mk_alloc(0x2000, 0x1000, 0, MBD_ALLOC_ACCESSIBLE);
	struct mbd_region m = { 0, 0x3000, 0, NOMAXN };
	struct mbd_oracle_finding f;
	struct snap a;

	cfg.reserved_max = 3;
	snap_init(&a);
	set_type(&a.s.memory, a.mem, &m, 1, 128);
	/* 0x2000 bytes fit only at 0x1000, and then the new reserved array
	 * (PAGE_ALIGN(6 * 24) = 0x1000) finds no room above 0x3000 nor below
	 * 0x1000: the reservation fails and so does the allocation */
	{
		struct mbd_region r[3] = { { MB(16), 0x1000, 0, NOMAXN },
					   { MB(17), 0x1000, 0, NOMAXN },
					   { MB(18), 0x1000, 0, NOMAXN } };

		set_type(&a.s.reserved, a.rsv, r, 3, 3);
		MBD_CHECK(try_op(&cfg, setup_tight, &op, &a, 0, &f) == MBD_CLASS_NONE);
	}
	/* 0x1000 bytes: found at 0x2000; the array goes below it, to 0x1000 */
	op = mk_alloc(0x1000, 0x1000, 0, MBD_ALLOC_ACCESSIBLE);
	{
		struct mbd_region r[4] = { { 0x1000, 0x2000, 0, NOMAXN },
					   { MB(16), 0x1000, 0, NOMAXN },
					   { MB(17), 0x1000, 0, NOMAXN },
					   { MB(18), 0x1000, 0, NOMAXN } };

		set_type(&a.s.reserved, a.rsv, r, 4, 6);
		a.s.reserved.regions_static = false;
		a.s.reserved.regions_pa = 0x1000;
		MBD_CHECK(try_op(&cfg, setup_tight, &op, &a, 0x2000, &f) == MBD_CLASS_NONE);
		/* the kernel does not fail here */
		set_type(&a.s.reserved, a.rsv, r + 1, 3, 3);
		MBD_CHECK(try_op(&cfg, setup_tight, &op, &a, 0, &f) == MBD_CLASS_RETURN);
	}
}

void test_alloc_slab(void)
{
	struct mbd_config cfg = cfg_default();
	struct mbd_op op = mk_alloc(0x1000, 0x1000, 0, MBD_ALLOC_ACCESSIBLE);
	struct mbd_region m = { 0, MB(1), 0, NOMAXN };
	struct mbd_region r = { 0xf0000, 0x10000, 0, NOMAXN };
	struct mbd_oracle_finding f;
	struct snap a;

	cfg.slab = true;
	snap_init(&a);
	set_type(&a.s.memory, a.mem, &m, 1, 128);
	set_type(&a.s.reserved, a.rsv, &r, 1, 128);
	/* kzalloc_node(): any address, reserved untouched */
	MBD_CHECK(try_op(&cfg, setup_alloc, &op, &a, 0x10000004000LL, &f) == MBD_CLASS_NONE);
	/* but a memblock reservation would be wrong */
	{
		struct mbd_region r2 = { 0xef000, 0x11000, 0, NOMAXN };

		set_type(&a.s.reserved, a.rsv, &r2, 1, 128);
		MBD_CHECK(try_op(&cfg, setup_alloc, &op, &a, 0xef000, &f) == MBD_CLASS_COVERAGE);
	}
}

/* mirror: marking sets system_has_some_mirror, allocations then prefer
 * MIRROR runs; NOMAP runs are never used */
void test_alloc_mirror_nomap(void)
{
	struct mbd_config cfg = cfg_default();
	struct mbd_oracle *o = oracle_new();
	struct mbd_op add = mk_op(MBD_OP_ADD, 0, MB(1));
	struct mbd_op mir = mk_op(MBD_OP_MARK_MIRROR, 0x40000, 0x10000);
	struct mbd_op nomap = mk_op(MBD_OP_MARK_NOMAP, 0x48000, 0x8000);
	struct mbd_op al = mk_alloc(0x1000, 0x1000, 0, MBD_ALLOC_ACCESSIBLE);
	struct mbd_region m1 = { 0, MB(1), 0, NOMAXN };
	struct mbd_region m3[3] = { { 0, 0x40000, 0, NOMAXN }, { 0x40000, 0x10000, 2, NOMAXN },
				    { 0x50000, 0xb0000, 0, NOMAXN } };
	struct mbd_region m4[4] = { { 0, 0x40000, 0, NOMAXN }, { 0x40000, 0x8000, 2, NOMAXN },
				    { 0x48000, 0x8000, 6, NOMAXN }, { 0x50000, 0xb0000, 0, NOMAXN } };
	/* mirror run usable part [0x40000,0x48000): top-down 0x47000 */
	struct mbd_region r = { 0x47000, 0x1000, 0, NOMAXN };
	struct mbd_oracle_finding f;
	struct snap now, a;

	cfg.mirror = true;
	mbd_oracle_reset(o, &cfg);
	snap_init(&now);
	snap_init(&a);
	set_type(&a.s.memory, a.mem, &m1, 1, 128);
	ok_step(o, &now, &add, &a, 0);
	set_type(&a.s.memory, a.mem, m3, 3, 128);
	ok_step(o, &now, &mir, &a, 0);
	set_type(&a.s.memory, a.mem, m4, 4, 128);
	ok_step(o, &now, &nomap, &a, 0);
	set_type(&a.s.reserved, a.rsv, &r, 1, 128);
	MBD_CHECK(step(o, &al, &now, &a, 0x47000, &f) == MBD_CLASS_NONE);
	snap_copy(&now, &a);
	/* 0x10000 bytes do not fit in the mirror: fallback to all memory,
	 * whose top is [0x50000, 0x100000): 0xf0000 */
	al.size = 0x10000;
	{
		struct mbd_region r2[2] = { { 0x47000, 0x1000, 0, NOMAXN },
					    { 0xf0000, 0x10000, 0, NOMAXN } };

		set_type(&a.s.reserved, a.rsv, r2, 2, 128);
		MBD_CHECK(step(o, &al, &now, &a, 0xf0000, &f) == MBD_CLASS_NONE);
	}
	mbd_oracle_free(o);

	/* without mirrored_kernelcore mark_mirror is a no-op returning 0 */
	cfg.mirror = false;
	{
		struct snap b;

		snap_init(&b);
		MBD_CHECK(try_op(&cfg, NULL, &mir, &b, 0, &f) == MBD_CLASS_NONE);
		MBD_CHECK(try_op(&cfg, NULL, &mir, &b, -12, &f) == MBD_CLASS_RETURN);
	}
}


void test_limit_and_dump(void)
{
	struct mbd_config cfg = cfg_default();
	struct mbd_oracle *o = oracle_new();
	struct mbd_op add = mk_op(MBD_OP_ADD, 0, MB(1));
	struct mbd_op lim = mk_value(MBD_OP_SET_LIMIT, 0x80000);
	struct mbd_op al = mk_alloc(0x1000, 0x1000, 0, 1); /* NOLEAKTRACE */
	struct mbd_region m = { 0, MB(1), 0, NOMAXN };
	/* under current_limit 0x80000: 0x7f000 */
	struct mbd_region r = { 0x7f000, 0x1000, 0, NOMAXN };
	struct mbd_oracle_finding f;
	struct snap now, a;
	char buf[512];
	FILE *mf;

	mbd_oracle_reset(o, &cfg);
	snap_init(&now);
	snap_init(&a);
	set_type(&a.s.memory, a.mem, &m, 1, 128);
	ok_step(o, &now, &add, &a, 0);
	ok_step(o, &now, &lim, &a, 0);
	set_type(&a.s.reserved, a.rsv, &r, 1, 128);
	MBD_CHECK(step(o, &al, &now, &a, 0x7f000, &f) == MBD_CLASS_NONE);

	mf = tmpfile();
	MBD_CHECK(mf != NULL);
	if (mf) {
		size_t n;

		mbd_oracle_dump(o, MBD_TYPE_RESERVED, mf);
		rewind(mf);
		n = fread(buf, 1, sizeof(buf) - 1, mf);
		buf[n] = '\0';
		MBD_CHECK(strstr(buf, "[0x000000000007f000-0x000000000007ffff] flags 0x0 nid 64") != NULL);
		fclose(mf);
	}
	mbd_oracle_free(o);
}
