// SPDX-License-Identifier: GPL-2.0-only
#include "compare_format.h"

#include "util/wrap.h"

#include <math.h>
#include <stdint.h>
#include <string.h>

#include "util/util.h"

const char *compare_fmt_num(double v, char *buf, size_t len)
{
	if (isnan(v))
		snprintf(buf, len, "-");
	else if (fabs(v) >= 1e9)
		snprintf(buf, len, "%.4g", v);
	else if (fabs(v) >= 100)
		snprintf(buf, len, "%.0f", v);
	else
		snprintf(buf, len, "%.4g", v);
	return buf;
}

const char *compare_fmt_pct(double rel, char *buf, size_t len)
{
	double pct = rel * 100;

	if (isnan(rel))
		snprintf(buf, len, "n/a");
	else if (fabs(pct) >= 1000)
		snprintf(buf, len, "%+.0f%%", pct);
	else if (fabs(pct) < 0.05)
		snprintf(buf, len, "%.1f%%", 0.0);	/* no "-0.0%" */
	else
		snprintf(buf, len, "%+.1f%%", pct);
	return buf;
}

const char *compare_fmt_sd(double cv, char *buf, size_t len)
{
	if (isnan(cv))
		buf[0] = 0;
	else if (cv * 100 >= 100)
		snprintf(buf, len, "±%.0f%%", cv * 100);
	else
		snprintf(buf, len, "±%.1f%%", cv * 100);
	return buf;
}

const char *compare_fmt_ci(double lo, double hi, char *buf, size_t len)
{
	char a[32], b[32];

	if (isnan(lo) || isnan(hi))
		buf[0] = 0;
	else
		snprintf(buf, len, "[%s, %s]",
			 compare_fmt_pct(lo, a, sizeof(a)),
			 compare_fmt_pct(hi, b, sizeof(b)));
	return buf;
}

const char *compare_fmt_p(double p, char *buf, size_t len)
{
	if (isnan(p))
		snprintf(buf, len, "-");
	else if (p < 0.0001)
		snprintf(buf, len, "<0.0001");
	else
		snprintf(buf, len, "%.4f", p);
	return buf;
}

const char *compare_fmt_level(double frac, char *buf, size_t len)
{
	snprintf(buf, len, "%g", frac * 100);
	return buf;
}

const char *compare_fmt_kernel(const struct tb_results *r, char *buf,
			       size_t len)
{
	char k[128];

	compare_env_str(r, "kernel", k, sizeof(k));
	snprintf(buf, len, "%s%s", *k ? "kernel " : "", k);
	return buf;
}

const char *compare_fmt_machine(const struct tb_results *r, char *buf,
				size_t len)
{
	char host[128], cpu[160], n[32];

	compare_env_str(r, "hostname", host, sizeof(host));
	compare_env_str(r, "cpu", cpu, sizeof(cpu));
	compare_env_str(r, "nr_cpus", n, sizeof(n));
	snprintf(buf, len, "%s, %s, %s CPUs", *host ? host : "?",
		 *cpu ? cpu : "?", *n ? n : "?");
	return buf;
}

const char *compare_fmt_test_desc(const struct compare_opts *o)
{
	switch (o->test) {
	case COMPARE_TEST_MW:
		return "Mann-Whitney U";
	case COMPARE_TEST_BOTH:
		return "Welch's t and Mann-Whitney U";
	default:
		return "Welch's t";
	}
}

static const char *needed_str(size_t n, char *buf, size_t len)
{
	if (n == SIZE_MAX)
		snprintf(buf, len, "more than 10^6 runs per side");
	else if (!n)
		snprintf(buf, len, "no number of runs (no spread to scale from)");
	else
		snprintf(buf, len, "about %zu runs per side", n);
	return buf;
}

const char *compare_fmt_change(const struct compare_metric *m, char *buf,
			       size_t len)
{
	char d[32];

	if (!m->tested)
		buf[0] = 0;
	else if (isfinite(m->ch.rel))
		compare_fmt_pct(m->ch.rel, buf, len);
	else if (m->ch.method == CHANGE_DIFF && m->ch.w.diff != 0)
		snprintf(buf, len, "Δ%s%s", m->ch.w.diff > 0 ? "+" : "",
			 compare_fmt_num(m->ch.w.diff, d, sizeof(d)));
	else
		snprintf(buf, len, "n/a");
	return buf;
}

