// SPDX-License-Identifier: GPL-2.0
/* The minimizer on long random traces with bugs the fake variants plant. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fake_variants.h"
/* Unless the build links fake_variants.c into this test, pull it in here. */
#ifndef MBD_FAKE_VARIANTS_LINKED
#include "fake_variants.c"
#endif
#include "mbd_minimize.h"
#include "mbd_runner.h"
#include "mbd_test.h"

static void push(struct mbd_trace *t, uint32_t kind, uint64_t base, uint64_t size)
{
	struct mbd_op op;

	memset(&op, 0, sizeof(op));
	op.kind = kind;
	op.base = base;
	op.size = size;
	if (mbd_trace_push(t, &op, (uint32_t)t->n_ops + 1) != 0)
		abort();
}

static uint64_t rnd_state = 0x2545f4914f6cdd1dull;

static uint64_t rnd(void)
{
	rnd_state ^= rnd_state << 13;
	rnd_state ^= rnd_state >> 7;
	rnd_state ^= rnd_state << 17;
	return rnd_state;
}

/*
 * Random ops on a small page grid, avoiding the fakes' triggers: a free or
 * remove right after a reserve at the same base, and the magic add sizes
 * (sizes here are even page counts, the magic ones odd).
 */
static void random_ops(struct mbd_trace *t, size_t n)
{
	static const uint32_t kinds[] = { MBD_OP_ADD, MBD_OP_RESERVE,
					  MBD_OP_REMOVE, MBD_OP_PHYS_FREE };

	for (size_t i = 0; i < n; i++) {
		uint32_t k = kinds[rnd() % 4];
		uint64_t base = 0x100000 + (rnd() % 64) * MBD_PAGE_SIZE * 3;
		uint64_t size = (1 + rnd() % 8) * 2 * MBD_PAGE_SIZE;

		if ((k == MBD_OP_PHYS_FREE || k == MBD_OP_REMOVE) && t->n_ops &&
		    t->ops[t->n_ops - 1].kind == MBD_OP_RESERVE &&
		    t->ops[t->n_ops - 1].base == base)
			base += MBD_PAGE_SIZE;
		push(t, k, base, size);
	}
}

/* 300 random ops, then kind_a/kind_b at one base, then 100 more. */
static void planted(struct mbd_trace *t, uint32_t kind_a, uint32_t kind_b)
{
	mbd_trace_init(t);
	t->cfg.memory_max = 4;
	t->cfg.reserved_max = 8;
	t->cfg.bottom_up = true;
	t->cfg.resize = true;
	random_ops(t, 300);
	push(t, kind_a, 0x1234000, 0x23000);
	push(t, kind_b, 0x1234000, 0x5000);
	random_ops(t, 100);
}

static struct mbd_runner *runner2(const struct mbd_variant *a,
				  const struct mbd_variant *b)
{
	const struct mbd_variant *vs[2] = { a, b };
	struct mbd_runner_opts o;

	mbd_runner_opts_default(&o);
	o.oracle = false;
	return mbd_runner_new(vs, 2, &o);
}

/* Key of t on r, "" when it does not diverge. */
static void key_of(struct mbd_runner *r, const struct mbd_trace *t, char *k,
		   size_t n, struct mbd_verdict *v)
{
	k[0] = '\0';
	if (mbd_runner_run(r, t, v) == 1)
		mbd_verdict_key(v, k, n);
}

static bool same_trace(const struct mbd_trace *a, const struct mbd_trace *b)
{
	return a->n_ops == b->n_ops &&
	       memcmp(a->ops, b->ops, a->n_ops * sizeof(*a->ops)) == 0 &&
	       a->cfg.memory_max == b->cfg.memory_max &&
	       a->cfg.reserved_max == b->cfg.reserved_max &&
	       a->cfg.resize == b->cfg.resize && a->cfg.slab == b->cfg.slab &&
	       a->cfg.bottom_up == b->cfg.bottom_up &&
	       a->cfg.limit == b->cfg.limit;
}

static void test_pair(void)
{
	struct mbd_runner *r = runner2(&mbd_fake_good, &mbd_fake_pair_bug);
	struct mbd_minimize_opts o;
	struct mbd_trace in, out, out2, out3;
	struct mbd_verdict v;
	char key[256], key2[256];
	long runs, runs2;

	planted(&in, MBD_OP_RESERVE, MBD_OP_PHYS_FREE);
	key_of(r, &in, key, sizeof(key), &v);
	MBD_CHECK(key[0] != '\0');
	MBD_CHECK_EQ_U64(v.op_index, 301);

	mbd_minimize_opts_default(&o);
	mbd_trace_init(&out);
	runs = mbd_minimize(r, &in, key, &o, &out);
	MBD_CHECK(runs > 0);
	MBD_CHECK(runs <= (long)o.max_runs);
	MBD_CHECK(out.n_ops >= 2 && out.n_ops <= 3);
	key_of(r, &out, key2, sizeof(key2), &v);
	MBD_CHECK_STR(key2, key);
	MBD_CHECK_EQ_U64(v.op_index + 1, out.n_ops); /* ends at the divergence */
	if (out.n_ops >= 2) {
		const struct mbd_op *a = &out.ops[out.n_ops - 2];
		const struct mbd_op *b = &out.ops[out.n_ops - 1];

		MBD_CHECK_EQ_U64(a->kind, MBD_OP_RESERVE);
		MBD_CHECK_EQ_U64(b->kind, MBD_OP_PHYS_FREE);
		MBD_CHECK_EQ_U64(a->base, b->base);
		/* operands shrunk to the simplest values that still work */
		MBD_CHECK_EQ_U64(a->base, 0);
		MBD_CHECK_EQ_U64(a->size, MBD_PAGE_SIZE);
		MBD_CHECK_EQ_U64(b->size, MBD_PAGE_SIZE);
	}
	/* the config did not matter, so it went back to the boot default */
	MBD_CHECK_EQ_U64(out.cfg.memory_max, MBD_INIT_REGIONS);
	MBD_CHECK_EQ_U64(out.cfg.reserved_max, MBD_INIT_REGIONS);
	MBD_CHECK(!out.cfg.bottom_up && !out.cfg.resize);

	/* deterministic, and the same in a child process per candidate */
	mbd_trace_init(&out2);
	runs2 = mbd_minimize(r, &in, key, &o, &out2);
	MBD_CHECK_EQ_U64(runs2, runs);
	MBD_CHECK(same_trace(&out, &out2));
	o.fork_each = true;
	mbd_trace_init(&out3);
	runs2 = mbd_minimize(r, &in, key, &o, &out3);
	MBD_CHECK_EQ_U64(runs2, runs);
	MBD_CHECK(same_trace(&out, &out3));

	/* a tight budget is respected and still yields a reproducer */
	o.fork_each = false;
	o.max_runs = 7;
	runs = mbd_minimize(r, &in, key, &o, &out2);
	MBD_CHECK(runs > 0 && runs <= 7);
	MBD_CHECK(out2.n_ops <= 302); /* at least the truncation happened */
	key_of(r, &out2, key2, sizeof(key2), &v);
	MBD_CHECK_STR(key2, key);

	mbd_trace_free(&in);
	mbd_trace_free(&out);
	mbd_trace_free(&out2);
	mbd_trace_free(&out3);
	mbd_runner_free(r);
}

