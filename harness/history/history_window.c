// SPDX-License-Identifier: GPL-2.0-only
#include "history_window.h"
#include "history_check.h"
#include "history_trend.h"

#include <gsl/gsl_cdf.h>
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "util/util.h"

/* Baselines of fewer nights borrow the spread of the segment before. */
#define BORROW_BELOW 10
/* After nights whose spread exceeds the baseline's at this level: a wild night. */
#define SPREAD_LEVEL 0.01
/*
 * A newest night alone fails the gate only at alpha / WATCH_STRONG: it
 * has no second night to tell a step from a wild night. At alpha itself,
 * with 2% night-to-night noise, it failed 2.8-3.2 A/A histories in 100
 * instead of 2.2-2.4 and caught no more +5% steps within 3 nights (60 and
 * 68 in 100 either way, 5 and 10 repetitions); a 5x slowdown still fails
 * the night it appears.
 */
#define WATCH_STRONG 10

/*
 * The fast tests' share of the per-night level, in units of alpha, by the
 * nights after the change (m): most of it on 4 nights. With night-to-night
 * noise one night's mean spreads about as far as a 5% step; the mean of 4
 * nights is the first with the power to see it, while a step big enough to
 * show in 2 nights passes the 2-night test at any of these levels. At the
 * same A/A rate this catches 6 more in 100 of the +5% steps within 3
 * nights; medium steps are found 0.1-0.2 nights later on average
 * (tests/bench/history_bound.sh).
 */
static const double fast_share[] = { [2] = 0.2, [3] = 0.6, [4] = 2.0 };

static double split_level(const struct history_window_opts *w, size_t m)
{
	if (m > w->fast)
		return w->alpha / 4;
	if (m < ARRAY_SIZE(fast_share) && fast_share[m] > 0)
		return w->alpha * fast_share[m];
	return w->alpha;
}

void history_window_opts_init(struct history_window_opts *o)
{
	o->alpha = 0.00015;
	o->min_segment = 3;
	o->min_after = 2;
	o->fast = 4;
	o->variance_nights = 60;
}

/*
 * Running sums over the current window (values shifted by `ref` so that
 * the sums of squares keep their digits): [i] holds nights [lo, lo + i).
 */
struct run_sums {
	double *n, *s, *q, *w;	/* count, sum, sum of squares, within */
};

/* "base" counts only nights that are not outliers, "all" every night. */
struct sums {
	struct run_sums base, all;
};

/*
 * A range of nights: count, mean (shifted by the scan's ref), sum of
 * squared deviations from it, and the mean within-night variance.
 */
struct moments {
	double n, mean, ss, within;
};

struct scan {
	const struct history_check_opts *o;
	struct history_result *r;
	double *y;		/* per used night: log of its mean, or its mean */
	double *wv;		/* its within-night variance of y (var / n) */
	bool log_scale;
	size_t c;		/* the current segment starts at used night c */
	size_t seg_cp;		/* the change point that started it, or SIZE_MAX */
	size_t prev_c;		/* the segment before it starts at used night prev_c */
	double prev_ss;		/* the spread of the segment before it */
	size_t prev_df;
	/* the window of the current night */
	size_t lo, hi;		/* sums over [lo, hi) */
	double ref;
	bool *flag;
	struct sums sm;
};

/* One split's night test, with what is needed to record it. */
struct split {
	size_t tau, b0;		/* after starts at tau; before [b0, tau) */
	double ss_before;	/* of the spread's part before tau */
	size_t df_before;
	double ratio;		/* p / level: the most significant is smallest */
	struct history_night_test nt;
};

static void night_values(struct scan *sc)
{
	const struct history_result *r = sc->r;
	const struct history_series *s = r->s;
	size_t i, j;

	sc->log_scale = true;
	for (i = 0; i < r->n_used; i++)
		if (!(history_night_mean(&s->nights[r->used[i]]) > 0))
			sc->log_scale = false;
	for (i = 0; i < r->n_used; i++) {
		const struct history_night *nt = &s->nights[r->used[i]];
		double m = history_night_mean(nt), v = 0;

		for (j = 0; j < nt->n; j++)
			v += (nt->values[j] - m) * (nt->values[j] - m);
		v = nt->n > 1 ? v / (double)(nt->n - 1) / (double)nt->n : 0;
		sc->y[i] = sc->log_scale ? log(m) : m;
		/* Var(log mean) ~ Var(mean) / mean^2. */
		sc->wv[i] = sc->log_scale ? v / (m * m) : v;
	}
}

