// SPDX-License-Identifier: GPL-2.0
/* The lockstep runner and the report, driven by the fake variants. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fake_variants.h"
/* Unless the build links fake_variants.c into this test, pull it in here. */
#ifndef MBD_FAKE_VARIANTS_LINKED
#include "fake_variants.c"
#endif
#include "mbd_report.h"
#include "mbd_runner.h"
#include "mbd_test.h"
#include "mbd_test_verdict.h"

static struct mbd_op op_range(uint32_t kind, uint64_t base, uint64_t size)
{
	struct mbd_op op;

	memset(&op, 0, sizeof(op));
	op.kind = kind;
	op.base = base;
	op.size = size;
	return op;
}

static void push(struct mbd_trace *t, uint32_t kind, uint64_t base, uint64_t size)
{
	struct mbd_op op = op_range(kind, base, size);

	if (mbd_trace_push(t, &op, 0) != 0)
		abort();
}

static uint64_t rnd_state = 0x9e3779b97f4a7c15ull;

static uint64_t rnd(void)
{
	rnd_state ^= rnd_state << 13;
	rnd_state ^= rnd_state >> 7;
	rnd_state ^= rnd_state << 17;
	return rnd_state;
}

/* Random add/reserve/remove/free ops on a small page grid (lots of overlap),
 * never the fakes' magic sizes. */
static void random_trace(struct mbd_trace *t, size_t n)
{
	static const uint32_t kinds[] = { MBD_OP_ADD, MBD_OP_RESERVE,
					  MBD_OP_REMOVE, MBD_OP_PHYS_FREE };

	for (size_t i = 0; i < n; i++) {
		uint32_t k = kinds[rnd() % 4];
		uint64_t base = (rnd() % 64) * MBD_PAGE_SIZE;
		/* an even number of pages: never 0x3000 or 0x7000 */
		uint64_t size = (1 + rnd() % 8) * 2 * MBD_PAGE_SIZE;

		/* never a reserve followed by a free at the same base */
		if (k == MBD_OP_PHYS_FREE && t->n_ops &&
		    t->ops[t->n_ops - 1].kind == MBD_OP_RESERVE &&
		    t->ops[t->n_ops - 1].base == base)
			base += MBD_PAGE_SIZE;
		push(t, k, base, size);
	}
}

static struct mbd_runner *runner2s(const struct mbd_variant *a,
				   const struct mbd_variant *b, bool oracle,
				   enum mbd_class min_class, bool skip)
{
	const struct mbd_variant *vs[2] = { a, b };
	struct mbd_runner_opts o;

	mbd_runner_opts_default(&o);
	o.oracle = oracle;
	o.min_class = min_class;
	o.skip_baseline_faults = skip;
	return mbd_runner_new(vs, b ? 2 : 1, &o);
}

/* Default opts: baseline faults end the trace. */
static struct mbd_runner *runner2(const struct mbd_variant *a,
				  const struct mbd_variant *b, bool oracle,
				  enum mbd_class min_class)
{
	return runner2s(a, b, oracle, min_class, true);
}

static void test_defaults(void)
{
	struct mbd_runner_opts o;

	memset(&o, 0xff, sizeof(o));
	mbd_runner_opts_default(&o);
	MBD_CHECK(o.oracle);
	MBD_CHECK(o.min_class == MBD_CLASS_CAPACITY);
	MBD_CHECK(o.verbose == 0);
	MBD_CHECK(o.skip_baseline_faults);
}

static void test_agreement(void)
{
	struct mbd_trace t;
	struct mbd_verdict v;
	struct mbd_runner *r = runner2(&mbd_fake_good, &mbd_fake_good2, false,
				       MBD_CLASS_WARNING);

	mbd_trace_init(&t);
	random_trace(&t, 500);
	MBD_CHECK(r != NULL);
	MBD_CHECK(mbd_runner_run(r, &t, &v) == 0);
	MBD_CHECK(!v.divergent);
	MBD_CHECK(!v.all_panicked);
	MBD_CHECK_EQ_U64(v.ops_run, 500);
	MBD_CHECK_EQ_U64(mbd_runner_count(r), 2);
	MBD_CHECK(mbd_runner_variant(r, 1) == &mbd_fake_good2);
	/* the random trace did build state: the run was not vacuous */
	MBD_CHECK(mbd_runner_after(r, 0)->memory.cnt +
		  mbd_runner_after(r, 0)->reserved.cnt > 0);
	mbd_runner_free(r);

	/* a single variant without oracle has nothing to disagree with */
	r = runner2(&mbd_fake_pair_bug, NULL, false, MBD_CLASS_WARNING);
	MBD_CHECK(mbd_runner_run(r, &t, &v) == 0);
	MBD_CHECK_EQ_U64(v.ops_run, 500);
	mbd_runner_free(r);

	/* empty trace */
	mbd_trace_clear(&t);
	r = runner2(&mbd_fake_good, &mbd_fake_pair_bug, false, MBD_CLASS_WARNING);
	MBD_CHECK(mbd_runner_run(r, &t, &v) == 0);
	MBD_CHECK_EQ_U64(v.ops_run, 0);
	MBD_CHECK_EQ_U64(mbd_runner_before(r, 0)->memory.cnt, 0);
	mbd_runner_free(r);
	mbd_trace_free(&t);
}

