// SPDX-License-Identifier: GPL-2.0-only
/*
 * history_ci - the formats CI systems read (history_format.h): JUnit XML,
 * TAP version 13 and LAVA test-case lines.
 */
#include "history_format.h"
#include "history_print.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "plot/plot_metrics.h"
#include "util/util.h"

static const char *or_dash(const char *s)
{
	return s && *s ? s : "-";
}

/* Another series of the same host and suite with another suite hash? */
static bool suite_ambiguous(const struct history_result *r, size_t n,
			    const struct history_series *s)
{
	size_t i;

	for (i = 0; i < n; i++) {
		const struct history_series *t = r[i].s;

		if (!strcmp(or_dash(t->host), or_dash(s->host)) &&
		    !strcmp(or_dash(t->suite), or_dash(s->suite)) &&
		    strcmp(or_dash(t->suite_hash), or_dash(s->suite_hash)))
			return true;
	}
	return false;
}

/* "HOST/SUITE", with "@HASH8" when two versions of the suite are there. */
static void suite_label(const struct history_result *r, size_t n,
			const struct history_series *s, char *buf, size_t len)
{
	if (suite_ambiguous(r, n, s))
		snprintf(buf, len, "%s/%s@%.8s", or_dash(s->host),
			 or_dash(s->suite), or_dash(s->suite_hash));
	else
		snprintf(buf, len, "%s/%s", or_dash(s->host), or_dash(s->suite));
}

/* --- JUnit ------------------------------------------------------------ */

static void xml_attr(FILE *f, const char *name, const char *value)
{
	fprintf(f, " %s=\"", name);
	history_xml_escape(f, value);
	fputc('"', f);
}

static void junit_case(FILE *f, const struct history_result *r,
		       const char *label, const struct history_check_opts *o)
{
	const struct history_series *s = r->s;
	char name[512];
	size_t i;

	snprintf(name, sizeof(name), "%s %s", or_dash(s->case_id),
		 or_dash(s->metric));
	fputs("    <testcase", f);
	xml_attr(f, "classname", label);
	xml_attr(f, "name", name);
	fputs(" time=\"0\">\n", f);
	if (history_result_fails(r, o->fail_on)) {
		const struct history_cp *cp = NULL;
		char *t;

		for (i = r->ncp; i-- > 0 && !cp;)
			if (r->cp[i].kind == HCP_REGRESSION)
				cp = &r->cp[i];
		t = history_cp_text(r, cp);
		fputs("      <failure type=\"regression\"", f);
		xml_attr(f, "message", t);
		fputs(">", f);
		history_xml_escape(f, t);
		if (cp->bisect) {
			fputc('\n', f);
			history_xml_escape(f, cp->bisect);
		}
		fputs("</failure>\n", f);
		free(t);
	}
	fputs("      <system-out>", f);
	fprintf(f, "%zu nights, newest mean %.6g %s; %zu change point%s",
		r->n_used, history_newest_mean(r), plot_metric_unit(s->metric),
		r->ncp, r->ncp == 1 ? "" : "s");
	for (i = r->ncp; i-- > 0;) {
		char *t = history_cp_text(r, &r->cp[i]);

		fputc('\n', f);
		history_xml_escape(f, t);
		free(t);
		if (r->cp[i].bisect) {
			fputc('\n', f);
			history_xml_escape(f, r->cp[i].bisect);
		}
	}
	fputs("</system-out>\n    </testcase>\n", f);
}

void history_write_junit(FILE *f, const struct history_result *r, size_t n,
			 const struct history_check_opts *o)
{
	size_t *idx = history_order(r, n, o->fail_on), i, j, fails = 0;
	bool *done = xcalloc(n ? n : 1, sizeof(*done));
	char label[512], other[512];

	for (i = 0; i < n; i++)
		fails += history_result_fails(&r[i], o->fail_on);
	fputs("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n", f);
	fprintf(f, "<testsuites name=\"thpbench history\" tests=\"%zu\" failures=\"%zu\" errors=\"0\" time=\"0\">\n",
		n, fails);
	/* One testsuite per host and suite, in the order of their first series. */
	for (i = 0; i < n; i++) {
		size_t tests = 0, sfails = 0;

		if (done[idx[i]])
			continue;
		suite_label(r, n, r[idx[i]].s, label, sizeof(label));
		for (j = i; j < n; j++) {
			suite_label(r, n, r[idx[j]].s, other, sizeof(other));
			if (!done[idx[j]] && !strcmp(label, other)) {
				tests++;
				sfails += history_result_fails(&r[idx[j]], o->fail_on);
			}
		}
		fputs("  <testsuite", f);
		xml_attr(f, "name", label);
		fprintf(f, " tests=\"%zu\" failures=\"%zu\" errors=\"0\" skipped=\"0\" time=\"0\"",
			tests, sfails);
		xml_attr(f, "hostname", or_dash(r[idx[i]].s->host));
		fputs(">\n", f);
		for (j = i; j < n; j++) {
			suite_label(r, n, r[idx[j]].s, other, sizeof(other));
			if (done[idx[j]] || strcmp(label, other))
				continue;
			junit_case(f, &r[idx[j]], label, o);
			done[idx[j]] = true;
		}
		fputs("  </testsuite>\n", f);
	}
	fputs("</testsuites>\n", f);
	free(done);
	free(idx);
}

