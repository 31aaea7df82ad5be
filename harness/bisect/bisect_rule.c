// SPDX-License-Identifier: GPL-2.0-only
/*
 * bisect_rule - see bisect_rule.h for the model and the rules.
 *
 * Everything is computed on the chosen scale over values shifted by
 * GOOD's first value (raw scale), so counters at a large offset keep
 * their digits.
 */
#include "bisect_rule.h"

#include <gsl/gsl_cdf.h>
#include <math.h>
#include <string.h>

/* Target half-width of theta's interval when planning a first batch:
 * a commit at either level then decides on its first look most times. */
#define PLAN_TARGET 0.35
/* Later looks aim at this share of the distance to the nearest boundary
 * a verdict can still cross, never below PLAN_FLOOR. */
#define PLAN_SHARE 0.8
#define PLAN_FLOOR 0.05
/* Boot effects are modelled when an F test finds them at this level. */
#define POOL_ALPHA 0.25
/* References are good enough when a commit at either level would get a
 * half-width below this within the caps. */
#define DECIDABLE 0.4

void bisect_opts_init(struct bisect_opts *o)
{
	o->confidence = 0.99;
	o->max_looks = 4;
	o->max_reps = 60;
	o->min_batch = 2;
	o->max_batch = 30;
	o->margin = 0.2;
	o->threshold = 0.02;
	o->ref_confidence = 0.99;
	o->ref_boots = 2;
	o->ref_max_boots = 4;
}

const char *bisect_opts_check(const struct bisect_opts *o)
{
	if (!(o->confidence > 0.5 && o->confidence < 1))
		return "the step confidence must lie in (0.5, 1)";
	if (!(o->ref_confidence > 0.5 && o->ref_confidence < 1))
		return "the reference confidence must lie in (0.5, 1)";
	if (o->max_looks < 1)
		return "a commit needs at least one look (boot)";
	if (o->min_batch < 1 || o->max_batch < o->min_batch)
		return "repetitions per boot: need 1 <= min <= max";
	if (o->max_reps < o->min_batch)
		return "the repetitions per commit cap is below one boot's minimum";
	if (!(o->margin >= 0 && o->margin < 0.5))
		return "the partial margin must lie in [0, 0.5)";
	if (!(o->threshold >= 0 && o->threshold < 1))
		return "the threshold must lie in [0, 1)";
	if (o->ref_boots < 1 || o->ref_max_boots < o->ref_boots)
		return "reference boots: need 1 <= first <= max";
	return NULL;
}

const char *bisect_scale_name(enum bisect_scale s)
{
	return s == BISECT_LOG ? "log" : "raw";
}

const char *bisect_refs_state_name(enum bisect_refs_state s)
{
	static const char *const n[] = { "more", "change", "no change",
					 "not significant" };

	return n[s];
}

const char *bisect_verdict_name(enum bisect_verdict v)
{
	static const char *const n[] = { "more", "good", "bad", "partial",
					 "inconclusive" };

	return n[v];
}

/* One sample on the scale: sums of squares within and between boots. */
struct side {
	size_t n, k;
	double mean;		/* on the scale, shifted */
	double ssw, dfw;	/* within boots */
	double ssb, dfb;	/* between boots */
	double r0;		/* effective boot size of the ANOVA */
	double sum_r2;		/* sum of squared boot sizes */
	double sw2;		/* within variance (all of it when dfw was 0) */
	bool own_sb;		/* can estimate the between-boot spread */
};

static bool sample_ok(const struct bisect_sample *s)
{
	size_t i, tot = 0;

	if (!s->v || s->n == 0 || !s->bn || s->nb == 0)
		return false;
	for (i = 0; i < s->nb; i++) {
		if (s->bn[i] == 0)
			return false;
		tot += s->bn[i];
	}
	if (tot != s->n)
		return false;
	for (i = 0; i < s->n; i++)
		if (!isfinite(s->v[i]))
			return false;
	return true;
}

static bool all_positive(const struct bisect_sample *s)
{
	size_t i;

	for (i = 0; s && i < s->n; i++)
		if (!(s->v[i] > 0))
			return false;
	return true;
}

