// SPDX-License-Identifier: GPL-2.0-only
#include "history_check.h"

#include <ctype.h>
#include <gsl/gsl_cdf.h>
#include <math.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "util/util.h"

void history_check_opts_init(struct history_check_opts *o)
{
	memset(o, 0, sizeof(*o));
	edv_opts_init(&o->edv);
	o->confirm.confidence = 0.95;
	o->confirm.threshold = 0.02;
	o->confirm.power = 0.8;
	o->confirm_nights = 20;
	o->fail_on = HISTORY_FAIL_NEWEST;
}

int history_fail_on_parse(const char *s)
{
	if (!strcmp(s, "newest"))
		return HISTORY_FAIL_NEWEST;
	if (!strcmp(s, "regression"))
		return HISTORY_FAIL_REGRESSION;
	if (!strcmp(s, "none"))
		return HISTORY_FAIL_NONE;
	return -1;
}

const char *hcp_kind_name(enum hcp_kind k)
{
	static const char *const names[] = {
		[HCP_REGRESSION] = "regression",
		[HCP_IMPROVEMENT] = "improvement",
		[HCP_CHANGED] = "changed",
		[HCP_ENVIRONMENT] = "environment change",
		[HCP_REJECTED] = "rejected",
	};

	return (size_t)k < ARRAY_SIZE(names) ? names[k] : "rejected";
}

static bool all_hex(const char *s, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++)
		if (!isxdigit((unsigned char)s[i]) || isupper((unsigned char)s[i]))
			return false;
	return true;
}

static bool all_digits(const char *s)
{
	if (!*s)
		return false;
	for (; *s; s++)
		if (!isdigit((unsigned char)*s))
			return false;
	return true;
}

/* v6.8, v6.8.1, v6.8-rc1 */
static bool version_tag(const char *s)
{
	char *end;

	if (s[0] != 'v' || !isdigit((unsigned char)s[1]))
		return false;
	strtoul(s + 1, &end, 10);
	if (*end != '.' || !isdigit((unsigned char)end[1]))
		return false;
	strtoul(end + 1, &end, 10);
	if (*end == '.' && isdigit((unsigned char)end[1]))
		strtoul(end + 1, &end, 10);
	if (!strncmp(end, "-rc", 3) && isdigit((unsigned char)end[3]))
		strtoul(end + 3, &end, 10);
	return !*end;
}

bool history_git_rev(const char *s)
{
	size_t n, i;
	const char *g;

	if (!s || !*s || s[0] == '-')
		return false;
	n = strlen(s);
	for (i = 0; i < n; i++)
		if (!isalnum((unsigned char)s[i]) && !strchr("._/-", s[i]))
			return false;
	if (n >= 7 && n <= 40 && all_hex(s, n))
		return true;
	g = strrchr(s, '-');
	if (g && g[1] == 'g' && strlen(g + 2) >= 7 && strlen(g + 2) <= 40 &&
	    all_hex(g + 2, strlen(g + 2)))
		return true;
	if (!strncmp(s, "next-", 5) && strlen(s) == 13 && all_digits(s + 5))
		return true;
	return version_tag(s);
}

static const char *str_or(const char *s, const char *dflt)
{
	return s && *s ? s : dflt;
}

static bool same_str(const char *a, const char *b)
{
	return !strcmp(str_or(a, ""), str_or(b, ""));
}


/* A fingerprint change between used nights within one night of night k. */
static bool host_changed_near(const struct history_series *s,
			      const size_t *used, size_t nused, size_t k)
{
	size_t lo = k >= 2 ? k - 2 : 0, hi = k + 1 < nused ? k + 1 : nused - 1;
	size_t i;

	for (i = lo; i < hi; i++)
		if (!same_str(s->nights[used[i]].host_fingerprint,
			      s->nights[used[i + 1]].host_fingerprint))
			return true;
	return false;
}

static char *bisect_line(const struct history_series *s,
			 const struct history_cp *cp)
{
	const char *good = s->nights[cp->good].kernel_id;
	const char *bad = s->nights[cp->night].kernel_id;
	char buf[256];

	if (!history_git_rev(good) || !history_git_rev(bad) ||
	    !strcmp(good, bad))
		return NULL;
	if (cp->kind == HCP_REGRESSION)
		snprintf(buf, sizeof(buf), "git bisect start %s %s", bad, good);
	else if (cp->kind == HCP_IMPROVEMENT)
		snprintf(buf, sizeof(buf),
			 "git bisect start --term-old=slow --term-new=fast %s %s",
			 bad, good);
	else
		return NULL;
	return xstrdup(buf);
}