/* add, reserve [0x10000, +0x4000), free [0x10000, +0x1000), add */
static void pair_trace(struct mbd_trace *t)
{
	push(t, MBD_OP_ADD, 0, 0x100000);
	push(t, MBD_OP_RESERVE, 0x10000, 0x4000);
	push(t, MBD_OP_PHYS_FREE, 0x10000, 0x1000);
	push(t, MBD_OP_ADD, 0x200000, 0x1000);
}

static void test_bug_found(void)
{
	const struct mbd_variant *vs[3] = { &mbd_fake_good, &mbd_fake_good2,
					    &mbd_fake_pair_bug };
	struct mbd_runner_opts o;
	struct mbd_trace t;
	struct mbd_verdict v;
	struct mbd_runner *r;
	const struct mbd_state *before, *a, *b;

	mbd_runner_opts_default(&o);
	o.oracle = false;
	r = mbd_runner_new(vs, 3, &o);
	mbd_trace_init(&t);
	pair_trace(&t);
	MBD_CHECK(mbd_runner_run(r, &t, &v) == 1);
	MBD_CHECK(v.divergent);
	MBD_CHECK(!v.by_oracle);
	MBD_CHECK_EQ_U64(v.op_index, 2);
	MBD_CHECK_EQ_U64(v.op_kind, MBD_OP_PHYS_FREE);
	MBD_CHECK_EQ_U64(v.ops_run, 3);
	MBD_CHECK_EQ_U64(v.va, 0);
	MBD_CHECK_EQ_U64(v.vb, 2);
	MBD_CHECK(v.cls == MBD_CLASS_COVERAGE);
	MBD_CHECK(v.where == MBD_WHERE_RESERVED);
	MBD_CHECK(v.detail[0] != '\0');
	MBD_CHECK_STR(v.signature, "mbdiff: divergence fake-good~fake-pair-bug "
		      "reserved/coverage at op 3 memblock_phys_free");

	/* before/after are the states around op 3 */
	before = mbd_runner_before(r, 2);
	a = mbd_runner_after(r, 0);
	b = mbd_runner_after(r, 2);
	MBD_CHECK_EQ_U64(before->reserved.cnt, 1);
	MBD_CHECK_EQ_U64(before->reserved.regions[0].size, 0x4000);
	MBD_CHECK_EQ_U64(b->reserved.regions[0].size, 0x4000);
	MBD_CHECK_EQ_U64(a->reserved.cnt, 1);
	MBD_CHECK_EQ_U64(a->reserved.regions[0].base, 0x11000);
	MBD_CHECK_EQ_U64(a->reserved.regions[0].size, 0x3000);
	MBD_CHECK(!mbd_runner_result(r, 2)->panicked);
	MBD_CHECK(mbd_runner_oracle(r, 0) == NULL);
	mbd_runner_free(r);
	mbd_trace_free(&t);
}

static void test_repeatable(void)
{
	struct mbd_trace t, clean;
	struct mbd_verdict v1, v2, v3;
	struct mbd_runner *r = runner2(&mbd_fake_good, &mbd_fake_pair_bug, true,
				       MBD_CLASS_WARNING);

	mbd_trace_init(&t);
	mbd_trace_init(&clean);
	random_trace(&t, 200);
	pair_trace(&t);
	random_trace(&clean, 300);
	MBD_CHECK(mbd_runner_run(r, &t, &v1) == 1);
	/* a different, clean trace in between must not leak into the next run */
	MBD_CHECK(mbd_runner_run(r, &clean, &v3) == 0);
	MBD_CHECK(mbd_runner_run(r, &t, &v2) == 1);
	MBD_CHECK(mbd_test_same_verdict(&v1, &v2));
	MBD_CHECK_EQ_U64(v1.op_index, 202);
	mbd_runner_free(r);
	mbd_trace_free(&t);
	mbd_trace_free(&clean);
}