static void run_sums_alloc(struct run_sums *r, size_t n)
{
	r->n = xmalloc(n * sizeof(*r->n));
	r->s = xmalloc(n * sizeof(*r->s));
	r->q = xmalloc(n * sizeof(*r->q));
	r->w = xmalloc(n * sizeof(*r->w));
}

static void run_sums_free(struct run_sums *r)
{
	free(r->n);
	free(r->s);
	free(r->q);
	free(r->w);
}

static void run_sums_start(struct run_sums *r)
{
	r->n[0] = r->s[0] = r->q[0] = r->w[0] = 0;
}

/* Night k of the window: value v (shifted), within-night variance wv,
 * counted with weight keep (0 or 1). */
static void run_sums_add(struct run_sums *r, size_t k, double keep, double v,
			 double wv)
{
	r->n[k + 1] = r->n[k] + keep;
	r->s[k + 1] = r->s[k] + keep * v;
	r->q[k + 1] = r->q[k] + keep * v * v;
	r->w[k + 1] = r->w[k] + keep * wv;
}

/* Outlier nights among [lo, hi) and the running sums over [lo, t]. */
static void window_sums(struct scan *sc, size_t lo, size_t hi, size_t t)
{
	struct sums *m = &sc->sm;
	size_t i, k;

	sc->lo = lo;
	sc->hi = t + 1;
	sc->ref = sc->y[lo];
	memset(sc->flag, 0, (t + 1 - lo) * sizeof(*sc->flag));
	if (hi > lo)
		stats_outliers(sc->y + lo, hi - lo, OUTLIER_MAD, sc->flag);
	run_sums_start(&m->base);
	run_sums_start(&m->all);
	for (i = lo, k = 0; i <= t; i++, k++) {
		double v = sc->y[i] - sc->ref;

		run_sums_add(&m->base, k, sc->flag[k] ? 0 : 1, v, sc->wv[i]);
		run_sums_add(&m->all, k, 1, v, sc->wv[i]);
	}
}

/* The moments of nights [a, b) of the window that starts at night lo. */
static struct moments range(const struct run_sums *r, size_t lo, size_t a,
			    size_t b)
{
	struct moments m;

	m.n = r->n[b - lo] - r->n[a - lo];
	m.mean = m.n > 0 ? (r->s[b - lo] - r->s[a - lo]) / m.n : 0;
	m.ss = m.n > 0 ? (r->q[b - lo] - r->q[a - lo]) - m.n * m.mean * m.mean :
		0;
	if (m.ss < 0)
		m.ss = 0;
	m.within = m.n > 0 ? (r->w[b - lo] - r->w[a - lo]) / m.n : 0;
	return m;
}

static double relative(const struct scan *sc, double ya, double yb)
{
	if (sc->log_scale)
		return expm1(yb - ya);
	return ya != 0 ? (yb - ya) / fabs(ya) : (yb == ya ? 0 : copysign(INFINITY, yb - ya));
}

static double shown(const struct scan *sc, double y)
{
	return sc->log_scale ? exp(y) : y;
}

/*
 * The variance of a night about its segment's level: the spread of the
 * baseline (outliers out) pooled with the after nights' and, for a short
 * baseline, the segment before's; never below the baseline's within-night
 * part. *df: its degrees of freedom.
 */
static double pooled_var(const struct scan *sc, const struct moments *base,
			 const struct moments *after, double *df)
{
	double ss = base->ss + after->ss, s2;

	*df = (base->n > 1 ? base->n - 1 : 0) +
	      (after->n > 1 ? after->n - 1 : 0);
	if (base->n < BORROW_BELOW && sc->prev_df) {
		ss += sc->prev_ss;
		*df += (double)sc->prev_df;
	}
	s2 = *df > 0 ? ss / *df : 0;
	return s2 < base->within ? base->within : s2;
}

/*
 * The nights after must agree with each other as the nights before do:
 * one wild night among them (an outlier, not a step) shows as a spread
 * far beyond the baseline's (F test). 1 when either has fewer than 2.
 */
