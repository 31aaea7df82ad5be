// SPDX-License-Identifier: GPL-2.0-only
#include "hypothesis.h"

#include <gsl/gsl_cdf.h>
#include <gsl/gsl_sort.h>
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "util/util.h"

/* R switches to the normal approximation at 50; matching it keeps our
 * p-values comparable with what reviewers compute themselves. */
#define MW_EXACT_LIMIT 50

/* mean b - mean a, from the centred parts when both have them: the
 * shifts are sample values, so their difference is exact for samples at
 * a large common offset. */
static double mean_diff(const struct summary *a, const struct summary *b)
{
	if (a->centred && b->centred)
		return (b->shift - a->shift) + (b->dmean - a->dmean);
	return b->mean - a->mean;
}

int welch_test(const struct summary *a, const struct summary *b,
	       double confidence, struct welch *w)
{
	double va, vb, r, tq;

	memset(w, 0, sizeof(*w));
	if (a->n < 2 || b->n < 2)
		return -1;
	va = a->stddev * a->stddev / (double)a->n;
	vb = b->stddev * b->stddev / (double)b->n;
	w->diff = mean_diff(a, b);
	w->se = sqrt(va + vb);
	if (w->se == 0) {
		/* Constant samples: the df formula is 0/0; any df gives the
		 * same answer, take the pooled one. */
		w->df = (double)(a->n + b->n - 2);
		w->t = w->diff == 0 ? 0 : copysign(INFINITY, w->diff);
		w->p = w->diff == 0 ? 1 : 0;
		w->ci_lo = w->ci_hi = w->diff;
		return 0;
	}
	/* Welch-Satterthwaite in terms of the variance shares, so that
	 * (va + vb)^2 cannot overflow for values near 1e80. */
	r = va / (va + vb);
	w->df = 1 / (r * r / (double)(a->n - 1) +
		     (1 - r) * (1 - r) / (double)(b->n - 1));
	w->t = w->diff / w->se;
	w->p = 2 * gsl_cdf_tdist_Q(fabs(w->t), w->df);
	tq = gsl_cdf_tdist_Pinv(0.5 + confidence / 2, w->df);
	w->ci_lo = w->diff - tq * w->se;
	w->ci_hi = w->diff + tq * w->se;
	return 0;
}

int pooled_t_test(const struct summary *a, const struct summary *b,
		  double tq, struct pooled *pt)
{
	double df;

	memset(pt, 0, sizeof(*pt));
	if (a->n < 2 || b->n < 2)
		return -1;
	df = (double)(a->n + b->n - 2);
	pt->s = sqrt(((double)(a->n - 1) * a->stddev * a->stddev +
		      (double)(b->n - 1) * b->stddev * b->stddev) / df);
	pt->diff = mean_diff(a, b);
	pt->e = tq * pt->s * sqrt(1.0 / (double)a->n + 1.0 / (double)b->n);
	return 0;
}

/*
 * Distribution of U by counting subsets: cnt[k][s] is the number of
 * k-element subsets of {0..N-1} whose sum is s; U of the smaller sample
 * is its 0-based rank sum minus k(k-1)/2. Everything is a sum of positive
 * counts, so doubles lose nothing that matters even where C(N, k)
 * exceeds 2^53. Returns P(U <= u).
 */
double mann_whitney_cdf(size_t na, size_t nb, double u)
{
	size_t k = na < nb ? na : nb, N = na + nb, smax, i, j, s, off;
	double *cnt, below = 0, total = 0, res;

	if (u < 0)
		return 0;
	if (u >= (double)(na * nb))
		return 1;
	smax = k * (N - 1);
	cnt = xcalloc((k + 1) * (smax + 1), sizeof(*cnt));
	cnt[0] = 1;
	for (i = 0; i < N; i++) {
		/* k downwards so that element i is used at most once */
		for (j = (i + 1 < k ? i + 1 : k); j >= 1; j--)
			for (s = smax + 1; s-- > i;)
				cnt[j * (smax + 1) + s] +=
					cnt[(j - 1) * (smax + 1) + s - i];
	}
	off = k * (k - 1) / 2;
	/* The tail is summed by itself, never as 1 - the other side: a
	 * p of 1e-17 survives, and so do the last digits of a moderate one. */
	for (s = off; s <= smax; s++) {
		double c = cnt[k * (smax + 1) + s];

		total += c;
		if ((double)(s - off) <= u)
			below += c;
	}
	free(cnt);
	res = below / total;
	return res > 1 ? 1 : res;
}

double mann_whitney_min_p(size_t na, size_t nb)
{
	double p;

	if (!na || !nb)
		return 1;
	p = 2 * mann_whitney_cdf(na, nb, 0);
	return p > 1 ? 1 : p;
}

struct ranked {
	double v;
	int from_a;
};

static int cmp_ranked(const void *x, const void *y)
{
	const struct ranked *a = x, *b = y;

	return (a->v > b->v) - (a->v < b->v);
}

