/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * hypothesis - two-sample tests and effect sizes for A/B comparisons.
 *
 * Sample a is the base, b the new one; every difference is b - a.
 *
 * welch_test(): Welch's unequal-variance t-test (THP modes change the
 * variance, so the pooled Student test's assumption does not hold), with
 * the Welch-Satterthwaite degrees of freedom, a two-sided p and the
 * interval of b - a at the given confidence.
 *
 * mann_whitney(): the Mann-Whitney U (Wilcoxon rank-sum) test, two-sided.
 * U is the statistic of sample a (R's W for wilcox.test(a, b)). Exact
 * null distribution when there are no ties and both n < 50 (as R does);
 * otherwise the normal approximation with tie correction and a 0.5
 * continuity correction (R's default), so results match R.
 *
 * change_ci(): the relative change b/a - 1 with its interval. When every
 * value of both samples is > 0 it is computed on the log scale: Welch's
 * interval of mean(log b) - mean(log a), exponentiated (a ratio of
 * geometric means; asymmetric, never below -100%). Otherwise (zeros in a
 * counter) it falls back to the delta method on the ratio of arithmetic
 * means: r = mb/ma, se(r)/r = sqrt((se_b/mb)^2 + (se_a/ma)^2), Welch df.
 *
 * holm_adjust(): Holm-Bonferroni adjusted p-values (R's p.adjust "holm").
 *
 * min_detectable_change() / n_needed(): for a two-sided test at alpha with
 * the given power, from the coefficient of variation: the smallest
 * relative change n1+n2 samples can detect, and the samples per side
 * needed to detect `effect`. Normal-theory with t quantiles (df n1+n2-2),
 * the usual sample-size formula n = 2 ((t_a + t_b) cv / effect)^2.
 */
#ifndef THPBENCH_HYPOTHESIS_H
#define THPBENCH_HYPOTHESIS_H

#include <stdbool.h>
#include <stddef.h>

#include "stats.h"

struct welch {
	double diff;		/* mean b - mean a */
	double se;		/* standard error of diff */
	double t, df;
	double p;		/* two-sided */
	double ci_lo, ci_hi;	/* interval of diff */
};

/* -1 when either n < 2. Zero variance on both sides gives p = 1 for equal
 * means, p = 0 (and a zero-width interval) for different ones. */
int welch_test(const struct summary *a, const struct summary *b,
	       double confidence, struct welch *w);

struct mann_whitney {
	double u;		/* U of sample a */
	double p;		/* two-sided */
	double z;		/* normal approximation only; NAN when exact */
	bool exact;
	bool ties;
};

int mann_whitney(const double *a, size_t na, const double *b, size_t nb,
		 struct mann_whitney *mw);
/* Smallest two-sided p an exact test can give at na, nb: 2 / C(na+nb, na). */
double mann_whitney_min_p(size_t na, size_t nb);
/* P(U <= u) under the null, exact (no ties). */
double mann_whitney_cdf(size_t na, size_t nb, double u);

enum change_method {
	CHANGE_NONE,	/* undefined: the base mean is 0 */
	CHANGE_LOG,
	CHANGE_DELTA,
};

struct change {
	double rel;		/* b/a - 1 (0.05 = +5%) */
	double lo, hi;		/* its interval */
	enum change_method method;
};

const char *change_method_name(enum change_method m);
int change_ci(const double *a, size_t na, const double *b, size_t nb,
	      double confidence, struct change *c);

void holm_adjust(const double *p, size_t n, double *adj);

double min_detectable_change(double cv, size_t na, size_t nb, double alpha,
			     double power);
/* Samples per side; 0 when cv is not finite, SIZE_MAX beyond 10^6. */
size_t n_needed(double cv, double effect, double alpha, double power);

#endif