static double spread_p(const struct moments *base, const struct moments *after)
{
	double vb, va;

	if (after->n < 2 || base->n < 2)
		return 1;
	vb = fmax(base->ss / (base->n - 1), base->within);
	va = after->ss / (after->n - 1);
	return vb > 0 ? gsl_cdf_fdist_Q(va / vb, after->n - 1, base->n - 1) :
	       va > 0 ? 0 : 1;
}

/*
 * The night test of "after = [tau, t], before = [b0, tau)", the spread
 * pooled over [lo, tau) (outliers out), the after nights and, for a short
 * baseline, the segment before. With one night after, this is the
 * prediction interval of one more night.
 */
static void night_test(const struct scan *sc, size_t b0, size_t tau, size_t t,
		       double level, struct split *sp)
{
	const struct sums *m = &sc->sm;
	struct history_night_test *nt = &sp->nt;
	/* before: the nights compared; base: the baseline of the spread */
	struct moments before = range(&m->base, sc->lo, b0, tau);
	struct moments base = range(&m->base, sc->lo, sc->lo, tau);
	struct moments after = range(&m->all, sc->lo, tau, t + 1);
	double s2, df, se, least;

	sp->tau = tau;
	sp->b0 = b0;
	sp->ss_before = base.ss;
	sp->df_before = base.n > 1 ? (size_t)base.n - 1 : 0;
	s2 = pooled_var(sc, &base, &after, &df);
	memset(nt, 0, sizeof(*nt));
	nt->sd_within = sqrt(base.within);
	nt->log_scale = sc->log_scale;
	nt->nights_a = (size_t)before.n;
	nt->nights_b = (size_t)after.n;
	nt->outliers_a = (size_t)(tau - b0) - (size_t)before.n;
	nt->df = (size_t)df;
	nt->sd = sqrt(s2);
	nt->mean_a = shown(sc, before.mean + sc->ref);
	nt->mean_b = shown(sc, after.mean + sc->ref);
	nt->change = relative(sc, before.mean + sc->ref, after.mean + sc->ref);
	nt->level = level;
	nt->t = NAN;
	nt->p = 1;
	sp->ratio = INFINITY;
	if (before.n < 1 || after.n < 1 || df < 1)
		return;
	se = sqrt(s2 * (1 / after.n + 1 / before.n));
	/*
	 * The nights after carry their own repetitions' noise: a count that
	 * was the same every night before (no spread at all) and is 0 or 1
	 * tonight is not infinitely significant (Welch's form of the floor).
	 */
	least = base.within / before.n + after.within / after.n;
	if (se * se < least)
		se = sqrt(least);
	if (se > 0)
		nt->t = (after.mean - before.mean) / se;
	else
		nt->t = after.mean == before.mean ? 0 :
			copysign(INFINITY, after.mean - before.mean);
	/*
	 * Student's tail is heavier than the normal one: where the normal
	 * tail already misses the level, so does the test (and most splits of
	 * most nights stop here, before the costlier t and F tails).
	 */
	if (isfinite(nt->t) && gsl_cdf_ugaussian_Q(fabs(nt->t)) >= level) {
		nt->p = gsl_cdf_ugaussian_Q(fabs(nt->t));
		nt->p_spread = 1;
		sp->ratio = nt->p / level;
		return;
	}
	nt->p = isfinite(nt->t) ? gsl_cdf_tdist_Q(fabs(nt->t), df) :
		isnan(nt->t) ? 1 : 0;
	nt->p_spread = spread_p(&base, &after);
	sp->ratio = nt->p / level;
}

/* The kind a change of this sign has for the metric's direction. */
static enum hcp_kind kind_of_sign(enum better b, double change)
{
	if (b == BETTER_NEUTRAL)
		return HCP_CHANGED;
	return (change > 0) == (b == BETTER_LOWER) ? HCP_REGRESSION : HCP_IMPROVEMENT;
}

/*
 * Do the repetitions agree: significant (Welch and Mann-Whitney, the larger
 * p, below 1 - confidence) and the same way as the night values? Their
 * interval need not clear the threshold: the night values carry the
 * threshold and the night-to-night noise; this only asks that the runs of
 * the nights show what the nights show.
 */
static bool reps_agree(const struct history_confirm *c, double change,
		       double confidence)
{
	double d = c->w.diff;

	return c->na >= VERDICT_MIN_N && c->nb >= VERDICT_MIN_N &&
	       c->p < 1 - confidence && d != 0 && (d > 0) == (change > 0);
}

