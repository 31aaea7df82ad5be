// SPDX-License-Identifier: GPL-2.0-only
#include "history_report.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "history_digest.h"
#include "history_format.h"
#include "history_gate.h"
#include "history_plot.h"
#include "history_report_style.h"
#include "history_spec.h"
#include "plot/plot_metrics.h"
#include "util/util.h"

#define esc history_xml_escape

static const char *or_dash(const char *s)
{
	return s && *s ? s : "-";
}

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

/* "2026-02-09 02:00" of an ISO time; the text itself when it is not one. */
static void when(FILE *f, const char *iso)
{
	char buf[32];

	fputs("<span class=\"nw\">", f);
	if (iso && strlen(iso) >= 16 && iso[10] == 'T') {
		snprintf(buf, sizeof(buf), "%.10s %.5s", iso, iso + 11);
		esc(f, buf);
	} else {
		esc(f, or_dash(iso));
	}
	fputs("</span>", f);
}

static void code(FILE *f, const char *s)
{
	fputs("<code>", f);
	esc(f, or_dash(s));
	fputs("</code>", f);
}

static void value(FILE *f, const char *metric, double v, double ref)
{
	char buf[64];

	fputs("<span class=\"nw\">", f);
	esc(f, history_value_text(metric, v, ref, buf, sizeof(buf)));
	fputs("</span>", f);
}

/*
 * A change as a percentage; from a mean of 0, where a percentage has no
 * meaning (a count that was 0 every night), as the difference itself
 * ("+0.8"), never "n/a" where the reader looks first.
 */
static void change(FILE *f, const char *metric, double rel, double a,
		   double b, double ref)
{
	if (isfinite(rel) || !isfinite(a) || !isfinite(b)) {
		pct(f, rel);
		return;
	}
	fputs(b < a ? "-" : "+", f);
	value(f, metric, fabs(b - a), ref);
}

static void card_id(FILE *f, size_t idx)
{
	fprintf(f, "s%zu", idx);
}

/* The page's head: the gate's verdict, large, and what it is about. */
static void verdict(FILE *f, const struct history_result *r, size_t n,
		    const struct history_digest_item *d, const size_t counts[3],
		    const struct history_check_opts *o, const char *source)
{
	const struct history_result *newest = NULL;
	size_t i, fails = 0;
	char shown[1024];

	for (i = 0; i < n; i++) {
		fails += d[i].fails;
		if (r[i].newest != SIZE_MAX &&
		    (!newest || strcmp(or_dash(r[i].s->nights[r[i].newest].started),
				       or_dash(newest->s->nights[newest->newest].started)) > 0))
			newest = &r[i];
	}
	fprintf(f, "<header id=\"gate\" class=\"verdict %s\">\n<p class=\"big\">%s</p>\n<p class=\"why\">",
		fails ? "fail" : "pass", fails ? "FAIL" : "PASS");
	if (fails)
		fprintf(f, "%zu series fail%s the gate", fails, fails == 1 ? "s" : "");
	else if (counts[HA_OPEN])
		fputs("the gate passes", f);
	else
		fputs("no open regression", f);
	if (counts[HA_OPEN] > fails)
		fprintf(f, "; %zu open regression%s", counts[HA_OPEN],
			counts[HA_OPEN] == 1 ? "" : "s");
	fprintf(f, "; %zu recent change%s; %zu quiet series</p>\n<p class=\"what\">",
		counts[HA_RECENT], counts[HA_RECENT] == 1 ? "" : "s",
		counts[HA_QUIET]);
	if (newest) {
		const struct history_night *nw = &newest->s->nights[newest->newest];

		fputs("newest night ", f);
		when(f, nw->started);
		fputs(" UTC, kernel ", f);
		code(f, nw->kernel_id);
		fputs(", host ", f);
		esc(f, or_dash(newest->s->host));
		fputs(", suite ", f);
		esc(f, or_dash(newest->s->suite));
		fputs(" · ", f);
	}
	fprintf(f, "%zu series · gate <code>--fail-on ", n);
	esc(f, history_fail_on_name(o->fail_on));
	fputs("</code> · ", f);
	/* The --db spec: a PostgreSQL password never reaches the page. */
	history_db_spec_show(source, shown, sizeof(shown));
	esc(f, shown);
	fputs("</p>\n</header>\n", f);
}

