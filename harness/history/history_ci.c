// SPDX-License-Identifier: GPL-2.0-only
/*
 * history_ci - the formats CI systems read (history_format.h): JUnit XML,
 * TAP version 13 and LAVA test-case lines.
 */
#include "history_format.h"
#include "history_gate.h"
#include "history_print.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "plot/plot_metrics.h"
#include "results/lava.h"
#include "util/utf8.h"
#include "util/util.h"

static const char *or_dash(const char *s)
{
	return s && *s ? s : "-";
}

/* Order of series by host, suite, suite hash. */
static int by_suite(const void *a, const void *b, void *arg)
{
	const struct history_result *r = arg;
	const struct history_series *x = r[*(const size_t *)a].s;
	const struct history_series *y = r[*(const size_t *)b].s;
	int c = strcmp(or_dash(x->host), or_dash(y->host));

	if (!c)
		c = strcmp(or_dash(x->suite), or_dash(y->suite));
	if (!c)
		c = strcmp(or_dash(x->suite_hash), or_dash(y->suite_hash));
	return c;
}

/*
 * Every series' "HOST/SUITE", with "@HASH8" when that host and suite has
 * more than one version; labels[i] for r[i]. One sort, not a scan per
 * series: 40,000 series took minutes the quadratic way.
 */
static char **suite_labels(const struct history_result *r, size_t n)
{
	size_t *o = xmalloc((n ? n : 1) * sizeof(*o)), i, j, k;
	char **labels = xcalloc(n ? n : 1, sizeof(*labels)), buf[600];
	bool versions;

	for (i = 0; i < n; i++)
		o[i] = i;
	qsort_r(o, n, sizeof(*o), by_suite, (void *)r);
	for (i = 0; i < n; i = j) {
		const struct history_series *s = r[o[i]].s;

		versions = false;
		for (j = i + 1; j < n && !strcmp(or_dash(r[o[j]].s->host), or_dash(s->host)) &&
			     !strcmp(or_dash(r[o[j]].s->suite), or_dash(s->suite)); j++)
			versions |= strcmp(or_dash(r[o[j]].s->suite_hash),
					   or_dash(s->suite_hash)) != 0;
		for (k = i; k < j; k++) {
			const struct history_series *t = r[o[k]].s;

			if (versions)
				snprintf(buf, sizeof(buf), "%s/%s@%.8s", or_dash(t->host),
					 or_dash(t->suite), or_dash(t->suite_hash));
			else
				snprintf(buf, sizeof(buf), "%s/%s", or_dash(t->host),
					 or_dash(t->suite));
			labels[o[k]] = xstrdup(buf);
		}
	}
	free(o);
	return labels;
}

/* --- JUnit ------------------------------------------------------------ */

static void xml_attr(FILE *f, const char *name, const char *value)
{
	fprintf(f, " %s=\"", name);
	history_xml_escape(f, value);
	fputc('"', f);
}

/* The change point a failure is about: the newest open regression. */
static const struct history_cp *failing_cp(const struct history_result *r)
{
	size_t i;

	for (i = r->ncp; i-- > 0;)
		if (history_cp_status(&r->cp[i]) == HCP_STATUS_OPEN)
			return &r->cp[i];
	return NULL;
}

static bool skipped(const struct history_result *r, enum history_fail_on f)
{
	char *why;
	bool s = history_result_skipped(r, f, &why);

	free(why);
	return s;
}

/* Every change point with its id, status and bisect line; the watch. */
static void junit_out(FILE *f, const struct history_result *r,
		      const struct history_check_opts *o)
{
	size_t i;

	for (i = r->ncp; i-- > 0;) {
		char *t = history_cp_text(r, &r->cp[i]);
		char *st = history_cp_status_text(r, &r->cp[i], o);

		fprintf(f, "\n[%s] ", r->cp[i].id);
		history_xml_escape(f, t);
		if (st) {
			fputs("\n  ", f);
			history_xml_escape(f, st);
		}
		if (r->cp[i].bisect) {
			fputs("\n  ", f);
			history_xml_escape(f, r->cp[i].bisect);
		}
		free(t);
		free(st);
	}
	if (r->watch.present) {
		char *w = history_watch_text(r);

		fputc('\n', f);
		history_xml_escape(f, w);
		if (r->watch.bisect) {
			fputs("\n  ", f);
			history_xml_escape(f, r->watch.bisect);
		}
		free(w);
	}
}

