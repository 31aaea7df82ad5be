/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * stats - descriptive statistics of one sample (GSL underneath).
 *
 * stddev is the sample standard deviation (n-1, two-pass); stderr_mean is
 * stddev/sqrt(n) (what perf stat -r prints as "( +- x% )", relative to the
 * mean); ci95 is the Student-t 95% interval of the mean. With n < 2 the
 * spread fields are NAN.
 */
#ifndef THPBENCH_STATS_H
#define THPBENCH_STATS_H

#include <stddef.h>

struct summary {
	size_t n;
	double mean, stddev, stderr_mean, cv;
	double min, median, max;
	double ci95_lo, ci95_hi;
};

/* Summarise x[0..n). x is not modified. -1 when n == 0. */
int stats_summary(const double *x, size_t n, struct summary *s);

#endif