static void test_panics(void)
{
	struct mbd_trace t;
	struct mbd_verdict v;
	struct mbd_runner *r;

	mbd_trace_init(&t);
	push(&t, MBD_OP_ADD, 0, 0x10000);
	push(&t, MBD_OP_ADD, 0x100000, MBD_FAKE_PANIC_SIZE);
	push(&t, MBD_OP_ADD, 0x200000, 0x1000);

	/* same message: agreement, the trace ends there */
	r = runner2(&mbd_fake_panic_x, &mbd_fake_panic_x2, true, MBD_CLASS_WARNING);
	MBD_CHECK(mbd_runner_run(r, &t, &v) == 0);
	MBD_CHECK(!v.divergent);
	MBD_CHECK(v.all_panicked);
	MBD_CHECK_EQ_U64(v.ops_run, 2);
	MBD_CHECK_EQ_U64(v.op_index, 1);
	MBD_CHECK_STR(mbd_runner_result(r, 1)->panic_msg, "kernel BUG in fake_add: x");
	mbd_runner_free(r);

	/* different messages */
	r = runner2s(&mbd_fake_panic_x, &mbd_fake_panic_y, true, MBD_CLASS_WARNING,
		     false);
	MBD_CHECK(mbd_runner_run(r, &t, &v) == 1);
	MBD_CHECK(!v.all_panicked);
	MBD_CHECK(v.cls == MBD_CLASS_PANIC);
	MBD_CHECK(v.where == MBD_WHERE_CALL);
	MBD_CHECK_EQ_U64(v.op_index, 1);
	MBD_CHECK_EQ_U64(v.vb, 1);
	MBD_CHECK(strstr(v.detail, "fake_add: x") && strstr(v.detail, "resize y"));
	MBD_CHECK_STR(v.signature, "mbdiff: divergence fake-panic-x~fake-panic-y "
		      "call/panic at op 2 memblock_add");
	mbd_runner_free(r);

	/* only one side panics, either way round */
	r = runner2(&mbd_fake_good, &mbd_fake_panic_x, true, MBD_CLASS_WARNING);
	MBD_CHECK(mbd_runner_run(r, &t, &v) == 1);
	MBD_CHECK(v.cls == MBD_CLASS_PANIC);
	MBD_CHECK_EQ_U64(v.op_index, 1);
	mbd_runner_free(r);
	r = runner2s(&mbd_fake_panic_y, &mbd_fake_good, false, MBD_CLASS_WARNING,
		     false);
	MBD_CHECK(mbd_runner_run(r, &t, &v) == 1);
	MBD_CHECK(v.cls == MBD_CLASS_PANIC);
	MBD_CHECK_EQ_U64(v.vb, 1);
	MBD_CHECK(!v.baseline_fault);
	mbd_runner_free(r);

	/* a designed panic of the baseline is an outcome to reproduce */
	r = runner2(&mbd_fake_panic_y, &mbd_fake_good, false, MBD_CLASS_WARNING);
	MBD_CHECK(mbd_runner_run(r, &t, &v) == 1);
	MBD_CHECK(v.divergent);
	MBD_CHECK(!v.baseline_fault);
	MBD_CHECK(v.cls == MBD_CLASS_PANIC);
	MBD_CHECK_EQ_U64(v.op_index, 1);
	MBD_CHECK(strstr(v.detail, "fake: cannot resize y") != NULL);
	mbd_runner_free(r);
	/* but a BUG_ON() in the baseline is a baseline fault, not a verdict */
	r = runner2(&mbd_fake_panic_x, &mbd_fake_good, false, MBD_CLASS_WARNING);
	MBD_CHECK(mbd_runner_run(r, &t, &v) == 0);
	MBD_CHECK(!v.divergent);
	MBD_CHECK(v.baseline_fault);
	MBD_CHECK(!v.all_panicked);
	MBD_CHECK_EQ_U64(v.op_index, 1);
	MBD_CHECK_EQ_U64(v.ops_run, 2);
	MBD_CHECK(strstr(v.detail, "kernel BUG in fake_add: x") != NULL);
	mbd_runner_free(r);
	/* also when the other side panics differently */
	r = runner2(&mbd_fake_panic_x, &mbd_fake_panic_y, false, MBD_CLASS_WARNING);
	MBD_CHECK(mbd_runner_run(r, &t, &v) == 0);
	MBD_CHECK(v.baseline_fault);
	mbd_runner_free(r);

	/* a single variant that panics agrees with itself */
	r = runner2(&mbd_fake_panic_y, NULL, true, MBD_CLASS_WARNING);
	MBD_CHECK(mbd_runner_run(r, &t, &v) == 0);
	MBD_CHECK(v.all_panicked);
	mbd_runner_free(r);

	/* panic above min_class: ignored, but the run still stops there */
	r = runner2(&mbd_fake_good, &mbd_fake_panic_x, false, MBD_CLASS_CRASH);
	MBD_CHECK(mbd_runner_run(r, &t, &v) == 0);
	MBD_CHECK(!v.divergent && !v.all_panicked);
	MBD_CHECK_EQ_U64(v.ops_run, 2);
	mbd_runner_free(r);
	mbd_trace_free(&t);
}

