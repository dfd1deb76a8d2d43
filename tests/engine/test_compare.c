// SPDX-License-Identifier: GPL-2.0
/* Unit tests for compare.c (every class and their precedence) and verdict.c. */
#include <string.h>

#include "mbd_compare.h"
#include "mbd_test.h"

#define NOMAXN MBD_MAX_NUMNODES
#define NREG 8

struct side {
	struct mbd_result res;
	struct mbd_state s;
	struct mbd_region mem[NREG], rsv[NREG];
};

static void set_type(struct mbd_type_state *t, struct mbd_region *buf,
		     const struct mbd_region *r, size_t n, uint64_t max)
{
	memset(t, 0, sizeof(*t));
	if (n)
		memcpy(buf, r, n * sizeof(*r));
	t->regions = buf;
	t->cap = NREG;
	t->cnt = t->n_copied = n;
	t->max = max;
	t->regions_static = true;
	for (size_t i = 0; i < n; i++)
		t->total_size += r[i].size;
}

/* memory [0x1000,0x3000) nid 0; reserved [0x1000,0x2000) */
static void base_side(struct side *x)
{
	struct mbd_region m = { 0x1000, 0x2000, 0, 0 };
	struct mbd_region r = { 0x1000, 0x1000, 0, NOMAXN };

	memset(x, 0, sizeof(*x));
	set_type(&x->s.memory, x->mem, &m, 1, 128);
	set_type(&x->s.reserved, x->rsv, &r, 1, 128);
}

/* Every comparison also without its text (mbd_compare_text(), as the
 * runner asks below min_class): the same class and place, no text. */
static enum mbd_class cmp(const struct side *a, const struct side *b, struct mbd_diff *d)
{
	struct mbd_diff quiet;
	enum mbd_class c = mbd_compare(&a->res, &a->s, &b->res, &b->s, d);
	enum mbd_class q = mbd_compare_text(&a->res, &a->s, &b->res, &b->s, &quiet,
					    MBD_CLASS_CRASH);

	MBD_CHECK(q == c && quiet.where == d->where && quiet.detail[0] == '\0');
	MBD_CHECK(c == MBD_CLASS_NONE || d->detail[0] != '\0');
	return c;
}

static void test_equal(void)
{
	struct side a, b;
	struct mbd_diff d;

	base_side(&a);
	base_side(&b);
	MBD_CHECK(cmp(&a, &b, &d) == MBD_CLASS_NONE);
	MBD_CHECK(d.cls == MBD_CLASS_NONE);
}

static void test_panic(void)
{
	struct side a, b;
	struct mbd_diff d;
	struct mbd_region other = { 0x8000, 0x1000, 0, 0 };

	base_side(&a);
	base_side(&b);
	/* one side panicked: panic wins even over a coverage difference */
	set_type(&b.s.memory, b.mem, &other, 1, 128);
	b.res.panicked = true;
	strcpy(b.res.panic_msg, "memblock: cannot resize reserved array");
	MBD_CHECK(cmp(&a, &b, &d) == MBD_CLASS_PANIC);
	MBD_CHECK(d.where == MBD_WHERE_CALL);
	MBD_CHECK_STR(d.detail, "panic in b only: \"memblock: cannot resize reserved array\"");

	/* both, same message: agreement, whatever the states */
	a.res.panicked = true;
	strcpy(a.res.panic_msg, b.res.panic_msg);
	MBD_CHECK(cmp(&a, &b, &d) == MBD_CLASS_NONE);

	/* both, different messages */
	strcpy(a.res.panic_msg, "BUG_ON(type->cnt >= type->max)");
	MBD_CHECK(cmp(&a, &b, &d) == MBD_CLASS_PANIC);
	MBD_CHECK(strstr(d.detail, "vs") != NULL);
}

static void test_coverage(void)
{
	struct side a, b;
	struct mbd_diff d;
	struct mbd_region shorter = { 0x1000, 0x1800, 0, 0 };
	struct mbd_region nid1 = { 0x1000, 0x2000, 0, 1 };
	struct mbd_region rsv2[2] = { { 0x1000, 0x1000, 0, NOMAXN }, { 0x5000, 0x1000, 0, NOMAXN } };

	/* memory coverage outranks a return difference and a reserved one */
	base_side(&a);
	base_side(&b);
	set_type(&b.s.memory, b.mem, &shorter, 1, 128);
	set_type(&b.s.reserved, b.rsv, rsv2, 2, 128);
	b.res.ret = -12;
	MBD_CHECK(cmp(&a, &b, &d) == MBD_CLASS_COVERAGE);
	MBD_CHECK(d.where == MBD_WHERE_MEMORY);
	MBD_CHECK_STR(d.detail, "memory: [0x2800-0x2fff] only in a (flags 0x0 nid 0)");
	MBD_CHECK(!mbd_same_coverage(&a.s.memory, &b.s.memory));

	/* reserved coverage next */
	base_side(&b);
	set_type(&b.s.reserved, b.rsv, rsv2, 2, 128);
	b.res.ret = -12;
	MBD_CHECK(cmp(&a, &b, &d) == MBD_CLASS_COVERAGE);
	MBD_CHECK(d.where == MBD_WHERE_RESERVED);
	MBD_CHECK_STR(d.detail, "reserved: [0x5000-0x5fff] only in b (flags 0x0 nid 64)");

	/* attributes count as coverage */
	base_side(&b);
	set_type(&b.s.memory, b.mem, &nid1, 1, 128);
	MBD_CHECK(cmp(&a, &b, &d) == MBD_CLASS_COVERAGE);
	MBD_CHECK_STR(d.detail, "memory: [0x1000-0x2fff] flags 0x0 nid 0 vs flags 0x0 nid 1");
}

