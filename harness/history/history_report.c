// SPDX-License-Identifier: GPL-2.0-only
#include "history_report.h"
#include "history_spec.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "history_format.h"
#include "history_plot.h"
#include "plot/plot_metrics.h"
#include "util/util.h"

#define esc history_xml_escape

static const char *or_dash(const char *s)
{
	return s && *s ? s : "-";
}

static const char style[] =
	"body{font-family:sans-serif;margin:1.5em;color:#222;max-width:1100px}\n"
	"table{border-collapse:collapse;margin:0.5em 0 1.5em}\n"
	"th,td{border:1px solid #ccc;padding:0.2em 0.5em;text-align:left;vertical-align:top}\n"
	"th{background:#f0f0f0}\n"
	"td.num{text-align:right;font-variant-numeric:tabular-nums}\n"
	".fail{background:#fbe3df;font-weight:bold}\n"
	".regression{color:#cc3311;font-weight:bold}\n"
	".improvement{color:#228833;font-weight:bold}\n"
	".environment,.changed{color:#4477aa}\n"
	".rejected{color:#888}\n"
	"code{font-size:0.95em}\n"
	"img{max-width:100%;height:auto;border:1px solid #eee}\n";

static const char *kind_class(enum hcp_kind k)
{
	static const char *const c[] = {
		[HCP_REGRESSION] = "regression",
		[HCP_IMPROVEMENT] = "improvement",
		[HCP_CHANGED] = "changed",
		[HCP_ENVIRONMENT] = "environment",
		[HCP_REJECTED] = "rejected",
	};

	return (size_t)k < ARRAY_SIZE(c) ? c[k] : "rejected";
}

static void pct(FILE *f, double v)
{
	if (isfinite(v))
		fprintf(f, "%+.1f%%", v * 100);
	else
		fputs("n/a", f);
}

static void td(FILE *f, const char *s)
{
	fputs("<td>", f);
	esc(f, s);
	fputs("</td>", f);
}

static void td_num(FILE *f, double v)
{
	if (isfinite(v))
		fprintf(f, "<td class=\"num\">%.6g</td>", v);
	else
		fputs("<td class=\"num\">n/a</td>", f);
}

static void td_p(FILE *f, double p)
{
	if (isfinite(p))
		fprintf(f, "<td class=\"num\">%.2g</td>", p);
	else
		fputs("<td class=\"num\">n/a</td>", f);
}

static void series_anchor(FILE *f, size_t i)
{
	fprintf(f, "s%zu", i);
}

/* What the newest night says for one series. */
static void newest_says(FILE *f, const struct history_result *r)
{
	const struct history_cp *cp = NULL;
	size_t i;

	for (i = r->ncp; i-- > 0 && !cp;)
		if (r->cp[i].kind != HCP_REJECTED)
			cp = &r->cp[i];
	if (!cp) {
		fputs("<td>no change</td>", f);
		return;
	}
	fprintf(f, "<td><span class=\"%s\">", kind_class(cp->kind));
	esc(f, hcp_kind_name(cp->kind));
	fputs("</span> ", f);
	pct(f, cp->c.ch.rel);
	fputs(cp->night == r->newest ? " starts tonight" : " since ", f);
	if (cp->night != r->newest)
		esc(f, or_dash(r->s->nights[cp->night].started));
	fputs("</td>", f);
}

