// SPDX-License-Identifier: GPL-2.0-only
/*
 * Terminal format: LKP's column order (base, %stddev, %change, new,
 * %stddev, metric) widened with the interval, the deciding p and the
 * verdict, so the row that says "-19%" also says whether it is real.
 */
#include "compare_format.h"
#include "compare_profile.h"
#include "compare_print.h"

#include <math.h>
#include <string.h>

#include "util/util.h"

enum { COL_BASE, COL_SD_A, COL_CHANGE, COL_CI, COL_NEW, COL_SD_B, COL_P,
       COL_VERDICT, NCOLS };

/* Right-aligned columns (> 0) and their widths at least; left-aligned < 0. */
static const int col_min[NCOLS] = { 12, 9, 10, -18, 12, 9, 9, -13 };

struct text_row {
	char cell[NCOLS][96];
};

static void row_cells(const struct comparison *c,
		      const struct compare_metric *m, struct text_row *r)
{
	compare_fmt_num(m->a.s.mean, r->cell[COL_BASE], sizeof(r->cell[0]));
	compare_fmt_sd(m->a.s.cv, r->cell[COL_SD_A], sizeof(r->cell[0]));
	compare_fmt_change(m, r->cell[COL_CHANGE], sizeof(r->cell[0]));
	compare_fmt_interval(m, r->cell[COL_CI], sizeof(r->cell[0]));
	compare_fmt_num(m->b.s.mean, r->cell[COL_NEW], sizeof(r->cell[0]));
	compare_fmt_sd(m->b.s.cv, r->cell[COL_SD_B], sizeof(r->cell[0]));
	compare_fmt_p(m->p, r->cell[COL_P], sizeof(r->cell[0]));
	snprintf(r->cell[COL_VERDICT], sizeof(r->cell[0]), "%s",
		 compare_fmt_verdict(c, m->verdict));
}

/*
 * Widths from the cells: a right-aligned column is at least one wider
 * than its widest cell, and a left-aligned one is followed by a space, so
 * two neighbours never run together ("±224%+14999900%").
 */
static void fit_widths(const struct text_row *rows, size_t n,
		       const struct text_row *head, int *w)
{
	size_t i, k;

	for (k = 0; k < NCOLS; k++) {
		int need = compare_fmt_width(head->cell[k]);

		for (i = 0; i < n; i++)
			if (compare_fmt_width(rows[i].cell[k]) > need)
				need = compare_fmt_width(rows[i].cell[k]);
		need++;
		w[k] = col_min[k] > 0 ? (need > col_min[k] ? need : col_min[k]) :
			(need > -col_min[k] ? -need : col_min[k]);
	}
}

static void put_row(FILE *out, const char *mark, const struct text_row *r,
		    const int *w, const char *name)
{
	size_t k;

	fputs(mark, out);
	for (k = 0; k < NCOLS; k++) {
		if (k == COL_CI || k == COL_VERDICT)
			fputs("  ", out);
		compare_fmt_put(out, r->cell[k], w[k]);
	}
	fprintf(out, "%s\n", name);
}

static void text_table(FILE *out, const struct comparison *c,
		       const struct compare_pair *p)
{
	static const char *const head_words[NCOLS] = {
		"base", "%stddev", "%change", NULL, "new", "%stddev", "p",
		"verdict",
	};
	struct text_row head, *rows = xcalloc(p->nm + 1, sizeof(*rows));
	const struct compare_metric **shown = xcalloc(p->nm + 1,
						      sizeof(*shown));
	char lvl[16];
	int w[NCOLS];
	size_t i, k, n = 0;

	for (k = 0; k < NCOLS; k++)
		snprintf(head.cell[k], sizeof(head.cell[k]), "%s",
			 head_words[k] ? head_words[k] : "");
	snprintf(head.cell[COL_CI], sizeof(head.cell[COL_CI]), "[%s%% CI]",
		 compare_fmt_level(c->opts.confidence, lvl, sizeof(lvl)));
	for (i = 0; i < p->nm; i++)
		if (!compare_metric_hidden(&p->m[i])) {
			shown[n] = &p->m[i];
			row_cells(c, &p->m[i], &rows[n++]);
		}
	fit_widths(rows, n, &head, w);
	put_row(out, " ", &head, w, "metric");
	for (i = 0; i < n; i++)
		put_row(out, verdict_is_change(shown[i]->verdict) ? "*" : " ",
			&rows[i], w, shown[i]->name);
	free(rows);
	free(shown);
}

