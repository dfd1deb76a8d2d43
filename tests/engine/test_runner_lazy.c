// SPDX-License-Identifier: GPL-2.0
/*
 * The lazy baseline oracle (mbd_runner_opts.lazy_baseline_oracle) gives
 * the verdicts of the eager one: every divergence, every baseline fault
 * that comes before one, and the oracles a report reads after it. The only
 * allowed difference: a trace where nothing but a baseline fault happens
 * may end clean. The references and every mutant are the baseline once (a
 * mutant as baseline faults often, so the deferred steps are replayed and
 * judged), with the reference or its twin beside it, over random
 * structured inputs.
 */
#define _DEFAULT_SOURCE /* open_memstream */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "mbd_bin.h"
#include "mbd_oracle.h"
#include "mbd_runner.h"
#include "mbd_test.h"
#include "mbd_test_verdict.h"
#include "mbd_variant.h"

#define N_INPUTS 1200

static uint64_t rng = 0x2545f4914f6cdd1dULL;

static uint64_t rnd(void)
{
	return mbd_test_rnd(&rng);
}

/* The oracle's whole model as text (memory and reserved). */
static char *dump(const struct mbd_oracle *o)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	if (!f)
		return NULL;
	if (o) {
		mbd_oracle_dump(o, MBD_TYPE_MEMORY, f);
		mbd_oracle_dump(o, MBD_TYPE_RESERVED, f);
	}
	fclose(f);
	return buf;
}

static bool same_oracles(struct mbd_runner *eager, struct mbd_runner *lazy,
			 size_t n)
{
	bool ok = true;

	for (size_t i = 0; i < n; i++) {
		char *a = dump(mbd_runner_oracle(eager, i));
		char *b = dump(mbd_runner_oracle(lazy, i));

		ok = ok && a && b && strcmp(a, b) == 0;
		free(a);
		free(b);
	}
	return ok;
}

struct tally {
	int divergences, faults, quiet_faults, mismatches;
};

static void run_set(const struct mbd_variant *const *vs, size_t n, struct tally *t)
{
	struct mbd_runner_opts o;
	struct mbd_runner *eager, *lazy;
	struct mbd_trace tr;
	uint8_t in[320];

	mbd_runner_opts_default(&o);
	o.min_class = MBD_CLASS_WARNING;
	eager = mbd_runner_new(vs, n, &o);
	o.lazy_baseline_oracle = true;
	lazy = mbd_runner_new(vs, n, &o);
	MBD_CHECK(eager && lazy);
	mbd_trace_init(&tr);
	for (int k = 0; eager && lazy && k < N_INPUTS; k++) {
		struct mbd_verdict ve, vl;
		size_t len = 8 + rnd() % (sizeof(in) - 8);
		int re, rl;

		for (size_t i = 0; i < len; i++)
			in[i] = (uint8_t)rnd();
		mbd_bin_decode(in, len, MBD_DECODER_STRUCTURED, &tr);
		re = mbd_runner_run(eager, &tr, &ve);
		rl = mbd_runner_run(lazy, &tr, &vl);
		if (re == rl && mbd_test_same_verdict(&ve, &vl)) {
			t->divergences += ve.divergent;
			t->faults += ve.baseline_fault;
			/* what a report reads after a divergence */
			if (ve.divergent && !same_oracles(eager, lazy, n)) {
				fprintf(stderr, "lazy: %s: oracles differ after %s\n",
					vs[0]->name, ve.signature);
				t->mismatches++;
			}
			continue;
		}
		/* allowed: a baseline fault with nothing after it, unseen */
		if (re == 0 && rl == 0 && ve.baseline_fault && !ve.divergent &&
		    !vl.baseline_fault && !vl.divergent && !vl.all_panicked &&
		    vl.ops_run == tr.n_ops) {
			t->quiet_faults++;
			continue;
		}
		fprintf(stderr, "lazy: %s input %d: eager %d '%s' (fault %d), lazy %d '%s' (fault %d)\n",
			vs[0]->name, k, re, ve.signature, ve.baseline_fault, rl,
			vl.signature, vl.baseline_fault);
		t->mismatches++;
	}
	mbd_trace_free(&tr);
	mbd_runner_free(eager);
	mbd_runner_free(lazy);
}

int main(void)
{
	const struct mbd_variant *ref = mbd_variant_find("reference");
	const struct mbd_variant *twin = mbd_variant_find("reference-twin");
	const struct mbd_variant *zhou = mbd_variant_find("zhou-2025");
	struct tally t = { 0 };

	MBD_CHECK(ref && twin && zhou);
	if (!ref || !twin || !zhou)
		return mbd_test_done();
	/*
	 * Baselines: the references (what the fuzz targets defer for) and
	 * every mutant, which faults often but stays memory-safe after its
	 * faults. A patch under review need not: deng-2022 corrupts memory
	 * past its own fault, which is why the fuzz targets defer only for
	 * a reference baseline.
	 */
	for (size_t i = 0; i < mbd_variant_count(); i++) {
		const struct mbd_variant *vs[3] = { mbd_variants[i], ref, twin };

		if (vs[0]->kind != MBD_KIND_REFERENCE && vs[0]->kind != MBD_KIND_MUTANT)
			continue;
		if (vs[0] == ref)
			vs[1] = zhou;
		else if (vs[0] == twin)
			vs[2] = zhou;
		run_set(vs, 2, &t);
		run_set(vs, 3, &t);
	}
	MBD_CHECK(t.mismatches == 0);
	/* the deferred steps were replayed and judged, and also skipped */
	MBD_CHECK(t.divergences > 100);
	MBD_CHECK(t.faults > 10);
	MBD_CHECK(t.quiet_faults > 10);
	printf("lazy: %d divergences, %d baseline faults, %d faults left unseen, %d mismatches\n",
	       t.divergences, t.faults, t.quiet_faults, t.mismatches);
	return mbd_test_done();
}