const char *compare_fmt_interval(const struct compare_metric *m, char *buf,
				 size_t len)
{
	char a[32], b[32];

	if (!m->tested || m->ch.method == CHANGE_NONE)
		buf[0] = 0;
	else if (m->ch.method == CHANGE_LOG)
		compare_fmt_ci(m->ch.lo, m->ch.hi, buf, len);
	else
		snprintf(buf, len, "Δ[%s, %s]",
			 compare_fmt_num(m->ch.w.ci_lo, a, sizeof(a)),
			 compare_fmt_num(m->ch.w.ci_hi, b, sizeof(b)));
	return buf;
}

/* Power of the rule: the change it calls at this n, the runs for 2T. */
static const char *power_str(const struct compare_metric *m,
			     const struct compare_opts *o, char *buf,
			     size_t len)
{
	char mde[32], tg[32], nn[64];

	snprintf(buf, len,
		 "at n = %zu vs %zu a true change of %s would be called with "
		 "power %g%%; %s would call one of ±%s",
		 m->a.n, m->b.n,
		 isfinite(m->mde)
			 ? compare_fmt_pct(m->mde, mde, sizeof(mde)) + 1
			 : "(unknown)",
		 o->power * 100, needed_str(m->n_needed, nn, sizeof(nn)),
		 compare_fmt_pct(m->target, tg, sizeof(tg)) + 1);
	return buf;
}

const char *compare_fmt_why(const struct compare_metric *m,
			    const struct compare_opts *o, char *buf, size_t len)
{
	char t[32], lvl[16], pw[300], pv[32];
	double thr = m->info.threshold, alpha = 1 - o->confidence;
	int dir = change_beyond(&m->ch, thr);

	snprintf(t, sizeof(t), "%g%%", thr * 100);
	compare_fmt_level(m->ch.level, lvl, sizeof(lvl));
	switch (m->verdict) {
	case VERDICT_TOO_FEW:
		snprintf(buf, len, "n = %zu vs %zu: fewer than %d values, no statistics",
			 m->a.n, m->b.n, VERDICT_MIN_N);
		break;
	case VERDICT_LEVEL:
		snprintf(buf, len, "a level, not a count of events: not judged (--judge-gauges judges it)");
		break;
	case VERDICT_NO_CHANGE:
		if (m->ch.method == CHANGE_DIFF && m->ch.base == 0)
			snprintf(buf, len, "identical constant values");
		else
			snprintf(buf, len, "the %s%% interval of the change lies within ±%s%s",
				 lvl, t, m->p < alpha ?
				 " (significant, but below the threshold)" : "");
		break;
	case VERDICT_INCONCLUSIVE:
		power_str(m, o, pw, sizeof(pw));
		if (dir)
			snprintf(buf, len,
				 "the %s%% interval lies beyond ±%s, but %s p "
				 "%s (adjusted) is not below %g; %s",
				 lvl, t, compare_fmt_test_desc(o),
				 compare_fmt_p_eq(m->p, pv, sizeof(pv)), alpha,
				 pw);
		else if (m->p < alpha)
			snprintf(buf, len, "a difference is proven, but its %s%% interval reaches inside ±%s; %s",
				 lvl, t, pw);
		else
			snprintf(buf, len, "%s", pw);
		break;
	default:
		if (m->ch.method == CHANGE_DIFF && m->ch.base == 0)
			snprintf(buf, len, "p < %g; the base is 0, and the %s%% interval of the difference excludes 0",
				 alpha, lvl);
		else
			snprintf(buf, len, "p < %g and the whole %s%% interval of the change lies beyond ±%s",
				 alpha, lvl, t);
	}
	return buf;
}

const char *compare_fmt_outliers(const struct compare_side *s, char *buf,
				 size_t len)
{
	size_t i, off = 0;
	char num[32];

	buf[0] = 0;
	for (i = 0; i < s->n && off < len; i++)
		if (s->outlier[i])
			off += snprintf(
				buf + off, len - off, "%s#%zu = %s",
				off ? ", " : "", i + 1,
				compare_fmt_num(s->v[i], num, sizeof(num)));
	return buf;
}

int compare_fmt_width(const char *s)
{
	return text_width(s);
}

void compare_fmt_put(FILE *out, const char *s, int width)
{
	int pad = (width < 0 ? -width : width) - compare_fmt_width(s);

	if (width > 0)
		fprintf(out, "%*s", pad > 0 ? pad : 0, "");
	fputs(s, out);
	if (width < 0)
		fprintf(out, "%*s", pad > 0 ? pad : 0, "");
}