static void test_min_class(void)
{
	struct mbd_trace t;
	struct mbd_verdict v;
	struct mbd_runner *r;

	mbd_trace_init(&t);
	push(&t, MBD_OP_ADD, 0, 0x10000);
	push(&t, MBD_OP_ADD, 0x100000, MBD_FAKE_WARN_SIZE);
	push(&t, MBD_OP_RESERVE, 0x1000, 0x1000);

	r = runner2(&mbd_fake_good, &mbd_fake_warn, false, MBD_CLASS_WARNING);
	MBD_CHECK(mbd_runner_run(r, &t, &v) == 1);
	MBD_CHECK(v.cls == MBD_CLASS_WARNING);
	MBD_CHECK_EQ_U64(v.op_index, 1);
	MBD_CHECK_EQ_U64(mbd_runner_after(r, 1)->warnings, 1);
	mbd_runner_free(r);

	r = runner2(&mbd_fake_good, &mbd_fake_warn, false, MBD_CLASS_CAPACITY);
	MBD_CHECK(mbd_runner_run(r, &t, &v) == 0);
	MBD_CHECK_EQ_U64(v.ops_run, 3);
	mbd_runner_free(r);

	/* a coverage bug is still seen above a capacity threshold */
	mbd_trace_clear(&t);
	pair_trace(&t);
	r = runner2(&mbd_fake_good, &mbd_fake_pair_bug, false, MBD_CLASS_CAPACITY);
	MBD_CHECK(mbd_runner_run(r, &t, &v) == 1);
	MBD_CHECK(v.cls == MBD_CLASS_COVERAGE);
	mbd_runner_free(r);
	r = runner2(&mbd_fake_good, &mbd_fake_pair_bug, false, MBD_CLASS_PANIC);
	MBD_CHECK(mbd_runner_run(r, &t, &v) == 0);
	mbd_runner_free(r);
	mbd_trace_free(&t);
}

static void total_trace(struct mbd_trace *t)
{
	push(t, MBD_OP_ADD, 0x100000, 0x100000);
	push(t, MBD_OP_ADD, 0x400000, 0x100000);
	push(t, MBD_OP_REMOVE, 0x400000, 0x100000);
	push(t, MBD_OP_ADD, 0x800000, 0x1000);
}