/* Rank sum of a (average ranks for ties); *tie_term = sum(t^3 - t). */
static double rank_sum_a(const double *a, size_t na, const double *b,
			 size_t nb, double *tie_term)
{
	size_t N = na + nb, i, j, k;
	struct ranked *r = xmalloc(N * sizeof(*r));
	double sum = 0;

	for (i = 0; i < na; i++)
		r[i] = (struct ranked){ a[i], 1 };
	for (i = 0; i < nb; i++)
		r[na + i] = (struct ranked){ b[i], 0 };
	qsort(r, N, sizeof(*r), cmp_ranked);
	*tie_term = 0;
	for (i = 0; i < N; i = j) {
		double t, avg;

		for (j = i + 1; j < N && r[j].v == r[i].v; j++)
			;
		t = (double)(j - i);
		avg = (double)(i + 1 + j) / 2;	/* ranks i+1 .. j */
		*tie_term += t * t * t - t;
		for (k = i; k < j; k++)
			if (r[k].from_a)
				sum += avg;
	}
	free(r);
	return sum;
}

int mann_whitney(const double *a, size_t na, const double *b, size_t nb,
		 struct mann_whitney *mw)
{
	double tie_term, N = (double)(na + nb), mu, sigma, z, p;

	memset(mw, 0, sizeof(*mw));
	if (!na || !nb)
		return -1;
	mw->u = rank_sum_a(a, na, b, nb, &tie_term) -
		(double)na * (double)(na + 1) / 2;
	mw->ties = tie_term > 0;
	mu = (double)na * (double)nb / 2;
	if (!mw->ties && na < MW_EXACT_LIMIT && nb < MW_EXACT_LIMIT) {
		mw->exact = true;
		mw->z = NAN;
		/* U is symmetric about mu: P(U >= u) = P(U <= na nb - u),
		 * so the upper tail is a lower tail summed directly. */
		p = mann_whitney_cdf(na, nb, fmin(mw->u, (double)na * (double)nb - mw->u));
		mw->p = fmin(1, 2 * p);
		return 0;
	}
	sigma = sqrt((double)na * (double)nb / 12 *
		     ((N + 1) - tie_term / (N * (N - 1))));
	if (sigma == 0) {
		mw->z = 0;
		mw->p = 1;
		return 0;
	}
	z = mw->u - mu;
	z = (z - copysign(z == 0 ? 0 : 0.5, z)) / sigma;
	mw->z = z;
	mw->p = fmin(1, 2 * fmin(gsl_cdf_ugaussian_P(z), gsl_cdf_ugaussian_Q(z)));
	return 0;
}

const char *change_method_name(enum change_method m)
{
	switch (m) {
	case CHANGE_LOG:
		return "log";
	case CHANGE_DIFF:
		return "difference";
	default:
		return "none";
	}
}

static bool all_above(const double *x, size_t n, double limit, bool strict)
{
	size_t i;

	for (i = 0; i < n; i++)
		if (strict ? !(x[i] > limit) : !(x[i] >= limit))
			return false;
	return true;
}

/* log(x / ref) as log1p((x - ref) / ref): at a large common offset the
 * logs of the values would differ only in their last bits. */
static void log_rel(const double *x, size_t n, double ref, double *out)
{
	size_t i;

	for (i = 0; i < n; i++)
		out[i] = log1p((x[i] - ref) / ref);
}

static void change_log(const double *a, size_t na, const double *b, size_t nb,
		       double confidence, struct change *c)
{
	double *la = xmalloc(na * sizeof(*la)), *lb = xmalloc(nb * sizeof(*lb));
	struct summary sa, sb;

	stats_summary(a, na, &sa);
	log_rel(a, na, sa.shift, la);
	log_rel(b, nb, sa.shift, lb);
	stats_summary(la, na, &sa);
	stats_summary(lb, nb, &sb);
	free(la);
	free(lb);
	welch_test(&sa, &sb, confidence, &c->w);
	c->method = CHANGE_LOG;
	c->sd = sqrt(((double)(na - 1) * sa.stddev * sa.stddev +
		      (double)(nb - 1) * sb.stddev * sb.stddev) /
		     (double)(na + nb - 2));
	c->rel = expm1(c->w.diff);
	c->lo = expm1(c->w.ci_lo);
	c->hi = expm1(c->w.ci_hi);
}

static void change_diff(const double *a, size_t na, const double *b,
			size_t nb, double confidence, struct change *c)
{
	struct summary sa, sb;
	bool nonneg = all_above(a, na, 0, false) && all_above(b, nb, 0, false);

	stats_summary(a, na, &sa);
	stats_summary(b, nb, &sb);
	welch_test(&sa, &sb, confidence, &c->w);
	c->method = CHANGE_DIFF;
	c->base = fabs(sa.mean);
	c->sd = sqrt(((double)(na - 1) * sa.stddev * sa.stddev +
		      (double)(nb - 1) * sb.stddev * sb.stddev) /
		     (double)(na + nb - 2));
	if (c->base == 0) {
		c->sd = NAN;	/* no relative change, no relative spread */
		return;
	}
	c->sd /= c->base;
	c->rel = c->w.diff / c->base;
	if (!nonneg)
		return;		/* a percentage of a signed quantity: none */
	/* Non-negative data cannot lose more than all of it: the part of
	 * the interval below -100% holds no possible value. */
	c->lo = fmax(-1, c->w.ci_lo / c->base);
	c->hi = fmax(-1, c->w.ci_hi / c->base);
}