static void junit_case(FILE *f, const struct history_result *r,
		       const char *label, const struct history_check_opts *o)
{
	const struct history_series *s = r->s;
	char name[512], *why = NULL;

	snprintf(name, sizeof(name), "%s %s", or_dash(s->case_id),
		 or_dash(s->metric));
	fputs("    <testcase", f);
	xml_attr(f, "classname", label);
	xml_attr(f, "name", name);
	fputs(" time=\"0\">\n", f);
	if (history_result_fails(r, o->fail_on)) {
		const struct history_cp *cp = failing_cp(r);
		char *t = cp ? history_cp_text(r, cp) :
			  history_drift_open(r) ? history_drift_text(r) :
			  history_watch_text(r);

		fputs("      <failure type=\"regression\"", f);
		xml_attr(f, "message", t ? t : "regression");
		fputs(">", f);
		history_xml_escape(f, t);
		const char *bis = cp ? cp->bisect :
				  history_drift_open(r) ? NULL : r->watch.bisect;

		if (bis) {
			fputc('\n', f);
			history_xml_escape(f, bis);
		}
		fputs("</failure>\n", f);
		free(t);
	} else if (history_result_skipped(r, o->fail_on, &why)) {
		fputs("      <skipped", f);
		xml_attr(f, "message", why);
		fputs("/>\n", f);
	}
	free(why);
	fputs("      <system-out>", f);
	fprintf(f, "%zu nights, newest mean %.6g %s; %zu change point%s, %zu open regression%s",
		r->n_used, history_newest_mean(r), plot_metric_unit(s->metric),
		r->ncp, r->ncp == 1 ? "" : "s", history_open_regressions(r),
		history_open_regressions(r) == 1 ? "" : "s");
	junit_out(f, r, o);
	fputs("</system-out>\n    </testcase>\n", f);
}

/* Positions of the JUnit order by testsuite: the order its first series
 * appears in, then each suite's series in order. */
struct junit_pos {
	size_t k;		/* position in idx */
	size_t group;		/* position of its label's first series */
};

static int by_label(const void *a, const void *b, void *arg)
{
	const struct junit_pos *x = a, *y = b;
	char **labels = ((char ***)arg)[0];
	const size_t *idx = ((size_t **)arg)[1];
	int c = strcmp(labels[idx[x->k]], labels[idx[y->k]]);

	return c ? c : x->k < y->k ? -1 : x->k > y->k;
}

static int by_group(const void *a, const void *b)
{
	const struct junit_pos *x = a, *y = b;

	if (x->group != y->group)
		return x->group < y->group ? -1 : 1;
	return x->k < y->k ? -1 : x->k > y->k;
}

void history_write_junit(FILE *f, const struct history_result *r, size_t n,
			 const struct history_check_opts *o)
{
	size_t *idx = history_order(r, n, o->fail_on), i, j, fails = 0;
	struct junit_pos *p = xmalloc((n ? n : 1) * sizeof(*p));
	char **labels = suite_labels(r, n);
	void *arg[2] = { labels, idx };

	for (i = 0; i < n; i++) {
		fails += history_result_fails(&r[i], o->fail_on);
		p[i].k = i;
	}
	/* One testsuite per host and suite, in the order of their first series. */
	qsort_r(p, n, sizeof(*p), by_label, arg);
	for (i = 0; i < n; i = j) {
		for (j = i; j < n && !strcmp(labels[idx[p[j].k]], labels[idx[p[i].k]]); j++)
			p[j].group = p[i].k;
	}
	qsort(p, n, sizeof(*p), by_group);
	fputs("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n", f);
	fprintf(f, "<testsuites name=\"thpbench history\" tests=\"%zu\" failures=\"%zu\" errors=\"0\" time=\"0\">\n",
		n, fails);
	for (i = 0; i < n; i = j) {
		const char *label = labels[idx[p[i].k]];
		size_t sfails = 0, sskips = 0;

		for (j = i; j < n && p[j].group == p[i].group; j++) {
			sfails += history_result_fails(&r[idx[p[j].k]], o->fail_on);
			sskips += skipped(&r[idx[p[j].k]], o->fail_on);
		}
		fputs("  <testsuite", f);
		xml_attr(f, "name", label);
		fprintf(f, " tests=\"%zu\" failures=\"%zu\" errors=\"0\" skipped=\"%zu\" time=\"0\"",
			j - i, sfails, sskips);
		xml_attr(f, "hostname", or_dash(r[idx[p[i].k]].s->host));
		fputs(">\n", f);
		for (j = i; j < n && p[j].group == p[i].group; j++)
			junit_case(f, &r[idx[p[j].k]], label, o);
		fputs("  </testsuite>\n", f);
	}
	fputs("</testsuites>\n", f);
	for (i = 0; i < n; i++)
		free(labels[i]);
	free(labels);
	free(p);
	free(idx);
}

/* --- TAP 13 ------------------------------------------------------------- */

/*
 * A YAML double-quoted scalar of hostile text (names, triage reasons):
 * controls, C1 ones too, as YAML escapes; invalid UTF-8 as U+FFFD (issue
 * 36 small item: it reached the TAP stream raw).
 */
