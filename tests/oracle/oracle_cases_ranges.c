// SPDX-License-Identifier: GPL-2.0
/* unit/test_oracle's range calls: add, invariants, flags, array moves, trim, -ENOMEM. */
#include "oracle_test.h"

/* ------------------------------------------------------------ oracle: add */

void test_add_and_coverage(void)
{
	struct mbd_config cfg = cfg_default();
	struct mbd_op op = mk_op(MBD_OP_ADD, 0x1000, 0x1000);
	struct mbd_region good = { 0x1000, 0x1000, 0, NOMAXN };
	struct mbd_region shortr = { 0x1000, 0x800, 0, NOMAXN };
	struct mbd_region badnid = { 0x1000, 0x1000, 0, 0 };
	struct mbd_oracle_finding f;
	struct snap a;

	snap_init(&a);
	set_type(&a.s.memory, a.mem, &good, 1, 128);
	MBD_CHECK(try_op(&cfg, NULL, &op, &a, 0, &f) == MBD_CLASS_NONE);

	/* half the range missing: coverage beats the total_size invariant */
	set_type(&a.s.memory, a.mem, &shortr, 1, 128);
	MBD_CHECK(try_op(&cfg, NULL, &op, &a, 0, &f) == MBD_CLASS_COVERAGE);
	MBD_CHECK(f.where == MBD_WHERE_MEMORY);
	MBD_CHECK_STR(f.detail, "memory: [0x1800-0x1fff] missing (model: flags 0x0 nid 64)");

	/* memblock_add() stores MAX_NUMNODES, not node 0 */
	set_type(&a.s.memory, a.mem, &badnid, 1, 128);
	MBD_CHECK(try_op(&cfg, NULL, &op, &a, 0, &f) == MBD_CLASS_COVERAGE);
	MBD_CHECK(strstr(f.detail, "nid 0 (model: flags 0x0 nid 64)") != NULL);

	/* -ENOMEM adds nothing; with an empty array it was impossible */
	snap_init(&a);
	MBD_CHECK(try_op(&cfg, NULL, &op, &a, -12, &f) == MBD_CLASS_RETURN);
	MBD_CHECK(f.where == MBD_WHERE_CALL);
	/* garbage status */
	set_type(&a.s.memory, a.mem, &good, 1, 128);
	MBD_CHECK(try_op(&cfg, NULL, &op, &a, 3, &f) >= MBD_CLASS_RETURN);
}

static void setup_two_mem(struct mbd_oracle *o, struct snap *now)
{
	struct mbd_op op1 = mk_op(MBD_OP_ADD, 0x1000, 0x1000);
	struct mbd_op op2 = mk_op(MBD_OP_ADD, 0x4000, 0x1000);
	struct mbd_region r[2] = { { 0x1000, 0x1000, 0, NOMAXN }, { 0x4000, 0x1000, 0, NOMAXN } };
	struct snap a;

	snap_init(&a);
	set_type(&a.s.memory, a.mem, r, 1, 128);
	ok_step(o, now, &op1, &a, 0);
	set_type(&a.s.memory, a.mem, r, 2, 128);
	ok_step(o, now, &op2, &a, 0);
}

