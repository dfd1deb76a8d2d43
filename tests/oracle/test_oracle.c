// SPDX-License-Identifier: GPL-2.0
/*
 * Unit tests for the interval sets (here) and the oracle (oracle_cases_*.c,
 * which share oracle_test.h). Snapshots are built by hand; every expected
 * address and range is worked out in the comment next to it from the
 * kernel's rules, not taken from the code. Most tests judge by the v6.12
 * contract (reservations on MAX_NUMNODES, no flags: the variant
 * mainline-6.12); the test_v7_* ones by v7.3's.
 */
#include <stdlib.h>
#include <string.h>

#include "mbd_interval.h"
#include "mbd_oracle.h"
#include "mbd_test.h"
#include "oracle_test.h"

/* the counts of every file of this test (mbd_test.h) */
int mbd_test_passed, mbd_test_failed;

/* The kernel whose contract new oracles judge by (mbd_oracle_set_kver()). */
uint32_t g_kver = MBD_KVER(6, 12);

/* ------------------------------------------------------------ intervals */

static void check_ival(const struct mbd_iset *s, size_t i, uint64_t start,
		       uint64_t end, uint32_t flags, int32_t nid)
{
	MBD_CHECK(i < s->n);
	if (i >= s->n)
		return;
	MBD_CHECK_EQ_U64(s->v[i].start, start);
	MBD_CHECK_EQ_U64(s->v[i].end, end);
	MBD_CHECK_EQ_U64(s->v[i].flags, flags);
	MBD_CHECK_EQ_U64((uint32_t)s->v[i].nid, (uint32_t)nid);
}

static void test_iset_union(void)
{
	struct mbd_iset s;

	mbd_iset_init(&s);
	MBD_CHECK(mbd_iset_add(&s, 0x1000, 0x2000, 0, 1) == 0);
	/* overlapping add: [0x1800,0x2000) keeps nid 1, new bytes get nid 2 */
	MBD_CHECK(mbd_iset_add(&s, 0x1800, 0x3000, 0, 2) == 0);
	MBD_CHECK_EQ_U64(s.n, 2);
	check_ival(&s, 0, 0x1000, 0x2000, 0, 1);
	check_ival(&s, 1, 0x2000, 0x3000, 0, 2);
	/* range covering everything: only the outer gaps are new */
	MBD_CHECK(mbd_iset_add(&s, 0x0, 0x4000, 4, 1) == 0);
	MBD_CHECK_EQ_U64(s.n, 4);
	check_ival(&s, 0, 0x0, 0x1000, 4, 1);
	check_ival(&s, 1, 0x1000, 0x2000, 0, 1);
	check_ival(&s, 3, 0x3000, 0x4000, 4, 1);
	MBD_CHECK_EQ_U64(mbd_iset_bytes(&s), 0x4000);
	mbd_iset_free(&s);
}

static void test_iset_coalesce(void)
{
	struct mbd_iset s;

	mbd_iset_init(&s);
	mbd_iset_add(&s, 0x1000, 0x2000, 0, NOMAXN);
	mbd_iset_add(&s, 0x3000, 0x4000, 0, NOMAXN);
	MBD_CHECK_EQ_U64(s.n, 2);
	/* filling the hole with equal attributes leaves one interval */
	mbd_iset_add(&s, 0x2000, 0x3000, 0, NOMAXN);
	MBD_CHECK_EQ_U64(s.n, 1);
	check_ival(&s, 0, 0x1000, 0x4000, 0, NOMAXN);
	/* touching but different flags: no merge */
	mbd_iset_add(&s, 0x4000, 0x5000, 1, NOMAXN);
	MBD_CHECK_EQ_U64(s.n, 2);
	/* push appends and coalesces at the top */
	mbd_iset_push(&s, 0x5000, 0x6000, 1, NOMAXN);
	MBD_CHECK_EQ_U64(s.n, 2);
	check_ival(&s, 1, 0x4000, 0x6000, 1, NOMAXN);
	mbd_iset_free(&s);
}

