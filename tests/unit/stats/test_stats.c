// SPDX-License-Identifier: GPL-2.0-only
/*
 * Descriptive statistics and two-sample tests against published values:
 * ministat(1)'s iguana/chameleon example, R's sleep data (t.test and
 * wilcox.test), R's ?wilcox.test example, Mann-Whitney critical-value
 * tables and p.adjust(method = "holm"). Hand-derived values say how.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <cmocka.h>

#include <math.h>
#include <stdint.h>

#include <gsl/gsl_cdf.h>

#include "stats/hypothesis.h"
#include "stats/stats.h"
#include "util/util.h"

#define near(a, b, tol) near_at((a), (b), (tol), #a, __LINE__)

static void near_at(double a, double b, double tol, const char *what, int line)
{
	if (!(fabs(a - b) <= tol))
		fail_msg("line %d: %s = %.12g, expected %.12g (+- %g)", line,
			 what, a, b, tol);
}

static const double iguana[] = { 50, 200, 150, 400, 750, 400, 150 };
static const double chameleon[] = { 150, 400, 720, 500, 930 };
static const double leopard[] = { 353, 574, 495, 1057, 664, 718 };
/* R: datasets::sleep, extra by group */
static const double sleep1[] = { 0.7, -1.6, -0.2, -1.2, -0.1,
				 3.4, 3.7, 0.8, 0.0, 2.0 };
static const double sleep2[] = { 1.9, 0.8, 1.1, 0.1, -0.1,
				 4.4, 5.5, 1.6, 4.6, 3.4 };

/*
 * ministat -s iguana chameleon prints
 *   x   7            50           750           200           300     238.04761
 *   +   5           150           930           500           540     299.08193
 */
static void test_summary_ministat(void **state)
{
	struct summary s;

	(void)state;
	assert_int_equal(stats_summary(iguana, 7, &s), 0);
	assert_int_equal(s.n, 7);
	near(s.min, 50, 0);
	near(s.max, 750, 0);
	near(s.median, 200, 0);
	near(s.mean, 300, 1e-12);
	near(s.stddev, 238.04761, 1e-5);
	/* sum of squared deviations 340000, / 6 */
	near(s.stddev, sqrt(340000.0 / 6), 1e-9);
	near(s.stderr_mean, sqrt(340000.0 / 6 / 7), 1e-9);
	near(s.cv, sqrt(340000.0 / 6) / 300, 1e-12);

	assert_int_equal(stats_summary(chameleon, 5, &s), 0);
	near(s.median, 500, 0);
	near(s.mean, 540, 1e-12);
	near(s.stddev, 299.08193, 1e-5);
}

/*
 * ministat's "Difference at 80.0% confidence: 240 +/- 212.215,
 * (Student's t, pooled s = 264.159)" rebuilt from our summaries: checks
 * the summaries and GSL's t quantile in the way ministat combines them.
 */
static void test_summary_ministat_pooled(void **state)
{
	struct summary a, b;
	double sp, e;

	(void)state;
	stats_summary(iguana, 7, &a);
	stats_summary(chameleon, 5, &b);
	sp = sqrt(((a.n - 1) * a.stddev * a.stddev +
		   (b.n - 1) * b.stddev * b.stddev) / (double)(a.n + b.n - 2));
	near(sp, 264.159, 1e-3);
	/* ministat reads t from a 3-decimal table: 1.372 for 80%, df 10 */
	near(gsl_cdf_tdist_Pinv(0.9, 10), 1.372, 5e-4);
	e = 1.372 * sp * sqrt(1.0 / 7 + 1.0 / 5);
	near(e, 212.215, 1e-3);
	near(b.mean - a.mean, 240, 1e-9);
}

/* 95% CI of the mean: 300 +- t(0.975, 6) * 238.04761 / sqrt(7),
 * t(0.975, 6) = 2.446911851 -> +- 220.1563 */
static void test_ci_mean(void **state)
{
	struct summary s;
	double lo, hi;

	(void)state;
	stats_summary(iguana, 7, &s);
	near(s.ci95_hi - s.mean, 2.446911851 * sqrt(340000.0 / 6 / 7), 1e-6);
	near(s.ci95_lo, 2 * s.mean - s.ci95_hi, 1e-9);
	assert_int_equal(stats_ci_mean(&s, 0.95, &lo, &hi), 0);
	near(lo, s.ci95_lo, 1e-12);
	/* 90%: t(0.95, 6) = 1.943180281 */
	stats_ci_mean(&s, 0.90, &lo, &hi);
	near(hi - s.mean, 1.943180281 * sqrt(340000.0 / 6 / 7), 1e-6);
}