static void verdict_table(FILE *f, const struct history_result *r,
			  const size_t *idx, size_t n,
			  const struct history_check_opts *o)
{
	size_t i;

	fputs("<h2>Newest night</h2>\n<table id=\"verdicts\">\n<tr><th>gate</th><th>host</th><th>suite</th><th>case</th><th>metric</th><th>newest night</th><th>kernel</th><th>mean</th><th>unit</th><th>latest change</th></tr>\n",
	      f);
	for (i = 0; i < n; i++) {
		const struct history_result *x = &r[idx[i]];
		const struct history_series *s = x->s;
		const struct history_night *nw =
			x->newest != SIZE_MAX ? &s->nights[x->newest] : NULL;
		bool fails = history_result_fails(x, o->fail_on);

		fprintf(f, "<tr%s><td>%s</td>", fails ? " class=\"fail\"" : "",
			fails ? "FAIL" : "ok");
		td(f, or_dash(s->host));
		td(f, or_dash(s->suite));
		fputs("<td><a href=\"#", f);
		series_anchor(f, idx[i]);
		fputs("\">", f);
		esc(f, or_dash(s->case_id));
		fputs("</a></td>", f);
		td(f, or_dash(s->metric));
		td(f, nw ? or_dash(nw->started) : "-");
		td(f, nw ? or_dash(nw->kernel_id) : "-");
		td_num(f, history_newest_mean(x));
		td(f, plot_metric_unit(s->metric));
		newest_says(f, x);
		fputs("</tr>\n", f);
	}
	fputs("</table>\n", f);
}

static void cp_table(FILE *f, const struct history_result *r)
{
	size_t i;

	if (!r->ncp) {
		fputs("<p>No change point.</p>\n", f);
		return;
	}
	fputs("<table class=\"cps\">\n<tr><th>night</th><th>kind</th><th>change</th><th>95% interval</th><th>p</th><th>smallest detectable</th><th>nights before/after</th><th>last good</th><th>first bad</th><th>bisect</th></tr>\n",
	      f);
	for (i = r->ncp; i-- > 0;) {
		const struct history_cp *cp = &r->cp[i];

		fputs("<tr>", f);
		td(f, or_dash(r->s->nights[cp->night].started));
		fprintf(f, "<td class=\"%s\">", kind_class(cp->kind));
		esc(f, hcp_kind_name(cp->kind));
		fputs("</td><td class=\"num\">", f);
		pct(f, cp->c.ch.rel);
		fputs("</td><td class=\"num\">", f);
		pct(f, cp->c.ch.lo);
		fputs(" .. ", f);
		pct(f, cp->c.ch.hi);
		fputs("</td>", f);
		td_p(f, cp->c.p);
		fputs("<td class=\"num\">", f);
		pct(f, cp->c.mde);
		fprintf(f, "</td><td class=\"num\">%zu / %zu</td>", cp->c.nights_a,
			cp->c.nights_b);
		td(f, or_dash(r->s->nights[cp->good].kernel_id));
		td(f, or_dash(r->s->nights[cp->night].kernel_id));
		fputs("<td>", f);
		if (cp->bisect) {
			fputs("<code>", f);
			esc(f, cp->bisect);
			fputs("</code>", f);
		}
		fputs("</td></tr>\n", f);
	}
	fputs("</table>\n", f);
}

static void nights_table(FILE *f, const struct history_series *s)
{
	size_t i;

	fprintf(f, "<details><summary>%zu nights</summary>\n<table class=\"nights\">\n<tr><th>started</th><th>kernel</th><th>release</th><th>host fingerprint</th><th>n</th><th>mean</th></tr>\n",
		s->n_nights);
	for (i = s->n_nights; i-- > 0;) {
		const struct history_night *n = &s->nights[i];
		char fp[16];

		snprintf(fp, sizeof(fp), "%.12s", or_dash(n->host_fingerprint));
		fputs("<tr>", f);
		td(f, or_dash(n->started));
		td(f, or_dash(n->kernel_id));
		td(f, or_dash(n->kernel_release));
		td(f, fp);
		fprintf(f, "<td class=\"num\">%zu</td>", n->n);
		td_num(f, history_night_mean(n));
		fputs("</tr>\n", f);
	}
	fputs("</table></details>\n", f);
}

static bool exists_in(const char *dir, const char *name)
{
	char path[4096];

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	return !access(path, R_OK);
}

