// SPDX-License-Identifier: GPL-2.0-only
/*
 * ministat and welch formats.
 *
 * ministat: per metric, exactly what ministat(1) prints for the two
 * samples (checked against Debian's ministat 20150715, see
 * tests/fixtures/compare/ministat/README): the x/+ distribution plot 74
 * columns wide, the N Min Max Median Avg Stddev table (Median is the
 * upper middle value for even n, as ministat takes it), and "Difference
 * at 95.0% confidence" from Student's t with the pooled standard
 * deviation and ministat's t table (3 decimals; df > 100 uses the normal
 * quantile; its 99.5% column holds the 99.8% quantiles, and so does
 * ours). Our own lines follow the block, each starting "thpbench:".
 *
 * welch: the same table, then the difference from Welch's t (unequal
 * variances, as thpbench's tests use), unadjusted, so that the heading
 * and its own d +/- e always agree; then Mann-Whitney, the change on its
 * scale and the verdict.
 */
#include "compare_format.h"
#include "compare_print.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include <gsl/gsl_cdf.h>

#include "util/util.h"

#define MS_WIDTH 74
#define MS_NSYM 4

/* ministat's statistics of one side: its median is the upper middle. */
struct ms_set {
	double *sorted;
	size_t n;
	double min, max, median, avg, sd;
};

static int double_order(const void *x, const void *y)
{
	double a = *(const double *)x, b = *(const double *)y;

	return (a > b) - (a < b);
}

static void ms_set_init(struct ms_set *s, const struct compare_side *side)
{
	s->n = side->n;
	s->sorted = xmalloc((s->n ? s->n : 1) * sizeof(*s->sorted));
	memcpy(s->sorted, side->v, s->n * sizeof(*s->sorted));
	qsort(s->sorted, s->n, sizeof(*s->sorted), double_order);
	s->min = s->n ? s->sorted[0] : NAN;
	s->max = s->n ? s->sorted[s->n - 1] : NAN;
	s->median = s->n ? s->sorted[s->n / 2] : NAN;
	s->avg = side->s.mean;
	s->sd = side->s.stddev;
}

/*
 * The t quantile ministat uses at this confidence and df: its table is
 * the quantiles rounded to 3 decimals (the normal one beyond df 100), and
 * its 99.5% column holds the 99.8% quantiles. Measured against Debian's
 * ministat for every df from 4 to 102 at each of its six levels (e of
 * "d +/- e" over the pooled s sqrt(1/n1 + 1/n2)): all agree but six
 * entries of the 99.5% column, which differ in the last digit and are
 * taken as ministat has them.
 */
static double ministat_t(double confidence, size_t df)
{
	static const double levels[] = { 0.80, 0.90, 0.95, 0.98, 0.99, 0.995 };
	static const double t995[] = { 4.782, 4.499, 4.296, 4.143, 4.024, 3.929 };
	double p = 0.5 + confidence / 2, q;
	bool table = false;
	size_t i;

	for (i = 0; i < ARRAY_SIZE(levels); i++)
		table |= fabs(confidence - levels[i]) < 1e-9;
	if (!table)
		return gsl_cdf_tdist_Pinv(p, (double)df);
	if (fabs(confidence - 0.995) < 1e-9) {
		if (df >= 7 && df <= 12)
			return t995[df - 7];
		p = 0.999;
	}
	q = df > 100 ? gsl_cdf_ugaussian_Pinv(p) : gsl_cdf_tdist_Pinv(p, (double)df);
	return round(q * 1000) / 1000;
}

struct ms_plot {
	double lo, hi, x0, dx;
	int height;
	unsigned char *data;	/* rows of MS_WIDTH cells, bit 1: x, bit 2: + */
	char bar[MS_WIDTH];
};

static void plot_extend(struct ms_plot *pl, double v)
{
	if (v < pl->lo)
		pl->lo = v;
	if (v > pl->hi)
		pl->hi = v;
}

static int plot_col(const struct ms_plot *pl, double v)
{
	int x = (int)((v - pl->x0) / pl->dx);

	return x < 0 ? 0 : x >= MS_WIDTH ? MS_WIDTH - 1 : x;
}

/* Stack the points of one set into columns; as ministat does, the plot's
 * height is that of the last set drawn. */