/* --- TAP 13 ------------------------------------------------------------- */

/* A YAML double-quoted scalar. */
static void yaml_str(FILE *f, const char *s)
{
	fputc('"', f);
	for (; s && *s; s++) {
		unsigned char c = (unsigned char)*s;

		if (c == '"' || c == '\\')
			fprintf(f, "\\%c", c);
		else if (c < 0x20 || c == 0x7f)
			fprintf(f, "\\x%02x", c);
		else
			fputc(c, f);
	}
	fputc('"', f);
}

static void tap_name(FILE *f, const struct history_result *all, size_t n,
		     const struct history_result *r)
{
	const struct history_series *s = r->s;
	char label[512], buf[1024], *clean, *p;

	suite_label(all, n, s, label, sizeof(label));
	snprintf(buf, sizeof(buf), "%s %s %s", label, or_dash(s->case_id),
		 or_dash(s->metric));
	/* '#' would start a directive, a control character could end the
	 * line; invalid UTF-8 is replaced. */
	clean = history_utf8_clean(buf);
	for (p = clean; *p; p++)
		if (*p == '#' || (unsigned char)*p < 0x20 || *p == 0x7f)
			*p = '_';
	fputs(clean, f);
	free(clean);
}

void history_write_tap(FILE *f, const struct history_result *r, size_t n,
		       const struct history_check_opts *o)
{
	size_t *idx = history_order(r, n, o->fail_on), i, j;

	fprintf(f, "TAP version 13\n1..%zu\n", n);
	for (i = 0; i < n; i++) {
		const struct history_result *x = &r[idx[i]];

		fprintf(f, "%sok %zu - ",
			history_result_fails(x, o->fail_on) ? "not " : "", i + 1);
		tap_name(f, r, n, x);
		fputc('\n', f);
		if (!x->ncp)
			continue;
		fputs("  ---\n", f);
		fprintf(f, "  nights: %zu\n  newest_mean: %.6g\n  change_points:\n",
			x->n_used, history_newest_mean(x));
		for (j = x->ncp; j-- > 0;) {
			char *t = history_cp_text(x, &x->cp[j]);

			fprintf(f, "    - kind: %s\n      text: ",
				hcp_kind_name(x->cp[j].kind));
			yaml_str(f, t);
			fputc('\n', f);
			if (x->cp[j].bisect) {
				fputs("      bisect: ", f);
				yaml_str(f, x->cp[j].bisect);
				fputc('\n', f);
			}
			free(t);
		}
		fputs("  ...\n", f);
	}
	free(idx);
}

/* --- LAVA --------------------------------------------------------------- */

/* LAVA units: no spaces, ASCII ("µs" as "us"). */
static const char *lava_units(const char *metric, char *buf, size_t len)
{
	const char *u = plot_metric_unit(metric);

	if (!strcmp(u, "µs"))
		u = "us";
	return history_token(u, buf, len);
}

void history_write_lava(FILE *f, const struct history_result *r, size_t n,
			const struct history_check_opts *o)
{
	size_t *idx = history_order(r, n, o->fail_on), i;

	for (i = 0; i < n; i++) {
		const struct history_result *x = &r[idx[i]];
		const struct history_series *s = x->s;
		char raw[1536], name[1536], label[512], units[64];
		double m = history_newest_mean(x);

		suite_label(r, n, s, label, sizeof(label));
		snprintf(raw, sizeof(raw), "%s_%s_%s", label, or_dash(s->case_id),
			 or_dash(s->metric));
		fprintf(f, "lava-test-case %s --result %s",
			history_token(raw, name, sizeof(name)),
			history_result_fails(x, o->fail_on) ? "fail" : "pass");
		if (isfinite(m)) {
			fprintf(f, " --measurement %.10g", m);
			if (*plot_metric_unit(s->metric))
				fprintf(f, " --units %s",
					lava_units(s->metric, units, sizeof(units)));
		}
		fputc('\n', f);
	}
	free(idx);
}