/*
 * Where the change a split confirmed lies: of the same night's splits in
 * its direction (beyond the threshold, the nights after no wilder than
 * before), the one with the smallest exact p, whether or not it passed
 * its own level. The after-lengths are tested at different levels, so
 * the one that confirms a change need not be the one that fits it best:
 * a step first confirmed by the 4-night test on its 6th night lies 2
 * nights before that test's split. The evidence is held to the level
 * that confirmed it (a smaller p).
 */
static void locate(const struct scan *sc, size_t t, struct split *best)
{
	const struct history_check_opts *o = sc->o;
	const struct history_window_opts *w = &o->win;
	size_t nb = o->confirm_nights, m;
	double level = best->nt.level;

	for (m = w->min_after; m <= o->confirm_nights && m <= t + 1; m++) {
		size_t tau = t + 1 - m;
		struct split sp;

		if (tau < sc->c + w->min_segment)
			break;
		if (tau == best->tau)
			continue;
		night_test(sc, tau - sc->c > nb ? tau - nb : sc->c, tau, t, 1, &sp);
		if ((sp.nt.change > 0) != (best->nt.change > 0) ||
		    !(fabs(sp.nt.change) > o->confirm.threshold) ||
		    sp.nt.p_spread < SPREAD_LEVEL || !(sp.nt.p < best->nt.p))
			continue;
		*best = sp;
	}
	best->nt.level = level;
	best->ratio = best->nt.p / level;
}

/*
 * Does the step of split sp describe nights [b0, t] better than a drift
 * (history_trend.h)? The same nights as its test: outliers before it out.
 */
static bool step_not_drift(const struct scan *sc, size_t t,
			   const struct split *sp)
{
	const struct sums *m = &sc->sm;
	size_t n = t + 1 - sp->b0, i;
	struct moments before = range(&m->base, sc->lo, sp->b0, sp->tau);
	struct moments after = range(&m->all, sc->lo, sp->tau, t + 1);
	double *y = xmalloc(n * sizeof(*y));
	bool *skip = xcalloc(n, sizeof(*skip)), like;

	for (i = 0; i < n; i++) {
		size_t at = sp->b0 + i;

		y[i] = sc->y[at] - sc->ref;
		skip[i] = at < sp->tau && sc->flag[at - sc->lo];
	}
	like = history_trend_step_like(y, skip, n, sp->tau - sp->b0,
				       before.ss + after.ss,
				       sp->nt.change > 0 ? 1 : -1);
	free(y);
	free(skip);
	return like;
}

/* The residual sum of squares of y[a, b) about its mean. */
static double ss_of(const double *y, size_t a, size_t b)
{
	double m = 0, ss = 0;
	size_t i;

	for (i = a; i < b; i++)
		m += y[i];
	m /= (double)(b - a);
	for (i = a; i < b; i++)
		ss += (y[i] - m) * (y[i] - m);
	return ss;
}

/*
 * A second step the same way as the change that started the segment: do
 * the two steps describe the nights since the segment before began
 * better than one hinge through them all (history_trend.h)? false: the
 * two are one drift, the second is not confirmed (the first stays: a
 * confirmed change is final).
 */
static bool steps_not_drift(const struct scan *sc, size_t t,
			    const struct split *sp)
{
	const struct history_cp *cp;
	size_t a = sc->prev_c, n, k;
	double two;
	struct history_hinge h;

	if (sc->seg_cp == SIZE_MAX || sp->b0 != sc->c)
		return true;
	cp = &sc->r->cp[sc->seg_cp];
	if ((cp->nt.change > 0) != (sp->nt.change > 0) || sc->c - a < 3)
		return true;
	two = ss_of(sc->y, a, sc->c) + ss_of(sc->y, sc->c, sp->tau) +
	      ss_of(sc->y, sp->tau, t + 1);
	n = t + 1 - a;
	k = sc->c - a;
	/* the drift began before the first step: a hinge from there on */
	if (!history_hinge_best(sc->y + a, NULL, n, 0, k - 1, &h))
		return true;
	return !(h.rss < two);
}

