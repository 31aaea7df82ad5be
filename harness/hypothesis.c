// SPDX-License-Identifier: GPL-2.0-only
#include "hypothesis.h"

#include <gsl/gsl_cdf.h>
#include <gsl/gsl_sort.h>
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "util.h"

/* R switches to the normal approximation at 50; matching it keeps our
 * p-values comparable with what reviewers compute themselves. */
#define MW_EXACT_LIMIT 50

int welch_test(const struct summary *a, const struct summary *b,
	       double confidence, struct welch *w)
{
	double va, vb, tq;

	memset(w, 0, sizeof(*w));
	if (a->n < 2 || b->n < 2)
		return -1;
	va = a->stddev * a->stddev / (double)a->n;
	vb = b->stddev * b->stddev / (double)b->n;
	w->diff = b->mean - a->mean;
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
	w->df = (va + vb) * (va + vb) /
		(va * va / (double)(a->n - 1) + vb * vb / (double)(b->n - 1));
	w->t = w->diff / w->se;
	w->p = 2 * gsl_cdf_tdist_Q(fabs(w->t), w->df);
	tq = gsl_cdf_tdist_Pinv(0.5 + confidence / 2, w->df);
	w->ci_lo = w->diff - tq * w->se;
	w->ci_hi = w->diff + tq * w->se;
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
		if (mw->u > mu)
			p = 1 - mann_whitney_cdf(na, nb, mw->u - 1);
		else
			p = mann_whitney_cdf(na, nb, mw->u);
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
	case CHANGE_DELTA:
		return "delta";
	default:
		return "none";
	}
}

static bool all_positive(const double *x, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++)
		if (!(x[i] > 0))
			return false;
	return true;
}

static void log_copy(const double *x, size_t n, double *out)
{
	size_t i;

	for (i = 0; i < n; i++)
		out[i] = log(x[i]);
}

static int change_log(const double *a, size_t na, const double *b, size_t nb,
		      double confidence, struct change *c)
{
	double *la = xmalloc(na * sizeof(*la)), *lb = xmalloc(nb * sizeof(*lb));
	struct summary sa, sb;
	struct welch w;

	log_copy(a, na, la);
	log_copy(b, nb, lb);
	stats_summary(la, na, &sa);
	stats_summary(lb, nb, &sb);
	free(la);
	free(lb);
	welch_test(&sa, &sb, confidence, &w);
	c->method = CHANGE_LOG;
	c->rel = expm1(w.diff);
	c->lo = expm1(w.ci_lo);
	c->hi = expm1(w.ci_hi);
	return 0;
}

static int change_delta(const double *a, size_t na, const double *b,
			size_t nb, double confidence, struct change *c)
{
	struct summary sa, sb;
	struct welch w;
	double r, se, tq;

	stats_summary(a, na, &sa);
	stats_summary(b, nb, &sb);
	if (sa.mean == 0) {
		c->method = CHANGE_NONE;
		c->rel = c->lo = c->hi = NAN;
		return -1;
	}
	welch_test(&sa, &sb, confidence, &w);
	r = sb.mean / sa.mean;
	se = sqrt(sb.stderr_mean * sb.stderr_mean +
		  r * r * sa.stderr_mean * sa.stderr_mean) / fabs(sa.mean);
	tq = gsl_cdf_tdist_Pinv(0.5 + confidence / 2, w.df);
	c->method = CHANGE_DELTA;
	c->rel = r - 1;
	c->lo = r - 1 - tq * se;
	c->hi = r - 1 + tq * se;
	return 0;
}

int change_ci(const double *a, size_t na, const double *b, size_t nb,
	      double confidence, struct change *c)
{
	memset(c, 0, sizeof(*c));
	c->rel = c->lo = c->hi = NAN;
	if (na < 2 || nb < 2)
		return -1;
	if (all_positive(a, na) && all_positive(b, nb))
		return change_log(a, na, b, nb, confidence, c);
	return change_delta(a, na, b, nb, confidence, c);
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
