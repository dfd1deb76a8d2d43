// SPDX-License-Identifier: GPL-2.0
/*
 * Each counted variant's own coverage counters (harness/model/variant_cov.c).
 * In a libFuzzer build: every variant has counters and a PC table of its
 * own, one PC entry per counter, apart from each other and from the
 * common section; nothing hands them to the engine at start-up; running a
 * variant sets its counters and no other variant's; and
 * mbd_variant_feed_coverage() hands over exactly that variant's counters
 * and PC table, zeroed, once. Uncounted copies and every other build have
 * none, and feeding them does nothing.
 *
 * The two registration calls below stand in for the engine's (libFuzzer
 * and the sanitizer runtimes define them weak for this) and record what
 * they were given, from start-up on.
 */
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "mbd_bin.h"
#include "mbd_test.h"
#include "mbd_variant.h"

#define MAX_CALLS 64

static struct call {
	const void *start, *stop;
} counter_calls[MAX_CALLS], pc_calls[MAX_CALLS];
static size_t n_counter_calls, n_pc_calls;

void __sanitizer_cov_8bit_counters_init(uint8_t *start, uint8_t *stop);
void __sanitizer_cov_pcs_init(const uintptr_t *start, const uintptr_t *stop);

void __sanitizer_cov_8bit_counters_init(uint8_t *start, uint8_t *stop)
{
	if (n_counter_calls < MAX_CALLS)
		counter_calls[n_counter_calls] = (struct call){ start, stop };
	n_counter_calls++;
}

void __sanitizer_cov_pcs_init(const uintptr_t *start, const uintptr_t *stop)
{
	if (n_pc_calls < MAX_CALLS)
		pc_calls[n_pc_calls] = (struct call){ start, stop };
	n_pc_calls++;
}

/* The common counter section, where the build has one. */
extern uint8_t __start___sancov_cntrs[] __attribute__((weak));
extern uint8_t __stop___sancov_cntrs[] __attribute__((weak));

#ifdef MBD_TEST_EXPECT_OWN_COVERAGE
static bool overlap(const void *a, const void *a_end, const void *b, const void *b_end)
{
	return (uintptr_t)a < (uintptr_t)b_end && (uintptr_t)b < (uintptr_t)a_end;
}

static size_t set_in(const struct mbd_variant *v)
{
	size_t n = 0;

	for (const uint8_t *c = v->cov_counters; c < v->cov_counters_end; c++)
		n += *c != 0;
	return n;
}

static void zero_all(void)
{
	for (size_t i = 0; i < mbd_variant_count(); i++) {
		const struct mbd_variant *v = mbd_variants[i];

		if (v->cov_counters)
			memset(v->cov_counters, 0,
			       (size_t)(v->cov_counters_end - v->cov_counters));
	}
}

/* A few calls of every kind, from fixed pseudo-random bytes. */
static void some_trace(struct mbd_trace *tr)
{
	uint64_t rng = 0x2545f4914f6cdd1dULL;
	uint8_t in[200];

	do {
		for (size_t i = 0; i < sizeof(in); i++)
			in[i] = (uint8_t)mbd_test_rnd(&rng);
		mbd_bin_decode(in, sizeof(in), MBD_DECODER_STRUCTURED, tr);
	} while (tr->n_ops < 8);
}

/* Running v alone sets some of its counters and none of another's. */
static void check_isolated(const struct mbd_variant *v, const struct mbd_trace *tr)
{
	struct mbd_result res;
	size_t others = 0;

	zero_all();
	v->reset(&tr->cfg, 0);
	for (size_t i = 0; i < tr->n_ops; i++) {
		v->apply(&tr->ops[i], &res);
		if (res.panicked)
			break;
	}
	for (size_t i = 0; i < mbd_variant_count(); i++)
		if (mbd_variants[i] != v)
			others += set_in(mbd_variants[i]);
	if (set_in(v) == 0 || others)
		fprintf(stderr, "own coverage: %s set %zu of its counters, %zu of others\n",
			v->name, set_in(v), others);
	MBD_CHECK(set_in(v) > 0);
	MBD_CHECK(others == 0);
	v->reset(&tr->cfg, 0);
}