static void test_oracle(void)
{
	struct mbd_trace t;
	struct mbd_verdict v;
	struct mbd_runner *r;

	mbd_trace_init(&t);
	total_trace(&t);

	/* the correct toy passes the oracle */
	r = runner2(&mbd_fake_good, NULL, true, MBD_CLASS_WARNING);
	MBD_CHECK(mbd_runner_run(r, &t, &v) == 0);
	MBD_CHECK(mbd_runner_oracle(r, 0) != NULL);
	mbd_runner_free(r);

	/* n == 1: only the oracle can find the wrong total_size */
	r = runner2(&mbd_fake_total_bug, NULL, true, MBD_CLASS_WARNING);
	MBD_CHECK(mbd_runner_run(r, &t, &v) == 1);
	MBD_CHECK(v.by_oracle);
	MBD_CHECK_EQ_U64(v.va, 0);
	MBD_CHECK_EQ_U64(v.vb, 0);
	MBD_CHECK(v.cls == MBD_CLASS_INVARIANT);
	MBD_CHECK(v.where == MBD_WHERE_MEMORY);
	MBD_CHECK_EQ_U64(v.op_index, 2);
	MBD_CHECK_STR(v.signature, "mbdiff: oracle fake-total-bug memory/invariant "
		      "at op 3 memblock_remove");
	mbd_runner_free(r);

	/* the comparison says layout; the oracle's invariant is worse */
	r = runner2(&mbd_fake_good, &mbd_fake_total_bug, false, MBD_CLASS_WARNING);
	MBD_CHECK(mbd_runner_run(r, &t, &v) == 1);
	MBD_CHECK(!v.by_oracle);
	MBD_CHECK(v.cls == MBD_CLASS_LAYOUT);
	MBD_CHECK(v.where == MBD_WHERE_MEMORY);
	mbd_runner_free(r);
	r = runner2(&mbd_fake_good, &mbd_fake_total_bug, true, MBD_CLASS_WARNING);
	MBD_CHECK(mbd_runner_run(r, &t, &v) == 1);
	MBD_CHECK(v.by_oracle);
	MBD_CHECK(v.cls == MBD_CLASS_INVARIANT);
	MBD_CHECK_EQ_U64(v.va, 1);
	MBD_CHECK_EQ_U64(v.vb, 1);
	MBD_CHECK_STR(v.signature, "mbdiff: oracle fake-total-bug memory/invariant "
		      "at op 3 memblock_remove");
	mbd_runner_free(r);

	/* a baseline failing the oracle ends the trace there by default... */
	r = runner2(&mbd_fake_total_bug, &mbd_fake_good, true, MBD_CLASS_WARNING);
	MBD_CHECK(mbd_runner_run(r, &t, &v) == 0);
	MBD_CHECK(!v.divergent);
	MBD_CHECK(v.baseline_fault);
	MBD_CHECK(v.by_oracle);
	MBD_CHECK(v.cls == MBD_CLASS_INVARIANT);
	MBD_CHECK(v.where == MBD_WHERE_MEMORY);
	MBD_CHECK_EQ_U64(v.op_index, 2);
	MBD_CHECK_EQ_U64(v.ops_run, 3);
	mbd_runner_free(r);
	/* ...and is reported as the oracle finding it is when asked to */
	r = runner2s(&mbd_fake_total_bug, &mbd_fake_good, true, MBD_CLASS_WARNING,
		     false);
	MBD_CHECK(mbd_runner_run(r, &t, &v) == 1);
	MBD_CHECK(v.by_oracle);
	MBD_CHECK(!v.baseline_fault);
	MBD_CHECK_EQ_U64(v.va, 0);
	MBD_CHECK_EQ_U64(v.vb, 0);
	MBD_CHECK(v.cls == MBD_CLASS_INVARIANT);
	mbd_runner_free(r);
	/* the baseline's oracle finding voids the run whatever min_class is */
	r = runner2(&mbd_fake_total_bug, &mbd_fake_good, true, MBD_CLASS_COVERAGE);
	MBD_CHECK(mbd_runner_run(r, &t, &v) == 0);
	MBD_CHECK(v.baseline_fault);
	MBD_CHECK_EQ_U64(v.ops_run, 3);
	mbd_runner_free(r);

	/* both findings below min_class: nothing to report */
	r = runner2(&mbd_fake_good, &mbd_fake_total_bug, true, MBD_CLASS_COVERAGE);
	MBD_CHECK(mbd_runner_run(r, &t, &v) == 0);
	MBD_CHECK_EQ_U64(v.ops_run, 4);
	mbd_runner_free(r);
	mbd_trace_free(&t);
}

static void test_new_errors(void)
{
	const struct mbd_variant *dup[2] = { &mbd_fake_good, &mbd_fake_good };

	MBD_CHECK(mbd_runner_new(dup, 2, NULL) == NULL);
	MBD_CHECK(mbd_runner_new(dup, 0, NULL) == NULL);
	mbd_runner_free(NULL);
}

/* Read the whole of f back as a NUL-terminated string. */
static char *slurp(FILE *f)
{
	long len;
	char *s;

	fflush(f);
	len = ftell(f);
	if (len < 0)
		abort();
	s = malloc((size_t)len + 1);
	rewind(f);
	if (!s || fread(s, 1, (size_t)len, f) != (size_t)len)
		abort();
	s[len] = '\0';
	return s;
}

static const char *last_line(char *s)
{
	size_t n = strlen(s);
	char *p;

	if (n && s[n - 1] == '\n')
		s[--n] = '\0';
	p = strrchr(s, '\n');
	return p ? p + 1 : s;
}