void compare_fmt_print_sources(const struct comparison *c, FILE *out,
			       const char *indent)
{
	char ka[160], kb[160], m[400], lvl[16];

	compare_fmt_kernel(c->ra, ka, sizeof(ka));
	compare_fmt_kernel(c->rb, kb, sizeof(kb));
	if (c->opts.by == COMPARE_FILES) {
		fprintf(out, "%sbase: %s%s%s\n", indent, c->opts.base_path,
			*ka ? ", " : "", ka);
		fprintf(out, "%snew:  %s%s%s\n", indent, c->opts.new_path,
			*kb ? ", " : "", kb);
	} else {
		fprintf(out, "%sfile: %s%s%s\n", indent, c->opts.base_path,
			*ka ? ", " : "", ka);
		fprintf(out, "%scompared: by %s, base %s\n", indent,
			compare_by_what(c->opts.by),
			c->opts.base_value ? c->opts.base_value :
			"the first of each case in file order");
	}
	fprintf(out, "%smachine: %s\n", indent,
		compare_fmt_machine(c->ra, m, sizeof(m)));
	fprintf(out, "%sconfidence: %s%%, %s, Bonferroni per family of metrics\n",
		indent, compare_fmt_level(c->opts.confidence, lvl, sizeof(lvl)),
		compare_fmt_test_desc(&c->opts));
}

void compare_fmt_print_diffs(const struct comparison *c, FILE *out,
			     const char *indent)
{
	size_t i;

	for (i = 0; i < c->ndiffs; i++)
		fprintf(out, "%s%s: %s (base) vs %s (new)%s\n", indent,
			c->diffs[i].what, c->diffs[i].a, c->diffs[i].b,
			!c->diffs[i].blocking ? "" : c->opts.force ?
			" [invalidates; forced]" : " [invalidates]");
}

void compare_fmt_print_unmatched(const struct comparison *c, FILE *out,
				 const char *indent)
{
	size_t i;

	for (i = 0; i < c->nun; i++)
		fprintf(out, "%s%s%s%s: %s\n", indent, c->un[i].side,
			*c->un[i].side ? " " : "", c->un[i].c->id,
			c->un[i].why);
}

static size_t count_all_zero(const struct comparison *c)
{
	size_t i, j, n = 0;

	for (i = 0; i < c->npairs; i++)
		for (j = 0; j < c->pairs[i].nm; j++)
			n += compare_metric_all_zero(&c->pairs[i].m[j]);
	return n;
}

const char *compare_fmt_verdict(const struct comparison *c, enum verdict v)
{
	if (c->opts.by != COMPARE_FILES && v == VERDICT_IMPROVEMENT)
		return "better";
	if (c->opts.by != COMPARE_FILES && v == VERDICT_REGRESSION)
		return "worse";
	return verdict_name(v);
}

const char *compare_fmt_tally(const struct comparison *c, char *buf, size_t len)
{
	static const enum verdict order[] = {
		VERDICT_REGRESSION, VERDICT_IMPROVEMENT, VERDICT_CHANGED,
		VERDICT_NO_CHANGE, VERDICT_INCONCLUSIVE, VERDICT_TOO_FEW,
	};
	size_t i, off = 0, levels = compare_count(c, VERDICT_LEVEL),
	       zeros = count_all_zero(c);

	buf[0] = 0;
	for (i = 0; i < ARRAY_SIZE(order) && off < len; i++)
		off += snprintf(buf + off, len - off, "%s%zu %s",
				i ? ", " : "", compare_count(c, order[i]),
				compare_fmt_verdict(c, order[i]));
	if (levels && off < len)
		off += snprintf(buf + off, len - off, "; %zu level%s not judged",
				levels, levels == 1 ? "" : "s");
	if (zeros && off < len)
		snprintf(buf + off, len - off, "; %zu metric%s 0 in every run, not counted",
			 zeros, zeros == 1 ? "" : "s");
	return buf;
}

const char *compare_fmt_p_eq(double p, char *buf, size_t len)
{
	char v[32];

	compare_fmt_p(p, v, sizeof(v));
	snprintf(buf, len, "%s%s", *v == '<' ? "" : "= ", v);
	if (*v == '<')
		snprintf(buf, len, "< %s", v + 1);
	return buf;
}

void compare_fmt_print_zeros(const struct compare_pair *p, FILE *out,
			     const char *indent)
{
	size_t i, n = 0;

	for (i = 0; i < p->nm; i++)
		n += compare_metric_all_zero(&p->m[i]);
	if (n)
		fprintf(out, "%s(%zu metric%s 0 in every run on both sides, not shown;"
			" csv and json list them)\n", indent, n, n == 1 ? " was" : "s were");
}

bool compare_metric_is_profile(const char *name)
{
	return !strncmp(name, "prof.", 5);
}

bool compare_metric_hidden(const struct compare_metric *m)
{
	return compare_metric_all_zero(m) || compare_metric_is_profile(m->name);
}