static void check_counted(size_t at_startup)
{
	struct mbd_trace tr;
	size_t n = mbd_variant_count();

	mbd_trace_init(&tr);
	some_trace(&tr);
	for (size_t i = 0; i < n; i++) {
		const struct mbd_variant *v = mbd_variants[i];
		size_t n_counters;

		MBD_CHECK(v->cov_counters && v->cov_counters_end > v->cov_counters);
		MBD_CHECK(v->cov_pcs && v->cov_pcs_end > v->cov_pcs);
		if (!v->cov_counters || !v->cov_pcs)
			continue;
		n_counters = (size_t)(v->cov_counters_end - v->cov_counters);
		/* a PC-table entry is a PC and its flags */
		MBD_CHECK_EQ_U64(v->cov_pcs_end - v->cov_pcs, 2 * n_counters);
		MBD_CHECK(!overlap(v->cov_counters, v->cov_counters_end,
				   __start___sancov_cntrs, __stop___sancov_cntrs));
		for (size_t j = 0; j < i; j++) {
			const struct mbd_variant *w = mbd_variants[j];

			MBD_CHECK(!overlap(v->cov_counters, v->cov_counters_end,
					   w->cov_counters, w->cov_counters_end));
			MBD_CHECK(!overlap(v->cov_pcs, v->cov_pcs_end,
					   w->cov_pcs, w->cov_pcs_end));
		}
		/* start-up handed over the common section, none of these */
		for (size_t k = 0; k < at_startup && k < MAX_CALLS; k++)
			MBD_CHECK(!overlap(v->cov_counters, v->cov_counters_end,
					   counter_calls[k].start, counter_calls[k].stop));
		check_isolated(v, &tr);
	}
	mbd_trace_free(&tr);

	/* fed once, zeroed, counters and PCs in the same order */
	for (size_t i = 0; i < n && i < 3; i++) {
		const struct mbd_variant *v = mbd_variants[i];
		size_t c0 = n_counter_calls, p0 = n_pc_calls;

		if (!v->cov_counters)
			continue;
		v->cov_counters[0] = 7;
		MBD_CHECK(mbd_variant_feed_coverage(v));
		MBD_CHECK(n_counter_calls == c0 + 1 && n_pc_calls == p0 + 1);
		if (n_counter_calls == c0 + 1 && c0 < MAX_CALLS && p0 < MAX_CALLS) {
			MBD_CHECK(counter_calls[c0].start == v->cov_counters &&
				  counter_calls[c0].stop == v->cov_counters_end);
			MBD_CHECK(pc_calls[p0].start == v->cov_pcs &&
				  pc_calls[p0].stop == v->cov_pcs_end);
		}
		MBD_CHECK(v->cov_counters[0] == 0);
		MBD_CHECK(!mbd_variant_feed_coverage(v));
		MBD_CHECK(n_counter_calls == c0 + 1 && n_pc_calls == p0 + 1);
	}
	/* the baseline's uncounted copy has nothing to feed */
	for (size_t i = 0; mbd_variants_uncounted[i]; i++) {
		const struct mbd_variant *u = mbd_variants_uncounted[i];

		MBD_CHECK(!u->cov_counters && !u->cov_pcs);
		MBD_CHECK(!mbd_variant_feed_coverage(u));
	}
}
#endif

int main(void)
{
	size_t at_startup = n_counter_calls;

	MBD_CHECK(n_pc_calls == at_startup);
	MBD_CHECK(!mbd_variant_feed_coverage(NULL));
#ifdef MBD_TEST_EXPECT_OWN_COVERAGE
	MBD_CHECK(mbd_variant_count() >= 2);
	/* the kcompat runtime's common section, and nothing else */
	MBD_CHECK(at_startup == 1);
	check_counted(at_startup);
	printf("own coverage: %zu variants, each with its own counters; "
	       "%zu section(s) handed over at start-up\n", mbd_variant_count(), at_startup);
#else
	for (size_t i = 0; i < mbd_variant_count(); i++) {
		const struct mbd_variant *v = mbd_variants[i];

		MBD_CHECK(!v->cov_counters && !v->cov_counters_end &&
			  !v->cov_pcs && !v->cov_pcs_end);
		MBD_CHECK(!mbd_variant_feed_coverage(v));
	}
	MBD_CHECK(n_counter_calls == at_startup);
#endif
	return mbd_test_done();
}