static void test_summary_small_n(void **state)
{
	struct summary s;
	double one = 42;

	(void)state;
	assert_int_equal(stats_summary(&one, 0, &s), -1);
	/* n = 0: no statistic, never a made-up 0 */
	assert_int_equal(s.n, 0);
	assert_true(isnan(s.mean) && isnan(s.median) && isnan(s.min) &&
		    isnan(s.max) && isnan(s.stddev) && isnan(s.cv));
	assert_int_equal(stats_summary(&one, 1, &s), 0);
	near(s.mean, 42, 0);
	near(s.median, 42, 0);
	assert_true(isnan(s.stddev));
	assert_true(isnan(s.ci95_lo));
}

/* Quartiles (R type 7) and raw MAD of 1 2 3 4 100: q1 2, q3 4, MAD 1. */
static void test_quartiles_mad(void **state)
{
	const double x[] = { 100, 3, 1, 4, 2 };
	struct summary s;

	(void)state;
	stats_summary(x, 5, &s);
	near(s.q1, 2, 1e-12);
	near(s.q3, 4, 1e-12);
	near(s.mad, 1, 1e-12);
	near(s.median, 3, 0);
	/* the input is untouched */
	near(x[0], 100, 0);
}

/*
 * 10 11 12 11 10 50: median 11, MAD 1 -> limit 3.5 * 1.4826 = 5.19: only
 * 50. Tukey: q1 10.25, q3 11.75, fences 8 and 14: only 50.
 */
static void test_outliers(void **state)
{
	const double x[] = { 10, 11, 12, 11, 10, 50 };
	const double flat[] = { 5, 5, 5, 5, 9 };
	const double same[] = { 5, 5, 5 };
	bool f[6];

	(void)state;
	assert_int_equal(stats_outliers(x, 6, OUTLIER_MAD, f), 1);
	assert_true(f[5]);
	assert_false(f[2]);
	assert_int_equal(stats_outliers(x, 6, OUTLIER_TUKEY, f), 1);
	assert_true(f[5]);
	/* MAD 0: mean absolute deviation 0.8 * 1.2533 = 1.003, limit 3.51 */
	assert_int_equal(stats_outliers(flat, 5, OUTLIER_MAD, f), 1);
	assert_true(f[4]);
	assert_int_equal(stats_outliers(same, 3, OUTLIER_MAD, f), 0);
	assert_int_equal(stats_outliers(x, 2, OUTLIER_MAD, f), 0);
	assert_int_equal(outlier_method_parse("tukey"), OUTLIER_TUKEY);
	assert_int_equal(outlier_method_parse("iqr"), -1);
}

/*
 * R: t.test(extra ~ group, data = sleep)
 *   t = -1.8608, df = 17.776, p-value = 0.07939
 *   95 percent confidence interval: -3.3654832  0.2054832
 * R's difference is group1 - group2; ours is b - a, so a = group 2.
 */
static void test_welch_sleep(void **state)
{
	struct summary a, b;
	struct welch w;

	(void)state;
	stats_summary(sleep2, 10, &a);
	stats_summary(sleep1, 10, &b);
	assert_int_equal(welch_test(&a, &b, 0.95, &w), 0);
	near(w.diff, -1.58, 1e-12);
	near(w.t, -1.8608, 1e-4);
	near(w.df, 17.776, 1e-3);
	near(w.p, 0.07939, 1e-5);
	near(w.ci_lo, -3.3654832, 1e-6);
	near(w.ci_hi, 0.2054832, 1e-6);
}

/*
 * iguana vs leopard, Welch (nanostat's README): 643.50 > 300.00 +- 293.97,
 * p = 0.026080480978720635. Hand check of df: va = 56666.67/7,
 * vb = 76865.5/6 -> df = 9.6447.
 */
static void test_welch_leopard(void **state)
{
	struct summary a, b;
	struct welch w;

	(void)state;
	stats_summary(iguana, 7, &a);
	stats_summary(leopard, 6, &b);
	welch_test(&a, &b, 0.95, &w);
	near(w.diff, 343.5, 1e-9);
	near(w.p, 0.026080480978720635, 1e-9);
	near(w.ci_hi - w.diff, 293.97, 5e-3);
}

