// SPDX-License-Identifier: GPL-2.0
/*
 * The median's confidence interval (`mbdiff bench`): the ranks against
 * binomial tables, the interval on known data, and its coverage over many
 * samples of a known distribution (seeded, so the same on every machine).
 * Batches (`--layouts`): the median of the batches' medians on known data,
 * and its coverage on samples in batches that each carry a bias of their
 * own, where the pooled interval above falls short.
 */
#include <stdlib.h>

#include "mbd_median.h"
#include "mbd_test.h"

static void ranks(void)
{
	/* P(Bin(n, 1/2) <= l-1) <= 2.5% < P(Bin(n, 1/2) <= l) */
	MBD_CHECK_EQ_U64(mbd_median_ci_rank(1), 0);
	MBD_CHECK_EQ_U64(mbd_median_ci_rank(5), 0);   /* 2 * 1/32 > 5% */
	MBD_CHECK_EQ_U64(mbd_median_ci_rank(6), 1);   /* 2 * 1/64 */
	MBD_CHECK_EQ_U64(mbd_median_ci_rank(10), 2);  /* 11/1024 vs 56/1024 */
	MBD_CHECK_EQ_U64(mbd_median_ci_rank(20), 6);
	MBD_CHECK_EQ_U64(mbd_median_ci_rank(100), 40);
	MBD_CHECK_EQ_U64(mbd_median_ci_rank(1000), 469);
	/* the normal approximation takes over within one rank of the exact
	 * 470 (python3: math.comb), on the wide side */
	MBD_CHECK(mbd_median_ci_rank(1001) == 469 || mbd_median_ci_rank(1001) == 470);
	MBD_CHECK_EQ_U64(mbd_median_ci_rank(10000), 4902);
	for (size_t n = 7; n < 1200; n++) {
		MBD_CHECK(mbd_median_ci_rank(n) >= mbd_median_ci_rank(n - 1));
		MBD_CHECK(mbd_median_ci_rank(n) <= (n + 1) / 2);
	}
}

static void known_data(void)
{
	double v[100];
	struct mbd_median m;
	uint64_t s = 42;

	/* 1..100 in a scrambled order */
	for (int i = 0; i < 100; i++)
		v[i] = i + 1;
	for (int i = 99; i > 0; i--) {
		int j = (int)(mbd_test_rnd(&s) % (uint64_t)(i + 1));
		double t = v[i];

		v[i] = v[j];
		v[j] = t;
	}
	mbd_median_of(v, 100, &m);
	MBD_CHECK(m.n == 100 && m.covered);
	MBD_CHECK(m.median == 50.5);
	MBD_CHECK(m.lo == 40 && m.hi == 61);

	/* odd n; too few samples: the whole range, not claimed as 95% */
	v[0] = 3, v[1] = 1, v[2] = 2;
	mbd_median_of(v, 3, &m);
	MBD_CHECK(m.median == 2 && m.lo == 1 && m.hi == 3 && !m.covered);
	v[0] = 7;
	mbd_median_of(v, 1, &m);
	MBD_CHECK(m.median == 7 && m.lo == 7 && m.hi == 7 && !m.covered);
}

/* Skewed samples with outliers, as timings are: median log(2) of exp(1). */
static double draw(uint64_t *s)
{
	double u = (double)(mbd_test_rnd(s) >> 11) / 9007199254740992.0;
	double x = 0;

	/* inverse of the exponential CDF without libm: count halvings */
	while (u < 0.5 && x < 60) {
		u *= 2;
		x += 0.6931471805599453;
	}
	/* then a linear piece inside [1/2, 1): median exactly at u = 1/2 */
	return x + (1 - u) * 2 * 0.6931471805599453;
}

