// SPDX-License-Identifier: GPL-2.0-only
/* Markdown format: one table per pair of cases, notes as a list. */
#include "compare_format.h"
#include "compare_print.h"

#include <string.h>

/* Table cells: a '|' would end the cell. */
static void md_cell(FILE *out, const char *s)
{
	fputs("| ", out);
	for (; *s; s++)
		fputs(*s == '|' ? "\\|" : (char[]){ *s, 0 }, out);
	fputc(' ', out);
}

static void md_row(FILE *out, const struct comparison *c,
		   const struct compare_metric *m)
{
	char b[96];
	bool claim = verdict_is_change(m->verdict);

	md_cell(out, m->name);
	md_cell(out, compare_fmt_num(m->a.s.mean, b, sizeof(b)));
	md_cell(out, compare_fmt_sd(m->a.s.cv, b, sizeof(b)));
	md_cell(out, compare_fmt_num(m->b.s.mean, b, sizeof(b)));
	md_cell(out, compare_fmt_sd(m->b.s.cv, b, sizeof(b)));
	md_cell(out, compare_fmt_change(m, b, sizeof(b)));
	md_cell(out, compare_fmt_interval(m, b, sizeof(b)));
	md_cell(out, compare_fmt_p(m->p_welch_adj, b, sizeof(b)));
	md_cell(out, compare_fmt_p(m->p_mw_adj, b, sizeof(b)));
	fprintf(out, "| %s%s%s |\n", claim ? "**" : "",
		compare_fmt_verdict(c, m->verdict), claim ? "**" : "");
}

static void md_pair(FILE *out, const struct comparison *c,
		    const struct compare_pair *p)
{
	char lvl[16], why[600], o[600];
	size_t i;

	fprintf(out, "\n### %s: %s (n=%zu) vs %s (n=%zu)\n\n", p->title,
		p->a_name, case_ok_runs(p->a), p->b_name, case_ok_runs(p->b));
	fprintf(out, "| metric | base | ±%%stddev | new | ±%%stddev | %%change | %s%% CI | p (Welch, adj.) | p (MW, adj.) | verdict |\n",
		compare_fmt_level(c->opts.confidence, lvl, sizeof(lvl)));
	fputs("|:--|--:|--:|--:|--:|--:|:--|--:|--:|:--|\n", out);
	for (i = 0; i < p->nm; i++)
		if (!compare_metric_hidden(&p->m[i]))
			md_row(out, c, &p->m[i]);
	fputc('\n', out);
	compare_fmt_print_zeros(p, out, "");
	for (i = 0; i < p->nm; i++) {
		const struct compare_metric *m = &p->m[i];

		if (m->info.threshold != c->opts.threshold)
			fprintf(out, "- `%s`: noise threshold %g%% (set for this metric)\n",
				m->name, m->info.threshold * 100);
		if (m->verdict == VERDICT_INCONCLUSIVE ||
		    m->verdict == VERDICT_LEVEL)
			fprintf(out, "- `%s`: %s: %s\n", m->name,
				compare_fmt_verdict(c, m->verdict),
				compare_fmt_why(m, &c->opts, why, sizeof(why)));
		if (m->a.noutliers)
			fprintf(out, "- `%s`: outliers in %s (kept): %s\n",
				m->name, p->a_name,
				compare_fmt_outliers(&m->a, o, sizeof(o)));
		if (m->b.noutliers)
			fprintf(out, "- `%s`: outliers in %s (kept): %s\n",
				m->name, p->b_name,
				compare_fmt_outliers(&m->b, o, sizeof(o)));
	}
	for (i = 0; i < p->nnotes; i++)
		fprintf(out, "- %s\n", p->notes[i]);
}

void compare_print_md(const struct comparison *c, FILE *out)
{
	char buf[400];
	size_t i;

	fputs("## thpbench comparison\n\n", out);
	compare_fmt_print_sources(c, out, "- ");
	fprintf(out, "- noise threshold %g%%; ±%%stddev: sample standard deviation / mean; %%change: ratio of the geometric means - 1, CI and Welch's t on the log scale (Δ: difference of the means where a value is <= 0); p Bonferroni-adjusted per family of m metrics, the CI at 1 - %g/m to match\n",
		c->opts.threshold * 100, 1 - c->opts.confidence);
	compare_fmt_print_diffs(c, out, "- environment differs: ");
	for (i = 0; i < c->npairs; i++)
		md_pair(out, c, &c->pairs[i]);
	if (c->nun) {
		fputs("\n### Not compared\n\n", out);
		compare_fmt_print_unmatched(c, out, "- ");
	}
	fprintf(out, "\nVerdicts: %s\n",
		compare_fmt_tally(c, buf, sizeof(buf)));
}