static void test_welch_degenerate(void **state)
{
	const double c1[] = { 5, 5, 5 }, c2[] = { 6, 6, 6 };
	struct summary a, b;
	struct welch w;

	(void)state;
	stats_summary(c1, 3, &a);
	stats_summary(c2, 3, &b);
	welch_test(&a, &a, 0.95, &w);
	near(w.p, 1, 0);
	welch_test(&a, &b, 0.95, &w);
	near(w.p, 0, 0);
	near(w.ci_lo, 1, 0);
	near(w.ci_hi, 1, 0);
	stats_summary(c1, 1, &b);
	assert_int_equal(welch_test(&a, &b, 0.95, &w), -1);
}

/*
 * Exact U distribution against the counting argument: P(U <= u) is the
 * number of partitions of u into at most n1 parts of size <= n2, over
 * C(n1+n2, n1). (3,3): P(U=0) = 1/20. (4,4): P(U<=1) = 2/70.
 * (5,5): P(U<=2) = 4/252, P(U<=3) = 7/252: the two-sided 5% critical
 * value of the tables is U = 2. (8,8): tables give critical U = 13, so
 * P(U<=13) <= 0.025 < P(U<=14).
 */
static void test_mw_exact_tables(void **state)
{
	(void)state;
	near(mann_whitney_cdf(3, 3, 0), 1.0 / 20, 1e-12);
	near(mann_whitney_cdf(4, 4, 1), 2.0 / 70, 1e-12);
	near(mann_whitney_cdf(5, 5, 2), 4.0 / 252, 1e-12);
	near(mann_whitney_cdf(5, 5, 3), 7.0 / 252, 1e-12);
	near(mann_whitney_cdf(3, 5, 1), 2.0 / 56, 1e-12);
	near(mann_whitney_cdf(5, 3, 1), 2.0 / 56, 1e-12);
	assert_true(mann_whitney_cdf(8, 8, 13) <= 0.025);
	assert_true(mann_whitney_cdf(8, 8, 14) > 0.025);
	/* symmetric: P(U <= 12) = P(U >= 13) for n1 n2 = 25 */
	near(mann_whitney_cdf(5, 5, 12), 0.5, 1e-12);
	near(mann_whitney_cdf(5, 5, 25), 1, 0);
	near(mann_whitney_min_p(3, 3), 0.1, 1e-12);
	near(mann_whitney_min_p(4, 4), 2.0 / 70, 1e-12);
	near(mann_whitney_min_p(2, 2), 1.0 / 3, 1e-12);
}

/*
 * R ?wilcox.test: x <- c(0.80, 0.83, 1.89, 1.04, 1.45, 1.38, 1.91, 1.64,
 * 0.73, 1.46); y <- c(1.15, 0.88, 0.90, 0.74, 1.21)
 * wilcox.test(x, y, alternative = "g"): W = 35, p-value = 0.1272; the
 * two-sided p is twice that (0.2544; exact 0.2544289).
 */
static void test_mw_exact_r(void **state)
{
	const double x[] = { 0.80, 0.83, 1.89, 1.04, 1.45, 1.38, 1.91, 1.64,
			     0.73, 1.46 };
	const double y[] = { 1.15, 0.88, 0.90, 0.74, 1.21 };
	struct mann_whitney mw;

	(void)state;
	assert_int_equal(mann_whitney(x, 10, y, 5, &mw), 0);
	assert_true(mw.exact);
	assert_false(mw.ties);
	near(mw.u, 35, 0);
	near(mw.p, 0.2544, 1e-4);
	/* swapping the samples gives U' = n1 n2 - U and the same p */
	mann_whitney(y, 5, x, 10, &mw);
	near(mw.u, 15, 0);
	near(mw.p, 0.2544, 1e-4);
}

/*
 * R: wilcox.test(extra ~ group, data = sleep): W = 25.5, p-value =
 * 0.06933 (ties: normal approximation, tie and continuity corrections).
 */
static void test_mw_ties_sleep(void **state)
{
	struct mann_whitney mw;

	(void)state;
	mann_whitney(sleep1, 10, sleep2, 10, &mw);
	assert_false(mw.exact);
	assert_true(mw.ties);
	near(mw.u, 25.5, 1e-12);
	near(mw.p, 0.06933, 1e-5);
}


/*
 * Exact tails summed directly, against exact counting (Python integers:
 * C(60,30) = 118264581564861424; for 10 vs 12, #{U <= 30} = 16271 of
 * C(22,10) = 646646 subsets, so 2 P(U >= 90) = 2 * 16271 / 646646):
 * 30 vs 30 fully separated with the base larger gives p = 2 / C(60,30) =
 * 1.6911233892144735e-17, never 0 (1 - cdf underflowed to 0), and the
 * upper tail at a moderate p keeps its digits (1 - cdf lost them).
 */
