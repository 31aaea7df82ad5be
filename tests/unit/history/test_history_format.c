// SPDX-License-Identifier: GPL-2.0-only
/*
 * The outputs of `history check` on synthetic histories: escaping, the
 * gate's order, what each format says about a failing, a triaged and a
 * passing series (JSON read back with jansson; TAP, LAVA and JUnit line
 * by line; the JUnit schema itself is checked with xmllint in
 * tests/integration/history_check.sh).
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <cmocka.h>

#include <jansson.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "../../history/histgen.h"
#include "history/history_check.h"
#include "history/history_format.h"
#include "history/history_gate.h"
#include "history/history_print.h"
#include "util/utf8.h"
#include "util/util.h"

#define NS 4

struct fx {
	struct history_series v[NS];
	struct history_result *r;
	struct history_check_opts o;
};

/*
 * 0: a regression long ago, open (fails); 1: a regression confirmed
 * tonight (fails); 2: the same as 0, triaged as accepted (skipped);
 * 3: quiet (passes).
 */
static int setup(void **state)
{
	struct fx *fx = xcalloc(1, sizeof(*fx));
	struct history_triage t = {
		.state = TRIAGE_ACCEPTED, .name = "Jane Doe",
		.reason = "THP defrag is off by design now", .decided = "2026-02-01T10:00:00Z",
	};
	struct histgen g;

	histgen_init(&g);
	g.case_id = "old/thp=always";
	g.steps[g.nsteps++] = (struct histgen_at){ 12, 0.06 };
	histgen_series(&g, &fx->v[0]);
	histgen_init(&g);
	g.case_id = "new <&> \"x\" 'y'\x01\xff";
	g.reps = 10;
	g.steps[g.nsteps++] = (struct histgen_at){ 28, 0.12 };
	histgen_series(&g, &fx->v[1]);
	histgen_init(&g);
	g.case_id = "accepted/thp=always";
	g.steps[g.nsteps++] = (struct histgen_at){ 12, 0.06 };
	histgen_series(&g, &fx->v[2]);
	histgen_init(&g);
	g.case_id = "quiet";
	g.metric = "gbps";
	g.better = NULL;
	histgen_series(&g, &fx->v[3]);
	history_check_opts_init(&fx->o);
	fx->r = history_check_all(fx->v, NS, &fx->o);
	assert_int_equal(fx->r[2].ncp, 1);
	t.cp_id = fx->r[2].cp[0].id;
	history_triage_apply(fx->r, NS, &t, 1);
	*state = fx;
	return 0;
}

static int teardown(void **state)
{
	struct fx *fx = *state;
	size_t i;

	history_results_free(fx->r, NS);
	for (i = 0; i < NS; i++)
		history_series_free(&fx->v[i]);
	free(fx);
	return 0;
}

static char *render(struct fx *fx, enum history_format fmt)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	assert_int_equal(history_write(f, fmt, fx->r, NS, &fx->o), 0);
	fclose(f);
	return buf;
}

static size_t count(const char *hay, const char *needle)
{
	size_t n = 0;

	for (; (hay = strstr(hay, needle)); hay += strlen(needle))
		n++;
	return n;
}

static void test_escape(void **state)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	(void)state;
	history_xml_escape(f, "a<b>&\"c'\x01\tok\xc3\xa9\xff\xe2\x82");
	fclose(f);
	assert_string_equal(buf, "a&lt;b&gt;&amp;&quot;c&#39;\xef\xbf\xbd\tok\xc3\xa9\xef\xbf\xbd\xef\xbf\xbd\xef\xbf\xbd");
	free(buf);
	assert_int_equal(history_format_parse("junit"), HISTORY_FMT_JUNIT);
	assert_int_equal(history_format_parse("xml"), -1);
}