static void plot_set(struct ms_plot *pl, const struct ms_set *s, int sym)
{
	int i, j = 0, m = 1, x, prev = -1;
	size_t k;

	for (k = 0; k < s->n; k++) {
		x = plot_col(pl, s->sorted[k]);
		j = x == prev ? j + 1 : 1;
		prev = x;
		m = j > m ? j : m;
	}
	m++;
	if (m > pl->height) {
		pl->data = xrealloc(pl->data, (size_t)m * MS_WIDTH);
		memset(pl->data + (size_t)pl->height * MS_WIDTH, 0,
		       (size_t)(m - pl->height) * MS_WIDTH);
	}
	pl->height = m;
	prev = -1;
	for (k = 0; k < s->n; k++) {
		x = plot_col(pl, s->sorted[k]);
		j = x == prev ? j + 1 : 1;
		prev = x;
		pl->data[j * MS_WIDTH + x] |= (unsigned char)sym;
	}
	if (!isnan(s->sd)) {
		x = plot_col(pl, s->avg - s->sd);
		m = plot_col(pl, s->avg + s->sd);
		pl->bar[m] = '|';
		pl->bar[x] = '|';
		for (i = x + 1; i < m; i++)
			if (!pl->bar[i])
				pl->bar[i] = '_';
	}
	pl->bar[plot_col(pl, s->median)] = 'M';
	pl->bar[plot_col(pl, s->avg)] = 'A';
}

static void plot_rule(FILE *out)
{
	char line[MS_WIDTH + 1];

	memset(line, '-', MS_WIDTH);
	line[MS_WIDTH] = 0;
	fprintf(out, "+%s+\n", line);
}

static void ministat_plot(FILE *out, const struct ms_set *s)
{
	static const char sym[MS_NSYM] = { ' ', 'x', '+', '*' };
	struct ms_plot pl = { .lo = 999e99, .hi = -999e99 };
	int i, j;
	size_t k;

	for (k = 0; k < 2; k++) {
		plot_extend(&pl, s[k].min);
		plot_extend(&pl, s[k].max);
		plot_extend(&pl, s[k].avg - s[k].sd);
		plot_extend(&pl, s[k].avg + s[k].sd);
	}
	if (pl.hi - pl.lo == 0) {
		fputs("[no plot, span is zero width]\n", out);
		return;
	}
	pl.dx = (pl.hi - pl.lo) / (MS_WIDTH - 1.0);
	pl.x0 = pl.lo - 0.5 * pl.dx;
	plot_set(&pl, &s[0], 1);
	plot_set(&pl, &s[1], 2);
	plot_rule(out);
	for (i = 1; i < pl.height; i++) {
		fputc('|', out);
		for (j = 0; j < MS_WIDTH; j++)
			fputc(sym[pl.data[(pl.height - i) * MS_WIDTH + j] % MS_NSYM],
			      out);
		fputs("|\n", out);
	}
	fputc('|', out);
	for (j = 0; j < MS_WIDTH; j++)
		fputc(pl.bar[j] ? pl.bar[j] : ' ', out);
	fputs("|\n", out);
	plot_rule(out);
	free(pl.data);
}

static void ministat_vitals(FILE *out, const struct ms_set *s)
{
	size_t k;

	fputs("    N           Min           Max        Median           Avg        Stddev\n",
	      out);
	for (k = 0; k < 2; k++)
		fprintf(out, "%c %3zu %13.8g %13.8g %13.8g %13.8g %13.8g\n",
			k ? '+' : 'x', s[k].n, s[k].min, s[k].max, s[k].median,
			s[k].avg, s[k].sd);
}

static void ministat_pooled(FILE *out, const struct compare_metric *m,
			    double confidence)
{
	struct pooled pt;
	double base = m->a.s.mean;

	pooled_t_test(&m->a.s, &m->b.s,
		      ministat_t(confidence, m->a.n + m->b.n - 2), &pt);
	if (!(fabs(pt.diff) > pt.e)) {
		fprintf(out, "No difference proven at %.1f%% confidence\n",
			confidence * 100);
		return;
	}
	fprintf(out, "Difference at %.1f%% confidence\n", confidence * 100);
	fprintf(out, "\t%g +/- %g\n", pt.diff, pt.e);
	fprintf(out, "\t%g%% +/- %g%%\n", pt.diff * 100 / base, pt.e * 100 / base);
	fprintf(out, "\t(Student's t, pooled s = %g)\n", pt.s);
}

void compare_ministat_block(FILE *out, const struct compare_metric *m,
			    const char *a_name, const char *b_name,
			    double confidence)
{
	struct ms_set s[2];

	ms_set_init(&s[0], &m->a);
	ms_set_init(&s[1], &m->b);
	fprintf(out, "x %s\n+ %s\n", a_name, b_name);
	if (m->tested)
		ministat_plot(out, s);
	ministat_vitals(out, s);
	if (m->tested)
		ministat_pooled(out, m, confidence);
	free(s[0].sorted);
	free(s[1].sorted);
}

static void side_outliers(FILE *out, const char *pfx, char sym,
			  const struct compare_side *s,
			  const struct compare_opts *o)
{
	char buf[600];

	if (s->noutliers)
		fprintf(out, "%s%c outliers (%s, kept): %s\n", pfx, sym,
			outlier_method_name(o->outliers),
			compare_fmt_outliers(s, buf, sizeof(buf)));
}

