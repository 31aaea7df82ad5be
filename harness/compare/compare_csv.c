// SPDX-License-Identifier: GPL-2.0-only
/* CSV format (RFC 4180): one row per metric of each pair, every statistic;
 * empty cells where a statistic does not exist (never a made-up 0).
 * diff..welch_p: Welch on the raw values at the nominal level, unadjusted
 * (what scipy's ttest_ind(equal_var=False) gives); change_scale_*: the
 * test on the change's scale (log values, or the difference) whose
 * interval is at change_level; welch_p_adj = family * change_scale_p. */
#include "compare_format.h"
#include "compare_print.h"
#include "util/util.h"

#include <math.h>
#include <stdint.h>
#include <string.h>

static void csv_str(FILE *out, const char *s, bool last)
{
	if (strpbrk(s, ",\"\n")) {
		fputc('"', out);
		for (; *s; s++)
			fputs(*s == '"' ? "\"\"" : (char[]){ *s, 0 }, out);
		fputc('"', out);
	} else {
		fputs(s, out);
	}
	fputc(last ? '\n' : ',', out);
}

/* Shortest round-trip form: 1e15 + 1 stays 1000000000000001. */
static void csv_num(FILE *out, double v)
{
	char buf[40];

	fputs(fmt_shortest(v, buf, sizeof(buf)), out);
	fputc(',', out);
}

static void csv_side(FILE *out, const struct compare_side *s)
{
	char buf[600];

	fprintf(out, "%zu,", s->n);
	csv_num(out, s->s.mean);
	csv_num(out, s->s.stddev);
	csv_num(out, s->s.stderr_mean);
	csv_num(out, s->s.cv);
	csv_num(out, s->s.median);
	csv_num(out, s->s.min);
	csv_num(out, s->s.max);
	csv_num(out, s->ci_lo);
	csv_num(out, s->ci_hi);
	csv_str(out, compare_fmt_outliers(s, buf, sizeof(buf)), false);
}

static void csv_metric(FILE *out, const struct compare_pair *p,
		       const struct compare_metric *m)
{
	csv_str(out, p->title, false);
	csv_str(out, p->a->id, false);
	csv_str(out, p->b->id, false);
	csv_str(out, p->a_name, false);
	csv_str(out, p->b_name, false);
	csv_str(out, m->name, false);
	csv_str(out, better_name(m->info.better), false);
	csv_num(out, m->info.threshold);
	csv_side(out, &m->a);
	csv_side(out, &m->b);
	csv_num(out, m->tested ? m->w.diff : NAN);
	csv_num(out, m->tested ? m->w.ci_lo : NAN);
	csv_num(out, m->tested ? m->w.ci_hi : NAN);
	csv_num(out, m->tested ? m->w.t : NAN);
	csv_num(out, m->tested ? m->w.df : NAN);
	csv_num(out, m->w.p);
	csv_num(out, m->p_welch_adj);
	csv_num(out, m->tested ? m->mw.u : NAN);
	csv_num(out, m->mw.p);
	csv_num(out, m->p_mw_adj);
	csv_str(out, !m->tested ? "" : m->mw.exact ? "exact" : "normal", false);
	csv_num(out, m->ch.rel);
	csv_num(out, m->ch.lo);
	csv_num(out, m->ch.hi);
	csv_str(out, m->tested ? change_method_name(m->ch.method) : "", false);
	csv_num(out, m->tested ? m->ch.level : NAN);
	csv_num(out, m->tested ? m->ch.w.diff : NAN);
	csv_num(out, m->tested ? m->ch.w.ci_lo : NAN);
	csv_num(out, m->tested ? m->ch.w.ci_hi : NAN);
	csv_num(out, m->tested ? m->ch.w.p : NAN);
	if (m->judged)
		fprintf(out, "%zu", m->family);
	fputc(',', out);
	csv_num(out, m->mde);
	if (m->tested && m->n_needed && m->n_needed != SIZE_MAX)
		fprintf(out, "%zu", m->n_needed);
	fputc(',', out);
	csv_str(out, verdict_name(m->verdict), true);
}

void compare_print_csv(const struct comparison *c, FILE *out)
{
	static const char *const side_cols =
		"n,mean,stddev,stderr,cv,median,min,max,ci_lo,ci_hi,outliers";
	const char *s;
	size_t i, j;

	fputs("case,base_id,new_id,base_name,new_name,metric,better,threshold,",
	      out);
	for (i = 0; i < 2; i++) {
		const char *pfx = i ? "new_" : "base_";

		fputs(pfx, out);
		for (s = side_cols; *s; s++) {
			fputc(*s, out);
			if (*s == ',')
				fputs(pfx, out);
		}
		fputc(',', out);
	}
	fputs("diff,diff_ci_lo,diff_ci_hi,welch_t,welch_df,welch_p,welch_p_adj,"
	      "mw_u,mw_p,mw_p_adj,mw_method,change,change_ci_lo,change_ci_hi,"
	      "change_method,change_level,change_scale_diff,change_scale_ci_lo,"
	      "change_scale_ci_hi,change_scale_p,family,min_detectable_change,"
	      "n_needed,verdict\n", out);
	for (i = 0; i < c->npairs; i++)
		for (j = 0; j < c->pairs[i].nm; j++)
			csv_metric(out, &c->pairs[i], &c->pairs[i].m[j]);
}