/* "open", "fixed", "accepted", ... as a badge; nothing for an improvement. */
static void status_badge(FILE *f, const struct history_cp *cp)
{
	enum hcp_status st = history_cp_status(cp);

	if (st == HCP_STATUS_NONE)
		return;
	fprintf(f, " <span class=\"status %s\">",
		st == HCP_STATUS_OPEN ? "open" : st == HCP_STATUS_FIXED ? "fixed" : "triaged");
	esc(f, hcp_status_name(st));
	fputs("</span>", f);
}

/* "slower" or "faster" for a time, "higher" or "lower" for the rest. */
/* The sign of a change: rel's, or the means' where rel is none (from 0). */
static double direction(double rel, double a, double b)
{
	return isnan(rel) ? b - a : rel;
}

static const char *how_word(const char *metric, double rel)
{
	const char *unit = plot_metric_unit(metric);
	bool time = !strcmp(unit, "µs") || !strcmp(unit, "ns") ||
		    !strcmp(unit, "ms") || !strcmp(unit, "s");

	return rel > 0 ? (time ? "slower" : "higher") : (time ? "faster" : "lower");
}

/* "+15.0% slower (95%: +12.0% to +18.1%)" in the metric's own words. */
static void headline(FILE *f, const struct history_result *r,
		     const struct history_cp *cp)
{
	const char *how = how_word(r->s->metric,
				   direction(cp->c.ch.rel, cp->c.a.mean, cp->c.b.mean));
	double ref = fmax(fabs(cp->c.a.mean), fabs(cp->c.b.mean));

	fprintf(f, "<p class=\"headline\"><span class=\"kind %s\">", kind_class(cp->kind));
	esc(f, hcp_kind_name(cp->kind));
	fputs("</span>", f);
	status_badge(f, cp);
	fputs(" <span class=\"nw\"><b>", f);
	change(f, r->s->metric, cp->c.ch.rel, cp->c.a.mean, cp->c.b.mean, ref);
	fprintf(f, "</b> %s</span> ", how);
	if (isfinite(cp->c.ch.lo) && isfinite(cp->c.ch.hi)) {
		fputs("<span class=\"ci\">(95%: ", f);
		pct(f, cp->c.ch.lo);
		fputs(" to ", f);
		pct(f, cp->c.ch.hi);
		fputs(")</span> ", f);
	}
	fputs("since ", f);
	when(f, r->s->nights[cp->night].started);
	fputs(": <span class=\"nw\">mean ", f);
	value(f, r->s->metric, cp->c.a.mean, ref);
	fputs(" → ", f);
	value(f, r->s->metric, cp->c.b.mean, ref);
	fprintf(f, "</span> (%s is better)</p>\n", better_name(r->better));
}

static void fact(FILE *f, const char *name)
{
	fprintf(f, "<tr><th>%s</th><td>", name);
}

/*
 * How sure: the p-value, the nights on either side, and what this history
 * can detect; a change smaller than that was found all the same, and the
 * reader is told why its size is uncertain rather than left to wonder.
 */
static void evidence(FILE *f, const struct history_result *r,
		     const struct history_cp *cp)
{
	const struct history_confirm *c = &cp->c;

	fact(f, "evidence");
	fprintf(f, "<span class=\"nw\">p %.2g</span> · %zu night%s (%zu runs) before, %zu night%s (%zu runs) after",
		c->p, c->nights_a, c->nights_a == 1 ? "" : "s", c->na,
		c->nights_b, c->nights_b == 1 ? "" : "s", c->nb);
	if (c->outliers_a + c->outliers_b)
		fprintf(f, " · %zu outlier night%s left out",
			c->outliers_a + c->outliers_b,
			c->outliers_a + c->outliers_b == 1 ? "" : "s");
	fputs(" · confirmed on night ", f);
	when(f, r->s->nights[cp->confirmed_at].started);
	fputs("</td></tr>\n", f);
	if (!isfinite(c->mde))
		return;
	fact(f, "sensitivity");
	fputs("changes of ±", f);
	fprintf(f, "%.1f%%", c->mde * 100);
	fputs(" or more are found 8 times in 10 with this noise and these runs", f);
	if (isfinite(c->ch.rel) && fabs(c->ch.rel) < c->mde) {
		fputs("</td></tr>\n", f);
		fact(f, "note");
		fputs("<span class=\"note\">this change, ", f);
		pct(f, c->ch.rel);
		fputs(", is smaller than that: it was significant all the same, "
		      "but a change this small is often missed, and its size is "
		      "uncertain (see the 95% interval)</span>", f);
	}
	fputs("</td></tr>\n", f);
}