/* The change and the verdict, after the block. */
static void our_lines(FILE *out, const char *pfx, const struct comparison *c,
		      const struct compare_metric *m)
{
	const struct compare_opts *o = &c->opts;
	char ch[64], ci[96], lvl[16], why[600];

	side_outliers(out, pfx, 'x', &m->a, o);
	side_outliers(out, pfx, '+', &m->b, o);
	if (m->tested && m->ch.method != CHANGE_NONE)
		fprintf(out, "%schange %s %s (%s scale, %s%% interval)\n", pfx,
			compare_fmt_change(m, ch, sizeof(ch)),
			compare_fmt_interval(m, ci, sizeof(ci)),
			change_method_name(m->ch.method),
			compare_fmt_level(m->ch.level, lvl, sizeof(lvl)));
	fprintf(out, "%sverdict: %s (%s)\n", pfx,
		compare_fmt_verdict(c, m->verdict),
		compare_fmt_why(m, o, why, sizeof(why)));
}

static void welch_difference(FILE *out, const struct compare_metric *m,
			     const struct compare_opts *o)
{
	double half = (m->w.ci_hi - m->w.ci_lo) / 2, base = m->a.s.mean;
	char pw[32], pa[32], pm[32];

	if (m->w.p < 1 - o->confidence)
		fprintf(out, "Difference at %.1f%% confidence (Welch)\n",
			o->confidence * 100);
	else
		fprintf(out, "No difference proven at %.1f%% confidence (Welch)\n",
			o->confidence * 100);
	fprintf(out, "\t%g +/- %g\n", m->w.diff, half);
	if (base != 0)
		fprintf(out, "\t%g%% +/- %g%%\n", m->w.diff * 100 / base,
			half * 100 / base);
	fprintf(out, "\t(Welch's t, df = %.4g, p %s unadjusted; not ministat's pooled t)\n",
		m->w.df, compare_fmt_p_eq(m->w.p, pw, sizeof(pw)));
	fprintf(out, "\tMann-Whitney U = %g, p %s (%s); adjusted: Welch on the change's scale p %s, Mann-Whitney p %s (family of %zu)\n",
		m->mw.u, compare_fmt_p_eq(m->mw.p, pm, sizeof(pm)),
		m->mw.exact ? "exact" : "normal approx.",
		compare_fmt_p_eq(m->p_welch_adj, pa, sizeof(pa)),
		compare_fmt_p_eq(m->p_mw_adj, pw, sizeof(pw)), m->family);
}

static void metric_head(FILE *out, const struct compare_pair *p,
			const struct compare_metric *m)
{
	fprintf(out, "\n%s: %s (%s%s, threshold %g%%)\n", p->title, m->name,
		better_name(m->info.better),
		m->info.better == BETTER_NEUTRAL ? ": no better direction" :
		" is better", m->info.threshold * 100);
}

static void welch_metric(FILE *out, const struct comparison *c,
			 const struct compare_pair *p,
			 const struct compare_metric *m)
{
	struct ms_set s[2];

	metric_head(out, p, m);
	ms_set_init(&s[0], &m->a);
	ms_set_init(&s[1], &m->b);
	fprintf(out, "x %s\n+ %s\n", p->a_name, p->b_name);
	ministat_vitals(out, s);
	free(s[0].sorted);
	free(s[1].sorted);
	if (m->tested)
		welch_difference(out, m, &c->opts);
	our_lines(out, "", c, m);
}

static void ministat_metric(FILE *out, const struct comparison *c,
			    const struct compare_pair *p,
			    const struct compare_metric *m)
{
	metric_head(out, p, m);
	compare_ministat_block(out, m, p->a_name, p->b_name, c->opts.confidence);
	our_lines(out, "thpbench: ", c, m);
}

static void print_blocks(const struct comparison *c, FILE *out, bool welch)
{
	size_t i, j;

	compare_fmt_print_sources(c, out, "");
	if (c->ndiffs) {
		fputs("environment differences:\n", out);
		compare_fmt_print_diffs(c, out, "  ");
	}
	for (i = 0; i < c->npairs; i++) {
		const struct compare_pair *p = &c->pairs[i];

		for (j = 0; j < p->nm; j++)
			(welch ? welch_metric : ministat_metric)(out, c, p, &p->m[j]);
		for (j = 0; j < p->nnotes; j++)
			fprintf(out, "note: %s\n", p->notes[j]);
	}
	if (c->nun) {
		fputs("\nunmatched cases (not compared):\n", out);
		compare_fmt_print_unmatched(c, out, "  ");
	}
}

void compare_print_ministat(const struct comparison *c, FILE *out)
{
	print_blocks(c, out, false);
}

void compare_print_welch(const struct comparison *c, FILE *out)
{
	print_blocks(c, out, true);
}