static enum hcp_kind kind_of(enum verdict v)
{
	switch (v) {
	case VERDICT_REGRESSION:
		return HCP_REGRESSION;
	case VERDICT_IMPROVEMENT:
		return HCP_IMPROVEMENT;
	case VERDICT_CHANGED:
		return HCP_CHANGED;
	default:
		return HCP_REJECTED;
	}
}

/* FNV-1a of the series' identity, so each gets its own stream. */
static uint64_t series_seed(const struct history_series *s, uint64_t seed)
{
	const char *parts[] = { s->host, s->suite, s->suite_hash, s->case_id,
				s->metric };
	uint64_t h = 1469598103934665603ULL ^ seed;
	size_t i;

	for (i = 0; i < ARRAY_SIZE(parts); i++) {
		const char *p = str_or(parts[i], "");

		for (; *p; p++)
			h = (h ^ (unsigned char)*p) * 1099511628211ULL;
		h = (h ^ 0xff) * 1099511628211ULL;
	}
	return h;
}

/*
 * Confirm the change starting at used night k against the used nights
 * [lo, k) and [k, hi), each cut to confirm_nights.
 */
static void confirm_one(const struct history_series *s,
			const struct history_check_opts *o,
			const struct history_result *r, const size_t *used,
			size_t lo, size_t k, size_t hi, struct history_cp *cp)
{
	size_t w = o->confirm_nights ? o->confirm_nights : SIZE_MAX;

	if (k - lo > w)
		lo = k - w;
	if (hi - k > w)
		hi = k + w;
	cp->night = used[k];
	cp->good = used[k - 1];
	cp->a_from = used[lo];
	cp->b_to = hi < r->n_used ? used[hi] : s->n_nights;
	history_confirm(s, cp->a_from, cp->night, cp->b_to, r->better,
			&o->confirm, &cp->c);
	cp->kind = kind_of(cp->c.verdict);
	cp->kernel_changed = !same_str(s->nights[cp->good].kernel_id,
				       s->nights[cp->night].kernel_id);
	cp->host_changed = host_changed_near(s, used, r->n_used, k);
	if (cp->kind != HCP_REJECTED && cp->host_changed)
		cp->kind = HCP_ENVIRONMENT;
	cp->bisect = bisect_line(s, cp);
}

static void confirm_cps(const struct history_series *s,
			const struct history_check_opts *o,
			struct history_result *r, const size_t *used,
			const size_t *k, size_t ncp)
{
	size_t i;

	for (i = 0; i < ncp; i++)
		confirm_one(s, o, r, used, i ? k[i - 1] : 0, k[i],
			    i + 1 < ncp ? k[i + 1] : r->n_used, &r->cp[i]);
}

/*
 * Is x[n-1] beyond every night mean of x[lo, n-1) but the outlier nights
 * (the MAD rule), in either direction, and, from 3 such nights on, outside
 * their prediction interval for one more night (Student t at the
 * confidence: mean +- t s sqrt(1 + 1/k)), so that night-to-night noise
 * alone rarely calls tonight out?
 */
static bool newest_extreme(const double *x, size_t lo, size_t n,
			   double confidence)
{
	size_t k = n - 1 - lo, i, m = 0;
	bool *out = xcalloc(k + 1, sizeof(*out));
	double *v = xmalloc((k + 1) * sizeof(*v));
	double mn = INFINITY, mx = -INFINITY, t = x[n - 1];
	struct summary s;
	bool beyond;

	stats_outliers(x + lo, k, OUTLIER_MAD, out);
	for (i = 0; i < k; i++) {
		if (out[i])
			continue;
		v[m++] = x[lo + i];
		mn = fmin(mn, x[lo + i]);
		mx = fmax(mx, x[lo + i]);
	}
	beyond = t > mx || t < mn;
	if (beyond && m >= 3 && !stats_summary(v, m, &s)) {
		double h = gsl_cdf_tdist_Pinv(0.5 + confidence / 2, (double)(m - 1)) *
			   s.stddev * sqrt(1 + 1.0 / (double)m);

		beyond = fabs(t - s.mean) > h;
	}
	free(v);
	free(out);
	return beyond;
}