int change_ci(const double *a, size_t na, const double *b, size_t nb,
	      double confidence, struct change *c)
{
	memset(c, 0, sizeof(*c));
	c->rel = c->lo = c->hi = c->sd = NAN;
	c->base = NAN;
	c->w.p = NAN;
	c->level = confidence;
	if (na < 2 || nb < 2)
		return -1;
	if (all_above(a, na, 0, true) && all_above(b, nb, 0, true))
		change_log(a, na, b, nb, confidence, c);
	else
		change_diff(a, na, b, nb, confidence, c);
	return 0;
}

int change_beyond(const struct change *c, double threshold)
{
	double t;

	if (c->method == CHANGE_LOG) {
		if (c->lo > threshold)
			return 1;
		return c->hi < -threshold ? -1 : 0;
	}
	if (c->method != CHANGE_DIFF)
		return 0;
	t = threshold * c->base;
	if (c->w.ci_lo > t)
		return 1;
	return c->w.ci_hi < -t ? -1 : 0;
}

bool change_within(const struct change *c, double threshold)
{
	double t;

	if (c->method == CHANGE_LOG)
		return c->lo >= -threshold && c->hi <= threshold;
	if (c->method != CHANGE_DIFF)
		return false;
	t = threshold * c->base;
	return c->w.ci_lo >= -t && c->w.ci_hi <= t;
}

struct idx_p {
	size_t i;
	double p;
};

static int cmp_idx_p(const void *x, const void *y)
{
	const struct idx_p *a = x, *b = y;

	if (a->p != b->p)
		return a->p < b->p ? -1 : 1;
	return (a->i > b->i) - (a->i < b->i);
}

void holm_adjust(const double *p, size_t n, double *adj)
{
	struct idx_p *v = xmalloc((n ? n : 1) * sizeof(*v));
	size_t i, m = 0;
	double run = 0;

	/* Missing p-values (NAN) are not part of the family. */
	for (i = 0; i < n; i++) {
		adj[i] = NAN;
		if (!isnan(p[i]))
			v[m++] = (struct idx_p){ i, p[i] };
	}
	qsort(v, m, sizeof(*v), cmp_idx_p);
	for (i = 0; i < m; i++) {
		double q = fmin(1, (double)(m - i) * v[i].p);

		run = fmax(run, q);
		adj[v[i].i] = run;
	}
	free(v);
}

static double tq_sum(double df, double alpha, double power)
{
	return gsl_cdf_tdist_Pinv(1 - alpha / 2, df) +
	       gsl_cdf_tdist_Pinv(power, df);
}

double min_detectable_change(double cv, size_t na, size_t nb, double alpha,
			     double power)
{
	if (na < 2 || nb < 2 || !isfinite(cv))
		return NAN;
	return tq_sum((double)(na + nb - 2), alpha, power) * cv *
	       sqrt(1.0 / (double)na + 1.0 / (double)nb);
}

#define N_NEEDED_MAX 1000000

size_t n_needed(double cv, double effect, double alpha, double power)
{
	double q = gsl_cdf_ugaussian_Pinv(1 - alpha / 2) +
		   gsl_cdf_ugaussian_Pinv(power), want;
	size_t n, prev = 0;
	int iter;

	if (!isfinite(cv) || !(effect > 0))
		return 0;
	/* Start from the normal approximation, then let the t quantiles
	 * (which grow as n shrinks) settle it. */
	want = 2 * (q * cv / effect) * (q * cv / effect);
	for (iter = 0; iter < 50; iter++) {
		if (want > N_NEEDED_MAX)
			return SIZE_MAX;
		n = (size_t)ceil(want);
		if (n < 3)
			n = 3;
		if (n == prev)
			break;
		prev = n;
		q = tq_sum((double)(2 * n - 2), alpha, power);
		want = 2 * (q * cv / effect) * (q * cv / effect);
	}
	return n;
}

double rule_detectable_change(const struct change *c, size_t na, size_t nb,
			      double threshold, double alpha, double power)
{
	double gap = min_detectable_change(c->sd, na, nb, alpha, power);

	if (c->method == CHANGE_LOG)
		return expm1(log1p(threshold) + gap);
	if (c->method == CHANGE_DIFF)
		return threshold + gap;
	return NAN;
}

size_t rule_n_needed(const struct change *c, double threshold, double target,
		     double alpha, double power)
{
	if (c->method == CHANGE_LOG)
		return n_needed(c->sd, log1p(target) - log1p(threshold), alpha,
				power);
	if (c->method == CHANGE_DIFF)
		return n_needed(c->sd, target - threshold, alpha, power);
	return 0;
}