void test_invariants(void)
{
	struct mbd_config cfg = cfg_default();
	struct mbd_op noop = mk_value(MBD_OP_SET_BOTTOM_UP, 0);
	struct mbd_region sorted[2] = { { 0x1000, 0x1000, 0, NOMAXN }, { 0x4000, 0x1000, 0, NOMAXN } };
	struct mbd_region swapped[2] = { { 0x4000, 0x1000, 0, NOMAXN }, { 0x1000, 0x1000, 0, NOMAXN } };
	struct mbd_region empty[3] = {
		{ 0x1000, 0x1000, 0, NOMAXN }, { 0x3000, 0, 0, NOMAXN }, { 0x4000, 0x1000, 0, NOMAXN },
	};
	struct mbd_oracle_finding f;
	struct snap a;

	snap_init(&a);
	set_type(&a.s.memory, a.mem, sorted, 2, 128);
	MBD_CHECK(try_op(&cfg, setup_two_mem, &noop, &a, 0, &f) == MBD_CLASS_NONE);

	set_type(&a.s.memory, a.mem, swapped, 2, 128);
	MBD_CHECK(try_op(&cfg, setup_two_mem, &noop, &a, 0, &f) == MBD_CLASS_INVARIANT);
	MBD_CHECK(strstr(f.detail, "region 1 base 0x1000 below end 0x5000") != NULL);

	set_type(&a.s.memory, a.mem, sorted, 2, 128);
	a.s.memory.total_size = 0x3000;
	MBD_CHECK(try_op(&cfg, setup_two_mem, &noop, &a, 0, &f) == MBD_CLASS_INVARIANT);
	MBD_CHECK_STR(f.detail, "memory: total_size 0x3000 expected 0x2000");

	set_type(&a.s.memory, a.mem, sorted, 2, 1);
	MBD_CHECK(try_op(&cfg, setup_two_mem, &noop, &a, 0, &f) == MBD_CLASS_INVARIANT);
	MBD_CHECK(strstr(f.detail, "cnt 2 > max 1") != NULL);

	set_type(&a.s.memory, a.mem, empty, 3, 128);
	MBD_CHECK(try_op(&cfg, setup_two_mem, &noop, &a, 0, &f) == MBD_CLASS_INVARIANT);
	MBD_CHECK(strstr(f.detail, "region 1 (base 0x3000) is empty") != NULL);

	set_type(&a.s.memory, a.mem, sorted, 2, 128);
	a.s.memory.n_copied = 1;
	MBD_CHECK(try_op(&cfg, setup_two_mem, &noop, &a, 0, &f) == MBD_CLASS_INVARIANT);
}

void test_remove_and_flags(void)
{
	struct mbd_config cfg = cfg_default();
	struct mbd_oracle *o = oracle_new();
	struct mbd_op add = mk_op(MBD_OP_ADD_NODE, 0x10000, 0x10000);
	struct mbd_op rm = mk_op(MBD_OP_REMOVE, 0x14000, 0x1000);
	struct mbd_op hot = mk_op(MBD_OP_MARK_HOTPLUG, 0x18000, 0x20000);
	struct mbd_op node = mk_op(MBD_OP_SET_NODE, 0x10000, 0x2000);
	struct mbd_region r1 = { 0x10000, 0x10000, 0, 2 };
	struct mbd_region r2[2] = { { 0x10000, 0x4000, 0, 2 }, { 0x15000, 0xb000, 0, 2 } };
	struct mbd_region r3[3] = {
		{ 0x10000, 0x4000, 0, 2 }, { 0x15000, 0x3000, 0, 2 }, { 0x18000, 0x8000, 1, 2 },
	};
	struct mbd_region r4[4] = {
		{ 0x10000, 0x2000, 0, 5 }, { 0x12000, 0x2000, 0, 2 },
		{ 0x15000, 0x3000, 0, 2 }, { 0x18000, 0x8000, 1, 2 },
	};
	struct mbd_oracle_finding f;
	struct snap now, a;

	add.nid = 2;
	node.nid = 5;
	mbd_oracle_reset(o, &cfg);
	snap_init(&now);
	snap_init(&a);
	set_type(&a.s.memory, a.mem, &r1, 1, 128);
	ok_step(o, &now, &add, &a, 0);
	set_type(&a.s.memory, a.mem, r2, 2, 128);
	ok_step(o, &now, &rm, &a, 0);
	/* mark hotplug beyond the end: only covered bytes get the flag */
	set_type(&a.s.memory, a.mem, r3, 3, 128);
	ok_step(o, &now, &hot, &a, 0);
	set_type(&a.s.memory, a.mem, r4, 4, 128);
	ok_step(o, &now, &node, &a, 0);

	/* clear hotplug but the variant leaves it set */
	{
		struct mbd_op clr = mk_op(MBD_OP_CLEAR_HOTPLUG, 0x18000, 0x1000);

		MBD_CHECK(step(o, &clr, &now, &now, 0, &f) == MBD_CLASS_COVERAGE);
		MBD_CHECK_STR(f.detail, "memory: [0x18000-0x18fff] flags 0x1 nid 2"
			      " (model: flags 0x0 nid 2)");
	}
	mbd_oracle_free(o);
}

/* ---------------------------------------------------------- array moves */

static void setup_rsv_two(struct mbd_oracle *o, struct snap *now)
{
	struct mbd_op r1 = mk_op(MBD_OP_RESERVE, 0x10000, 0x1000);
	struct mbd_op r2 = mk_op(MBD_OP_RESERVE, 0x20000, 0x1000);
	struct mbd_region r[2] = { { 0x10000, 0x1000, 0, NOMAXN }, { 0x20000, 0x1000, 0, NOMAXN } };
	struct snap a;

	snap_init(&a);
	set_type(&a.s.reserved, a.rsv, r, 1, 2);
	now->s.reserved.max = 2;
	ok_step(o, now, &r1, &a, 0);
	set_type(&a.s.reserved, a.rsv, r, 2, 2);
	ok_step(o, now, &r2, &a, 0);
}