static void coverage(void)
{
	enum { TRIALS = 4000, N = 100 };
	static double v[N];
	uint64_t s = 7;
	int hit = 0;
	double truth;

	/* the distribution's median: P(x <= truth) = 1/2 */
	truth = 0.6931471805599453;
	for (int t = 0; t < TRIALS; t++) {
		struct mbd_median m;

		for (int i = 0; i < N; i++)
			v[i] = draw(&s);
		mbd_median_of(v, N, &m);
		hit += m.lo <= truth && truth <= m.hi;
	}
	/* exact coverage for n = 100 is 1 - 2 * P(B <= 39) = 96.5% */
	printf("coverage: %d of %d intervals hold the true median\n", hit, TRIALS);
	MBD_CHECK(hit >= TRIALS * 95 / 100);
	MBD_CHECK(hit <= TRIALS * 98 / 100);
}

static void batches_known(void)
{
	double v[7] = { 3, 1, 2, 6, 5, 4 };
	struct mbd_median m;

	/* batch medians 2 and 5: too few batches for a 95% interval */
	mbd_median_of_batches(v, 6, 2, &m);
	MBD_CHECK(m.n == 6 && !m.covered);
	MBD_CHECK(m.median == 3.5 && m.lo == 2 && m.hi == 5);
	/* one batch is the plain median; so is more batches than samples */
	v[0] = 3, v[1] = 1, v[2] = 2;
	mbd_median_of_batches(v, 3, 1, &m);
	MBD_CHECK(m.median == 2 && m.lo == 1 && m.hi == 3 && !m.covered);
	v[0] = 3, v[1] = 1, v[2] = 2;
	mbd_median_of_batches(v, 3, 4, &m);
	MBD_CHECK(m.median == 2 && !m.covered);
	/* uneven batches: [n*j/k, n*(j+1)/k) of 7 in 3 is 2, 2, 3 */
	v[0] = 1, v[1] = 3, v[2] = 10, v[3] = 10, v[4] = 5, v[5] = 6, v[6] = 7;
	mbd_median_of_batches(v, 7, 3, &m);
	MBD_CHECK(m.median == 6 && m.lo == 2 && m.hi == 10);
}

/* Symmetric around 0 (a sum of three uniforms): its median is its mean. */
static double noise(uint64_t *s)
{
	double x = 0;

	for (int i = 0; i < 3; i++)
		x += (double)(mbd_test_rnd(s) >> 11) / 9007199254740992.0 - 0.5;
	return x;
}

static void batches_coverage(void)
{
	enum { TRIALS = 4000, K = 10, M = 30, N = K * M };
	static double v[N];
	uint64_t s = 11;
	int hit = 0, pooled = 0;

	for (int t = 0; t < TRIALS; t++) {
		struct mbd_median m;

		/* each batch (process) shifted by its own draw, as a layout is */
		for (int j = 0; j < K; j++) {
			double bias = noise(&s) * 0.3;

			for (int i = 0; i < M; i++)
				v[j * M + i] = bias + noise(&s);
		}
		mbd_median_of_batches(v, N, K, &m);
		hit += m.lo <= 0 && 0 <= m.hi;
		for (int j = 0; j < K; j++) {
			double bias = noise(&s) * 0.3;

			for (int i = 0; i < M; i++)
				v[j * M + i] = bias + noise(&s);
		}
		mbd_median_of(v, N, &m);
		pooled += m.lo <= 0 && 0 <= m.hi;
	}
	printf("coverage: over batches %d, over all samples %d of %d\n",
	       hit, pooled, TRIALS);
	/* exact for 10 batches: 1 - 2 * P(Bin(10, 1/2) <= 1) = 97.9% */
	MBD_CHECK(hit >= TRIALS * 965 / 1000);
	MBD_CHECK(hit <= TRIALS * 995 / 1000);
	/* the reason for batch means: ignoring the batches is too narrow */
	MBD_CHECK(pooled < TRIALS * 85 / 100);
}

int main(void)
{
	ranks();
	known_data();
	coverage();
	batches_known();
	batches_coverage();
	return mbd_test_done();
}