static double on_scale(double v, enum bisect_scale sc, double shift)
{
	return sc == BISECT_LOG ? log(v) : v - shift;
}

static void side_fit(const struct bisect_sample *s, enum bisect_scale sc,
		     double shift, struct side *d)
{
	size_t j, i, at = 0;
	double sum = 0;

	memset(d, 0, sizeof(*d));
	d->n = s->n;
	d->k = s->nb;
	for (i = 0; i < s->n; i++)
		sum += on_scale(s->v[i], sc, shift);
	d->mean = sum / (double)s->n;
	for (j = 0; j < s->nb; j++) {
		double bs = 0, bm, r = (double)s->bn[j];

		for (i = at; i < at + s->bn[j]; i++)
			bs += on_scale(s->v[i], sc, shift);
		bm = bs / r;
		for (i = at; i < at + s->bn[j]; i++) {
			double e = on_scale(s->v[i], sc, shift) - bm;

			d->ssw += e * e;
		}
		d->ssb += r * (bm - d->mean) * (bm - d->mean);
		d->sum_r2 += r * r;
		at += s->bn[j];
	}
	d->dfw = (double)(d->n - d->k);
	d->dfb = (double)(d->k - 1);
	if (d->k > 1)
		d->r0 = ((double)d->n - d->sum_r2 / (double)d->n) / d->dfb;
	if (d->dfw > 0) {
		d->sw2 = d->ssw / d->dfw;
		d->own_sb = d->k > 1;
	} else if (d->n > 1) {
		/* One value per boot: the spreads cannot be told apart; all
		 * of it counts as noise, none as boot effect. */
		d->sw2 = (d->ssw + d->ssb) / (double)(d->n - 1);
		d->dfw = (double)(d->n - 1);
	}
}

/*
 * The pooled between-boot variance of the references and its df. Boot
 * effects are modelled only when the references show them: an F test of
 * the between- against the within-boot mean square at POOL_ALPHA
 * (Bancroft's "sometimes pool" rule); otherwise every value of a side
 * counts as noise with n - 1 degrees of freedom, which a t quantile on a
 * between-boot spread from 1 or 2 degrees of freedom would waste.
 */
static void between_fit(struct side *g, struct side *b, double *sb2,
			double *df)
{
	struct side *s[] = { g, b };
	double w = 0, est = 0, ssb = 0, ssw = 0, dfw = 0, f;
	size_t i;

	for (i = 0; i < 2; i++) {
		if (!s[i]->own_sb || s[i]->r0 <= 0)
			continue;
		est += s[i]->dfb * (s[i]->ssb / s[i]->dfb - s[i]->sw2) / s[i]->r0;
		w += s[i]->dfb;
		ssb += s[i]->ssb;
		ssw += s[i]->ssw;
		dfw += s[i]->dfw;
	}
	*sb2 = w > 0 ? fmax(0, est / w) : 0;
	*df = w;
	if (*sb2 > 0 && ssw > 0) {
		f = (ssb / w) / (ssw / dfw);
		if (gsl_cdf_fdist_Q(f, w, dfw) <= POOL_ALPHA)
			return;
	} else if (*sb2 > 0) {
		return;		/* exact within boots, different between */
	}
	*sb2 = 0;
	*df = 0;
	for (i = 0; i < 2; i++) {
		if (!s[i]->own_sb)
			continue;
		s[i]->sw2 = (s[i]->ssw + s[i]->ssb) / (double)(s[i]->n - 1);
		s[i]->dfw = (double)(s[i]->n - 1);
	}
}

/* Variance terms with their degrees of freedom (Welch-Satterthwaite). */
struct terms {
	double c[6], df[6];
	size_t n;
};

static void term(struct terms *t, double c, double df)
{
	t->c[t->n] = c;
	t->df[t->n] = df;
	t->n++;
}

static double terms_sum(const struct terms *t, double *df)
{
	double v = 0, den = 0;
	size_t i;

	for (i = 0; i < t->n; i++)
		v += t->c[i];
	for (i = 0; i < t->n; i++) {
		if (t->c[i] <= 0)
			continue;
		if (!(t->df[i] > 0)) {
			*df = 0;	/* a spread known from nothing */
			return v;
		}
		den += (t->c[i] / v) * (t->c[i] / v) / t->df[i];
	}
	*df = den > 0 ? 1 / den : INFINITY;
	return v;
}

