// SPDX-License-Identifier: GPL-2.0
/*
 * The uncounted variant copies (libFuzzer builds: fuzz_diff runs its
 * baseline from one, --baseline-coverage). In such a build every reference
 * and kernel variant has one (patches and mutants none), with the same
 * name, kind and kernel version; running a variant
 * in lockstep with its own copy never diverges, on any class, over random
 * structured inputs; and the copy sets fewer coverage counters than the
 * variant for the same trace (the kcompat runtime still counts). In any
 * other build the list is empty.
 */
#include <stdio.h>
#include <string.h>

#include "mbd_bin.h"
#include "mbd_runner.h"
#include "mbd_test.h"
#include "mbd_variant.h"

#define N_INPUTS 300

/* libFuzzer's inline 8-bit counters, where the build has any. */
extern uint8_t __start___sancov_cntrs[] __attribute__((weak));
extern uint8_t __stop___sancov_cntrs[] __attribute__((weak));

#ifdef MBD_TEST_EXPECT_UNCOUNTED
static uint64_t rng = 0x9e3779b97f4a7c15ULL;

static size_t random_trace(struct mbd_trace *tr)
{
	uint8_t in[320];
	size_t len = 8 + mbd_test_rnd(&rng) % (sizeof(in) - 8);

	for (size_t i = 0; i < len; i++)
		in[i] = (uint8_t)mbd_test_rnd(&rng);
	mbd_bin_decode(in, len, MBD_DECODER_STRUCTURED, tr);
	return tr->n_ops;
}

/* Area k of the counters: the common section, then each variant's own
 * (test_own_coverage); false past the last. */
static bool counter_area(size_t k, uint8_t **start, uint8_t **stop)
{
	if (k == 0) {
		*start = __start___sancov_cntrs;
		*stop = __stop___sancov_cntrs;
		return true;
	}
	if (k > mbd_variant_count())
		return false;
	*start = mbd_variants[k - 1]->cov_counters;
	*stop = mbd_variants[k - 1]->cov_counters_end;
	return true;
}

/* Counters set by running tr on v alone, from all zero. */
static size_t counters_set(const struct mbd_variant *v, const struct mbd_trace *tr)
{
	struct mbd_result res;
	uint8_t *start, *stop;
	size_t n = 0;

	v->reset(&tr->cfg, 0);
	for (size_t k = 0; counter_area(k, &start, &stop); k++)
		if (start)
			memset(start, 0, (size_t)(stop - start));
	for (size_t i = 0; i < tr->n_ops; i++) {
		memset(&res, 0, sizeof(res));
		v->apply(&tr->ops[i], &res);
		if (res.panicked)
			break;
	}
	for (size_t k = 0; counter_area(k, &start, &stop); k++)
		for (uint8_t *c = start; start && c < stop; c++)
			n += *c != 0;
	v->reset(&tr->cfg, 0);
	return n;
}

static void check_copy(const struct mbd_variant *v, const struct mbd_variant *u)
{
	const struct mbd_variant *vs[2] = { v, u };
	struct mbd_runner_opts o;
	struct mbd_runner *r;
	struct mbd_trace tr;
	int diverged = 0, fewer = 0, counted = 0;

	MBD_CHECK(u != v && strcmp(u->name, v->name) == 0 && u->kind == v->kind &&
		  u->kver == v->kver && strcmp(u->version, v->version) == 0);
	mbd_runner_opts_default(&o);
	/* a baseline fault ends the trace (deng-2022 corrupts memory past
	   its own): the copy faults at the same call or it is a divergence */
	o.min_class = MBD_CLASS_WARNING;
	r = mbd_runner_new(vs, 2, &o);
	MBD_CHECK(r != NULL);
	if (!r)
		return;
	mbd_trace_init(&tr);
	for (int k = 0; k < N_INPUTS; k++) {
		struct mbd_verdict vd;

		random_trace(&tr);
		if (mbd_runner_run(r, &tr, &vd) != 0 || vd.divergent) {
			if (!diverged++)
				fprintf(stderr, "uncounted: %s input %d: %s\n", v->name, k,
					vd.signature);
		}
		if (k % 30 == 0 && __start___sancov_cntrs && tr.n_ops) {
			counted++;
			fewer += counters_set(u, &tr) < counters_set(v, &tr);
		}
	}
	MBD_CHECK(diverged == 0);
	/* a trace whose first call panics at once may set the same few */
	MBD_CHECK(!__start___sancov_cntrs || fewer * 10 >= counted * 9);
	mbd_trace_free(&tr);
	mbd_runner_free(r);
}
#endif

int main(void)
{
	size_t copies = 0;

	for (size_t i = 0; mbd_variants_uncounted[i]; i++)
		copies++;
#ifdef MBD_TEST_EXPECT_UNCOUNTED
	size_t baselines = 0;

	/* references and kernels have one; patches and mutants run counted */
	for (size_t i = 0; i < mbd_variant_count(); i++) {
		const struct mbd_variant *v = mbd_variants[i];
		const struct mbd_variant *u = mbd_variant_uncounted(v);
		bool want = v->kind == MBD_KIND_REFERENCE || v->kind == MBD_KIND_KERNEL;

		baselines += want;
		MBD_CHECK((u != NULL) == want);
		if (u)
			check_copy(v, u);
	}
	MBD_CHECK(copies == baselines && baselines >= 2);
	printf("uncounted: %zu copies, each in lockstep with its variant over %d inputs\n",
	       copies, N_INPUTS);
#else
	MBD_CHECK(copies == 0);
	MBD_CHECK(mbd_variant_count() == 0 ||
		  mbd_variant_uncounted(mbd_variants[0]) == NULL);
#endif
	return mbd_test_done();
}