static void test_same_coverage_split(void)
{
	struct side a, b;
	struct mbd_diff d;
	struct mbd_region split[2] = { { 0x1000, 0x1000, 0, 0 }, { 0x2000, 0x1000, 0, 0 } };
	struct mbd_region unsorted[2] = { { 0x2000, 0x1000, 0, 0 }, { 0x1000, 0x1000, 0, 0 } };
	struct mbd_region overlap[2] = { { 0x1000, 0x1800, 0, 0 }, { 0x2000, 0x1000, 0, 0 } };

	base_side(&a);
	base_side(&b);
	/* same bytes, split in two: not coverage, layout */
	set_type(&b.s.memory, b.mem, split, 2, 128);
	MBD_CHECK(mbd_same_coverage(&a.s.memory, &b.s.memory));
	MBD_CHECK(cmp(&a, &b, &d) == MBD_CLASS_LAYOUT);
	MBD_CHECK(d.where == MBD_WHERE_MEMORY);
	MBD_CHECK_STR(d.detail, "memory: cnt 1 vs 2");

	/* unsorted array with the same bytes is still the same coverage */
	set_type(&b.s.memory, b.mem, unsorted, 2, 128);
	MBD_CHECK(mbd_same_coverage(&a.s.memory, &b.s.memory));
	/* and overlapping regions covering the same bytes too */
	set_type(&b.s.memory, b.mem, overlap, 2, 128);
	MBD_CHECK(mbd_same_coverage(&a.s.memory, &b.s.memory));
	/* an unsorted array missing bytes is not */
	unsorted[0].size = 0x800;
	set_type(&b.s.memory, b.mem, unsorted, 2, 128);
	MBD_CHECK(!mbd_same_coverage(&a.s.memory, &b.s.memory));
}

static void test_return_over_layout(void)
{
	struct side a, b;
	struct mbd_diff d;
	struct mbd_region split[2] = { { 0x1000, 0x1000, 0, 0 }, { 0x2000, 0x1000, 0, 0 } };

	base_side(&a);
	base_side(&b);
	set_type(&b.s.memory, b.mem, split, 2, 128);
	b.res.ret = -12;
	MBD_CHECK(cmp(&a, &b, &d) == MBD_CLASS_RETURN);
	MBD_CHECK(d.where == MBD_WHERE_CALL);
	MBD_CHECK_STR(d.detail, "ret 0 vs -12");

	a.res.ret = 0x7f000000;
	b.res.ret = 0x7e000000;
	MBD_CHECK(cmp(&a, &b, &d) == MBD_CLASS_RETURN);
	MBD_CHECK_STR(d.detail, "ret 0x7f000000 vs 0x7e000000");
}

