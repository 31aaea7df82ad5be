// SPDX-License-Identifier: GPL-2.0-only
/*
 * ministat format: FreeBSD ministat(1)'s table (%13.8g columns) and its
 * "Difference at 95.0% confidence" lines, computed with Welch's t instead
 * of ministat's pooled Student t. Like ministat, a difference is only
 * called one when the test proves it; unlike ministat we still print its
 * size and interval then, and say what the data can and cannot rule out.
 */
#include "compare_format.h"

#include <math.h>

static void ministat_row(FILE *out, char sym, const struct summary *s)
{
	fprintf(out, "%c %3zu %13.8g %13.8g %13.8g %13.8g %13.8g\n", sym, s->n,
		s->min, s->max, s->median, s->mean, s->stddev);
}

static void ministat_outliers(FILE *out, char sym, const struct cmp_side *s,
			      const struct cmp_opts *o)
{
	char buf[600];

	if (s->noutliers)
		fprintf(out, "%c outliers (%s, kept): %s\n", sym,
			outlier_method_name(o->outliers),
			cf_outliers(s, buf, sizeof(buf)));
}

static void ministat_difference(FILE *out, const struct cmp_metric *m,
				const struct cmp_opts *o)
{
	double half = (m->w.ci_hi - m->w.ci_lo) / 2, base = m->a.s.mean;
	char ci[64], pct[32], pw[32], pm[32];

	if (m->p < 1 - o->confidence)
		fprintf(out, "Difference at %.1f%% confidence\n",
			o->confidence * 100);
	else
		fprintf(out, "No difference proven at %.1f%% confidence\n",
			o->confidence * 100);
	fprintf(out, "\t%g +/- %g\n", m->w.diff, half);
	if (base != 0)
		fprintf(out, "\t%g%% +/- %g%%\n", m->w.diff * 100 / base,
			half * 100 / base);
	fprintf(out, "\t(Welch's t, df = %.4g, p %s, Holm %s; Mann-Whitney U = %g, p %s, %s)\n",
		m->w.df, cf_p_eq(m->w.p, pw, sizeof(pw)),
		cf_p_eq(m->p_welch_holm, pct, sizeof(pct)), m->mw.u,
		cf_p_eq(m->mw.p, pm, sizeof(pm)), m->mw.exact ? "exact" : "normal approx.");
	if (m->ch.method != CHANGE_NONE)
		fprintf(out, "\tchange %s %s (%s scale)\n",
			cf_pct(m->ch.rel, pct, sizeof(pct)),
			cf_ci(m->ch.lo, m->ch.hi, ci, sizeof(ci)),
			change_method_name(m->ch.method));
}

static void ministat_metric(FILE *out, const struct comparison *c,
			    const struct cmp_pair *p, const struct cmp_metric *m)
{
	char why[600];

	fprintf(out, "\n%s: %s (%s%s, threshold %g%%)\n", p->title, m->name,
		better_name(m->info.better),
		m->info.better == BETTER_NEUTRAL ? ": no better direction" :
		" is better", m->info.threshold * 100);
	fprintf(out, "x %s\n+ %s\n", p->a_name, p->b_name);
	fprintf(out, "    N %13s %13s %13s %13s %13s\n", "Min", "Max", "Median",
		"Avg", "Stddev");
	ministat_row(out, 'x', &m->a.s);
	ministat_row(out, '+', &m->b.s);
	ministat_outliers(out, 'x', &m->a, &c->opts);
	ministat_outliers(out, '+', &m->b, &c->opts);
	if (m->tested)
		ministat_difference(out, m, &c->opts);
	fprintf(out, "Verdict: %s (%s)\n", verdict_name(m->verdict),
		cf_why(m, &c->opts, why, sizeof(why)));
}

void compare_print_ministat(const struct comparison *c, FILE *out)
{
	size_t i, j;

	cf_print_sources(c, out, "");
	if (c->ndiffs) {
		fputs("environment differences:\n", out);
		cf_print_diffs(c, out, "  ");
	}
	for (i = 0; i < c->npairs; i++) {
		const struct cmp_pair *p = &c->pairs[i];

		for (j = 0; j < p->nm; j++)
			ministat_metric(out, c, p, &p->m[j]);
		for (j = 0; j < p->nnotes; j++)
			fprintf(out, "note: %s\n", p->notes[j]);
	}
	if (c->nun) {
		fputs("\nunmatched cases (not compared):\n", out);
		cf_print_unmatched(c, out, "  ");
	}
}