static void kernels(FILE *f, const struct history_result *r,
		    const struct history_cp *cp)
{
	const struct history_series *s = r->s;

	fact(f, hcp_first_term(cp->kind));
	code(f, s->nights[cp->night].kernel_id);
	fputs(" <span class=\"dim\">night ", f);
	when(f, s->nights[cp->night].started);
	fputs("</span></td></tr>\n", f);
	fact(f, hcp_last_term(cp->kind));
	code(f, s->nights[cp->good].kernel_id);
	fputs(" <span class=\"dim\">night ", f);
	when(f, s->nights[cp->good].started);
	fputs("</span></td></tr>\n", f);
	if (cp->bisect) {
		fact(f, "bisect");
		code(f, cp->bisect);
		fputs("</td></tr>\n", f);
	}
	if (cp->ambiguous) {
		fact(f, "host");
		fputs("the host's fingerprint changed too (microcode, BIOS, kernel command line, ...): "
		      "kernel or host? Gated as the kernel's until someone looks", f);
		fputs("</td></tr>\n", f);
	} else if (cp->host_changed) {
		fact(f, "host");
		fputs("the host's fingerprint changed within a night of it (microcode, BIOS, kernel command line, ...): "
		      "not blamed on the kernel", f);
		fputs("</td></tr>\n", f);
	}
}

/*
 * What became of the change: open (with the triage command to run),
 * fixed (when and by which change), or who triaged it and why.
 */
static void status_rows(FILE *f, const struct history_result *r,
			const struct history_cp *cp,
			const struct history_check_opts *o)
{
	enum hcp_status st = history_cp_status(cp);
	char *text, cmd[128];

	fact(f, "id");
	code(f, cp->id);
	fputs("</td></tr>\n", f);
	if (st == HCP_STATUS_NONE)
		return;
	if (st == HCP_STATUS_OPEN) {
		fact(f, "triage");
		snprintf(cmd, sizeof(cmd), "thpbench history triage %s --accept --reason WHY --by NAME",
			 cp->id);
		code(f, cmd);
		fputs(" <span class=\"dim\">or --false-alarm, --fixed-by REF; open until then or until it comes back</span></td></tr>\n", f);
		return;
	}
	fact(f, "status");
	text = history_cp_status_text(r, cp, o);
	fputs("<span class=\"note\">", f);
	esc(f, text ? text : hcp_status_name(st));
	fputs("</span></td></tr>\n", f);
	free(text);
}

static void gate_line(FILE *f, const struct history_result *r,
		      const struct history_digest_item *d,
		      const struct history_check_opts *o)
{
	fact(f, "gate");
	if (d->fails)
		fputs("<b class=\"failtext\">fails</b>", f);
	else
		fputs("passes", f);
	fputs(" <code>--fail-on ", f);
	esc(f, history_fail_on_name(o->fail_on));
	fprintf(f, "</code> · %zu nights in this series</td></tr>\n", r->n_used);
}

static bool exists_in(const char *dir, const char *name)
{
	char path[4096];

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	return !access(path, R_OK);
}

static void chart(FILE *f, const struct history_result *r, const char *dir,
		  bool drawn)
{
	char stem[1024], png[1100], svg[1100], name[1024];

	if (!drawn) {
		fputs("<p class=\"dim\">(no chart: more changes than the page draws; "
		      "<code>thpbench history plot --case ...</code> draws it)</p>\n", f);
		return;
	}
	history_plot_stem(r->s, stem, sizeof(stem));
	snprintf(png, sizeof(png), "%s.png", stem);
	snprintf(svg, sizeof(svg), "%s.svg", stem);
	if (!exists_in(dir, png)) {
		fputs("<p class=\"dim\">(chart not drawn: gnuplot missing; the .gp and .dat files are there)</p>\n",
		      f);
		return;
	}
	fputs("<a href=\"", f);
	esc(f, exists_in(dir, svg) ? svg : png);
	fputs("\"><img src=\"", f);
	esc(f, png);
	fputs("\" width=\"1000\" height=\"600\" alt=\"trend of ", f);
	esc(f, history_series_name(r->s, name, sizeof(name)));
	fputs("\"></a>\n", f);
}