/*
 * The newest-night test: E-Divisive cannot give one night p below about
 * 1/T, so before 1/alpha nights of history (and after a wilder earlier
 * night) tonight could never gate. When no change point starts at the
 * newest night, tonight is a candidate of its own if its mean lies beyond
 * every (non-outlier) night of the current segment; it is then confirmed
 * on the repetitions like any other, and kept only when confirmed.
 */
static void newest_candidate(const struct history_series *s,
			     const struct history_check_opts *o,
			     struct history_result *r, const size_t *used,
			     const double *x, size_t last_k)
{
	size_t n = r->n_used, w = o->confirm_nights ? o->confirm_nights : SIZE_MAX;
	size_t lo = last_k;
	struct history_cp cp = { 0 };

	if (n < HISTORY_NEWEST_MIN + 1 || last_k == n - 1)
		return;
	if (n - 1 - lo > w)
		lo = n - 1 - w;
	if (n - 1 - lo < HISTORY_NEWEST_MIN || !newest_extreme(x, lo, n, o->confirm.confidence))
		return;
	confirm_one(s, o, r, used, lo, n - 1, n, &cp);
	if (cp.kind == HCP_REJECTED) {
		free(cp.bisect);
		return;
	}
	cp.q = cp.p_split = NAN;
	cp.newest_test = true;
	r->cp = xrealloc(r->cp, (r->ncp + 1) * sizeof(*r->cp));
	r->cp[r->ncp++] = cp;
}

static void gate_state(struct history_result *r)
{
	size_t i;

	for (i = r->ncp; i-- > 0;) {
		const struct history_cp *cp = &r->cp[i];

		if (cp->kind == HCP_REJECTED || cp->kind == HCP_ENVIRONMENT)
			continue;
		r->open_regression = cp->kind == HCP_REGRESSION;
		break;
	}
	r->newest_regression = r->ncp &&
			       r->cp[r->ncp - 1].night == r->newest &&
			       r->cp[r->ncp - 1].kind == HCP_REGRESSION;
}

void history_check_series(const struct history_series *s,
			  const struct history_check_opts *o,
			  struct history_result *r)
{
	size_t *used = xmalloc((s->n_nights ? s->n_nights : 1) * sizeof(*used));
	double *x = xmalloc((s->n_nights ? s->n_nights : 1) * sizeof(*x));
	struct edv_opts eo = o->edv;
	struct edv_cp *ec;
	size_t i, n = 0, ncp, *k;

	memset(r, 0, sizeof(*r));
	r->s = s;
	r->better = history_series_better(s);
	for (i = 0; i < s->n_nights; i++) {
		double m = history_night_mean(&s->nights[i]);

		if (!isfinite(m)) {
			r->n_overflow += s->nights[i].n > 0;
			continue;
		}
		used[n] = i;
		x[n++] = m;
	}
	r->n_used = n;
	r->newest = n ? used[n - 1] : SIZE_MAX;
	eo.seed = series_seed(s, o->edv.seed);
	edivisive(x, n, &eo, &ec, &ncp);
	k = xmalloc((ncp ? ncp : 1) * sizeof(*k));
	for (i = 0; i < ncp; i++)
		k[i] = ec[i].index;
	r->cp = xcalloc(ncp ? ncp : 1, sizeof(*r->cp));
	r->ncp = ncp;
	for (i = 0; i < ncp; i++) {
		r->cp[i].q = ec[i].q;
		r->cp[i].p_split = ec[i].p;
	}
	confirm_cps(s, o, r, used, k, ncp);
	newest_candidate(s, o, r, used, x, ncp ? k[ncp - 1] : 0);
	gate_state(r);
	free(k);
	free(ec);
	free(x);
	free(used);
}

struct work {
	const struct history_series *v;
	const struct history_check_opts *o;
	struct history_result *r;
	size_t n;
	atomic_size_t next;
};

static void *worker(void *arg)
{
	struct work *w = arg;
	size_t i;

	while ((i = atomic_fetch_add(&w->next, 1)) < w->n)
		history_check_series(&w->v[i], w->o, &w->r[i]);
	return NULL;
}