static void test_iset_sub_modify(void)
{
	struct mbd_iset s;

	mbd_iset_init(&s);
	mbd_iset_add(&s, 0x1000, 0x9000, 0, 3);
	MBD_CHECK(mbd_iset_sub(&s, 0x3000, 0x4000) == 0);
	MBD_CHECK_EQ_U64(s.n, 2);
	check_ival(&s, 0, 0x1000, 0x3000, 0, 3);
	check_ival(&s, 1, 0x4000, 0x9000, 0, 3);
	MBD_CHECK_EQ_U64(mbd_iset_holes(&s, 0x0, 0xa000), 3);
	MBD_CHECK_EQ_U64(mbd_iset_holes(&s, 0x1000, 0x3000), 0);
	MBD_CHECK_EQ_U64(mbd_iset_holes(&s, 0x2000, 0x5000), 1);
	MBD_CHECK(mbd_iset_overlaps(&s, 0x2fff, 0x3001));
	MBD_CHECK(!mbd_iset_overlaps(&s, 0x3000, 0x4000));

	/* set a flag across the hole: only covered bytes change */
	MBD_CHECK(mbd_iset_modify(&s, 0x2000, 0x5000, 0x4, 0, false, 0) == 0);
	MBD_CHECK_EQ_U64(s.n, 4);
	check_ival(&s, 0, 0x1000, 0x2000, 0, 3);
	check_ival(&s, 1, 0x2000, 0x3000, 4, 3);
	check_ival(&s, 2, 0x4000, 0x5000, 4, 3);
	check_ival(&s, 3, 0x5000, 0x9000, 0, 3);
	/* clearing it again coalesces back */
	mbd_iset_modify(&s, 0x0, 0x10000, 0, 0x4, false, 0);
	MBD_CHECK_EQ_U64(s.n, 2);
	/* nid change on a part */
	mbd_iset_modify(&s, 0x8000, 0x20000, 0, 0, true, 7);
	MBD_CHECK_EQ_U64(s.n, 3);
	check_ival(&s, 2, 0x8000, 0x9000, 0, 7);
	MBD_CHECK(mbd_iset_find(&s, 0x8fff) == &s.v[2]);
	MBD_CHECK(mbd_iset_find(&s, 0x3000) == NULL);
	/* subtract all */
	mbd_iset_sub(&s, 0, UINT64_MAX);
	MBD_CHECK_EQ_U64(s.n, 0);
	mbd_iset_free(&s);
}

static void test_run_streams(void)
{
	/* two touching equal regions form one run; the third differs by nid */
	struct mbd_region r[3] = {
		{ 0x1000, 0x1000, 0, 1 }, { 0x2000, 0x1000, 0, 1 }, { 0x3000, 0x1000, 0, 2 },
	};
	struct mbd_ival iv[2] = { { 0x1000, 0x3000, 0, 1 }, { 0x3000, 0x4000, 0, 2 } };
	struct mbd_run_src a, b;
	struct mbd_run_diff d;
	struct mbd_ival x;

	mbd_run_src_regions(&a, r, 3);
	MBD_CHECK(mbd_run_src_next(&a, &x));
	MBD_CHECK_EQ_U64(x.start, 0x1000);
	MBD_CHECK_EQ_U64(x.end, 0x3000);
	MBD_CHECK(mbd_run_src_next(&a, &x));
	MBD_CHECK_EQ_U64(x.nid, 2);
	MBD_CHECK(!mbd_run_src_next(&a, &x));

	mbd_run_src_regions(&a, r, 3);
	mbd_run_src_ivals(&b, iv, 2);
	MBD_CHECK(!mbd_runs_diff(&a, &b, &d));

	iv[1].nid = 3;  /* differ on [0x3000,0x4000) */
	mbd_run_src_regions(&a, r, 3);
	mbd_run_src_ivals(&b, iv, 2);
	MBD_CHECK(mbd_runs_diff(&a, &b, &d));
	MBD_CHECK_EQ_U64(d.start, 0x3000);
	MBD_CHECK_EQ_U64(d.end, 0x4000);
	MBD_CHECK(d.in_a && d.in_b);
	MBD_CHECK_EQ_U64(d.nid_a, 2);
	MBD_CHECK_EQ_U64(d.nid_b, 3);

	iv[1].nid = 2;
	iv[0].start = 0x1800;   /* b misses [0x1000,0x1800) */
	mbd_run_src_regions(&a, r, 3);
	mbd_run_src_ivals(&b, iv, 2);
	MBD_CHECK(mbd_runs_diff(&a, &b, &d));
	MBD_CHECK_EQ_U64(d.start, 0x1000);
	MBD_CHECK_EQ_U64(d.end, 0x1800);
	MBD_CHECK(d.in_a && !d.in_b);

	MBD_CHECK(mbd_regions_well_formed(r, 3));
	r[1].base = 0x1800;     /* overlaps region 0 */
	MBD_CHECK(!mbd_regions_well_formed(r, 3));
}

/*
 * mbd_runs_diff() against a unit-by-unit reading of both arrays (the
 * earlier entry owns a unit two entries cover, as the streams credit
 * overlaps): arrays of the same length, equal or one field apart, take
 * the element-wise shortcut; the others the run walk. 20000 seeded cases.
 */