static void text_metric_notes(FILE *out, const struct comparison *c,
			      const struct compare_pair *p,
			      const struct compare_metric *m)
{
	char buf[600];

	if (m->info.threshold != c->opts.threshold)
		fprintf(out, "  %s: noise threshold %g%% (set for this metric)\n",
			m->name, m->info.threshold * 100);
	if (m->verdict == VERDICT_INCONCLUSIVE || m->verdict == VERDICT_LEVEL)
		fprintf(out, "  %s: %s: %s\n", m->name,
			compare_fmt_verdict(c, m->verdict),
			compare_fmt_why(m, &c->opts, buf, sizeof(buf)));
	if (m->a.noutliers)
		fprintf(out, "  %s: outliers in %s (%s, kept): %s\n", m->name,
			p->a_name, outlier_method_name(c->opts.outliers),
			compare_fmt_outliers(&m->a, buf, sizeof(buf)));
	if (m->b.noutliers)
		fprintf(out, "  %s: outliers in %s (%s, kept): %s\n", m->name,
			p->b_name, outlier_method_name(c->opts.outliers),
			compare_fmt_outliers(&m->b, buf, sizeof(buf)));
}

static void text_only(FILE *out, const char *side, char **v, size_t n)
{
	size_t i;

	size_t shown = 0;

	for (i = 0; i < n; i++)
		shown += !compare_metric_is_profile(v[i]);
	if (!shown)
		return;
	fprintf(out, "  only measured in %s:", side);
	for (i = 0; i < n; i++)
		if (!compare_metric_is_profile(v[i]))
			fprintf(out, " %s", v[i]);
	fputc('\n', out);
}

static void text_pair(FILE *out, const struct comparison *c,
		      const struct compare_pair *p)
{
	size_t i;

	fprintf(out, "\n%s: %s (n=%zu) vs %s (n=%zu)\n", p->title, p->a_name,
		case_ok_runs(p->a), p->b_name, case_ok_runs(p->b));
	text_table(out, c, p);
	compare_fmt_print_zeros(p, out, "  ");
	for (i = 0; i < p->nm; i++)
		if (!compare_metric_is_profile(p->m[i].name))
			text_metric_notes(out, c, p, &p->m[i]);
	text_only(out, p->a_name, p->only_a, p->nonly_a);
	text_only(out, p->b_name, p->only_b, p->nonly_b);
	compare_profile_text(out, c, p);
	for (i = 0; i < p->nnotes; i++)
		fprintf(out, "  note: %s\n", p->notes[i]);
}

void compare_print_text(const struct comparison *c, FILE *out)
{
	char buf[300];
	size_t i;

	compare_fmt_print_sources(c, out, "");
	fprintf(out, "noise threshold: %g%%, unless noted; %%stddev: sample standard deviation / mean;\n"
		"%%change: ratio of the geometric means - 1, its CI and Welch's t on the log scale;\n"
		"  where a value is <= 0: the difference of the means (Δ) / |mean base|, CI of the difference;\n"
		"p: Bonferroni-adjusted over the m metrics of its family, the CI at 1 - %g/m to match;\n"
		"*: a change is claimed (%s, or changed for neutral counters)\n",
		c->opts.threshold * 100, 1 - c->opts.confidence,
		c->opts.by == COMPARE_FILES ? "improvement, regression" :
		"better, worse: the right-hand side on that metric");
	if (c->ndiffs) {
		fputs("environment differences:\n", out);
		compare_fmt_print_diffs(c, out, "  ");
	}
	for (i = 0; i < c->npairs; i++)
		text_pair(out, c, &c->pairs[i]);
	if (c->nun) {
		fputs("\nunmatched cases (not compared):\n", out);
		compare_fmt_print_unmatched(c, out, "  ");
	}
	fprintf(out, "\nverdicts: %s\n",
		compare_fmt_tally(c, buf, sizeof(buf)));
}