void test_array_move(void)
{
	struct mbd_config cfg = cfg_default();
	struct mbd_op op = mk_op(MBD_OP_RESERVE, 0x30000, 0x1000);
	/* the new array (max 4: PAGE_ALIGN(96) = 0x1000) lands at 0x100000 */
	struct mbd_region with[4] = {
		{ 0x10000, 0x1000, 0, NOMAXN }, { 0x20000, 0x1000, 0, NOMAXN },
		{ 0x30000, 0x1000, 0, NOMAXN }, { 0x100000, 0x1000, 0, NOMAXN },
	};
	struct mbd_oracle_finding f;
	struct snap a;

	snap_init(&a);
	set_type(&a.s.reserved, a.rsv, with, 4, 4);
	a.s.reserved.regions_static = false;
	a.s.reserved.regions_pa = 0x100000;
	MBD_CHECK(try_op(&cfg, setup_rsv_two, &op, &a, 0, &f) == MBD_CLASS_NONE);

	/* moved but the new array is not reserved */
	set_type(&a.s.reserved, a.rsv, with, 3, 4);
	a.s.reserved.regions_static = false;
	a.s.reserved.regions_pa = 0x100000;
	MBD_CHECK(try_op(&cfg, setup_rsv_two, &op, &a, 0, &f) == MBD_CLASS_COVERAGE);
	MBD_CHECK_STR(f.detail, "reserved: [0x100000-0x100fff] missing (model: flags 0x0 nid 64)");

	/* kmalloc'ed new array: nothing to reserve */
	a.s.reserved.regions_slab = true;
	MBD_CHECK(try_op(&cfg, setup_rsv_two, &op, &a, 0, &f) == MBD_CLASS_NONE);
}

void test_second_doubling_frees_old(void)
{
	struct mbd_config cfg = cfg_default();
	struct mbd_oracle *o = oracle_new();
	struct mbd_op op = mk_op(MBD_OP_RESERVE, 0x30000, 0x1000);
	struct mbd_op op2 = mk_op(MBD_OP_RESERVE, 0x40000, 0x1000);
	struct mbd_region r4[4] = {
		{ 0x10000, 0x1000, 0, NOMAXN }, { 0x20000, 0x1000, 0, NOMAXN },
		{ 0x30000, 0x1000, 0, NOMAXN }, { 0x100000, 0x1000, 0, NOMAXN },
	};
	/* max 4 -> 8: old [0x100000,+0x1000) freed, new PAGE_ALIGN(192) at 0x200000 */
	struct mbd_region r5[5] = {
		{ 0x10000, 0x1000, 0, NOMAXN }, { 0x20000, 0x1000, 0, NOMAXN },
		{ 0x30000, 0x1000, 0, NOMAXN }, { 0x40000, 0x1000, 0, NOMAXN },
		{ 0x200000, 0x1000, 0, NOMAXN },
	};
	struct mbd_oracle_finding f;
	struct snap now, a;

	mbd_oracle_reset(o, &cfg);
	snap_init(&now);
	setup_rsv_two(o, &now);
	snap_init(&a);
	set_type(&a.s.reserved, a.rsv, r4, 4, 4);
	a.s.reserved.regions_static = false;
	a.s.reserved.regions_pa = 0x100000;
	ok_step(o, &now, &op, &a, 0);
	/* before: cnt 4 == max 4, so the next reserve doubles */
	set_type(&a.s.reserved, a.rsv, r5, 5, 8);
	a.s.reserved.regions_static = false;
	a.s.reserved.regions_pa = 0x200000;
	MBD_CHECK(step(o, &op2, &now, &a, 0, &f) == MBD_CLASS_NONE);
	mbd_oracle_free(o);

	/* the same, but the variant kept the old array reserved */
	o = oracle_new();
	mbd_oracle_reset(o, &cfg);
	snap_init(&now);
	setup_rsv_two(o, &now);
	set_type(&a.s.reserved, a.rsv, r4, 4, 4);
	a.s.reserved.regions_static = false;
	a.s.reserved.regions_pa = 0x100000;
	ok_step(o, &now, &op, &a, 0);
	{
		struct mbd_region r6[6] = {
			{ 0x10000, 0x1000, 0, NOMAXN }, { 0x20000, 0x1000, 0, NOMAXN },
			{ 0x30000, 0x1000, 0, NOMAXN }, { 0x40000, 0x1000, 0, NOMAXN },
			{ 0x100000, 0x1000, 0, NOMAXN }, { 0x200000, 0x1000, 0, NOMAXN },
		};

		set_type(&a.s.reserved, a.rsv, r6, 6, 8);
		a.s.reserved.regions_static = false;
		a.s.reserved.regions_pa = 0x200000;
		MBD_CHECK(step(o, &op2, &now, &a, 0, &f) == MBD_CLASS_COVERAGE);
		MBD_CHECK(strstr(f.detail, "[0x100000-0x100fff] extra") != NULL);
	}
	mbd_oracle_free(o);
}