static void test_order_and_gate(void **state)
{
	struct fx *fx = *state;
	size_t *idx = history_order(fx->r, NS, HISTORY_FAIL_OPEN);
	char *why;

	assert_true(history_result_fails(&fx->r[0], HISTORY_FAIL_OPEN));
	assert_true(history_result_fails(&fx->r[1], HISTORY_FAIL_OPEN));
	assert_false(history_result_fails(&fx->r[2], HISTORY_FAIL_OPEN));
	assert_false(history_result_fails(&fx->r[3], HISTORY_FAIL_OPEN));
	assert_false(history_result_fails(&fx->r[0], HISTORY_FAIL_NEWEST));
	assert_true(history_result_fails(&fx->r[1], HISTORY_FAIL_NEWEST));
	assert_true(history_result_skipped(&fx->r[2], HISTORY_FAIL_OPEN, &why));
	assert_non_null(strstr(why, fx->r[2].cp[0].id));
	assert_non_null(strstr(why, " accepted by Jane Doe: THP defrag is off by design now"));
	free(why);
	assert_int_equal(history_cp_status(&fx->r[2].cp[0]), HCP_STATUS_ACCEPTED);
	assert_false(history_result_skipped(&fx->r[3], HISTORY_FAIL_OPEN, &why));
	assert_null(why);
	/* Failing first, then the rest, each as given. */
	assert_int_equal(idx[0], 0);
	assert_int_equal(idx[1], 1);
	assert_int_equal(idx[2], 2);
	assert_int_equal(idx[3], 3);
	free(idx);
}

static void test_json(void **state)
{
	struct fx *fx = *state;
	char *s = render(fx, HISTORY_FMT_JSON);
	json_error_t e;
	json_t *doc = json_loads(s, 0, &e), *new, *cp, *nt, *acc;

	assert_non_null(doc);
	assert_string_equal(json_string_value(json_object_get(doc, "schema")),
			    "thpbench-history-check/2");
	assert_true(json_is_true(json_object_get(json_object_get(doc, "gate"), "failed")));
	assert_string_equal(json_string_value(json_object_get(json_object_get(doc, "gate"), "fail_on")),
			    "open");
	new = json_array_get(json_object_get(doc, "series"), 1);
	assert_string_equal(json_string_value(json_object_get(new, "case")),
			    "new <&> \"x\" 'y'\x01\xef\xbf\xbd");
	assert_true(json_is_true(json_object_get(new, "new_tonight")));
	assert_int_equal(json_integer_value(json_object_get(new, "open_regressions")), 1);
	cp = json_array_get(json_object_get(new, "change_points"), 0);
	assert_string_equal(json_string_value(json_object_get(cp, "kind")), "regression");
	assert_string_equal(json_string_value(json_object_get(cp, "status")), "open");
	assert_int_equal(strlen(json_string_value(json_object_get(cp, "id"))), 12);
	assert_int_equal(json_integer_value(json_object_get(json_object_get(cp, "first_bad"), "index")), 28);
	assert_int_equal(json_integer_value(json_object_get(json_object_get(cp, "confirmed_on"), "index")), 29);
	nt = json_object_get(cp, "night_test");
	assert_true(json_real_value(json_object_get(nt, "p")) <
		    json_real_value(json_object_get(nt, "level")));
	assert_true(json_real_value(json_object_get(nt, "level")) <= 0.001);
	assert_non_null(strstr(json_string_value(json_object_get(cp, "bisect")),
			       "git bisect start "));
	acc = json_array_get(json_object_get(doc, "series"), 2);
	assert_string_equal(json_string_value(json_object_get(acc, "case")), "accepted/thp=always");
	assert_true(json_is_true(json_object_get(acc, "skipped")));
	cp = json_array_get(json_object_get(acc, "change_points"), 0);
	assert_string_equal(json_string_value(json_object_get(cp, "status")), "accepted");
	assert_string_equal(json_string_value(json_object_get(json_object_get(cp, "triage"), "name")),
			    "Jane Doe");
	json_decref(doc);
	free(s);
}

static void test_tap(void **state)
{
	struct fx *fx = *state;
	char *s = render(fx, HISTORY_FMT_TAP);
	const char *head = "TAP version 13\n1..4\nnot ok 1 - box1/synthetic old/thp=always roi_usec\n";

	assert_int_equal(strncmp(s, head, strlen(head)), 0);
	/* Escaped as in every text (util/utf8.h), '#' aside. */
	assert_non_null(strstr(s, "\nnot ok 2 - box1/synthetic new <&> \"x\" 'y'\\x01\\xff roi_usec\n"));
	assert_non_null(strstr(s, "\nok 4 - box1/synthetic quiet gbps\n"));
	assert_non_null(strstr(s, "\nok 3 - box1/synthetic accepted/thp=always roi_usec # SKIP triaged: "));
	assert_non_null(strstr(s, " accepted by Jane Doe: THP defrag is off by design now\n"));
	assert_non_null(strstr(s, "      status: open\n"));
	assert_int_equal(count(s, "\n  ---\n"), 3);
	assert_int_equal(count(s, "\n  ...\n"), 3);
	/* The control character in the name never starts a new line. */
	assert_int_equal(count(s, "\nnot ok "), 2);
	free(s);
}