/* The card's opening and its title: case, metric, machine / suite. */
static void card_head(FILE *f, const struct history_result *r,
		      const struct history_digest_item *d, enum hcp_kind kind)
{
	fprintf(f, "<article class=\"card %s%s\" id=\"", kind_class(kind),
		d->fails ? " failing" : "");
	card_id(f, d->idx);
	fputs("\">\n<h3>", f);
	code(f, r->s->case_id);
	fputs(" <span class=\"metric\">", f);
	esc(f, or_dash(r->s->metric));
	fputs("</span> <span class=\"dim\">", f);
	esc(f, or_dash(r->s->host));
	fputs(" / ", f);
	esc(f, or_dash(r->s->suite));
	fputs("</span></h3>\n", f);
}

/*
 * A series that fails with no confirmed change: tonight alone is a
 * regression far out (the watch, history_check.h), to be confirmed or
 * cleared by the next night. The card reads like the others: the size,
 * the kernels, the bisect line, the evidence, what happens next.
 */
static void watch_card(FILE *f, const struct history_result *r,
		       const struct history_digest_item *d,
		       const struct history_check_opts *o, const char *dir,
		       bool drawn)
{
	const struct history_watch *w = &r->watch;
	const struct history_series *s = r->s;
	double ref = fmax(fabs(w->c.a.mean), fabs(w->c.b.mean));
	size_t prev = w->night;

	card_head(f, r, d, w->present ? w->kind : HCP_REGRESSION);
	if (!w->present) {
		fputs("<p class=\"headline\">fails the gate</p>\n", f);
		chart(f, r, dir, drawn);
		fputs("</article>\n", f);
		return;
	}
	while (prev > w->a_from && !s->nights[--prev].n)
		;
	fprintf(f, "<p class=\"headline\"><span class=\"kind %s\">tonight alone</span> <span class=\"nw\"><b>",
		kind_class(w->kind));
	change(f, s->metric, w->nt.change, w->c.a.mean, w->c.b.mean, ref);
	fprintf(f, "</b> %s</span> <span class=\"ci\">(its runs: ",
		how_word(s->metric, direction(w->nt.change, w->c.a.mean, w->c.b.mean)));
	change(f, s->metric, w->c.ch.rel, w->c.a.mean, w->c.b.mean, ref);
	fputs(")</span> on ", f);
	when(f, s->nights[w->night].started);
	fputs(": <span class=\"nw\">mean ", f);
	value(f, s->metric, w->c.a.mean, ref);
	fputs(" → ", f);
	value(f, s->metric, w->c.b.mean, ref);
	fprintf(f, "</span> (%s is better)</p>\n<div class=\"facts\"><table>\n",
		better_name(r->better));
	fact(f, "tonight");
	code(f, s->nights[w->night].kernel_id);
	fputs("</td></tr>\n", f);
	fact(f, "night before");
	code(f, s->nights[prev].kernel_id);
	fputs(" <span class=\"dim\">night ", f);
	when(f, s->nights[prev].started);
	fputs("</span></td></tr>\n", f);
	if (w->bisect) {
		fact(f, "bisect");
		code(f, w->bisect);
		fputs("</td></tr>\n", f);
	}
	fact(f, "evidence");
	fprintf(f, "<span class=\"nw\">p %.2g</span> against %zu nights before it · a night varies by ",
		w->nt.p, w->nt.nights_a);
	if (w->nt.log_scale)
		fprintf(f, "%.2g%%", w->nt.sd * 100);
	else
		value(f, s->metric, w->nt.sd, NAN);
	fputs("</td></tr>\n", f);
	fact(f, "next");
	fputs(w->strong && w->kind == HCP_REGRESSION ?
	      "one night cannot be told from a wild one: the next night confirms it (a regression, open) or clears it" :
	      "not a change unless the next nights agree", f);
	fputs("</td></tr>\n", f);
	gate_line(f, r, d, o);
	fputs("</table></div>\n", f);
	chart(f, r, dir, drawn);
	fputs("</article>\n", f);
}