/* a memblock-allocated array must stay reserved and not overlap the other */
void test_live_arrays(void)
{
	struct mbd_config cfg = cfg_default();
	struct mbd_oracle *o = oracle_new();
	struct mbd_op op = mk_op(MBD_OP_RESERVE, 0x30000, 0x1000);
	struct mbd_op fr = mk_op(MBD_OP_PHYS_FREE, 0x100000, 0x1000);
	struct mbd_region r4[4] = {
		{ 0x10000, 0x1000, 0, NOMAXN }, { 0x20000, 0x1000, 0, NOMAXN },
		{ 0x30000, 0x1000, 0, NOMAXN }, { 0x100000, 0x1000, 0, NOMAXN },
	};
	struct mbd_oracle_finding f;
	struct snap now, a;

	mbd_oracle_reset(o, &cfg);
	snap_init(&now);
	setup_rsv_two(o, &now);
	snap_init(&a);
	set_type(&a.s.reserved, a.rsv, r4, 4, 4);
	a.s.reserved.regions_static = false;
	a.s.reserved.regions_pa = 0x100000;
	ok_step(o, &now, &op, &a, 0);

	/* freeing the live reserved array: same coverage, broken invariant */
	set_type(&a.s.reserved, a.rsv, r4, 3, 4);
	a.s.reserved.regions_static = false;
	a.s.reserved.regions_pa = 0x100000;
	MBD_CHECK(step(o, &fr, &now, &a, 0, &f) == MBD_CLASS_INVARIANT);
	MBD_CHECK(f.where == MBD_WHERE_RESERVED);
	MBD_CHECK_STR(f.detail, "reserved array [0x100000-0x100fff] is not reserved");
	mbd_oracle_free(o);

	/* both arrays on the same page (memory moved onto reserved's) */
	o = oracle_new();
	mbd_oracle_reset(o, &cfg);
	snap_init(&now);
	setup_rsv_two(o, &now);
	set_type(&a.s.reserved, a.rsv, r4, 4, 4);
	a.s.reserved.regions_static = false;
	a.s.reserved.regions_pa = 0x100000;
	ok_step(o, &now, &op, &a, 0);
	{
		struct mbd_op noop = mk_value(MBD_OP_SET_BOTTOM_UP, 0);

		snap_copy(&a, &now);
		/* memory "moved" to 0x100000 with max 256 (PAGE_ALIGN(6144) =
		 * 0x2000), reserved as such: the bytes agree with the model,
		 * but the two arrays share [0x100000, 0x101000) */
		a.s.memory.regions_static = false;
		a.s.memory.regions_pa = 0x100000;
		a.s.memory.max = 256;
		a.rsv[3].size = 0x2000;
		a.s.reserved.total_size += 0x1000;
		MBD_CHECK(step(o, &noop, &now, &a, 0, &f) == MBD_CLASS_INVARIANT);
		MBD_CHECK_STR(f.detail, "memory array [0x100000-0x101fff] overlaps"
			      " reserved array [0x100000-0x100fff]");
	}
	mbd_oracle_free(o);
}

/* ------------------------------------------------------------------ trim */

static void setup_trim(struct mbd_oracle *o, struct snap *now)
{
	struct mbd_op a1 = mk_op(MBD_OP_ADD, 0x1100, 0x3f00);
	struct mbd_op a2 = mk_op(MBD_OP_ADD, 0x8000, 0x800);
	struct mbd_region r[2] = { { 0x1100, 0x3f00, 0, NOMAXN }, { 0x8000, 0x800, 0, NOMAXN } };
	struct snap a;

	snap_init(&a);
	set_type(&a.s.memory, a.mem, r, 1, 128);
	ok_step(o, now, &a1, &a, 0);
	set_type(&a.s.memory, a.mem, r, 2, 128);
	ok_step(o, now, &a2, &a, 0);
}