/* The most significant split of the newest nights, or false. */
static bool best_split(const struct scan *sc, size_t t, struct split *best)
{
	const struct history_check_opts *o = sc->o;
	const struct history_window_opts *w = &o->win;
	size_t nb = o->confirm_nights, m, maxm = o->confirm_nights;
	bool found = false;

	for (m = w->min_after; m <= maxm && m <= t + 1; m++) {
		size_t tau = t + 1 - m;
		struct split sp = { 0 };

		if (tau < sc->c + w->min_segment)
			break;
		night_test(sc, tau - sc->c > nb ? tau - nb : sc->c, tau, t,
			   split_level(w, m), &sp);
		if (!(sp.nt.p < sp.nt.level) ||
		    !(fabs(sp.nt.change) > o->confirm.threshold) ||
		    sp.nt.p_spread < SPREAD_LEVEL || !step_not_drift(sc, t, &sp) ||
		    !steps_not_drift(sc, t, &sp))
			continue;
		if (!found || sp.ratio < best->ratio) {
			*best = sp;
			found = true;
		}
	}
	if (found)
		locate(sc, t, best);
	return found;
}

static const char *str_or(const char *s, const char *dflt)
{
	return s && *s ? s : dflt;
}

static bool same_str(const char *a, const char *b)
{
	return !strcmp(str_or(a, ""), str_or(b, ""));
}

/*
 * A fingerprint change between used nights within one night of night k:
 * the two nights across it (series indices) in pair[0], pair[1].
 */
static bool host_changed_near(const struct history_result *r, size_t k,
			      size_t pair[2])
{
	const struct history_series *s = r->s;
	size_t lo = k >= 2 ? k - 2 : 0, hi = k + 1 < r->n_used ? k + 1 : r->n_used - 1;
	size_t i;

	for (i = lo; i < hi; i++)
		if (!same_str(s->nights[r->used[i]].host_fingerprint,
			      s->nights[r->used[i + 1]].host_fingerprint)) {
			pair[0] = r->used[i];
			pair[1] = r->used[i + 1];
			return true;
		}
	return false;
}

/* Kernel and host across the change at used night k; the kind it makes. */
static enum hcp_kind classify(const struct history_result *r, size_t k,
			      enum hcp_kind kind, bool *kernel, bool *host,
			      size_t host_pair[2], bool *ambiguous)
{
	const struct history_series *s = r->s;

	*kernel = !same_str(s->nights[r->used[k - 1]].kernel_id,
			    s->nights[r->used[k]].kernel_id);
	*host = host_changed_near(r, k, host_pair);
	*ambiguous = *host && *kernel;
	return *host && !*kernel && kind != HCP_REJECTED ? HCP_ENVIRONMENT : kind;
}

static void add_cp(struct history_result *r, const struct history_cp *cp)
{
	r->cp = xrealloc(r->cp, (r->ncp + 1) * sizeof(*r->cp));
	r->cp[r->ncp++] = *cp;
}

/* Confirm the split on the repetitions; record it and start a segment. */
static bool confirm_split(struct scan *sc, size_t t, const struct split *sp)
{
	struct history_result *r = sc->r;
	const size_t *u = r->used;
	struct history_cp cp;
	size_t pair[2] = { 0, 0 };
	enum hcp_kind want = kind_of_sign(r->better, sp->nt.change);

	memset(&cp, 0, sizeof(cp));
	cp.night = u[sp->tau];
	cp.good = u[sp->tau - 1];
	cp.a_from = u[sp->b0];
	cp.b_to = u[t] + 1;
	cp.confirmed_at = u[t];
	cp.nt = sp->nt;
	history_confirm(r->s, cp.a_from, cp.night, cp.b_to, r->better,
			&sc->o->confirm, &cp.c);
	if (!reps_agree(&cp.c, sp->nt.change, sc->o->confirm.confidence))
		return false;
	cp.kind = classify(r, sp->tau, want, &cp.kernel_changed,
			   &cp.host_changed, pair, &cp.ambiguous);
	cp.host_from = pair[0];
	cp.host_to = pair[1];
	add_cp(r, &cp);
	sc->prev_ss = sp->ss_before;
	sc->prev_df = sp->df_before;
	sc->prev_c = sc->c;
	sc->c = sp->tau;
	sc->seg_cp = r->ncp - 1;
	return true;
}

/*
 * Regressions before the current segment whose level came back: the
 * current segment, min_after nights or more, lies within the threshold of
 * the level before the regression (on its bad side).
 */