static void series_section(FILE *f, const struct history_result *r,
			   size_t i, const char *dir)
{
	const struct history_series *s = r->s;
	char stem[1024], png[1100], svg[1100], name[1024];

	history_plot_stem(s, stem, sizeof(stem));
	snprintf(png, sizeof(png), "%s.png", stem);
	snprintf(svg, sizeof(svg), "%s.svg", stem);
	fputs("<section id=\"", f);
	series_anchor(f, i);
	fputs("\">\n<h2>", f);
	esc(f, history_series_name(s, name, sizeof(name)));
	fputs("</h2>\n<p>suite hash <code>", f);
	esc(f, or_dash(s->suite_hash));
	fprintf(f, "</code>, %s is better</p>\n", better_name(r->better));
	if (exists_in(dir, png)) {
		fputs("<p><a href=\"", f);
		esc(f, exists_in(dir, svg) ? svg : png);
		fputs("\"><img src=\"", f);
		esc(f, png);
		fputs("\" width=\"1000\" height=\"600\" alt=\"trend of ", f);
		esc(f, name);
		fputs("\"></a></p>\n", f);
	} else {
		fputs("<p>(chart not drawn: gnuplot missing; the .gp and .dat files are there)</p>\n",
		      f);
	}
	cp_table(f, r);
	nights_table(f, s);
	fputs("</section>\n", f);
}

static void write_page(FILE *f, const struct history_result *r, size_t n,
		       const struct history_check_opts *o, const char *source,
		       const char *dir)
{
	size_t *idx = history_order(r, n, o->fail_on), i, fails = 0;
	char now[32], shown[1024];
	time_t t = time(NULL);
	struct tm tm;

	gmtime_r(&t, &tm);
	strftime(now, sizeof(now), "%Y-%m-%dT%H:%M:%SZ", &tm);
	for (i = 0; i < n; i++)
		fails += history_result_fails(&r[i], o->fail_on);
	fprintf(f, "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n<title>thpbench history</title>\n<style>\n%s</style>\n</head>\n<body>\n<h1>thpbench nightly history</h1>\n<p>",
		style);
	/* The --db spec: a PostgreSQL password never reaches the page. */
	history_db_spec_show(source, shown, sizeof(shown));
	esc(f, shown);
	fprintf(f, ", %zu series, written %s.</p>\n<p id=\"gate\" class=\"%s\">Gate: %s",
		n, now, fails ? "fail" : "pass", fails ? "FAILED" : "passed");
	if (fails)
		fprintf(f, " (%zu series)", fails);
	fputs("</p>\n", f);
	verdict_table(f, r, idx, n, o);
	for (i = 0; i < n; i++)
		series_section(f, &r[idx[i]], idx[i], dir);
	fputs("</body>\n</html>\n", f);
	free(idx);
}

int history_report(const struct history_result *r, size_t n,
		   const struct history_check_opts *o, const char *source,
		   const char *dir)
{
	struct plot_set ps = { 0 };
	char err[4096], *path, *tmp;
	size_t len = strlen(dir) + 64;
	FILE *f;
	int rc = -1;

	if (history_plot(r, n, dir, &ps, err, sizeof(err))) {
		tb_err("history report: %s", err);
		goto out;
	}
	if (plot_render(&ps, stderr) == PLOT_FAILED)
		goto out;
	path = xmalloc(len);
	tmp = xmalloc(len);
	snprintf(path, len, "%s/index.html", dir);
	snprintf(tmp, len, "%s/.index.html.%d", dir, (int)getpid());
	f = fopen(tmp, "w");
	if (!f) {
		tb_err("%s: cannot create: %s", tmp, strerror(errno));
	} else {
		int bad;

		write_page(f, r, n, o, source, dir);
		bad = ferror(f);
		if (fclose(f) || bad || rename(tmp, path)) {
			tb_err("%s: write failed: %s", path, strerror(errno));
			unlink(tmp);
		} else {
			rc = 0;
		}
	}
	free(path);
	free(tmp);
out:
	plot_set_free(&ps);
	return rc;
}