void test_trim(void)
{
	struct mbd_config cfg = cfg_default();
	struct mbd_op trim = mk_value(MBD_OP_TRIM, 0x1000);
	/* [0x1100,0x5000) -> [0x2000,0x5000) shrinks in place (total unchanged);
	 * [0x8000,0x8800) -> start 0x8000 == end 0x8000: removed (-0x800).
	 * total = 0x3f00 + 0x800 - 0x800 = 0x3f00, though the bytes are 0x3000. */
	struct mbd_region r = { 0x2000, 0x3000, 0, NOMAXN };
	struct mbd_oracle_finding f;
	struct snap a;

	snap_init(&a);
	set_type(&a.s.memory, a.mem, &r, 1, 128);
	a.s.memory.total_size = 0x3f00;
	MBD_CHECK(try_op(&cfg, setup_trim, &trim, &a, 0, &f) == MBD_CLASS_NONE);

	a.s.memory.total_size = 0x3000;     /* "fixed" accounting is a deviation */
	MBD_CHECK(try_op(&cfg, setup_trim, &trim, &a, 0, &f) == MBD_CLASS_INVARIANT);
	MBD_CHECK_STR(f.detail, "memory: total_size 0x3000 expected 0x3f00");

	/* after the quirk, emptying memory leaves total_size 0x3f00 - 0x3000 =
	 * 0xf00 behind; the next add to the empty type stores its own size */
	{
		struct mbd_oracle *o = oracle_new();
		struct mbd_op rm = mk_op(MBD_OP_REMOVE, 0, 0x10000);
		struct mbd_op add = mk_op(MBD_OP_ADD, 0x1000, 0x1000);
		struct mbd_region r2 = { 0x1000, 0x1000, 0, NOMAXN };
		struct snap now;

		mbd_oracle_reset(o, &cfg);
		snap_init(&now);
		setup_trim(o, &now);
		set_type(&a.s.memory, a.mem, &r, 1, 128);
		a.s.memory.total_size = 0x3f00;
		ok_step(o, &now, &trim, &a, 0);
		set_type(&a.s.memory, a.mem, NULL, 0, 128);
		a.s.memory.total_size = 0xf00;
		ok_step(o, &now, &rm, &a, 0);
		set_type(&a.s.memory, a.mem, &r2, 1, 128);
		ok_step(o, &now, &add, &a, 0);
		mbd_oracle_free(o);
	}

	/* align 0: round_up and round_down give 0, every region goes */
	snap_init(&a);
	trim.value = 0;
	a.s.memory.total_size = 0;
	MBD_CHECK(try_op(&cfg, setup_trim, &trim, &a, 0, &f) == MBD_CLASS_NONE);
}

void test_enomem_when_full(void)
{
	struct mbd_config cfg = cfg_default();
	struct mbd_oracle *o = oracle_new();
	struct mbd_op a1 = mk_op(MBD_OP_ADD, 0x1000, 0x1000);
	struct mbd_op a2 = mk_op(MBD_OP_ADD, 0x3000, 0x1000);
	struct mbd_op a3 = mk_op(MBD_OP_ADD, 0x1800, 0x400);
	struct mbd_region r = { 0x1000, 0x1000, 0, NOMAXN };
	struct mbd_oracle_finding f;
	struct snap now, a;

	cfg.memory_max = 1;
	mbd_oracle_reset(o, &cfg);
	snap_init(&now);
	now.s.memory.max = 1;
	snap_init(&a);
	set_type(&a.s.memory, a.mem, &r, 1, 1);
	ok_step(o, &now, &a1, &a, 0);
	/* full array, a new piece: -ENOMEM is allowed and adds nothing */
	MBD_CHECK(step(o, &a2, &now, &a, -12, &f) == MBD_CLASS_NONE);
	/* fully covered range needs no new slot: -ENOMEM is wrong */
	MBD_CHECK(step(o, &a3, &now, &a, -12, &f) == MBD_CLASS_RETURN);
	MBD_CHECK(strstr(f.detail, "had room") != NULL);
	mbd_oracle_free(o);
}