/* Two-sided quantile at confidence level; NAN when df is 0. */
static double quantile(double level, double df)
{
	if (!(df > 0))
		return NAN;
	if (isinf(df))
		return gsl_cdf_ugaussian_Pinv(0.5 + level / 2);
	return gsl_cdf_tdist_Pinv(0.5 + level / 2, df);
}

/* Half-width of an interval of variance v with df at level; 0 when v is. */
static double half_width(double v, double df, double level)
{
	if (v <= 0)
		return 0;
	return quantile(level, df) * sqrt(v);
}

/* The references on one scale, and what every step reuses. */
struct fit {
	enum bisect_scale scale;
	double shift;
	struct side g, b;
	double sb2, df_b;
	double sref2, dfref;	/* the larger reference noise, for a commit */
};

static void fit_refs(const struct bisect_sample *g,
		     const struct bisect_sample *b,
		     const struct bisect_sample *x, struct fit *f)
{
	f->scale = all_positive(g) && all_positive(b) && all_positive(x) ?
		   BISECT_LOG : BISECT_RAW;
	f->shift = f->scale == BISECT_RAW ? g->v[0] : 0;
	side_fit(g, f->scale, f->shift, &f->g);
	side_fit(b, f->scale, f->shift, &f->b);
	between_fit(&f->g, &f->b, &f->sb2, &f->df_b);
	if (f->g.sw2 >= f->b.sw2) {
		f->sref2 = f->g.sw2;
		f->dfref = f->g.dfw;
	} else {
		f->sref2 = f->b.sw2;
		f->dfref = f->b.dfw;
	}
}

static double to_units(const struct fit *f, double m)
{
	return f->scale == BISECT_LOG ? exp(m) : m + f->shift;
}

static void noise_out(const struct fit *f, struct bisect_noise *n)
{
	n->scale = f->scale;
	n->sw_good = sqrt(f->g.sw2);
	n->sw_bad = sqrt(f->b.sw2);
	n->df_good = f->g.dfw;
	n->df_bad = f->b.dfw;
	n->sb = sqrt(f->sb2);
	n->df_b = f->df_b;
}

/*
 * theta's variance terms for a commit of n values in boots with squared
 * sizes summing to sum_r2, within variance sx2 (df dfx), at position th.
 */
static void theta_terms(const struct fit *f, double n, double sum_r2,
			double sx2, double dfx, double th, struct terms *t)
{
	double d = f->b.mean - f->g.mean, d2 = d * d;
	double ng = (double)f->g.n, nb = (double)f->b.n;

	t->n = 0;
	term(t, sx2 / n / d2, dfx);
	term(t, (1 - th) * (1 - th) * f->g.sw2 / ng / d2, f->g.dfw);
	term(t, th * th * f->b.sw2 / nb / d2, f->b.dfw);
	term(t, f->sb2 * (sum_r2 / (n * n) +
			  (1 - th) * (1 - th) * f->g.sum_r2 / (ng * ng) +
			  th * th * f->b.sum_r2 / (nb * nb)) / d2, f->df_b);
}

/*
 * Each verdict errs on one side only (good when the commit is at or
 * beyond the midpoint, partial when it is at a reference's level...), so
 * the two-sided interval at 1 - 2 alpha / looks bounds each error by
 * alpha / looks per look, alpha = 1 - confidence over all looks.
 */
static double step_level(const struct bisect_opts *o)
{
	return 1 - 2 * (1 - o->confidence) / (double)o->max_looks;
}

/*
 * The worse half-width of theta at positions 0 and 1 (or at th when
 * th >= 0) for a commit of nn values in boots with squared sizes summing
 * to s2, at the per-look level.
 */
static double plan_width(const struct fit *f, const struct bisect_opts *o,
			 double nn, double s2, double sx2, double dfx, double th)
{
	double w = 0, df, v;
	struct terms t;
	int k;

	for (k = 0; k < 2; k++) {
		theta_terms(f, nn, s2, sx2, dfx, th >= 0 ? th : k, &t);
		v = terms_sum(&t, &df);
		w = fmax(w, df > 0 || v <= 0 ?
			    half_width(v, df, step_level(o)) : INFINITY);
		if (th >= 0)
			break;
	}
	return w;
}

