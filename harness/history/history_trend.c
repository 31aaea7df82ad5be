// SPDX-License-Identifier: GPL-2.0-only
#include "history_trend.h"
#include "history_check.h"

#include <gsl/gsl_cdf.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "stats/stats.h"
#include "util/util.h"

/* A segment this short has no drift worth the name. */
#define DRIFT_MIN_NIGHTS 12
/* Nights on the slope at least. */
#define DRIFT_MIN_RUN 6
/* The slope is tested at alpha / DRIFT_SEARCH: where it starts was searched for. */
#define DRIFT_SEARCH 10

/* The least-squares hinge at k: x = max(0, i - k). */
static void hinge_at(const double *y, const bool *skip, size_t n, size_t k,
		     struct history_hinge *h)
{
	double sn = 0, sx = 0, sy = 0, sxx = 0, sxy = 0, syy = 0;
	double mx, my, cxx, cxy, cyy;
	size_t i;

	for (i = 0; i < n; i++) {
		double x = i > k ? (double)(i - k) : 0;

		if (skip && skip[i])
			continue;
		sn++;
		sx += x;
		sy += y[i];
		sxx += x * x;
		sxy += x * y[i];
		syy += y[i] * y[i];
	}
	memset(h, 0, sizeof(*h));
	h->k = k;
	h->n = (size_t)sn;
	h->rss = INFINITY;
	if (sn < 3)
		return;
	mx = sx / sn;
	my = sy / sn;
	cxx = sxx - sn * mx * mx;
	cxy = sxy - sn * mx * my;
	cyy = syy - sn * my * my;
	h->sxx = cxx;
	h->slope = cxx > 0 ? cxy / cxx : 0;
	h->level = my - h->slope * mx;
	h->rss = cxx > 0 ? cyy - cxy * cxy / cxx : cyy;
	if (h->rss < 0)
		h->rss = 0;
}

bool history_hinge_best(const double *y, const bool *skip, size_t n,
			size_t kmin, size_t kmax, struct history_hinge *h)
{
	struct history_hinge t;
	bool found = false;
	size_t k;

	for (k = kmin; k <= kmax && k + 1 < n; k++) {
		hinge_at(y, skip, n, k, &t);
		if (!isfinite(t.rss) || !(t.sxx > 0))
			continue;
		if (!found || t.rss < h->rss) {
			*h = t;
			found = true;
		}
	}
	return found;
}

/* Do y[0..n) slope the way dir says, at level (a line, t test)? */
static bool slopes(const double *y, const bool *skip, size_t n, int dir,
		   double level)
{
	struct history_hinge l;
	double s2, t;

	hinge_at(y, skip, n, 0, &l);
	if (l.n < 5 || !(l.sxx > 0) || (l.slope > 0) != (dir > 0))
		return false;
	s2 = l.rss / (double)(l.n - 2);
	if (!(s2 > 0))
		return l.slope != 0;
	t = fabs(l.slope) / sqrt(s2 / l.sxx);
	return gsl_cdf_tdist_Q(t, (double)(l.n - 2)) < level;
}

bool history_trend_step_like(const double *y, const bool *skip, size_t n,
			     size_t tau, double step_rss, int dir)
{
	struct history_hinge h;

	if (n < 5 || tau < TREND_LEAD ||
	    (n - tau <= TREND_FAST && !slopes(y, skip, tau, dir, TREND_BEFORE_LEVEL)) ||
	    !history_hinge_best(y, skip, n, 0, tau - TREND_LEAD, &h))
		return true;
	return !(h.rss < step_rss);
}

/* The smallest residual sum of squares of one step in y[0..n). */
static double best_step_rss(const double *y, const bool *skip, size_t n)
{
	double best = INFINITY, tn = 0, ts = 0, tq = 0, an = 0, as = 0, aq = 0;
	size_t i;

	for (i = 0; i < n; i++)
		if (!skip[i]) {
			tn++;
			ts += y[i];
			tq += y[i] * y[i];
		}
	for (i = 0; i + 1 < n; i++) {
		double bn, bs, bq, rss;

		if (!skip[i]) {
			an++;
			as += y[i];
			aq += y[i] * y[i];
		}
		bn = tn - an;
		bs = ts - as;
		bq = tq - aq;
		if (an < 2 || bn < 1)
			continue;
		rss = (aq - as * as / an) + (bq - bs * bs / bn);
		if (rss < best)
			best = rss;
	}
	return best;
}

static enum hcp_kind kind_of(enum better b, double change)
{
	if (b == BETTER_NEUTRAL)
		return HCP_CHANGED;
	return (change > 0) == (b == BETTER_LOWER) ? HCP_REGRESSION : HCP_IMPROVEMENT;
}

static double level_of(bool log_scale, double y)
{
	return log_scale ? exp(y) : y;
}

static double change_of(bool log_scale, double ya, double yb)
{
	if (log_scale)
		return expm1(yb - ya);
	return ya != 0 ? (yb - ya) / fabs(ya) : 0;
}

void history_trend_scan(const struct history_check_opts *o,
			struct history_result *r, const double *y,
			const double *wv, bool log_scale, size_t c)
{
	size_t n = r->n_used > c ? r->n_used - c : 0, i, last;
	struct history_drift *d = &r->drift;
	struct history_hinge h;
	double within = 0, s2, se, t, p, change, yk, yn;
	bool *skip;

	r->ndrift = 0;
	memset(d, 0, sizeof(*d));
	if (n < DRIFT_MIN_NIGHTS)
		return;
	skip = xcalloc(n, sizeof(*skip));
	stats_outliers(y + c, n, OUTLIER_MAD, skip);
	for (i = 0; i < n; i++)
		within += wv[c + i] / (double)n;
	last = n - 1;
	if (!history_hinge_best(y + c, skip, n, 0, last - DRIFT_MIN_RUN + 1, &h) ||
	    !(h.rss < best_step_rss(y + c, skip, n)) || h.n < 4) {
		free(skip);
		return;
	}
	free(skip);
	s2 = h.rss / (double)(h.n - 3);
	if (s2 < within)
		s2 = within;
	se = sqrt(s2 / h.sxx);
	t = se > 0 ? h.slope / se : (h.slope != 0 ? copysign(INFINITY, h.slope) : 0);
	p = isfinite(t) ? gsl_cdf_tdist_Q(fabs(t), (double)(h.n - 3)) : 0;
	yk = h.level;
	yn = h.level + h.slope * (double)(last - h.k);
	change = change_of(log_scale, yk, yn);
	if (!(p < o->win.alpha / DRIFT_SEARCH) || !(fabs(change) > o->confirm.threshold))
		return;
	d->from = r->used[c + h.k];
	d->to = r->used[c + last];
	d->nights = n - h.k;
	d->change = change;
	d->slope = log_scale ? expm1(h.slope) : (yk != 0 ? h.slope / fabs(yk) : 0);
	d->p = p;
	d->level_from = level_of(log_scale, yk);
	d->level_to = level_of(log_scale, yn);
	d->kind = kind_of(r->better, change);
	r->ndrift = 1;
}

