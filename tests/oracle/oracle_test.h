/* SPDX-License-Identifier: GPL-2.0 */
/* What the files of unit/test_oracle share: hand-built snapshots and ops, steps, the cases. */
#ifndef MBD_ORACLE_TEST_H
#define MBD_ORACLE_TEST_H

#include <stdlib.h>
#include <string.h>

#include "mbd_interval.h"
#include "mbd_oracle.h"
#include "mbd_test.h"

#define NOMAXN MBD_MAX_NUMNODES
#define KB(x) ((uint64_t)(x) << 10)
#define MB(x) ((uint64_t)(x) << 20)

/* -------------------------------------------------------- oracle harness */

/* The kernel whose contract new oracles judge by (mbd_oracle_set_kver()). */
extern uint32_t g_kver;

static inline struct mbd_oracle *oracle_new(void)
{
	struct mbd_oracle *o = mbd_oracle_new();

	if (o)
		mbd_oracle_set_kver(o, g_kver);
	return o;
}

#define NREG 32

struct snap {
	struct mbd_state s;
	struct mbd_region mem[NREG], rsv[NREG];
};

/* A type state holding regions r[0..n); total_size = sum of sizes. */
static inline void set_type(struct mbd_type_state *t, struct mbd_region *buf,
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
	t->regions_pa = 0xffff0000;    /* stand-in for the static array */
	for (size_t i = 0; i < n; i++)
		t->total_size += r[i].size;
}

static inline void snap_init(struct snap *sn)
{
	memset(sn, 0, sizeof(*sn));
	set_type(&sn->s.memory, sn->mem, NULL, 0, MBD_INIT_REGIONS);
	set_type(&sn->s.reserved, sn->rsv, NULL, 0, MBD_INIT_REGIONS);
}

static inline void snap_copy(struct snap *d, const struct snap *s)
{
	*d = *s;
	d->s.memory.regions = d->mem;
	d->s.reserved.regions = d->rsv;
}

static inline struct mbd_op mk_op(uint32_t kind, uint64_t base, uint64_t size)
{
	struct mbd_op op;

	memset(&op, 0, sizeof(op));
	op.kind = kind;
	op.base = base;
	op.size = size;
	return op;
}

static inline struct mbd_op mk_alloc(uint64_t size, uint64_t align, uint64_t start,
				     uint64_t end)
{
	struct mbd_op op = mk_op(MBD_OP_ALLOC_RANGE, 0, size);

	op.align = align;
	op.start = start;
	op.end = end;
	return op;
}

static inline struct mbd_op mk_nid_alloc(uint64_t size, uint64_t align, int nid)
{
	struct mbd_op op = mk_op(MBD_OP_ALLOC_TRY_NID, 0, size);

	op.align = align;
	op.nid = nid;
	return op;
}

static inline struct mbd_op mk_value(uint32_t kind, uint64_t v)
{
	struct mbd_op op = mk_op(kind, 0, 0);

	op.value = v;
	return op;
}

static inline enum mbd_class step(struct mbd_oracle *o, const struct mbd_op *op,
				  const struct snap *before, const struct snap *after,
				  int64_t ret, struct mbd_oracle_finding *f)
{
	struct mbd_result res;

	struct mbd_oracle *quiet = oracle_new(); /* g_kver: o's contract */
	struct mbd_oracle_finding qf;
	enum mbd_class c, q = MBD_CLASS__COUNT;

	memset(&res, 0, sizeof(res));
	res.ret = ret;
	/* the same step without text (as the runner asks below min_class):
	 * the same class and place, no text */
	MBD_CHECK(quiet != NULL);
	if (quiet && mbd_oracle_copy(quiet, o) == 0)
		q = mbd_oracle_step_text(quiet, op, &before->s, &after->s, &res,
					 &qf, MBD_CLASS_CRASH);
	c = mbd_oracle_step(o, op, &before->s, &after->s, &res, f);
	MBD_CHECK(q == c && qf.where == f->where && qf.detail[0] == '\0');
	MBD_CHECK(c == MBD_CLASS_NONE || f->detail[0] != '\0');
	mbd_oracle_free(quiet);
	return c;
}

/* Run op on a copy of the oracle so one setup serves several outcomes. The
 * oracle has no copy call: replay the setup instead. */
typedef void (*setup_fn)(struct mbd_oracle *o, struct snap *now);

static inline enum mbd_class try_op(const struct mbd_config *cfg, setup_fn setup,
				    const struct mbd_op *op, const struct snap *after,
				    int64_t ret, struct mbd_oracle_finding *f)
{
	struct mbd_oracle *o = oracle_new();
	struct snap now;
	enum mbd_class c;

	mbd_oracle_reset(o, cfg);
	snap_init(&now);
	if (setup)
		setup(o, &now);
	c = step(o, op, &now, after, ret, f);
	mbd_oracle_free(o);
	return c;
}

static inline struct mbd_config cfg_default(void)
{
	struct mbd_config c;

	mbd_config_default(&c);
	c.resize = true;
	return c;
}

/* Apply op and expect NONE, moving *now to after. */
static inline void ok_step(struct mbd_oracle *o, struct snap *now, const struct mbd_op *op,
			   const struct snap *after, int64_t ret)
{
	struct mbd_oracle_finding f;
	enum mbd_class c = step(o, op, now, after, ret, &f);

	if (c != MBD_CLASS_NONE)
		fprintf(stderr, "unexpected finding: %s %s\n", mbd_class_name(c), f.detail);
	MBD_CHECK(c == MBD_CLASS_NONE);
	snap_copy(now, after);
}

/* The cases of the other files, which main() (test_oracle.c) calls. */
/* oracle_cases_ranges.c: the range calls */
void test_add_and_coverage(void);
void test_invariants(void);
void test_remove_and_flags(void);
void test_array_move(void);
void test_second_doubling_frees_old(void);
void test_live_arrays(void);
void test_trim(void);
void test_enomem_when_full(void);
/* oracle_cases_alloc.c: allocations */
void test_alloc_top_down(void);
void test_alloc_bottom_up(void);
void test_alloc_bottom_up_past_end(void);
void test_alloc_size0_boundary(void);
void test_alloc_numa(void);
void test_alloc_weak_checks(void);
void test_alloc_double_room(void);
void test_alloc_slab(void);
void test_alloc_mirror_nomap(void);
void test_limit_and_dump(void);
/* oracle_cases_v7.c: v7.3's contract */
void test_v7_reserve_nid(void);
void test_v7_alloc_kern(void);
void test_v7_phys_free_after_slab(void);

#endif