static void recoveries(struct scan *sc, size_t t)
{
	struct history_result *r = sc->r;
	double cur, thr = sc->o->confirm.threshold;
	size_t i;

	if (sc->seg_cp == SIZE_MAX || t + 1 - sc->c < sc->o->win.min_after)
		return;
	cur = range(&sc->sm.all, sc->lo, sc->c > sc->lo ? sc->c : sc->lo,
		    t + 1).mean + sc->ref;
	for (i = 0; i < sc->seg_cp; i++) {
		struct history_cp *cp = &r->cp[i];
		double before, worse;

		if (cp->kind != HCP_REGRESSION || cp->recovered)
			continue;
		before = sc->log_scale ? log(cp->nt.mean_a) : cp->nt.mean_a;
		worse = relative(sc, before, cur);
		if (r->better == BETTER_HIGHER)
			worse = -worse;
		if (worse < thr) {
			cp->recovered = true;
			cp->recovered_at = r->used[t];
			cp->recovered_by = sc->seg_cp;
		}
	}
}

/* The newest night alone against the last nights of its segment. */
static void watch(struct scan *sc, size_t t)
{
	const struct history_check_opts *o = sc->o;
	struct history_result *r = sc->r;
	struct history_watch *wt = &r->watch;
	size_t nb = o->confirm_nights, b0;
	struct split sp;
	size_t pair[2] = { 0, 0 };

	memset(wt, 0, sizeof(*wt));
	if (t < sc->c + o->win.min_segment)
		return;
	b0 = t - sc->c > nb ? t - nb : sc->c;
	/* One night after: the two-sample test is the prediction interval. */
	night_test(sc, b0, t, t, 1 - o->confirm.confidence, &sp);
	if (!(sp.nt.p < sp.nt.level) ||
	    !(fabs(sp.nt.change) > o->confirm.threshold))
		return;
	wt->present = true;
	wt->strong = sp.nt.p < o->win.alpha / WATCH_STRONG;
	wt->night = r->used[t];
	wt->a_from = r->used[b0];
	wt->nt = sp.nt;
	history_confirm(r->s, wt->a_from, wt->night, wt->night + 1, r->better,
			&o->confirm, &wt->c);
	wt->kind = reps_agree(&wt->c, sp.nt.change, o->confirm.confidence) ?
		   kind_of_sign(r->better, sp.nt.change) : HCP_REJECTED;
	wt->kind = classify(r, t, wt->kind, &wt->kernel_changed,
			    &wt->host_changed, pair, &wt->ambiguous);
}

void history_window_scan(const struct history_check_opts *o,
			 struct history_result *r)
{
	const struct history_window_opts *w = &o->win;
	size_t n = r->n_used, t, span = w->variance_nights;
	struct scan sc = { .o = o, .r = r, .seg_cp = SIZE_MAX };
	struct split sp = { 0 };

	r->cp = NULL;
	r->ncp = 0;
	memset(&r->watch, 0, sizeof(r->watch));
	if (!n)
		return;
	if (span < 2 * o->confirm_nights + w->min_after)
		span = 2 * o->confirm_nights + w->min_after;
	sc.y = xmalloc(n * sizeof(*sc.y));
	sc.wv = xmalloc(n * sizeof(*sc.wv));
	sc.flag = xcalloc(span + 2, sizeof(*sc.flag));
	run_sums_alloc(&sc.sm.base, span + 2);
	run_sums_alloc(&sc.sm.all, span + 2);
	night_values(&sc);
	for (t = 0; t < n; t++) {
		size_t lo = t + 1 > span ? t + 1 - span : 0;

		if (lo < sc.c)
			lo = sc.c;
		window_sums(&sc, lo, t + 1 >= w->min_after ? t + 1 - w->min_after : lo, t);
		if (best_split(&sc, t, &sp) && confirm_split(&sc, t, &sp))
			window_sums(&sc, sc.c, t + 1 - w->min_after > sc.c ?
				    t + 1 - w->min_after : sc.c, t);
		recoveries(&sc, t);
	}
	watch(&sc, n - 1);
	history_trend_scan(o, r, sc.y, sc.wv, sc.log_scale, sc.c);
	free(sc.y);
	free(sc.wv);
	free(sc.flag);
	run_sums_free(&sc.sm.base);
	run_sums_free(&sc.sm.all);
}