static void yaml_str(FILE *f, const char *s)
{
	uint32_t c;
	size_t n;

	fputc('"', f);
	for (; s && *s; s += n ? n : 1) {
		n = utf8_seq(s, &c);
		if (!n)
			fputs("\\uFFFD", f);
		else if (c == '"' || c == '\\')
			fprintf(f, "\\%c", (int)c);
		else if (c < 0x20 || c == 0x7f)
			fprintf(f, "\\x%02x", (unsigned)c);
		else if (c >= 0x80 && c <= 0x9f)
			fprintf(f, "\\u%04x", (unsigned)c);
		else
			fwrite(s, 1, n, f);
	}
	fputc('"', f);
}

/*
 * TAP text on one line, escaped (utf8.h: a stored newline never starts a
 * line, invalid UTF-8 never passes raw); '#' would start a directive.
 */
static void tap_text(FILE *f, const char *s)
{
	char *clean = str_escape_dup(s), *p;

	for (p = clean; *p; p++)
		if (*p == '#')
			*p = '_';
	fputs(clean, f);
	free(clean);
}

static void tap_name(FILE *f, const char *label, const struct history_result *r)
{
	const struct history_series *s = r->s;
	char buf[1024];

	snprintf(buf, sizeof(buf), "%s %s %s", label, or_dash(s->case_id),
		 or_dash(s->metric));
	tap_text(f, buf);
}

static void tap_yaml(FILE *f, const struct history_result *x,
		     const struct history_check_opts *o)
{
	size_t j;

	fputs("  ---\n", f);
	fprintf(f, "  nights: %zu\n  newest_mean: %.6g\n  open_regressions: %zu\n  change_points:%s\n",
		x->n_used, history_newest_mean(x), history_open_regressions(x),
		x->ncp ? "" : " []");
	for (j = x->ncp; j-- > 0;) {
		const struct history_cp *cp = &x->cp[j];
		const char *st = hcp_status_name(history_cp_status(cp));
		char *t = history_cp_text(x, cp), *stt = history_cp_status_text(x, cp, o);

		fprintf(f, "    - id: %s\n      kind: %s\n      status: %s\n      text: ",
			cp->id, hcp_kind_name(cp->kind), *st ? st : "-");
		yaml_str(f, t);
		fputc('\n', f);
		if (stt) {
			fputs("      status_text: ", f);
			yaml_str(f, stt);
			fputc('\n', f);
		}
		if (cp->bisect) {
			fputs("      bisect: ", f);
			yaml_str(f, cp->bisect);
			fputc('\n', f);
		}
		free(t);
		free(stt);
	}
	if (x->watch.present) {
		char *w = history_watch_text(x);

		fputs("  watch: ", f);
		yaml_str(f, w);
		fputc('\n', f);
		if (x->watch.bisect) {
			fputs("  watch_bisect: ", f);
			yaml_str(f, x->watch.bisect);
			fputc('\n', f);
		}
		free(w);
	}
	fputs("  ...\n", f);
}

void history_write_tap(FILE *f, const struct history_result *r, size_t n,
		       const struct history_check_opts *o)
{
	size_t *idx = history_order(r, n, o->fail_on), i;
	char **labels = suite_labels(r, n);

	fprintf(f, "TAP version 13\n1..%zu\n", n);
	for (i = 0; i < n; i++) {
		const struct history_result *x = &r[idx[i]];
		char *why = NULL;

		fprintf(f, "%sok %zu - ",
			history_result_fails(x, o->fail_on) ? "not " : "", i + 1);
		tap_name(f, labels[idx[i]], x);
		if (history_result_skipped(x, o->fail_on, &why)) {
			fputs(" # SKIP triaged: ", f);
			tap_text(f, why);
		}
		free(why);
		fputc('\n', f);
		if (x->ncp || x->watch.present)
			tap_yaml(f, x, o);
	}
	for (i = 0; i < n; i++)
		free(labels[i]);
	free(labels);
	free(idx);
}

/* --- LAVA --------------------------------------------------------------- */

void history_write_lava(FILE *f, const struct history_result *r, size_t n,
			const struct history_check_opts *o)
{
	size_t *idx = history_order(r, n, o->fail_on), i;
	char **labels = suite_labels(r, n);

	for (i = 0; i < n; i++) {
		const struct history_result *x = &r[idx[i]];
		const struct history_series *s = x->s;
		char raw[1536], name[1536], units[64];
		double m = history_newest_mean(x);

		snprintf(raw, sizeof(raw), "%s_%s_%s", labels[idx[i]], or_dash(s->case_id),
			 or_dash(s->metric));
		fprintf(f, "lava-test-case %s --result %s",
			lava_token(raw, name, sizeof(name)),
			history_result_fails(x, o->fail_on) ? "fail" :
			skipped(x, o->fail_on) ? "skip" : "pass");
		if (isfinite(m))
			fprintf(f, " --measurement %.10g --units %s", m,
				lava_units(s->metric, units, sizeof(units)));
		fputc('\n', f);
	}
	for (i = 0; i < n; i++)
		free(labels[i]);
	free(labels);
	free(idx);
}