static void test_lava(void **state)
{
	static const char *const results[] = { "fail", "fail", "skip", "pass" };
	struct fx *fx = *state;
	char *s = render(fx, HISTORY_FMT_LAVA), *line, *save = NULL, want[64];
	size_t n = 0;

	for (line = strtok_r(s, "\n", &save); line;
	     line = strtok_r(NULL, "\n", &save), n++) {
		const char *p;

		assert_int_equal(strncmp(line, "lava-test-case ", 15), 0);
		/* name: one token of [A-Za-z0-9._-] */
		for (p = line + 15; *p != ' '; p++)
			assert_non_null(strchr("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789._-", *p));
		snprintf(want, sizeof(want), " --result %s --measurement ", results[n]);
		assert_non_null(strstr(line, want));
		assert_non_null(strstr(line, n == 3 ? " --units GB_s" : " --units us"));
	}
	assert_int_equal(n, 4);
	free(s);
}

static void test_junit(void **state)
{
	struct fx *fx = *state;
	char *s = render(fx, HISTORY_FMT_JUNIT);

	assert_non_null(strstr(s, "<testsuites name=\"thpbench history\" tests=\"4\" failures=\"2\""));
	assert_non_null(strstr(s, " tests=\"4\" failures=\"2\" errors=\"0\" skipped=\"1\""));
	assert_int_equal(count(s, "<testsuite "), 1);
	assert_int_equal(count(s, "<testcase "), 4);
	assert_int_equal(count(s, "<failure "), 2);
	assert_int_equal(count(s, "<skipped message=\""), 1);
	assert_non_null(strstr(s, " accepted by Jane Doe: THP defrag is off by design now\"/>"));
	assert_non_null(strstr(s, "name=\"new &lt;&amp;&gt; &quot;x&quot; &#39;y&#39;\xef\xbf\xbd\xef\xbf\xbd roi_usec\""));
	assert_non_null(strstr(s, "<failure type=\"regression\" message=\"regression at night 2023-01-29"));
	assert_non_null(strstr(s, "open: fails the gate until it comes back or is triaged: thpbench history triage "));
	free(s);
}

static void test_text(void **state)
{
	struct fx *fx = *state;
	char *s = render(fx, HISTORY_FMT_TEXT);

	assert_non_null(strstr(s, "history check: 4 series, 2 open regressions; gate --fail-on open: FAILED (2 series)"));
	assert_non_null(strstr(s, "\nFAIL box1 synthetic new"));
	assert_non_null(strstr(s, "\nskip box1 synthetic accepted/thp=always roi_usec"));
	assert_non_null(strstr(s, "     skipped: triaged: "));
	assert_non_null(strstr(s, "\nok   box1 synthetic quiet gbps: 30 nights"));
	assert_int_equal(count(s, "git bisect start "), 3);
	free(s);
}

/* Names with escape codes and \r never reach a terminal raw. */
static void test_text_printable(void **state)
{
	struct fx *fx = *state;
	char *s = render(fx, HISTORY_FMT_TEXT), *p;

	for (p = s; *p; p++)
		if (((unsigned char)*p < 0x20 && *p != '\n') || *p == 0x7f)
			fail_msg("text output has control character 0x%02x at %zu",
				 (unsigned char)*p, (size_t)(p - s));
	assert_non_null(strstr(s, "new <&> \"x\" 'y'\\x01\\xff"));
	free(s);
}

/*
 * issue 36 small item: a reason stored with a newline (a hostile or old
 * database: `history triage` refuses one) forged `ok 99 - fake` lines in
 * the text output, and its invalid UTF-8 reached the text and TAP raw.
 * Escaped now: no forged line, valid UTF-8 throughout, the reason there.
 */
