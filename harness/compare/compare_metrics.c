// SPDX-License-Identifier: GPL-2.0-only
#include "compare_metrics.h"

#include <fnmatch.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util/util.h"

static void add_note(struct compare_pair *p, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

static void add_note(struct compare_pair *p, const char *fmt, ...)
{
	char buf[512];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(buf, sizeof(buf), fmt, ap);
	va_end(ap);
	p->notes = xrealloc(p->notes, (p->nnotes + 1) * sizeof(*p->notes));
	p->notes[p->nnotes++] = xstrdup(buf);
}

static bool selected(const struct compare_opts *o, const char *name)
{
	size_t i;

	if (!o->nmetrics)
		return true;
	for (i = 0; i < o->nmetrics; i++)
		if (!fnmatch(o->metrics[i], name, 0))
			return true;
	return false;
}

static double counted_min(const struct tb_case *c, const char *name)
{
	double lo = NAN;
	size_t i;

	for (i = 0; i < c->nruns; i++) {
		const struct metric *m = metric_set_find(&c->runs[i].counted_pct, name);

		if (c->runs[i].status == RUN_OK && m && !(m->value >= lo))
			lo = m->value;
	}
	return lo;
}

static void side_fill(struct compare_side *s, const struct tb_case *c,
		      const char *name, const struct compare_opts *o)
{
	s->counted_min = counted_min(c, name);
	s->v = xcalloc(c->nruns ? c->nruns : 1, sizeof(*s->v));
	s->n = case_metric_values(c, name, s->v, c->nruns);
	s->outlier = xcalloc(s->n ? s->n : 1, sizeof(*s->outlier));
	stats_summary(s->v, s->n, &s->s);
	stats_ci_mean(&s->s, o->confidence, &s->ci_lo, &s->ci_hi);
	s->noutliers = stats_outliers(s->v, s->n, o->outliers, s->outlier);
}

bool compare_metric_all_zero(const struct compare_metric *m)
{
	return m->a.n && m->b.n && m->a.s.min == 0 && m->a.s.max == 0 &&
	       m->b.s.min == 0 && m->b.s.max == 0;
}

/* What needs no family: the two-sample tests at the nominal level. */
static void metric_test(struct compare_metric *m, const struct compare_opts *o)
{
	m->tested = m->a.n >= VERDICT_MIN_N && m->b.n >= VERDICT_MIN_N;
	m->judged = m->tested && !compare_metric_all_zero(m) &&
		    (!m->info.gauge || o->judge_gauges);
	m->family = 1;
	m->p = m->p_welch_adj = m->p_mw_adj = NAN;
	m->mde = m->target = NAN;
	m->ch.rel = m->ch.lo = m->ch.hi = NAN;
	m->w.p = m->mw.p = NAN;
	if (!m->tested)
		return;
	welch_test(&m->a.s, &m->b.s, o->confidence, &m->w);
	mann_whitney(m->a.v, m->a.n, m->b.v, m->b.n, &m->mw);
}

/* Size of each judged metric's family: directional or neutral. */
static void count_families(struct compare_pair *p)
{
	size_t i, n[2] = { 0, 0 };

	for (i = 0; i < p->nm; i++)
		if (p->m[i].judged)
			n[p->m[i].info.better == BETTER_NEUTRAL]++;
	for (i = 0; i < p->nm; i++)
		if (p->m[i].judged)
			p->m[i].family = n[p->m[i].info.better == BETTER_NEUTRAL];
}

static double bonferroni(double p, size_t m)
{
	return isnan(p) ? NAN : fmin(1, p * (double)m);
}

/*
 * The change, its interval at the family's level, the adjusted p of the
 * same test, the deciding p, the power of the rule and the verdict.
 */
static void metric_decide(struct compare_metric *m,
			  const struct compare_opts *o)
{
	double alpha = 1 - o->confidence, a_adj = alpha / (double)m->family;
	struct verdict_in in = {
		.na = m->a.n, .nb = m->b.n, .better = m->info.better,
		.threshold = m->info.threshold, .alpha = alpha,
	};

	if (m->tested) {
		change_ci(m->a.v, m->a.n, m->b.v, m->b.n, 1 - a_adj, &m->ch);
		m->p_welch_adj = bonferroni(m->ch.w.p, m->family);
		m->p_mw_adj = bonferroni(m->mw.p, m->family);
		m->target = 2 * m->info.threshold;
		m->mde = rule_detectable_change(&m->ch, m->a.n, m->b.n,
						m->info.threshold, a_adj, o->power);
		m->n_needed = rule_n_needed(&m->ch, m->info.threshold, m->target,
					    a_adj, o->power);
	}
	switch (o->test) {
	case COMPARE_TEST_MW:
		m->p = m->p_mw_adj;
		break;
	case COMPARE_TEST_BOTH:
		m->p = fmax(m->p_welch_adj, m->p_mw_adj);
		break;
	default:
		m->p = m->p_welch_adj;
	}
	in.p = m->p;
	in.diff = m->ch.w.diff;
	in.ch = m->ch;
	m->verdict = m->tested && !m->judged && m->info.gauge &&
				     !compare_metric_all_zero(m)
			     ? VERDICT_LEVEL
			     : verdict_decide(&in);
}

/* Values no statistic can hold, or a GSL failure: refuse, naming them. */
static int metric_sane(const struct compare_pair *p,
		       const struct compare_metric *m, char *err, size_t errlen)
{
	const char *gsl = stats_gsl_error();
	double bad;

	if (stats_check_values(m->a.v, m->a.n, &bad) ||
	    stats_check_values(m->b.v, m->b.n, &bad)) {
		snprintf(err, errlen,
			 "%s: metric %s has the value %g; statistics need finite values below %g in magnitude. Check the results file (a corrupt or hand-edited value?) or leave the metric out with -m",
			 p->title, m->name, bad, STATS_MAX_ABS);
		return -1;
	}
	if (gsl) {
		snprintf(err, errlen,
			 "%s: metric %s: the statistics failed (%s); please report this with the results files",
			 p->title, m->name, gsl);
		return -1;
	}
	return 0;
}

static void push_name(char ***v, size_t *n, char *name)
{
	*v = xrealloc(*v, (*n + 1) * sizeof(**v));
	(*v)[(*n)++] = xstrdup(name);
}

static int add_metric(struct compare_pair *p, char *name,
		      const struct compare_opts *o, char *err, size_t errlen)
{
	const json_t *extras[2] = { p->a->extra, p->b->extra };
	struct compare_metric *m;

	p->m = xrealloc(p->m, (p->nm + 1) * sizeof(*p->m));
	m = &p->m[p->nm++];
	memset(m, 0, sizeof(*m));
	m->name = xstrdup(name);
	if (metric_info_get(name, extras, 2, o->ov, o->nov, o->threshold,
			    &m->info, err, errlen))
		return -1;
	side_fill(&m->a, p->a, name, o);
	side_fill(&m->b, p->b, name, o);
	if (metric_sane(p, m, err, errlen))
		return -1;
	metric_test(m, o);
	return 0;
}

/* Walk the two sorted name lists like a merge. */
static int collect_metrics(struct compare_pair *p, const struct compare_opts *o,
			   char *err, size_t errlen)
{
	char **na, **nb;
	size_t ka = case_metric_names(p->a, &na), kb = case_metric_names(p->b, &nb);
	size_t i = 0, j = 0;
	int rc = 0;

	while (!rc && (i < ka || j < kb)) {
		int d = i == ka ? 1 : j == kb ? -1 : strcmp(na[i], nb[j]);

		if (d < 0) {
			if (selected(o, na[i]))
				push_name(&p->only_a, &p->nonly_a, na[i]);
			i++;
		} else if (d > 0) {
			if (selected(o, nb[j]))
				push_name(&p->only_b, &p->nonly_b, nb[j]);
			j++;
		} else {
			if (selected(o, na[i]))
				rc = add_metric(p, na[i], o, err, errlen);
			i++;
			j++;
		}
	}
	free(na);
	free(nb);
	return rc;
}

static size_t bad_runs(const struct tb_case *c, char *why, size_t len)
{
	size_t i, n = 0, off = 0;

	why[0] = 0;
	for (i = 0; i < c->nruns; i++) {
		const struct tb_run *r = &c->runs[i];

		if (r->status == RUN_OK)
			continue;
		n++;
		if (off < len)
			off += snprintf(why + off, len - off, "%s#%zu %s%s%s",
					off ? ", " : "", i,
					run_status_name(r->status),
					r->reason ? ": " : "",
					r->reason ? r->reason : "");
	}
	return n;
}

static void note_unsupported(struct compare_pair *p, const struct tb_case *c,
			     const char *side, const struct compare_opts *o)
{
	struct note_set seen = { 0 };
	size_t i, j;

	for (i = 0; i < c->nruns; i++)
		for (j = 0; j < c->runs[i].unsupported.n; j++) {
			const struct note *nt = &c->runs[i].unsupported.v[j];

			if (note_set_find(&seen, nt->name) || !selected(o, nt->name))
				continue;
			note_set_put(&seen, nt->name, nt->reason);
			add_note(p, "%s: %s not measured (%s)", side, nt->name,
				 nt->reason);
		}
	note_set_free(&seen);
}

static void share_text(double pct, char *buf, size_t len)
{
	if (isnan(pct))
		snprintf(buf, len, "not a counter");
	else
		snprintf(buf, len, "%.2f%%", pct);
}

/* perf prints the share beside a scaled count; a comparison of scaled
 * counts says so too, and warns where one rests on a small part of a run. */
static void note_multiplexed(struct compare_pair *p)
{
	char a[32], b[32];
	size_t i;

	for (i = 0; i < p->nm; i++) {
		const struct compare_metric *m = &p->m[i];
		double lo = fmin(m->a.counted_min, m->b.counted_min);

		if (!(lo < COUNTED_FULL_PCT))
			continue;
		share_text(m->a.counted_min, a, sizeof(a));
		share_text(m->b.counted_min, b, sizeof(b));
		add_note(p, "%s%s: counted %s of the time at worst in %s, %s in %s "
			 "(multiplexed; values scaled by enabled/running)%s",
			 lo < COUNTED_WARN_PCT ? "warning: " : "", m->name, a,
			 p->a_name, b, p->b_name, lo < COUNTED_WARN_PCT ?
			 ": so little that the scaled value extrapolates from a small part of the run" : "");
	}
}

static void note_runs(struct compare_pair *p, const struct compare_opts *o)
{
	size_t na = case_ok_runs(p->a), nb = case_ok_runs(p->b);
	char why[400];
	double minp;

	p->a_bad = bad_runs(p->a, why, sizeof(why));
	if (p->a_bad)
		add_note(p, "%s: %zu of %zu runs not ok, left out: %s",
			 p->a_name, p->a_bad, p->a->nruns, why);
	p->b_bad = bad_runs(p->b, why, sizeof(why));
	if (p->b_bad)
		add_note(p, "%s: %zu of %zu runs not ok, left out: %s",
			 p->b_name, p->b_bad, p->b->nruns, why);
	if (na < VERDICT_MIN_N || nb < VERDICT_MIN_N) {
		add_note(p, "n = %zu vs %zu: fewer than %d ok runs, no statistics (rerun with -r 5 or more)",
			 na, nb, VERDICT_MIN_N);
		return;
	}
	if (na >= 5 && nb >= 5)
		return;
	minp = mann_whitney_min_p(na, nb);
	if (minp >= 1 - o->confidence)
		add_note(p, "n = %zu vs %zu: Mann-Whitney cannot reach significance at this n (smallest p = %.3g); use 5 or more runs",
			 na, nb, minp);
	else
		add_note(p, "n = %zu vs %zu: small; the smallest Mann-Whitney p is %.3g, before adjustment; use 5 or more runs",
			 na, nb, minp);
}

int compare_pair_compute(struct compare_pair *p, const struct compare_opts *o,
			 char *err, size_t errlen)
{
	size_t i;

	stats_gsl_trap();
	stats_gsl_clear();
	if (collect_metrics(p, o, err, errlen))
		return -1;
	count_families(p);
	for (i = 0; i < p->nm; i++) {
		metric_decide(&p->m[i], o);
		if (metric_sane(p, &p->m[i], err, errlen))
			return -1;
	}
	note_runs(p, o);
	note_multiplexed(p);
	note_unsupported(p, p->a, p->a_name, o);
	note_unsupported(p, p->b, p->b_name, o);
	return 0;
}

static void side_free(struct compare_side *s)
{
	free(s->v);
	free(s->outlier);
}

static void strv_free(char **v, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++)
		free(v[i]);
	free(v);
}

void compare_pair_free(struct compare_pair *p)
{
	size_t i;

	for (i = 0; i < p->nm; i++) {
		free(p->m[i].name);
		side_free(&p->m[i].a);
		side_free(&p->m[i].b);
	}
	free(p->m);
	free(p->title);
	free(p->a_name);
	free(p->b_name);
	strv_free(p->only_a, p->nonly_a);
	strv_free(p->only_b, p->nonly_b);
	strv_free(p->notes, p->nnotes);
	memset(p, 0, sizeof(*p));
}
