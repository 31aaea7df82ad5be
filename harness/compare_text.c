// SPDX-License-Identifier: GPL-2.0-only
/*
 * Terminal format: LKP's column order (base, %stddev, %change, new,
 * %stddev, metric) widened with the interval, the deciding p and the
 * verdict, so the row that says "-19%" also says whether it is real.
 */
#include "compare_format.h"

#include <math.h>
#include <string.h>

static void text_header(FILE *out, const struct comparison *c)
{
	char lvl[16], ci[32];

	snprintf(ci, sizeof(ci), "[%s%% CI]",
		 cf_level(c->opts.confidence, lvl, sizeof(lvl)));
	fputs(" ", out);
	cf_put(out, "base", 12);
	cf_put(out, "%stddev", 9);
	cf_put(out, "%change", 10);
	fputs("  ", out);
	cf_put(out, ci, -18);
	cf_put(out, "new", 12);
	cf_put(out, "%stddev", 9);
	cf_put(out, "p", 9);
	fputs("  ", out);
	cf_put(out, "verdict", -13);
	fputs("metric\n", out);
}

static void text_row(FILE *out, const struct cmp_metric *m)
{
	char b[64];

	fputs(verdict_is_change(m->verdict) ? "*" : " ", out);
	cf_put(out, cf_num(m->a.s.mean, b, sizeof(b)), 12);
	cf_put(out, cf_sd(m->a.s.cv, b, sizeof(b)), 9);
	cf_put(out, m->tested ? cf_pct(m->pct_change, b, sizeof(b)) : "", 10);
	fputs("  ", out);
	cf_put(out, cf_ci(m->ch.lo, m->ch.hi, b, sizeof(b)), -18);
	cf_put(out, cf_num(m->b.s.mean, b, sizeof(b)), 12);
	cf_put(out, cf_sd(m->b.s.cv, b, sizeof(b)), 9);
	cf_put(out, cf_p(m->p, b, sizeof(b)), 9);
	fputs("  ", out);
	cf_put(out, verdict_name(m->verdict), -13);
	fprintf(out, "%s\n", m->name);
}

static void text_metric_notes(FILE *out, const struct comparison *c,
			      const struct cmp_pair *p,
			      const struct cmp_metric *m)
{
	char buf[600];

	if (m->info.threshold != c->opts.threshold)
		fprintf(out, "  %s: noise threshold %g%% (set for this metric)\n",
			m->name, m->info.threshold * 100);
	if (m->verdict == VERDICT_INCONCLUSIVE)
		fprintf(out, "  %s: inconclusive: %s\n", m->name,
			cf_why(m, &c->opts, buf, sizeof(buf)));
	if (m->a.noutliers)
		fprintf(out, "  %s: outliers in %s (%s, kept): %s\n", m->name,
			p->a_name, outlier_method_name(c->opts.outliers),
			cf_outliers(&m->a, buf, sizeof(buf)));
	if (m->b.noutliers)
		fprintf(out, "  %s: outliers in %s (%s, kept): %s\n", m->name,
			p->b_name, outlier_method_name(c->opts.outliers),
			cf_outliers(&m->b, buf, sizeof(buf)));
}

static void text_only(FILE *out, const char *side, char **v, size_t n)
{
	size_t i;

	if (!n)
		return;
	fprintf(out, "  only measured in %s:", side);
	for (i = 0; i < n; i++)
		fprintf(out, " %s", v[i]);
	fputc('\n', out);
}

static void text_pair(FILE *out, const struct comparison *c,
		      const struct cmp_pair *p)
{
	size_t i;

	fprintf(out, "\n%s: %s (n=%zu) vs %s (n=%zu)\n", p->title, p->a_name,
		case_ok_runs(p->a), p->b_name, case_ok_runs(p->b));
	text_header(out, c);
	for (i = 0; i < p->nm; i++)
		if (!cf_all_zero(&p->m[i]))
			text_row(out, &p->m[i]);
	cf_print_zeros(p, out, "  ");
	for (i = 0; i < p->nm; i++)
		text_metric_notes(out, c, p, &p->m[i]);
	text_only(out, p->a_name, p->only_a, p->nonly_a);
	text_only(out, p->b_name, p->only_b, p->nonly_b);
	for (i = 0; i < p->nnotes; i++)
		fprintf(out, "  note: %s\n", p->notes[i]);
}

void compare_print_text(const struct comparison *c, FILE *out)
{
	char buf[300];
	size_t i;

	cf_print_sources(c, out, "");
	fprintf(out, "noise threshold: %g%%, unless noted; %%stddev: sample standard deviation / mean;\n"
		"%%change: mean new / mean base - 1; CI: of the change, log scale; p: Holm-adjusted;\n"
		"*: a change is claimed (improvement, regression, or changed for neutral counters)\n",
		c->opts.threshold * 100);
	if (c->ndiffs) {
		fputs("environment differences:\n", out);
		cf_print_diffs(c, out, "  ");
	}
	for (i = 0; i < c->npairs; i++)
		text_pair(out, c, &c->pairs[i]);
	if (c->nun) {
		fputs("\nunmatched cases (not compared):\n", out);
		cf_print_unmatched(c, out, "  ");
	}
	fprintf(out, "\nverdicts: %s\n", cf_tally(c, buf, sizeof(buf)));
}
