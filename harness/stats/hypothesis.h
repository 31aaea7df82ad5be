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
 * change_ci(): the change of b against a with its interval, on one scale
 * for the estimate, the interval and the test (c->w), so that they never
 * disagree:
 *   CHANGE_LOG   every value > 0: Welch on log values (centred on a's
 *                median); rel is the ratio of geometric means - 1, the
 *                interval is exponentiated (asymmetric, above -100%).
 *   CHANGE_DIFF  otherwise (zeros, negatives): Welch on the raw values.
 *                The interval is that of the difference b - a; rel, lo
 *                and hi are it relative to |mean a| (ministat's d%), with
 *                lo and hi clipped at -100% where no value is negative
 *                (nothing below is possible) and NAN where some are (a
 *                percentage of a signed quantity means nothing). With
 *                mean a = 0 there is no relative change: rel is NAN.
 * The direction of a change is the sign of c->w.diff on either scale.
 * change_beyond() / change_within() apply a relative threshold T: the
 * interval lies beyond +T (1) or -T (-1), or within [-T, +T]; for
 * CHANGE_DIFF the threshold is T * |mean a| on the difference.
 *
 * rule_detectable_change() / rule_n_needed(): power of that rule, not of
 * a test against 0: the smallest true change whose interval (level
 * 1 - alpha) lies beyond the threshold with the given power at na, nb,
 * and the n per side that gives a true change of `target` that power.
 *
 * pooled_t_test(): Student's t with the pooled standard deviation, as
 * ministat(1) prints it; tq is the caller's t quantile (ministat uses a
 * table rounded to 3 decimals).
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

struct pooled {
	double diff;		/* mean b - mean a */
	double s;		/* pooled standard deviation */
	double e;		/* tq * s * sqrt(1/na + 1/nb) */
};

/* -1 when either n < 2. */
int pooled_t_test(const struct summary *a, const struct summary *b,
		  double tq, struct pooled *pt);

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
	CHANGE_NONE,	/* fewer than 2 values on a side */
	CHANGE_LOG,
	CHANGE_DIFF,
};

struct change {
	double rel;		/* relative change (0.05 = +5%), see above */
	double lo, hi;		/* its interval */
	enum change_method method;
	struct welch w;		/* the test and interval on the method's scale */
	double base;		/* CHANGE_DIFF: |mean a| */
	double sd;		/* pooled sd on the scale (relative for DIFF) */
	double level;		/* confidence of the interval */
};

const char *change_method_name(enum change_method m);
int change_ci(const double *a, size_t na, const double *b, size_t nb,
	      double confidence, struct change *c);
/* 1: beyond +threshold, -1: beyond -threshold, 0: neither. */
int change_beyond(const struct change *c, double threshold);
bool change_within(const struct change *c, double threshold);
double rule_detectable_change(const struct change *c, size_t na, size_t nb,
			      double threshold, double alpha, double power);
size_t rule_n_needed(const struct change *c, double threshold, double target,
		     double alpha, double power);

void holm_adjust(const double *p, size_t n, double *adj);

double min_detectable_change(double cv, size_t na, size_t nb, double alpha,
			     double power);
/* Samples per side; 0 when cv is not finite, SIZE_MAX beyond 10^6. */
size_t n_needed(double cv, double effect, double alpha, double power);

#endif
