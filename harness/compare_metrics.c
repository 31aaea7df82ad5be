// SPDX-License-Identifier: GPL-2.0-only
#include "compare_metrics.h"

#include <fnmatch.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util.h"

static void add_note(struct cmp_pair *p, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

static void add_note(struct cmp_pair *p, const char *fmt, ...)
{
	char buf[512];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(buf, sizeof(buf), fmt, ap);
	va_end(ap);
	p->notes = xrealloc(p->notes, (p->nnotes + 1) * sizeof(*p->notes));
	p->notes[p->nnotes++] = xstrdup(buf);
}

static bool selected(const struct cmp_opts *o, const char *name)
{
	size_t i;

	if (!o->nmetrics)
		return true;
	for (i = 0; i < o->nmetrics; i++)
		if (!fnmatch(o->metrics[i], name, 0))
			return true;
	return false;
}

static void side_fill(struct cmp_side *s, const struct tb_case *c,
		      const char *name, const struct cmp_opts *o)
{
	s->v = xcalloc(c->nruns ? c->nruns : 1, sizeof(*s->v));
	s->n = case_metric_values(c, name, s->v, c->nruns);
	s->outlier = xcalloc(s->n ? s->n : 1, sizeof(*s->outlier));
	stats_summary(s->v, s->n, &s->s);
	stats_ci_mean(&s->s, o->confidence, &s->ci_lo, &s->ci_hi);
	s->noutliers = stats_outliers(s->v, s->n, o->outliers, s->outlier);
}

static double pooled_cv(const struct summary *a, const struct summary *b)
{
	double na = (double)a->n, nb = (double)b->n;

	if (!isfinite(a->cv) || !isfinite(b->cv))
		return NAN;
	return sqrt(((na - 1) * a->cv * a->cv + (nb - 1) * b->cv * b->cv) /
		    (na + nb - 2));
}

static void metric_test(struct cmp_metric *m, const struct cmp_opts *o)
{
	double alpha = 1 - o->confidence;

	m->tested = m->a.n >= VERDICT_MIN_N && m->b.n >= VERDICT_MIN_N;
	m->p = m->p_welch_holm = m->p_mw_holm = NAN;
	m->pct_change = m->cv_pooled = m->mde = NAN;
	m->ch.rel = m->ch.lo = m->ch.hi = NAN;
	m->w.p = m->mw.p = NAN;
	if (!m->tested)
		return;
	welch_test(&m->a.s, &m->b.s, o->confidence, &m->w);
	mann_whitney(m->a.v, m->a.n, m->b.v, m->b.n, &m->mw);
	change_ci(m->a.v, m->a.n, m->b.v, m->b.n, o->confidence, &m->ch);
	if (m->a.s.mean != 0)
		m->pct_change = m->b.s.mean / m->a.s.mean - 1;
	m->cv_pooled = pooled_cv(&m->a.s, &m->b.s);
	m->mde = min_detectable_change(m->cv_pooled, m->a.n, m->b.n, alpha,
				       o->power);
	m->n_needed = n_needed(m->cv_pooled, m->info.threshold, alpha,
			       o->power);
}

/* Holm within one family: the metrics whose direction is (not) neutral. */
static void holm_family(struct cmp_pair *p, bool neutral)
{
	double *pw = xcalloc(p->nm, sizeof(*pw)), *pm = xcalloc(p->nm, sizeof(*pm));
	double *aw = xcalloc(p->nm, sizeof(*aw)), *am = xcalloc(p->nm, sizeof(*am));
	size_t i;

	for (i = 0; i < p->nm; i++) {
		bool in = p->m[i].tested &&
			  (p->m[i].info.better == BETTER_NEUTRAL) == neutral;

		pw[i] = in ? p->m[i].w.p : NAN;
		pm[i] = in ? p->m[i].mw.p : NAN;
	}
	holm_adjust(pw, p->nm, aw);
	holm_adjust(pm, p->nm, am);
	for (i = 0; i < p->nm; i++) {
		if (isnan(pw[i]))
			continue;
		p->m[i].p_welch_holm = aw[i];
		p->m[i].p_mw_holm = am[i];
	}
	free(pw);
	free(pm);
	free(aw);
	free(am);
}

static void metric_verdict(struct cmp_metric *m, const struct cmp_opts *o)
{
	struct verdict_in in = {
		.na = m->a.n, .nb = m->b.n, .better = m->info.better,
		.threshold = m->info.threshold, .alpha = 1 - o->confidence,
		.diff = m->b.s.mean - m->a.s.mean, .ch = m->ch,
	};

	switch (o->test) {
	case CMP_TEST_MW:
		m->p = m->p_mw_holm;
		break;
	case CMP_TEST_BOTH:
		m->p = fmax(m->p_welch_holm, m->p_mw_holm);
		break;
	default:
		m->p = m->p_welch_holm;
	}
	in.p = m->p;
	m->verdict = verdict_decide(&in);
}

static void push_name(char ***v, size_t *n, char *name)
{
	*v = xrealloc(*v, (*n + 1) * sizeof(**v));
	(*v)[(*n)++] = xstrdup(name);
}

static int add_metric(struct cmp_pair *p, char *name, const struct cmp_opts *o,
		      char *err, size_t errlen)
{
	const json_t *extras[2] = { p->a->extra, p->b->extra };
	struct cmp_metric *m;

	p->m = xrealloc(p->m, (p->nm + 1) * sizeof(*p->m));
	m = &p->m[p->nm++];
	memset(m, 0, sizeof(*m));
	m->name = xstrdup(name);
	if (metric_info_get(name, extras, 2, o->ov, o->nov, o->threshold,
			    &m->info, err, errlen))
		return -1;
	side_fill(&m->a, p->a, name, o);
	side_fill(&m->b, p->b, name, o);
	metric_test(m, o);
	return 0;
}

/* Walk the two sorted name lists like a merge. */
static int collect_metrics(struct cmp_pair *p, const struct cmp_opts *o,
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

static void note_unsupported(struct cmp_pair *p, const struct tb_case *c,
			     const char *side, const struct cmp_opts *o)
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

static void note_runs(struct cmp_pair *p, const struct cmp_opts *o)
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
		add_note(p, "n = %zu vs %zu: small; the smallest Mann-Whitney p is %.3g, before Holm; use 5 or more runs",
			 na, nb, minp);
}

int compare_pair_compute(struct cmp_pair *p, const struct cmp_opts *o,
			 char *err, size_t errlen)
{
	size_t i;

	if (collect_metrics(p, o, err, errlen))
		return -1;
	holm_family(p, false);
	holm_family(p, true);
	for (i = 0; i < p->nm; i++)
		metric_verdict(&p->m[i], o);
	note_runs(p, o);
	note_unsupported(p, p->a, p->a_name, o);
	note_unsupported(p, p->b, p->b_name, o);
	return 0;
}

static void side_free(struct cmp_side *s)
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

void compare_pair_free(struct cmp_pair *p)
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
