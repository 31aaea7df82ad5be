// SPDX-License-Identifier: GPL-2.0-only
/*
 * The outputs of `history check` on synthetic histories: escaping, the
 * gate's order, what each format says about a failing and a passing
 * series (JSON read back with jansson; TAP, LAVA and JUnit line by line;
 * the JUnit schema itself is checked with xmllint in
 * tests/integration/history.sh).
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
#include "history/history_print.h"
#include "util/util.h"

#define NS 3

struct fx {
	struct history_series v[NS];
	struct history_result *r;
	struct history_check_opts o;
};

/* 0: passes (a regression long ago), 1: fails (tonight), 2: quiet. */
static int setup(void **state)
{
	struct fx *fx = xcalloc(1, sizeof(*fx));
	struct histgen g;

	histgen_init(&g);
	g.case_id = "old/thp=always";
	g.steps[g.nsteps++] = (struct histgen_at){ 12, 0.06 };
	histgen_series(&g, &fx->v[0]);
	histgen_init(&g);
	g.case_id = "new <&> \"x\" 'y'\x01\xff";
	g.reps = 10;
	g.steps[g.nsteps++] = (struct histgen_at){ 29, 0.12 };
	histgen_series(&g, &fx->v[1]);
	histgen_init(&g);
	g.case_id = "quiet";
	g.metric = "gbps";
	g.better = NULL;
	histgen_series(&g, &fx->v[2]);
	history_check_opts_init(&fx->o);
	fx->r = history_check_all(fx->v, NS, &fx->o);
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

static void test_escape_and_token(void **state)
{
	char *buf = NULL, tok[64];
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	(void)state;
	history_xml_escape(f, "a<b>&\"c'\x01\tok\xc3\xa9\xff\xe2\x82");
	fclose(f);
	assert_string_equal(buf, "a&lt;b&gt;&amp;&quot;c&#39;\xef\xbf\xbd\tok\xc3\xa9\xef\xbf\xbd\xef\xbf\xbd\xef\xbf\xbd");
	free(buf);
	assert_string_equal(history_token("mremap/thp=always roi", tok, sizeof(tok)),
			    "mremap_thp_always_roi");
	assert_string_equal(history_token("", tok, sizeof(tok)), "_");
	assert_int_equal(history_format_parse("junit"), HISTORY_FMT_JUNIT);
	assert_int_equal(history_format_parse("xml"), -1);
}

static void test_order_and_gate(void **state)
{
	struct fx *fx = *state;
	size_t *idx = history_order(fx->r, NS, HISTORY_FAIL_NEWEST);

	assert_true(history_result_fails(&fx->r[1], HISTORY_FAIL_NEWEST));
	assert_false(history_result_fails(&fx->r[0], HISTORY_FAIL_NEWEST));
	assert_true(history_result_fails(&fx->r[0], HISTORY_FAIL_REGRESSION));
	assert_false(history_result_fails(&fx->r[2], HISTORY_FAIL_REGRESSION));
	assert_int_equal(idx[0], 1);
	assert_int_equal(idx[1], 0);
	assert_int_equal(idx[2], 2);
	free(idx);
}

static void test_json(void **state)
{
	struct fx *fx = *state;
	char *s = render(fx, HISTORY_FMT_JSON);
	json_error_t e;
	json_t *doc = json_loads(s, 0, &e), *first, *cp;

	assert_non_null(doc);
	assert_string_equal(json_string_value(json_object_get(doc, "schema")),
			    "thpbench-history-check/1");
	assert_true(json_is_true(json_object_get(json_object_get(doc, "gate"), "failed")));
	first = json_array_get(json_object_get(doc, "series"), 0);
	assert_string_equal(json_string_value(json_object_get(first, "case")),
			    "new <&> \"x\" 'y'\x01\xef\xbf\xbd");
	assert_true(json_is_true(json_object_get(first, "newest_regression")));
	cp = json_array_get(json_object_get(first, "change_points"), 0);
	assert_string_equal(json_string_value(json_object_get(cp, "kind")),
			    "regression");
	assert_int_equal(json_integer_value(json_object_get(json_object_get(cp, "first_bad"), "index")), 29);
	assert_true(json_real_value(json_object_get(cp, "change_lo")) > 0.02);
	assert_non_null(strstr(json_string_value(json_object_get(cp, "bisect")),
			       "git bisect start "));
	json_decref(doc);
	free(s);
}

static void test_tap(void **state)
{
	struct fx *fx = *state;
	char *s = render(fx, HISTORY_FMT_TAP);
	const char *head = "TAP version 13\n1..3\nnot ok 1 - box1/synthetic new <&> \"x\" 'y'_\xef\xbf\xbd roi_usec\n";

	assert_int_equal(strncmp(s, head, strlen(head)), 0);
	assert_non_null(strstr(s, "\nok 2 - box1/synthetic old/thp=always roi_usec\n"));
	assert_non_null(strstr(s, "\nok 3 - box1/synthetic quiet gbps\n"));
	assert_int_equal(count(s, "\n  ---\n"), 2);
	assert_int_equal(count(s, "\n  ...\n"), 2);
	/* The control character in the name never starts a new line. */
	assert_int_equal(count(s, "\nnot ok "), 1);
	assert_int_equal(count(s, "\n") - count(s, "\n  "), 5);
	free(s);
}

static void test_lava(void **state)
{
	struct fx *fx = *state;
	char *s = render(fx, HISTORY_FMT_LAVA), *line, *save = NULL;
	size_t n = 0;

	for (line = strtok_r(s, "\n", &save); line;
	     line = strtok_r(NULL, "\n", &save), n++) {
		const char *p;

		assert_int_equal(strncmp(line, "lava-test-case ", 15), 0);
		/* name: one token of [A-Za-z0-9._-] */
		for (p = line + 15; *p != ' '; p++)
			assert_non_null(strchr("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789._-", *p));
		assert_non_null(strstr(line, n == 0 ? " --result fail --measurement " :
				       " --result pass --measurement "));
		assert_non_null(strstr(line, n == 2 ? " --units GB_s" : " --units us"));
	}
	assert_int_equal(n, 3);
	free(s);
}

static void test_junit(void **state)
{
	struct fx *fx = *state;
	char *s = render(fx, HISTORY_FMT_JUNIT);

	assert_non_null(strstr(s, "<testsuites name=\"thpbench history\" tests=\"3\" failures=\"1\""));
	assert_int_equal(count(s, "<testsuite "), 1);
	assert_int_equal(count(s, "<testcase "), 3);
	assert_int_equal(count(s, "<failure "), 1);
	assert_non_null(strstr(s, "name=\"new &lt;&amp;&gt; &quot;x&quot; &#39;y&#39;\xef\xbf\xbd\xef\xbf\xbd roi_usec\""));
	assert_non_null(strstr(s, "<failure type=\"regression\" message=\"regression at night 2023-01-30"));
	free(s);
}

static void test_text(void **state)
{
	struct fx *fx = *state;
	char *s = render(fx, HISTORY_FMT_TEXT);

	assert_non_null(strstr(s, "gate --fail-on newest: FAILED (1 series)"));
	assert_non_null(strstr(s, "\nFAIL box1 synthetic new"));
	assert_non_null(strstr(s, "\nok   box1 synthetic quiet gbps: 30 nights"));
	assert_int_equal(count(s, "git bisect start "), 2);
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
	assert_non_null(strstr(s, "new <&> \"x\" 'y'?"));
	free(s);
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
		cmocka_unit_test(test_escape_and_token),
		cmocka_unit_test(test_order_and_gate),
		cmocka_unit_test(test_json),
		cmocka_unit_test(test_tap),
		cmocka_unit_test(test_lava),
		cmocka_unit_test(test_junit),
		cmocka_unit_test(test_text),
		cmocka_unit_test(test_text_printable),
		cmocka_unit_test(test_ci_formats_scale),
	};

	return cmocka_run_group_tests(tests, setup, teardown);
}