static void test_not_reproducing(void)
{
	struct mbd_runner *r = runner2(&mbd_fake_good, &mbd_fake_pair_bug);
	struct mbd_minimize_opts o;
	struct mbd_trace in, out;
	struct mbd_verdict v;
	char key[256];

	mbd_minimize_opts_default(&o);
	mbd_trace_init(&in);
	mbd_trace_init(&out);
	random_ops(&in, 100);
	key_of(r, &in, key, sizeof(key), &v);
	MBD_CHECK_STR(key, "");
	MBD_CHECK(mbd_minimize(r, &in, "mbdiff: divergence x~y memory/coverage "
			       "memblock_add", &o, &out) == -1);
	mbd_trace_free(&in);

	/* diverges, but with another key */
	planted(&in, MBD_OP_RESERVE, MBD_OP_PHYS_FREE);
	MBD_CHECK(mbd_minimize(r, &in, "crash", &o, &out) == -1);
	mbd_trace_free(&in);
	mbd_trace_free(&out);
	mbd_runner_free(r);
}

static void test_panic(void)
{
	struct mbd_runner *r = runner2(&mbd_fake_good, &mbd_fake_panic_x);
	struct mbd_minimize_opts o;
	struct mbd_trace in, out;
	struct mbd_verdict v;
	char key[256], key2[256];

	mbd_minimize_opts_default(&o);
	mbd_trace_init(&in);
	mbd_trace_init(&out);
	random_ops(&in, 150);
	push(&in, MBD_OP_ADD, 0x4321000, MBD_FAKE_PANIC_SIZE);
	random_ops(&in, 50);
	key_of(r, &in, key, sizeof(key), &v);
	MBD_CHECK(v.cls == MBD_CLASS_PANIC);
	MBD_CHECK(mbd_minimize(r, &in, key, &o, &out) > 0);
	MBD_CHECK_EQ_U64(out.n_ops, 1);
	MBD_CHECK_EQ_U64(out.ops[0].kind, MBD_OP_ADD);
	MBD_CHECK_EQ_U64(out.ops[0].size, MBD_FAKE_PANIC_SIZE);
	MBD_CHECK_EQ_U64(out.ops[0].base, 0);
	key_of(r, &out, key2, sizeof(key2), &v);
	MBD_CHECK_STR(key2, key);
	mbd_trace_free(&in);
	mbd_trace_free(&out);
	mbd_runner_free(r);
}

/* The crashing fake kills the process: only fork_each can minimize it. */
static void test_crash(void)
{
	struct mbd_runner *r = runner2(&mbd_fake_good, &mbd_fake_crash);
	struct mbd_minimize_opts o;
	struct mbd_trace in, out;
	long runs;

	mbd_minimize_opts_default(&o);
	o.fork_each = true;
	mbd_trace_init(&out);
	planted(&in, MBD_OP_RESERVE, MBD_OP_REMOVE);
	runs = mbd_minimize(r, &in, "crash", &o, &out);
	MBD_CHECK(runs > 0);
	MBD_CHECK(out.n_ops >= 2 && out.n_ops <= 3);
	if (out.n_ops >= 2) {
		MBD_CHECK_EQ_U64(out.ops[out.n_ops - 2].kind, MBD_OP_RESERVE);
		MBD_CHECK_EQ_U64(out.ops[out.n_ops - 1].kind, MBD_OP_REMOVE);
		MBD_CHECK_EQ_U64(out.ops[out.n_ops - 2].base,
				 out.ops[out.n_ops - 1].base);
	}
	/* a clean trace does not "crash" */
	mbd_trace_free(&in);
	mbd_trace_init(&in);
	random_ops(&in, 50);
	MBD_CHECK(mbd_minimize(r, &in, "crash", &o, &out) == -1);
	mbd_trace_free(&in);
	mbd_trace_free(&out);
	mbd_runner_free(r);
}

int main(void)
{
	test_pair();
	test_not_reproducing();
	test_panic();
	test_crash();
	return mbd_test_done();
}