struct history_result *history_check_all(const struct history_series *v,
					 size_t n,
					 const struct history_check_opts *o)
{
	struct work w = { v, o, xcalloc(n ? n : 1, sizeof(*w.r)), n, 0 };
	long cpus = sysconf(_SC_NPROCESSORS_ONLN);
	unsigned t, nt = o->threads ? o->threads : cpus > 0 ? (unsigned)cpus : 1;
	pthread_t *th;

	if (nt > n)
		nt = n ? (unsigned)n : 1;
	th = xcalloc(nt, sizeof(*th));
	for (t = 1; t < nt; t++)
		if (pthread_create(&th[t], NULL, worker, &w)) {
			nt = t;
			break;
		}
	worker(&w);
	for (t = 1; t < nt; t++)
		pthread_join(th[t], NULL);
	free(th);
	return w.r;
}

void history_results_free(struct history_result *r, size_t n)
{
	size_t i, j;

	for (i = 0; r && i < n; i++) {
		for (j = 0; j < r[i].ncp; j++)
			free(r[i].cp[j].bisect);
		free(r[i].cp);
	}
	free(r);
}

bool history_result_fails(const struct history_result *r,
			  enum history_fail_on f)
{
	switch (f) {
	case HISTORY_FAIL_NEWEST:
		return r->newest_regression;
	case HISTORY_FAIL_REGRESSION:
		return r->open_regression;
	default:
		return false;
	}
}

static void pct(char *buf, size_t len, double v)
{
	if (isfinite(v))
		snprintf(buf, len, "%+.1f%%", v * 100);
	else
		snprintf(buf, len, "n/a");
}

char *history_cp_text(const struct history_result *r,
		      const struct history_cp *cp)
{
	const struct history_series *s = r->s;
	const struct history_night *bad = &s->nights[cp->night];
	const struct history_night *good = &s->nights[cp->good];
	const struct history_confirm *c = &cp->c;
	char rel[32], lo[32], hi[32], mde[32], extra[400] = "", how[96], drop[80] = "";
	char *out;
	size_t len;

	pct(rel, sizeof(rel), c->ch.rel);
	pct(lo, sizeof(lo), c->ch.lo);
	pct(hi, sizeof(hi), c->ch.hi);
	if (isfinite(c->mde))
		snprintf(mde, sizeof(mde), "%.1f%%", c->mde * 100);
	else
		snprintf(mde, sizeof(mde), "n/a");
	if (cp->kind == HCP_ENVIRONMENT)
		snprintf(extra, sizeof(extra),
			 "; host fingerprint changed (%.12s -> %.12s): not blamed on the kernel",
			 str_or(good->host_fingerprint, "?"),
			 str_or(bad->host_fingerprint, "?"));
	else if (cp->kind == HCP_REJECTED && c->night_verdict != VERDICT_TOO_FEW)
		snprintf(extra, sizeof(extra),
			 "; repetitions say %s, night means say %s",
			 verdict_name(c->reps_verdict),
			 verdict_name(c->night_verdict));
	else if (cp->kind == HCP_REJECTED)
		snprintf(extra, sizeof(extra), "; repetitions say %s",
			 verdict_name(c->verdict));
	else if (!cp->kernel_changed)
		snprintf(extra, sizeof(extra),
			 "; kernel unchanged across it (%s)",
			 str_or(bad->kernel_id, "?"));
	if (cp->newest_test)
		snprintf(how, sizeof(how), "newest-night test");
	else
		snprintf(how, sizeof(how), "split p %.3g", cp->p_split);
	if (c->outliers_a + c->outliers_b)
		snprintf(drop, sizeof(drop), ", %zu outlier night%s left out",
			 c->outliers_a + c->outliers_b,
			 c->outliers_a + c->outliers_b == 1 ? "" : "s");
	len = 1024 + strlen(str_or(bad->started, "?")) +
	      2 * strlen(str_or(bad->kernel_id, "?")) +
	      strlen(str_or(good->kernel_id, "?"));
	out = xmalloc(len);
	snprintf(out, len,
		 "%s at night %s (kernel %s): %s [%s, %s], mean %.6g -> %.6g over %zu vs %zu nights (%zu vs %zu repetitions%s), p %.2g (%s), smallest detectable %s; last good %s, first bad %s%s",
		 hcp_kind_name(cp->kind), str_or(bad->started, "?"),
		 str_or(bad->kernel_id, "?"), rel, lo, hi, c->a.mean, c->b.mean,
		 c->nights_a, c->nights_b, c->na, c->nb, drop, c->p, how, mde,
		 str_or(good->kernel_id, "?"), str_or(bad->kernel_id, "?"),
		 extra);
	return out;
}
