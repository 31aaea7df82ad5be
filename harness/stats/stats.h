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
 * Sums are taken over x - shift, shift being a value of the sample (its
 * median), so data like 1e15 + small integers keep every digit: mean is
 * shift + dmean, and the two-sample tests (hypothesis.h) difference the
 * shifts and the dmeans apart. Values too large for the squares
 * (|x| >= STATS_MAX_ABS) are refused by stats_check_values().
 *
 * GSL's default error handler aborts the program; stats_gsl_trap()
 * replaces it with one that records the first error, which
 * stats_gsl_error() returns (NULL when none) until stats_gsl_clear().
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
	double shift, dmean;	/* mean = shift + dmean; see above */
	bool centred;		/* shift/dmean are set (stats_summary) */
};

/* Largest |value| whose squares and products stay finite. */
#define STATS_MAX_ABS 1e150

/* 0 when every x[i] is finite and |x[i]| < STATS_MAX_ABS; else -1 and
 * *bad is the first offending value. */
int stats_check_values(const double *x, size_t n, double *bad);

void stats_gsl_trap(void);
const char *stats_gsl_error(void);
void stats_gsl_clear(void);

/* Summarise x[0..n). x is not modified. -1 when n == 0: then n is 0 and
 * every statistic NAN (shown as absent, stored as null, never as 0). */
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