#define UNIT 0x1000u
#define UNITS 40u /* 6 entries of at most 2 gap + 3 size units, + 1 */

struct unit_attr {
	bool in;
	uint32_t flags;
	int32_t nid;
};

static void units_of(const struct mbd_region *r, size_t n, struct unit_attr *u)
{
	memset(u, 0, UNITS * sizeof(*u));
	for (size_t i = 0; i < n; i++)
		for (uint64_t a = r[i].base; a < r[i].base + r[i].size; a += UNIT)
			if (!u[a / UNIT].in)
				u[a / UNIT] = (struct unit_attr){ true, r[i].flags, r[i].nid };
}

static uint64_t lcg(uint64_t *s)
{
	*s = *s * 6364136223846793005ULL + 1442695040888963407ULL;
	return *s >> 33;
}

static void test_runs_diff_random(void)
{
	uint64_t seed = 7;
	unsigned same_len = 0, differ = 0;

	for (unsigned t = 0; t < 20000; t++) {
		struct mbd_region r[6];
		struct mbd_ival iv[6];
		struct mbd_region as_r[6];
		struct unit_attr ua[UNITS], ub[UNITS];
		struct mbd_run_src a, b;
		struct mbd_run_diff d;
		size_t n = lcg(&seed) % 6, m;
		uint64_t at = 0;
		bool want = false, got;
		uint64_t first = 0;

		for (size_t i = 0; i < n; i++) {
			/* sorted bases, sometimes overlapping or empty */
			at += (lcg(&seed) % 3) * UNIT;
			r[i].base = i && at >= r[i - 1].base + UNIT &&
				    lcg(&seed) % 5 == 0 ? at - UNIT : at;
			r[i].size = (lcg(&seed) % 4) * UNIT;
			r[i].flags = (uint32_t)(lcg(&seed) % 2);
			r[i].nid = (int32_t)(lcg(&seed) % 2);
			at = r[i].base + r[i].size;
		}
		/* the model side: the same entries, then maybe one changed or
		   one dropped */
		m = n;
		for (size_t i = 0; i < n; i++)
			iv[i] = (struct mbd_ival){ r[i].base, r[i].base + r[i].size,
						   r[i].flags, r[i].nid };
		switch (n ? lcg(&seed) % 6 : 5) {
		case 0: iv[lcg(&seed) % n].flags ^= 1; break;
		case 1: iv[lcg(&seed) % n].nid ^= 1; break;
		case 2: iv[lcg(&seed) % n].end += UNIT; break;
		case 3: iv[lcg(&seed) % n].start += UNIT; break;
		case 4: m--; break;
		default: break;
		}
		for (size_t i = 0; i < m; i++)
			as_r[i] = (struct mbd_region){ iv[i].start,
				iv[i].end > iv[i].start ? iv[i].end - iv[i].start : 0,
				iv[i].flags, iv[i].nid };
		units_of(r, n, ua);
		units_of(as_r, m, ub);
		for (unsigned k = 0; k < UNITS && !want; k++)
			if (ua[k].in != ub[k].in || (ua[k].in &&
			    (ua[k].flags != ub[k].flags || ua[k].nid != ub[k].nid))) {
				want = true;
				first = (uint64_t)k * UNIT;
			}
		mbd_run_src_regions(&a, r, n);
		mbd_run_src_ivals(&b, iv, m);
		got = mbd_runs_diff(&a, &b, &d);
		MBD_CHECK(got == want);
		if (got && want)
			MBD_CHECK_EQ_U64(d.start, first);
		same_len += m == n;
		differ += want;
	}
	/* both paths and both answers were exercised */
	MBD_CHECK(same_len > 5000 && differ > 5000 && differ < 15000);
}


int main(void)
{
	test_iset_union();
	test_iset_coalesce();
	test_iset_sub_modify();
	test_run_streams();
	test_runs_diff_random();
	test_add_and_coverage();
	test_invariants();
	test_remove_and_flags();
	test_array_move();
	test_second_doubling_frees_old();
	test_live_arrays();
	test_trim();
	test_alloc_top_down();
	test_alloc_bottom_up();
	test_alloc_bottom_up_past_end();
	test_alloc_size0_boundary();
	test_alloc_numa();
	test_alloc_weak_checks();
	test_alloc_double_room();
	test_alloc_slab();
	test_alloc_mirror_nomap();
	test_enomem_when_full();
	test_limit_and_dump();
	test_v7_reserve_nid();
	test_v7_alloc_kern();
	test_v7_phys_free_after_slab();
	return mbd_test_done();
}