static void test_mw_exact_tails(void **state)
{
	double a[30], b[30], y[12];
	/* 6 above all of y, one above 9 of them, 3 above 3: U = 90 */
	const double x[10] = { 12.1, 12.2, 12.3, 12.4, 12.5, 12.6, 8.5, 2.1,
			       2.2, 2.3 };
	struct mann_whitney mw;
	int i;

	(void)state;
	for (i = 0; i < 30; i++) {
		a[i] = 100 + i + 0.5;
		b[i] = i;
	}
	mann_whitney(a, 30, b, 30, &mw);
	assert_true(mw.exact);
	near(mw.u, 900, 0);
	near(mw.p, 2.0 / 118264581564861424.0, 1e-12 * 1.6911233892144735e-17);
	mann_whitney(b, 30, a, 30, &mw);
	near(mw.p, 1.6911233892144735e-17, 1e-12 * 1.6911233892144735e-17);
	for (i = 0; i < 12; i++)
		y[i] = i;
	mann_whitney(x, 10, y, 12, &mw);
	near(mw.u, 90, 0);
	near(mw.p, 2.0 * 16271 / 646646, 1e-15);
}

/*
 * Centred sums: 1e15 + {1..5} vs 1e15 + {2,3,4,5,7} is the same test as
 * {1..5} vs {2,3,4,5,7}: scipy 1.10 ttest_ind(b, a, equal_var=False) on
 * the offsets gives p = 0.31375160946247493 (on the raw values scipy
 * itself loses the digits).
 */
static void test_welch_offset(void **state)
{
	double a[5], b[5];
	const double kb[] = { 2, 3, 4, 5, 7 };
	struct summary sa, sb;
	struct welch w;
	struct change c;
	int i;

	(void)state;
	for (i = 0; i < 5; i++) {
		a[i] = 1e15 + i + 1;
		b[i] = 1e15 + kb[i];
	}
	stats_summary(a, 5, &sa);
	stats_summary(b, 5, &sb);
	near(sa.stddev, sqrt(2.5), 1e-12);
	welch_test(&sa, &sb, 0.95, &w);
	near(w.diff, 1.2, 1e-12);
	near(w.p, 0.31375160946247493, 1e-12);
	/* the log scale too: log(1e15 + k) differ in the 16th digit */
	change_ci(a, 5, b, 5, 0.95, &c);
	assert_int_equal(c.method, CHANGE_LOG);
	near(c.w.p, 0.31375160946247493, 1e-6);
}

/* Exact and normal approximation agree closely at 20 + 20. */
static void test_mw_large_n(void **state)
{
	double a[20], b[20];
	struct mann_whitney mw;
	double exact;
	int i;

	(void)state;
	for (i = 0; i < 20; i++) {
		a[i] = i;
		b[i] = i + 6.5;
	}
	mann_whitney(a, 20, b, 20, &mw);
	assert_true(mw.exact);
	exact = mw.p;
	/* one tie switches to the normal approximation */
	b[0] = a[1];
	mann_whitney(a, 20, b, 20, &mw);
	assert_false(mw.exact);
	assert_true(fabs(mw.p - exact) < 0.01);
	assert_true(exact < 0.05 && exact > 0.001);
}

/* R: p.adjust(c(0.01, 0.04, 0.03, 0.005), "holm") = 0.03 0.06 0.06 0.02 */
static void test_holm(void **state)
{
	const double p[] = { 0.01, 0.04, 0.03, 0.005 };
	const double q[] = { 0.5, NAN, 0.01 };
	double adj[4];

	(void)state;
	holm_adjust(p, 4, adj);
	near(adj[0], 0.03, 1e-12);
	near(adj[1], 0.06, 1e-12);
	near(adj[2], 0.06, 1e-12);
	near(adj[3], 0.02, 1e-12);
	/* NAN is not in the family: m = 2 */
	holm_adjust(q, 3, adj);
	near(adj[0], 0.5, 1e-12);
	assert_true(isnan(adj[1]));
	near(adj[2], 0.02, 1e-12);
}

/*
 * Log scale: a = e^{0, .1, .2}, b = e^{.1, .2, .3}: log means differ by
 * 0.1, se = sqrt(2 * 0.01 / 3), Welch df = 4, t(0.975, 4) = 2.7764451052
 * -> half width 0.2266957935; change e^0.1 - 1 = 0.105170918075,
 * interval e^{-0.1266957935} - 1 = -0.118998361774,
 * e^{0.3266957935} - 1 = 0.386379667373 (bc -l).
 */
