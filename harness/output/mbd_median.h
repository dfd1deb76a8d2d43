/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The median of a sample and a distribution-free 95% confidence interval
 * for it (`mbdiff bench`): the interval is a pair of order statistics,
 * [x(l), x(n+1-l)], with l the largest rank whose binomial tail
 * P(Bin(n, 1/2) <= l-1) is at most 2.5%. It assumes nothing about the shape
 * of the timings (they are skewed and have outliers), only that the samples
 * are independent draws.
 */
#ifndef MBD_MEDIAN_H
#define MBD_MEDIAN_H

#include <stdbool.h>
#include <stddef.h>

struct mbd_median {
	size_t n;
	double median;
	double lo, hi;   /* the interval; min and max when n < 6 */
	bool covered;    /* false: n < 6, no pair of ranks covers 95% */
};

/*
 * l for n samples (1-based; the upper end is n + 1 - l), 0 when n < 6.
 * Exact up to n = 1000, the normal approximation above.
 */
size_t mbd_median_ci_rank(size_t n);

/* Sorts v[0..n) in place and describes it; n >= 1. */
void mbd_median_of(double *v, size_t n, struct mbd_median *out);

/*
 * v[0..n) as k consecutive batches (batch j is [n*j/k, n*(j+1)/k)), each
 * measured in a process of its own: samples inside one batch share what
 * the process drew (its code and data placement), so they are not
 * independent draws and mbd_median_of()'s interval over all of them would
 * be too narrow. Instead: the median of each batch, then the median of
 * those and its order-statistic interval over the k batches (covered from
 * k = 6 on). Not their mean: now and then one process draws a placement
 * that costs a variant 40%, and a mean follows it. k == 1 (or k > n) is
 * mbd_median_of(). v is scratch: its contents are undefined after.
 */
void mbd_median_of_batches(double *v, size_t n, size_t k, struct mbd_median *out);

#endif