/*
 * The smallest next batch (from min_batch up to what the caps leave)
 * after which theta's half-width at the per-look level would be at most
 * target, for a commit now at n values (sum_r2) at position th. When
 * none reaches it, the boot effect dominates: if this boot can still
 * decide (the largest batch allowed gives less than 0.5), the smallest
 * within 2% of that one, else within 10% (more boots will help, not more
 * repetitions in this one); 0 when the caps leave nothing.
 * th < 0: plan for the worse of positions 0 and 1.
 */
static size_t plan_batch(const struct fit *f, const struct bisect_opts *o,
			 size_t n, double sum_r2, double sx2, double dfx,
			 double th, double target)
{
	size_t r, hi = o->max_batch;
	double wmax, w;

	if (n >= o->max_reps)
		return 0;
	if (o->max_reps - n < hi)
		hi = o->max_reps - n;
	if (hi < o->min_batch)
		return hi;
	wmax = plan_width(f, o, (double)(n + hi), sum_r2 + (double)(hi * hi),
			  sx2, dfx, th);
	for (r = o->min_batch; r <= hi; r++) {
		w = plan_width(f, o, (double)(n + r), sum_r2 + (double)(r * r),
			       sx2, dfx, th);
		if (w <= target || w <= (wmax < 0.5 ? 1.02 : 1.1) * wmax)
			return r;
	}
	return hi;
}

/*
 * Whether a commit at either reference's level can be decided within
 * the caps: max_looks boots sharing max_reps (at most max_batch each).
 */
static bool decidable(const struct fit *f, const struct bisect_opts *o)
{
	size_t k = o->max_looks, r = o->max_reps / k;

	if (r > o->max_batch)
		r = o->max_batch;
	if (r < 1)
		r = 1;
	return plan_width(f, o, (double)(k * r), (double)(k * r * r), f->sref2,
			  f->dfref, -1) < DECIDABLE;
}

static bool refs_usable(const struct bisect_sample *g,
			const struct bisect_sample *b)
{
	return sample_ok(g) && sample_ok(b) && g->n >= 2 && b->n >= 2;
}

int bisect_refs(const struct bisect_sample *g, const struct bisect_sample *b,
		const struct bisect_opts *o, struct bisect_refs *r)
{
	struct fit f;
	struct terms t = { .n = 0 };
	double d, v, df, h, band, looks, lo, hi, mg;
	size_t boots;

	memset(r, 0, sizeof(*r));
	if (!refs_usable(g, b))
		return -1;
	fit_refs(g, b, NULL, &f);
	noise_out(&f, &r->noise);
	d = f.b.mean - f.g.mean;
	term(&t, f.g.sw2 / (double)f.g.n, f.g.dfw);
	term(&t, f.b.sw2 / (double)f.b.n, f.b.dfw);
	term(&t, f.sb2 * (f.g.sum_r2 / ((double)f.g.n * (double)f.g.n) +
			  f.b.sum_r2 / ((double)f.b.n * (double)f.b.n)), f.df_b);
	v = terms_sum(&t, &df);
	looks = (double)(o->ref_max_boots - o->ref_boots + 1);
	r->level = 1 - (1 - o->ref_confidence) / looks;
	h = v > 0 && !(df > 0) ? INFINITY : half_width(v, df, r->level);
	lo = d - h;
	hi = d + h;
	r->good = to_units(&f, f.g.mean);
	r->bad = to_units(&f, f.b.mean);
	mg = fabs(r->good);
	if (f.scale == BISECT_LOG) {
		band = log1p(o->threshold);
		r->rel = expm1(d);
		r->rel_lo = expm1(lo);
		r->rel_hi = expm1(hi);
		r->diff = r->bad - r->good;
		r->diff_lo = r->good * r->rel_lo;
		r->diff_hi = r->good * r->rel_hi;
	} else {
		band = o->threshold * mg;
		r->diff = d;
		r->diff_lo = lo;
		r->diff_hi = hi;
		r->rel = mg > 0 ? d / mg : NAN;
		r->rel_lo = mg > 0 ? lo / mg : NAN;
		r->rel_hi = mg > 0 ? hi / mg : NAN;
	}
	boots = g->nb < b->nb ? g->nb : b->nb;
	if ((lo > band || hi < -band) && !decidable(&f, o) &&
	    boots < o->ref_max_boots) {
		/* A change, but boots differ so much that the references'
		 * boot spread must be known better before a step can tell. */
		r->state = REFS_MORE;
		r->need_boots = true;
	} else if (lo > band || hi < -band)
		r->state = REFS_CHANGE;
	else if (lo >= -band && hi <= band)
		r->state = REFS_NO_CHANGE;
	else if (boots >= o->ref_max_boots)
		r->state = REFS_NOT_SIGNIFICANT;
	else
		r->state = REFS_MORE;
	if (r->state == REFS_CHANGE) {
		r->first_reps = plan_batch(&f, o, 0, 0, f.sref2, f.dfref, -1,
					   PLAN_TARGET);
		r->undecidable = !decidable(&f, o);
	}
	return 0;
}