static void test_change_log(void **state)
{
	double a[3], b[3];
	struct change c;
	int i;

	(void)state;
	for (i = 0; i < 3; i++) {
		a[i] = exp(0.1 * i);
		b[i] = exp(0.1 * (i + 1));
	}
	assert_int_equal(change_ci(a, 3, b, 3, 0.95, &c), 0);
	assert_int_equal(c.method, CHANGE_LOG);
	near(c.rel, 0.105170918075, 1e-9);
	near(c.lo, -0.118998361774, 1e-9);
	near(c.hi, 0.386379667373, 1e-9);
}

/*
 * Difference (a zero in the data): a = 0 1 2, b = 1 2 3: diff 1, se =
 * sqrt(2/3), Welch df 4: 1 -+ 2.7764451052 * 0.8164965809 = -1.266958,
 * 3.266958; relative to |mean a| = 1, the lower bound clipped at -100%
 * (no value is negative). A base of 0: no relative change, but the
 * difference and its interval are there.
 */
static void test_change_diff(void **state)
{
	const double a[] = { 0, 1, 2 }, b[] = { 1, 2, 3 }, z[] = { 0, 0, 0 };
	const double c10[] = { 10, 11, 12 }, neg[] = { -11, -10, -9 }, neg2[] = { -6, -5, -4 };
	struct change c;

	(void)state;
	assert_int_equal(change_ci(a, 3, b, 3, 0.95, &c), 0);
	assert_int_equal(c.method, CHANGE_DIFF);
	near(c.rel, 1, 1e-12);
	near(c.w.ci_lo, -1.2669579355, 1e-6);
	near(c.w.ci_hi, 3.2669579355, 1e-6);
	near(c.lo, -1, 0);
	near(c.hi, 3.2669579355, 1e-6);
	assert_int_equal(change_ci(z, 3, c10, 3, 0.95, &c), 0);
	assert_int_equal(c.method, CHANGE_DIFF);
	assert_true(isnan(c.rel));
	near(c.w.diff, 11, 1e-12);
	assert_int_equal(change_beyond(&c, 0.02), 1);
	/* -10 -> -5: up by 5 (+50% of |mean|), no percentage interval */
	change_ci(neg, 3, neg2, 3, 0.95, &c);
	near(c.rel, 0.5, 1e-12);
	assert_true(c.w.diff > 0);
	assert_true(isnan(c.lo) && isnan(c.hi));
	assert_int_equal(change_beyond(&c, 0.02), 1);
}

/*
 * cv 0.1, 5 + 5, alpha 0.05, power 0.8: (t(0.975, 8) + t(0.8, 8)) * 0.1 *
 * sqrt(2/5), t table: (2.306 + 0.889) * 0.0632456 = 0.20207.
 * n_needed must be the smallest n whose detectable change is <= effect.
 */
static void test_power(void **state)
{
	size_t n;

	(void)state;
	near(min_detectable_change(0.1, 5, 5, 0.05, 0.8), 0.20207, 1e-4);
	n = n_needed(0.05, 0.02, 0.05, 0.8);
	assert_true(n > 90 && n < 110);
	assert_true(min_detectable_change(0.05, n, n, 0.05, 0.8) <= 0.02);
	assert_true(min_detectable_change(0.05, n - 1, n - 1, 0.05, 0.8) >
		    0.02);
	assert_int_equal(n_needed(0, 0.02, 0.05, 0.8), 3);
	assert_int_equal(n_needed(NAN, 0.02, 0.05, 0.8), 0);
	assert_int_equal(n_needed(10, 0.0001, 0.05, 0.8), SIZE_MAX);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_summary_ministat),
		cmocka_unit_test(test_summary_ministat_pooled),
		cmocka_unit_test(test_ci_mean),
		cmocka_unit_test(test_summary_small_n),
		cmocka_unit_test(test_quartiles_mad),
		cmocka_unit_test(test_outliers),
		cmocka_unit_test(test_welch_sleep),
		cmocka_unit_test(test_welch_leopard),
		cmocka_unit_test(test_welch_degenerate),
		cmocka_unit_test(test_mw_exact_tables),
		cmocka_unit_test(test_mw_exact_r),
		cmocka_unit_test(test_mw_ties_sleep),
		cmocka_unit_test(test_mw_large_n),
		cmocka_unit_test(test_mw_exact_tails),
		cmocka_unit_test(test_welch_offset),
		cmocka_unit_test(test_holm),
		cmocka_unit_test(test_change_log),
		cmocka_unit_test(test_change_diff),
		cmocka_unit_test(test_power),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