static void card(FILE *f, const struct history_result *r,
		 const struct history_digest_item *d,
		 const struct history_check_opts *o, const char *dir, bool drawn)
{
	const struct history_cp *cp = d->cp;
	size_t i, earlier = 0;

	if (!cp) {
		watch_card(f, r, d, o, dir, drawn);
		return;
	}
	for (i = 0; i < r->ncp; i++)
		earlier += &r->cp[i] != cp && r->cp[i].kind != HCP_REJECTED &&
			   r->cp[i].night < cp->night;
	card_head(f, r, d, cp->kind);
	headline(f, r, cp);
	fputs("<div class=\"facts\"><table>\n", f);
	kernels(f, r, cp);
	status_rows(f, r, cp, o);
	evidence(f, r, cp);
	gate_line(f, r, d, o);
	if (earlier) {
		fact(f, "earlier");
		fprintf(f, "%zu earlier confirmed change%s in this series (the chart shows them)",
			earlier, earlier == 1 ? "" : "s");
		fputs("</td></tr>\n", f);
	}
	fputs("</table></div>\n", f);
	chart(f, r, dir, drawn);
	fputs("</article>\n", f);
}

static void section(FILE *f, const char *id, const char *title, size_t count,
		    const char *none)
{
	fprintf(f, "<section id=\"%s\">\n<h2>%s <span class=\"count\">%zu</span></h2>\n",
		id, title, count);
	if (!count)
		fprintf(f, "<p class=\"dim\">%s</p>\n", none);
}

/* The quiet series, folded: one row each, with what they are doing. */
static void quiet(FILE *f, const struct history_result *r,
		  const struct history_digest_item *d, size_t n, size_t count,
		  size_t recent)
{
	size_t i;

	fprintf(f, "<details id=\"quiet\">\n<summary>%zu quiet series: no confirmed change in their last %zu nights</summary>\n",
		count, recent);
	fputs("<div class=\"scroll\"><table class=\"quiet\">\n<tr><th>case</th><th>metric</th><th>host / suite</th><th class=\"num\">nights</th><th>newest</th><th class=\"num\">newest mean</th><th>last change</th></tr>\n",
	      f);
	for (i = 0; i < n; i++) {
		const struct history_result *x = &r[d[i].idx];
		const struct history_series *s = x->s;

		if (d[i].a != HA_QUIET)
			continue;
		fputs("<tr><td>", f);
		code(f, s->case_id);
		fputs("</td><td>", f);
		esc(f, or_dash(s->metric));
		fputs("</td><td>", f);
		esc(f, or_dash(s->host));
		fputs(" / ", f);
		esc(f, or_dash(s->suite));
		fprintf(f, "</td><td class=\"num\">%zu</td><td>", x->n_used);
		if (x->newest != SIZE_MAX)
			when(f, s->nights[x->newest].started);
		fputs("</td><td class=\"num\">", f);
		value(f, s->metric, history_newest_mean(x), NAN);
		fputs("</td><td>", f);
		if (d[i].cp) {
			fprintf(f, "<span class=\"kind %s\">", kind_class(d[i].cp->kind));
			esc(f, hcp_kind_name(d[i].cp->kind));
			fputs("</span> ", f);
			change(f, s->metric, d[i].cp->c.ch.rel, d[i].cp->c.a.mean,
			       d[i].cp->c.b.mean, NAN);
			fputs(" since ", f);
			when(f, s->nights[d[i].cp->night].started);
			status_badge(f, d[i].cp);
		} else {
			fputs("none", f);
		}
		fputs("</td></tr>\n", f);
	}
	fputs("</table></div>\n</details>\n", f);
}

static void how_to_read(FILE *f, const struct history_check_opts *o,
			size_t recent)
{
	fprintf(f, "<details id=\"about\">\n<summary>How to read this page</summary>\n"
		"<p>Each series is one host, suite version, case and metric, a point per night. "
		"Change points come from E-Divisive means on the night means and are confirmed on the "
		"repetitions and on the night means of up to %zu nights either side "
		"(Welch and Mann-Whitney must agree, at %.0f%% confidence, beyond a %.1f%% noise threshold). "
		"<b>Open regressions</b>: the series fails the gate, or its latest confirmed change is a "
		"regression still in effect. <b>Recent changes</b>: a confirmed change within a series' last "
		"%zu nights. The interval is the change's 95%% confidence interval; <b>sensitivity</b> is the "
		"change these nights and runs detect 8 times in 10. An environment change coincides with a "
		"change of the host's fingerprint and is not blamed on the kernel.</p>\n</details>\n",
		o->confirm_nights, o->confirm.confidence * 100,
		o->confirm.threshold * 100, recent);
}