/* Where the next look should bring theta's half-width. */
static double look_target(double th, double margin)
{
	double want = fmax(fabs(th - 0.5),
			   fmin(th - margin, 1 - margin - th));

	return fmax(PLAN_FLOOR, PLAN_SHARE * want);
}

int bisect_step(const struct bisect_sample *g, const struct bisect_sample *b,
		const struct bisect_sample *x, const struct bisect_opts *o,
		struct bisect_step *s)
{
	struct fit f;
	struct side xs;
	struct terms t = { .n = 0 };
	double d, sx2, dfx, v, df, h, th, xv, xdf, xh;

	memset(s, 0, sizeof(*s));
	if (!refs_usable(g, b) || !sample_ok(x))
		return -1;
	fit_refs(g, b, x, &f);
	d = f.b.mean - f.g.mean;
	if (d == 0)
		return -1;
	side_fit(x, f.scale, f.shift, &xs);
	/* The commit's noise: its own pooled with the larger reference's. */
	dfx = f.dfref + (xs.n > 1 ? xs.dfw : 0);
	sx2 = dfx > 0 ? (f.dfref * f.sref2 + (xs.n > 1 ? xs.dfw * xs.sw2 : 0)) /
			dfx : 0;
	th = (xs.mean - f.g.mean) / d;
	theta_terms(&f, (double)xs.n, xs.sum_r2, sx2, dfx, th, &t);
	v = terms_sum(&t, &df);
	s->level = step_level(o);
	s->df = df;
	h = v > 0 && !(df > 0) ? INFINITY : half_width(v, df, s->level);
	s->theta = th;
	s->theta_lo = th - h;
	s->theta_hi = th + h;

	/* The commit's own level in metric units. */
	t.n = 0;
	term(&t, sx2 / (double)xs.n, dfx);
	term(&t, f.sb2 * xs.sum_r2 / ((double)xs.n * (double)xs.n), f.df_b);
	xv = terms_sum(&t, &xdf);
	xh = xv > 0 && !(xdf > 0) ? INFINITY : half_width(xv, xdf, s->level);
	s->mean = to_units(&f, xs.mean);
	s->mean_lo = to_units(&f, xs.mean - xh);
	s->mean_hi = to_units(&f, xs.mean + xh);

	if (s->theta_lo > o->margin && s->theta_hi < 1 - o->margin)
		s->verdict = BV_PARTIAL;
	else if (s->theta_hi < 0.5)
		s->verdict = BV_GOOD;
	else if (s->theta_lo > 0.5)
		s->verdict = BV_BAD;
	else if (x->nb >= o->max_looks || x->n >= o->max_reps)
		s->verdict = BV_INCONCLUSIVE;
	else {
		s->verdict = BV_MORE;
		s->next_reps = plan_batch(&f, o, xs.n, xs.sum_r2, sx2, dfx,
					  fmin(1, fmax(0, th)),
					  look_target(th, o->margin));
		if (s->next_reps == 0)
			s->verdict = BV_INCONCLUSIVE;
	}
	return 0;
}