static void test_layout_details(void)
{
	struct side a, b;
	struct mbd_diff d;
	/* same coverage, split at a different place */
	struct mbd_region sa[2] = { { 0x1000, 0x1000, 0, 0 }, { 0x2000, 0x1000, 0, 0 } };
	struct mbd_region sb[2] = { { 0x1000, 0x1800, 0, 0 }, { 0x2800, 0x800, 0, 0 } };

	base_side(&a);
	base_side(&b);
	set_type(&a.s.memory, a.mem, sa, 2, 128);
	set_type(&b.s.memory, b.mem, sb, 2, 128);
	MBD_CHECK(cmp(&a, &b, &d) == MBD_CLASS_LAYOUT);
	MBD_CHECK_STR(d.detail, "memory: region 0 size 0x1000 vs 0x1800");

	/* total_size differs (e.g. trim accounting) with equal regions */
	base_side(&b);
	set_type(&b.s.memory, b.mem, sa, 2, 128);
	b.s.memory.total_size = 0x5000;
	MBD_CHECK(cmp(&a, &b, &d) == MBD_CLASS_LAYOUT);
	MBD_CHECK_STR(d.detail, "memory: total_size 0x2000 vs 0x5000");

	/* reserved layout, region base */
	{
		struct mbd_region ra[2] = { { 0x1000, 0x800, 0, NOMAXN }, { 0x1800, 0x800, 0, NOMAXN } };
		struct mbd_region rb[2] = { { 0x1000, 0xc00, 0, NOMAXN }, { 0x1c00, 0x400, 0, NOMAXN } };

		base_side(&a);
		base_side(&b);
		set_type(&a.s.reserved, a.rsv, ra, 2, 128);
		set_type(&b.s.reserved, b.rsv, rb, 2, 128);
		MBD_CHECK(cmp(&a, &b, &d) == MBD_CLASS_LAYOUT);
		MBD_CHECK(d.where == MBD_WHERE_RESERVED);
		MBD_CHECK_STR(d.detail, "reserved: region 0 size 0x800 vs 0xc00");
		rb[0].size = 0x800;
		rb[1].base = 0x1800;
		rb[1].size = 0x800;
		rb[1].flags = 0;
		set_type(&b.s.reserved, b.rsv, rb, 2, 128);
		MBD_CHECK(cmp(&a, &b, &d) == MBD_CLASS_NONE);
	}
	/* layout before capacity */
	base_side(&a);
	base_side(&b);
	set_type(&b.s.memory, b.mem, sa, 2, 256);
	MBD_CHECK(cmp(&a, &b, &d) == MBD_CLASS_LAYOUT);
}

static void test_capacity_and_warning(void)
{
	struct side a, b;
	struct mbd_diff d;

	base_side(&a);
	base_side(&b);
	b.s.reserved.max = 256;
	b.s.warnings = 1;
	MBD_CHECK(cmp(&a, &b, &d) == MBD_CLASS_CAPACITY);
	MBD_CHECK(d.where == MBD_WHERE_RESERVED);
	MBD_CHECK_STR(d.detail, "reserved: max 128 vs 256");

	b.s.reserved.max = 128;
	MBD_CHECK(cmp(&a, &b, &d) == MBD_CLASS_WARNING);
	MBD_CHECK(d.where == MBD_WHERE_CALL);
	MBD_CHECK_STR(d.detail, "warnings 0 vs 1");
}

/* ---------------------------------------------------------------- verdict */

static void test_names(void)
{
	static const char *const names[] = { "none", "warning", "capacity", "layout",
		"return", "invariant", "coverage", "panic", "crash" };

	for (int c = 0; c < MBD_CLASS__COUNT; c++) {
		MBD_CHECK_STR(mbd_class_name((enum mbd_class)c), names[c]);
		MBD_CHECK(mbd_class_lookup(names[c]) == (enum mbd_class)c);
	}
	MBD_CHECK(mbd_class_lookup("bogus") == MBD_CLASS_NONE);
	MBD_CHECK_STR(mbd_where_name(MBD_WHERE_MEMORY), "memory");
	MBD_CHECK_STR(mbd_where_name(MBD_WHERE_RESERVED), "reserved");
	MBD_CHECK_STR(mbd_where_name(MBD_WHERE_CALL), "call");
}

static void test_keys(void)
{
	struct mbd_verdict v;
	char buf[200];

	memset(&v, 0, sizeof(v));
	strcpy(v.signature, "mbdiff: divergence reference~zhou-2025 reserved/coverage at op 17 memblock_reserve");
	mbd_verdict_key(&v, buf, sizeof(buf));
	MBD_CHECK_STR(buf, "reference~zhou-2025 reserved/coverage memblock_reserve");

	strcpy(v.signature, "mbdiff: oracle zhou-2025 reserved/invariant at op 3 memblock_add");
	mbd_verdict_key(&v, buf, sizeof(buf));
	MBD_CHECK_STR(buf, "oracle zhou-2025 reserved/invariant memblock_add");

	/* different op index, same key */
	{
		char other[200];

		strcpy(v.signature, "mbdiff: oracle zhou-2025 reserved/invariant at op 12345 memblock_add");
		mbd_verdict_key(&v, other, sizeof(other));
		MBD_CHECK_STR(other, buf);
	}
	/* truncation stays terminated */
	strcpy(v.signature, "mbdiff: divergence a~b memory/layout at op 1 memblock_add");
	mbd_verdict_key(&v, buf, 8);
	MBD_CHECK_STR(buf, "a~b mem");
	/* no " at op": text kept minus the prefix */
	strcpy(v.signature, "mbdiff: crash a~b");
	mbd_verdict_key(&v, buf, sizeof(buf));
	MBD_CHECK_STR(buf, "crash a~b");
}

int main(void)
{
	test_equal();
	test_panic();
	test_coverage();
	test_same_coverage_split();
	test_return_over_layout();
	test_layout_details();
	test_capacity_and_warning();
	test_names();
	test_keys();
	return mbd_test_done();
}