static void test_stored_reason_escaped(void **state)
{
	struct fx *fx = *state;
	struct history_cp_triage *t = &fx->r[2].cp[0].triage;
	const char *keep = t->reason, *keep_name = t->name;
	char *s, *line, *save = NULL;
	enum history_format fmts[] = { HISTORY_FMT_TEXT, HISTORY_FMT_TAP };
	size_t i;

	t->reason = "why\nok 99 - fake\r\x1b[2K \xff\xc3 \xc2\x9b";
	t->name = "Mallory\nnot ok 98 - fake";
	for (i = 0; i < ARRAY_SIZE(fmts); i++) {
		s = render(fx, fmts[i]);
		assert_null(utf8_invalid(s));
		assert_non_null(strstr(s, "why\\nok 99 - fake\\r\\x1b[2K \\xff\\xc3 \\u009b"));
		assert_non_null(strstr(s, "Mallory\\nnot ok 98 - fake"));
		for (line = strtok_r(s, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
			assert_int_not_equal(strncmp(line, "ok 99", 5), 0);
			assert_int_not_equal(strncmp(line, "not ok 98", 9), 0);
			assert_null(strchr(line, '\r'));
			assert_null(strchr(line, '\x1b'));
		}
		free(s);
	}
	/* The YAML in the TAP its own way: YAML escapes, U+FFFD. */
	s = render(fx, HISTORY_FMT_TAP);
	assert_non_null(strstr(s, "status_text: \"accepted by Mallory\\x0anot ok 98 - fake on "));
	assert_non_null(strstr(s, "\\x1b[2K \\uFFFD\\uFFFD \\u009b\""));
	free(s);
	t->reason = (char *)keep;
	t->name = (char *)keep_name;
}

static double now_s(void)
{
	struct timespec t;

	clock_gettime(CLOCK_MONOTONIC, &t);
	return (double)t.tv_sec + (double)t.tv_nsec / 1e9;
}

/*
 * 40,000 series (a lab's nightly: hosts x cases x metrics) in the CI
 * formats: each series' testsuite label was found by scanning every
 * series, JUnit's grouping rescanned them per series (173 s here, against
 * 1.8 s for text). Not a speed comparison: a bound ten times what a
 * linear pass needs even under a sanitizer on a loaded machine, and the
 * grouping checked.
 */
static void test_ci_formats_scale(void **state)
{
	enum { N = 40000 };
	static const enum history_format fmts[] = { HISTORY_FMT_JUNIT,
						    HISTORY_FMT_TAP,
						    HISTORY_FMT_LAVA };
	struct history_series *v = xcalloc(N, sizeof(*v));
	struct history_result *r = xcalloc(N, sizeof(*r));
	struct history_check_opts o;
	char name[64], *buf;
	size_t i, f, len;
	double t0, t;
	FILE *out;

	(void)state;
	history_check_opts_init(&o);
	for (i = 0; i < N; i++) {
		/* 4 hosts; host 0's suite in two versions */
		snprintf(name, sizeof(name), "box%zu", i % 4);
		v[i].host = xstrdup(name);
		v[i].suite = xstrdup("nightly");
		v[i].suite_hash = xstrdup(i % 8 == 0 ? "aaaaaaaa11" : "bbbbbbbb22");
		snprintf(name, sizeof(name), "case%zu/thp=always", i / 4);
		v[i].case_id = xstrdup(name);
		v[i].metric = xstrdup("roi_usec");
		r[i].s = &v[i];
		r[i].newest = SIZE_MAX;
	}
	for (f = 0; f < ARRAY_SIZE(fmts); f++) {
		buf = NULL;
		out = open_memstream(&buf, &len);
		t0 = now_s();
		assert_int_equal(history_write(out, fmts[f], r, N, &o), 0);
		fclose(out);
		t = now_s() - t0;
		if (t > 20)
			fail_msg("format %d: %zu series took %.1f s", (int)fmts[f],
				 (size_t)N, t);
		if (fmts[f] == HISTORY_FMT_JUNIT) {
			/* box0 in two versions, box1..3 in one: 5 testsuites */
			assert_int_equal(count(buf, "<testsuite "), 5);
			assert_int_equal(count(buf, "<testcase "), N);
			assert_non_null(strstr(buf, "<testsuite name=\"box0/nightly@aaaaaaaa\" tests=\"5000\""));
			assert_non_null(strstr(buf, "<testsuite name=\"box1/nightly\" tests=\"10000\""));
		}
		free(buf);
	}
	for (i = 0; i < N; i++)
		history_series_free(&v[i]);
	free(v);
	free(r);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_escape),
		cmocka_unit_test(test_order_and_gate),
		cmocka_unit_test(test_json),
		cmocka_unit_test(test_tap),
		cmocka_unit_test(test_lava),
		cmocka_unit_test(test_junit),
		cmocka_unit_test(test_text),
		cmocka_unit_test(test_text_printable),
		cmocka_unit_test(test_stored_reason_escaped),
		cmocka_unit_test(test_ci_formats_scale),
	};

	return cmocka_run_group_tests(tests, setup, teardown);
}
