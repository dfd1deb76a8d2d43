// SPDX-License-Identifier: GPL-2.0
/* Median and its order-statistic confidence interval (mbd_median.h). */
#include <stdlib.h>

#include "mbd_median.h"

/* Above this, 2^-n underflows a double: use the normal approximation. */
#define EXACT_MAX 1000

static int cmp_dbl(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

/* sqrt by Newton's method (no libm in the harness); x >= 1. */
static double root(double x)
{
	double r = x;

	for (int i = 0; i < 64; i++)
		r = (r + x / r) / 2;
	return r;
}

size_t mbd_median_ci_rank(size_t n)
{
	double pmf, cdf;
	size_t k;

	if (n < 6)
		return 0;
	if (n > EXACT_MAX) {
		/* P(B <= l-1) ~ 2.5% with the continuity correction:
		 * l - 1/2 = n/2 - 1.96 sqrt(n)/2 */
		return (size_t)(((double)n - 1.959964 * root((double)n)) / 2 + 0.5);
	}
	pmf = 1;
	for (k = 0; k < n; k++)
		pmf /= 2;
	/* cdf = P(B <= k); the largest k + 1 with cdf <= 2.5% is l */
	cdf = pmf;
	for (k = 0; k < n / 2; k++) {
		double next = pmf * (double)(n - k) / (double)(k + 1);

		if (cdf + next > 0.025)
			break;
		pmf = next;
		cdf += next;
	}
	return k + 1;
}

void mbd_median_of(double *v, size_t n, struct mbd_median *out)
{
	size_t l = mbd_median_ci_rank(n);

	qsort(v, n, sizeof(*v), cmp_dbl);
	out->n = n;
	out->median = n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
	out->covered = l > 0;
	out->lo = l ? v[l - 1] : v[0];
	out->hi = l ? v[n - l] : v[n - 1];
}

void mbd_median_of_batches(double *v, size_t n, size_t k, struct mbd_median *out)
{
	struct mbd_median one;

	if (k <= 1 || k > n) {
		mbd_median_of(v, n, out);
		return;
	}
	/* each batch's median, gathered at the front (batch j starts at or
	 * after index j, so nothing unread is overwritten) */
	for (size_t j = 0; j < k; j++) {
		size_t lo = n * j / k, hi = n * (j + 1) / k;

		mbd_median_of(v + lo, hi - lo, &one);
		v[j] = one.median;
	}
	mbd_median_of(v, k, out);
	out->n = n;
}