static void write_page(FILE *f, const struct history_result *r, size_t n,
		       const struct history_check_opts *o, const char *source,
		       const char *dir, const bool *drawn,
		       const struct history_digest_item *d,
		       const size_t counts[3], size_t recent)
{
	char now[32];
	time_t t = time(NULL);
	struct tm tm;
	size_t i;

	gmtime_r(&t, &tm);
	strftime(now, sizeof(now), "%Y-%m-%d %H:%M UTC", &tm);
	fprintf(f, "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n"
		"<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n"
		"<title>%s: thpbench nightly</title>\n<style>\n%s</style>\n</head>\n<body>\n",
		n && d[0].fails ? "FAIL" : "PASS", history_report_css);
	fputs("<main>\n", f);
	verdict(f, r, n, d, counts, o, source);
	section(f, "open", "Open regressions", counts[HA_OPEN],
		"None: no series fails the gate or has a regression in effect.");
	fputs("<div class=\"cards\">\n", f);
	for (i = 0; i < n && d[i].a == HA_OPEN; i++)
		card(f, &r[d[i].idx], &d[i], o, dir, drawn[i]);
	fputs("</div>\n</section>\n", f);
	fprintf(f, "<section id=\"recent\">\n<h2>Changes in the last %zu nights <span class=\"count\">%zu</span></h2>\n",
		recent, counts[HA_RECENT]);
	if (!counts[HA_RECENT])
		fputs("<p class=\"dim\">None.</p>\n", f);
	fputs("<div class=\"cards\">\n", f);
	for (; i < n && d[i].a == HA_RECENT; i++)
		card(f, &r[d[i].idx], &d[i], o, dir, drawn[i]);
	fputs("</div>\n</section>\n", f);
	quiet(f, r, d, n, counts[HA_QUIET], recent);
	how_to_read(f, o, recent);
	fprintf(f, "<footer class=\"dim\">written by thpbench history report, %s</footer>\n</main>\n</body>\n</html>\n",
		now);
}

/* Draw the charts of the first max open or recent entries; drawn[i] says. */
static int draw(const struct history_result *r,
		const struct history_digest_item *d, size_t n, size_t max,
		const char *dir, bool *drawn, char *err, size_t errlen)
{
	struct plot_set ps = { 0 };
	char why[4096];
	size_t i, k = 0;
	int rc = 0;

	if (mkdir_p(dir, 0755)) {
		snprintf(err, errlen, "%s: cannot create: %s", dir, strerror(errno));
		return -1;
	}
	for (i = 0; i < n && d[i].a != HA_QUIET && k < max; i++, k++) {
		if (history_plot(&r[d[i].idx], 1, dir, &ps, why, sizeof(why))) {
			snprintf(err, errlen, "history report: %s", why);
			rc = -1;
			break;
		}
		drawn[i] = true;
	}
	if (!rc && plot_render(&ps, stderr) == PLOT_FAILED) {
		snprintf(err, errlen,
			 "history report: gnuplot failed on a chart (its messages above); no index.html written");
		rc = -1;
	}
	plot_set_free(&ps);
	return rc;
}

int history_report(const struct history_result *r, size_t n,
		   const struct history_check_opts *o, const char *source,
		   const char *dir, char *err, size_t errlen)
{
	size_t counts[3], len = strlen(dir) + 64, recent = HISTORY_RECENT_NIGHTS;
	struct history_digest_item *d = history_digest(r, n, o->fail_on, recent,
						       counts);
	bool *drawn = xcalloc(n ? n : 1, sizeof(*drawn));
	char *path = NULL, *tmp = NULL;
	int rc = -1;
	FILE *f;

	if (draw(r, d, n, HISTORY_REPORT_CHARTS, dir, drawn, err, errlen))
		goto out;
	path = xmalloc(len);
	tmp = xmalloc(len);
	snprintf(path, len, "%s/index.html", dir);
	snprintf(tmp, len, "%s/.index.html.%d", dir, (int)getpid());
	f = fopen(tmp, "w");
	if (!f) {
		snprintf(err, errlen, "%s: cannot create: %s", tmp, strerror(errno));
		goto out;
	}
	write_page(f, r, n, o, source, dir, drawn, d, counts, recent);
	if (ferror(f) | fclose(f) || rename(tmp, path)) {
		snprintf(err, errlen, "%s: write failed: %s", path, strerror(errno));
		unlink(tmp);
		goto out;
	}
	rc = 0;
out:
	free(path);
	free(tmp);
	free(drawn);
	free(d);
	return rc;
}