static void test_report(void)
{
	struct mbd_trace t;
	struct mbd_verdict v;
	struct mbd_runner *r;
	FILE *f;
	char *s;

	mbd_trace_init(&t);
	pair_trace(&t);
	r = runner2(&mbd_fake_good, &mbd_fake_pair_bug, false, MBD_CLASS_WARNING);
	MBD_CHECK(mbd_runner_run(r, &t, &v) == 1);
	f = tmpfile();
	mbd_report_print(f, r, &t, &v);
	s = slurp(f);
	fclose(f);
	MBD_CHECK(strncmp(s, "mbdiff: coverage divergence between fake-good and "
		  "fake-pair-bug at op 3 of 4\n", 73) == 0);
	MBD_CHECK(strstr(s, "#  1 memblock_add") != NULL);
	MBD_CHECK(strstr(s, "#  3 memblock_phys_free") != NULL);
	MBD_CHECK(strstr(s, "#  4 ") == NULL); /* only up to the diverging op */
	MBD_CHECK(strstr(s, "config") != NULL);
	/* the differing reserved row, both sides, inclusive ends */
	MBD_CHECK(strstr(s, "0x0000000000011000-0x0000000000013fff") != NULL);
	MBD_CHECK(strstr(s, "0x0000000000010000-0x0000000000013fff") != NULL);
	MBD_CHECK(strstr(s, "\n!") != NULL);
	MBD_CHECK_STR(last_line(s), v.signature);
	free(s);

	/* ok line */
	mbd_trace_clear(&t);
	push(&t, MBD_OP_ADD, 0, 0x1000);
	push(&t, MBD_OP_ADD, 0x2000, 0x1000);
	MBD_CHECK(mbd_runner_run(r, &t, &v) == 0);
	f = tmpfile();
	mbd_report_ok(f, r, &t, &v);
	s = slurp(f);
	fclose(f);
	MBD_CHECK_STR(s, "mbdiff: ok fake-good~fake-pair-bug (2 ops)\n");
	free(s);
	mbd_runner_free(r);

	/* all panicked */
	push(&t, MBD_OP_ADD, 0x100000, MBD_FAKE_PANIC_SIZE);
	r = runner2(&mbd_fake_panic_x, &mbd_fake_panic_x2, false, MBD_CLASS_WARNING);
	MBD_CHECK(mbd_runner_run(r, &t, &v) == 0);
	f = tmpfile();
	mbd_report_ok(f, r, &t, &v);
	s = slurp(f);
	fclose(f);
	MBD_CHECK_STR(s, "mbdiff: ok fake-panic-x~fake-panic-x2 (all variants "
		      "panicked identically at op 3: kernel BUG in fake_add: x)\n");
	free(s);
	mbd_runner_free(r);

	/* baseline fault: the ok line says so and how to see it */
	r = runner2(&mbd_fake_panic_x, &mbd_fake_good, false, MBD_CLASS_WARNING);
	MBD_CHECK(mbd_runner_run(r, &t, &v) == 0);
	f = tmpfile();
	mbd_report_print(f, r, &t, &v);
	s = slurp(f);
	fclose(f);
	MBD_CHECK(strncmp(s, "mbdiff: ok fake-panic-x~fake-good (baseline "
			  "fake-panic-x faulted at op 3", 68) == 0);
	MBD_CHECK(strstr(s, "kernel BUG in fake_add: x") != NULL);
	MBD_CHECK(strstr(s, "--variants fake-panic-x)\n") != NULL);
	free(s);
	mbd_runner_free(r);

	/* oracle report also ends in the signature */
	mbd_trace_clear(&t);
	total_trace(&t);
	r = runner2(&mbd_fake_total_bug, NULL, true, MBD_CLASS_WARNING);
	MBD_CHECK(mbd_runner_run(r, &t, &v) == 1);
	f = tmpfile();
	mbd_report_print(f, r, &t, &v);
	s = slurp(f);
	fclose(f);
	MBD_CHECK(strstr(s, "fake-total-bug") != NULL);
	MBD_CHECK_STR(last_line(s), v.signature);
	free(s);
	mbd_runner_free(r);
	mbd_trace_free(&t);
}

int main(void)
{
	test_defaults();
	test_agreement();
	test_bug_found();
	test_repeatable();
	test_panics();
	test_min_class();
	test_oracle();
	test_new_errors();
	test_report();
	return mbd_test_done();
}
