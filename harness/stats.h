/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * stats - descriptive statistics of one sample (GSL underneath).
 *
 * stddev is the sample standard deviation (n-1, two-pass); stderr_mean is
 * stddev/sqrt(n) (what perf stat -r prints as "( +- x% )", relative to the
 * mean); cv is stddev/|mean| (what LKP prints as "%stddev"); ci95 is the
 * Student-t 95% interval of the mean. With n < 2 the spread fields are NAN.
 * q1/q3 are quartiles (GSL's linear interpolation, R type 7); mad is the
 * raw median absolute deviation (not scaled by 1.4826).
 *
 * Outliers are flagged, never removed: callers show them next to the
 * statistics, which are always computed over every value.
 */
#ifndef THPBENCH_STATS_H
#define THPBENCH_STATS_H

#include <stdbool.h>
#include <stddef.h>

struct summary {
	size_t n;
	double mean, stddev, stderr_mean, cv;
	double min, median, max;
	double ci95_lo, ci95_hi;
	double q1, q3, mad;
};

/* Summarise x[0..n). x is not modified. -1 when n == 0. */
int stats_summary(const double *x, size_t n, struct summary *s);

/*
 * Student-t interval of the mean at `confidence` (0.95 for 95%).
 * -1 (and NAN bounds) when s->n < 2.
 */
int stats_ci_mean(const struct summary *s, double confidence, double *lo,
		  double *hi);

enum outlier_method {
	OUTLIER_MAD,	/* |x - median| / (1.4826 MAD) > 3.5 (Iglewicz-Hoaglin) */
	OUTLIER_TUKEY,	/* outside [Q1 - 1.5 IQR, Q3 + 1.5 IQR] */
};

const char *outlier_method_name(enum outlier_method m);
/* -1 when s names no method. */
int outlier_method_parse(const char *s);

/*
 * Set flag[i] for each outlier of x[0..n) and return how many there are.
 * Needs n >= 3 (fewer: nothing is flagged). With MAD == 0 (more than half
 * the values equal) the MAD rule would flag every other value; the mean
 * absolute deviation (scaled by sqrt(pi/2)) stands in, and when that is 0
 * too nothing is flagged.
 */
size_t stats_outliers(const double *x, size_t n, enum outlier_method m,
		      bool *flag);

#endif
