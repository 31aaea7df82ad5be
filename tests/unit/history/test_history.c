// SPDX-License-Identifier: GPL-2.0-only
/*
 * The history analysis on synthetic histories with known answers
 * (tests/history/histgen.h): steps found at their night and called by
 * direction, A/A histories that stay quiet, host changes (environment
 * or ambiguous), the gates, missing and failed nights, outlier nights,
 * the newest-night watch, recoveries, the threads.
 * The night-by-night replay, stability and the acceptance figures are in
 * test_history_window.c.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <cmocka.h>

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../../history/histgen.h"
#include "history/history_check.h"
#include "history/history_gate.h"
#include "util/util.h"

static struct history_result check(const struct histgen *g,
				   struct history_series *s)
{
	struct history_check_opts o;
	struct history_result r;

	histgen_series(g, s);
	history_check_opts_init(&o);
	history_check_series(s, &o, &r);
	return r;
}

static size_t confirmed(const struct history_result *r)
{
	size_t i, n = 0;

	for (i = 0; i < r->ncp; i++)
		n += r->cp[i].kind != HCP_REJECTED;
	return n;
}

static void free_one(struct history_result *r, struct history_series *s)
{
	history_result_release(r);
	history_series_free(s);
}

/* +5% at 3% CV, the acceptance case of the issue. */
static void test_step_regression(void **state)
{
	struct history_series s;
	struct history_result r;
	struct histgen g;
	char id[32], want[128], *text;
	uint64_t seed;

	(void)state;
	for (seed = 1; seed <= 10; seed++) {
		histgen_init(&g);
		g.seed = seed;
		g.steps[g.nsteps++] = (struct histgen_at){ 15, 0.05 };
		r = check(&g, &s);
		assert_int_equal(confirmed(&r), 1);
		assert_int_equal(r.ncp, 1);
		assert_true(r.cp[0].night >= 14 && r.cp[0].night <= 16);
		assert_int_equal(r.cp[0].kind, HCP_REGRESSION);
		assert_true(r.cp[0].c.ch.rel > 0.02 && r.cp[0].c.ch.rel < 0.09);
		assert_true(r.cp[0].nt.p < r.cp[0].nt.level);
		/* Confirmed a few nights after it, never before. */
		assert_true(r.cp[0].confirmed_at > r.cp[0].night &&
			    r.cp[0].confirmed_at <= r.cp[0].night + 6);
		assert_true(r.cp[0].kernel_changed);
		assert_false(r.cp[0].ambiguous);
		assert_int_equal(strlen(r.cp[0].id), 12);
		assert_int_equal(history_cp_status(&r.cp[0]), HCP_STATUS_OPEN);
		assert_int_equal(history_open_regressions(&r), 1);
		/* The gate: open by default, whatever night it started. */
		assert_true(history_result_fails(&r, HISTORY_FAIL_OPEN));
		assert_true(history_result_fails(&r, HISTORY_FAIL_REGRESSION));
		assert_false(history_result_fails(&r, HISTORY_FAIL_NEWEST));
		assert_false(history_result_fails(&r, HISTORY_FAIL_NONE));
		histgen_kernel_id(r.cp[0].night, id, sizeof(id));
		snprintf(want, sizeof(want), "git bisect start %s ", id);
		histgen_kernel_id(r.cp[0].night - 1, id, sizeof(id));
		strcat(want, id);
		assert_non_null(r.cp[0].bisect);
		assert_string_equal(r.cp[0].bisect, want);
		text = history_cp_text(&r, &r.cp[0]);
		assert_non_null(strstr(text, "regression at night 2023-01-1"));
		assert_non_null(strstr(text, "; confirmed on night 2023-01-"));
		free(text);
		free_one(&r, &s);
	}
}

static void test_step_improvement(void **state)
{
	struct history_series s;
	struct history_result r;
	struct histgen g;

	(void)state;
	histgen_init(&g);
	g.steps[g.nsteps++] = (struct histgen_at){ 12, -0.05 };
	r = check(&g, &s);
	assert_int_equal(r.ncp, 1);
	assert_true(r.cp[0].night >= 11 && r.cp[0].night <= 13);
	assert_int_equal(r.cp[0].kind, HCP_IMPROVEMENT);
	assert_int_equal(history_cp_status(&r.cp[0]), HCP_STATUS_NONE);
	assert_false(history_result_fails(&r, HISTORY_FAIL_OPEN));
	assert_non_null(strstr(r.cp[0].bisect, "--term-old=slow --term-new=fast"));
	free_one(&r, &s);
	/* The same numbers for a higher-is-better metric: a regression. */
	g.metric = "gbps";
	g.better = NULL;
	r = check(&g, &s);
	assert_int_equal(r.ncp, 1);
	assert_int_equal(r.cp[0].kind, HCP_REGRESSION);
	assert_true(history_result_fails(&r, HISTORY_FAIL_OPEN));
	free_one(&r, &s);
	/* A neutral counter: changed, never a regression. */
	g.metric = "vmstat.thp_fault_alloc";
	r = check(&g, &s);
	assert_int_equal(r.ncp, 1);
	assert_int_equal(r.cp[0].kind, HCP_CHANGED);
	assert_null(r.cp[0].bisect);
	assert_false(history_result_fails(&r, HISTORY_FAIL_OPEN));
	free_one(&r, &s);
}

/* 100 A/A histories of 30 nights: at most 5 raise anything. */
static void test_aa_false_alarms(void **state)
{
	size_t alarms = 0, fails = 0, watches = 0;
	uint64_t seed;

	(void)state;
	for (seed = 1000; seed < 1100; seed++) {
		struct history_series s;
		struct history_result r;
		struct histgen g;

		histgen_init(&g);
		g.seed = seed;
		g.night_cv = 0.005;
		r = check(&g, &s);
		alarms += confirmed(&r) > 0;
		fails += history_result_fails(&r, HISTORY_FAIL_OPEN);
		watches += r.watch.present;
		free_one(&r, &s);
	}
	print_message("A/A, 30 nights, 0.5%% night-to-night: %zu of 100 histories with a confirmed change, %zu fail the gate, %zu end on a watch\n",
		      alarms, fails, watches);
	assert_true(alarms <= 5);
	assert_true(fails <= alarms);
	/* The watch is a prediction interval at 95%: about 5 in 100 nights. */
	assert_true(watches <= 12);
}

/*
 * New microcode with a step on the same night: with the kernel unchanged
 * an environment change (never gated); with a new kernel that night too,
 * ambiguous: kept as the kernel's regression and gated, and said so.
 */
static void test_host_change(void **state)
{
	struct history_series s;
	struct history_result r;
	struct histgen g;
	char *text;

	(void)state;
	histgen_init(&g);
	g.kernel_same = true;
	g.hosts[g.nhosts++] = 18;
	g.steps[g.nsteps++] = (struct histgen_at){ 18, 0.08 };
	r = check(&g, &s);
	assert_int_equal(r.ncp, 1);
	assert_int_equal(r.cp[0].kind, HCP_ENVIRONMENT);
	assert_true(r.cp[0].host_changed);
	assert_false(r.cp[0].ambiguous);
	assert_null(r.cp[0].bisect);
	assert_false(history_result_fails(&r, HISTORY_FAIL_OPEN));
	text = history_cp_text(&r, &r.cp[0]);
	assert_non_null(strstr(text, "not blamed on the kernel"));
	free(text);
	free_one(&r, &s);
	/* A new kernel every night: both changed across the step. */
	g.kernel_same = false;
	r = check(&g, &s);
	assert_int_equal(r.ncp, 1);
	assert_int_equal(r.cp[0].kind, HCP_REGRESSION);
	assert_true(r.cp[0].ambiguous);
	assert_non_null(r.cp[0].bisect);
	assert_true(history_result_fails(&r, HISTORY_FAIL_OPEN));
	text = history_cp_text(&r, &r.cp[0]);
	assert_non_null(strstr(text, "kernel and host changed together"));
	free(text);
	free_one(&r, &s);
	/* The host changed, nothing else: no change point at all. */
	g.nsteps = 0;
	r = check(&g, &s);
	assert_int_equal(confirmed(&r), 0);
	free_one(&r, &s);
}

/*
 * The gates around the newest nights: a step tonight is a watch (the
 * early warning: --fail-on newest; a strong one fails the default gate
 * too), confirmed by the next night (every gate); an older one stays open
 * (open, regression) but is not new. A small step tonight is a watch only.
 */
static void test_gates_newest(void **state)
{
	struct history_series s;
	struct history_result r;
	struct histgen g;
	char *w;

	(void)state;
	histgen_init(&g);
	g.reps = 10;
	g.steps[g.nsteps++] = (struct histgen_at){ 29, 0.10 };
	r = check(&g, &s);
	assert_int_equal(confirmed(&r), 0);
	assert_true(r.watch.present);
	assert_int_equal(r.watch.night, 29);
	assert_int_equal(r.watch.kind, HCP_REGRESSION);
	assert_true(r.watch.strong);
	assert_true(history_result_fails(&r, HISTORY_FAIL_NEWEST));
	/* +10% at 10 repetitions is far out: tonight fails already. */
	assert_true(history_result_fails(&r, HISTORY_FAIL_OPEN));
	assert_false(history_result_fails(&r, HISTORY_FAIL_REGRESSION));
	w = history_watch_text(&r);
	assert_non_null(strstr(w, "watch: the newest night 2023-01-30"));
	free(w);
	free_one(&r, &s);
	/* One night later it is confirmed: every gate fails. */
	g.nights = 31;
	r = check(&g, &s);
	assert_int_equal(r.ncp, 1);
	assert_int_equal(r.cp[0].night, 29);
	assert_int_equal(r.cp[0].confirmed_at, 30);
	assert_true(history_newest_new(&r));
	assert_true(history_result_fails(&r, HISTORY_FAIL_NEWEST));
	assert_true(history_result_fails(&r, HISTORY_FAIL_OPEN));
	assert_true(history_result_fails(&r, HISTORY_FAIL_REGRESSION));
	free_one(&r, &s);
	/* Older: still open, no longer new. */
	g.nights = 30;
	g.steps[0].night = 22;
	r = check(&g, &s);
	assert_int_equal(r.ncp, 1);
	assert_int_equal(r.cp[0].kind, HCP_REGRESSION);
	assert_false(history_newest_new(&r));
	assert_false(history_result_fails(&r, HISTORY_FAIL_NEWEST));
	assert_true(history_result_fails(&r, HISTORY_FAIL_OPEN));
	free_one(&r, &s);
	/* +3% tonight at 5 repetitions: a watch, not far out: no gate but newest. */
	g.kernel_same = false;
	g.reps = 5;
	g.steps[0] = (struct histgen_at){ 29, 0.04 };
	g.seed = 3;
	r = check(&g, &s);
	if (r.watch.present) {
		assert_false(r.watch.strong);
		assert_false(history_result_fails(&r, HISTORY_FAIL_OPEN));
	}
	free_one(&r, &s);
	g.reps = 10;
	g.seed = 1;
	g.steps[0] = (struct histgen_at){ 22, 0.10 };
	/* Same kernel all along: a regression, but nothing to bisect. */
	g.kernel_same = true;
	r = check(&g, &s);
	assert_int_equal(r.ncp, 1);
	assert_false(r.cp[0].kernel_changed);
	assert_null(r.cp[0].bisect);
	free_one(&r, &s);
}

/*
 * A newest night far out whose repetitions cannot confirm it (three of
 * five failed; the two left agree, +20%: the night test sees it, two
 * runs are too few for compare's verdict) is no change and fails no
 * gate, but it is said, not dropped (issue 18, defect 1: a rejected
 * newest-night candidate vanished silently). One wild repetition of
 * five is no longer such a night: its own spread is in the night test.
 */
static void test_rejected_watch_said(void **state)
{
	struct history_check_opts o;
	struct history_series s;
	struct history_result r;
	struct histgen g;
	struct history_night *last;
	char *w;

	(void)state;
	histgen_init(&g);
	histgen_series(&g, &s);
	last = &s.nights[s.n_nights - 1];
	assert_int_equal(last->n, 5);
	last->n = 2;
	last->values[0] *= 1.2;
	last->values[1] *= 1.2;
	history_check_opts_init(&o);
	history_check_series(&s, &o, &r);
	assert_int_equal(r.ncp, 0);
	assert_true(r.watch.present);
	assert_int_equal(r.watch.night, s.n_nights - 1);
	assert_int_equal(r.watch.kind, HCP_REJECTED);
	assert_false(history_result_fails(&r, HISTORY_FAIL_OPEN));
	assert_false(history_result_fails(&r, HISTORY_FAIL_NEWEST));
	w = history_watch_text(&r);
	assert_non_null(w);
	assert_non_null(strstr(w, "its repetitions do not confirm it"));
	assert_non_null(strstr(w, "not a change unless the next nights agree"));
	free(w);
	free_one(&r, &s);

	/* One repetition of five three times the others: no gate either. */
	histgen_series(&g, &s);
	s.nights[s.n_nights - 1].values[2] *= 3;
	history_check_series(&s, &o, &r);
	assert_int_equal(r.ncp, 0);
	assert_false(history_result_fails(&r, HISTORY_FAIL_OPEN));
	assert_false(history_result_fails(&r, HISTORY_FAIL_NEWEST));
	free_one(&r, &s);
}

/* Missing and failed nights are skipped; the change keeps its night. */
static void test_missing_and_failed(void **state)
{
	struct history_series s;
	struct history_result r;
	struct histgen g;
	char want[32];

	(void)state;
	histgen_init(&g);
	g.nights = 40;
	g.missing[g.nmissing++] = 5;
	g.missing[g.nmissing++] = 6;
	g.missing[g.nmissing++] = 21;
	g.failed[g.nfailed++] = 19;
	g.failed[g.nfailed++] = 20;
	g.steps[g.nsteps++] = (struct histgen_at){ 22, 0.06 };
	r = check(&g, &s);
	assert_int_equal(s.n_nights, 37);
	assert_int_equal(r.n_used, 35);
	assert_int_equal(r.ncp, 1);
	assert_int_equal(r.cp[0].kind, HCP_REGRESSION);
	histgen_started(22, want, sizeof(want));
	assert_string_equal(s.nights[r.cp[0].night].started, want);
	/* Last good: the last night with values before it (18). */
	histgen_started(18, want, sizeof(want));
	assert_string_equal(s.nights[r.cp[0].good].started, want);
	free_one(&r, &s);
}

/* A single outlier night is no regression, in the middle or at the end. */
static void test_outlier_night(void **state)
{
	struct history_series s;
	struct history_result r;
	struct histgen g;
	uint64_t seed;

	(void)state;
	for (seed = 1; seed <= 5; seed++) {
		histgen_init(&g);
		g.seed = seed;
		g.outliers[g.noutliers++] = (struct histgen_at){ 12, 0.30 };
		g.outliers[g.noutliers++] = (struct histgen_at){ 28, 0.30 };
		r = check(&g, &s);
		assert_int_equal(confirmed(&r), 0);
		free_one(&r, &s);
	}
	/* Tonight's wild night fails tonight (it may be a step); the next
	 * night, back to normal, clears it and nothing is recorded. */
	g.noutliers = 0;
	g.outliers[g.noutliers++] = (struct histgen_at){ 29, 0.30 };
	r = check(&g, &s);
	assert_int_equal(confirmed(&r), 0);
	assert_true(r.watch.present && r.watch.strong);
	assert_true(history_result_fails(&r, HISTORY_FAIL_OPEN));
	free_one(&r, &s);
	g.nights = 31;
	r = check(&g, &s);
	assert_int_equal(confirmed(&r), 0);
	assert_false(history_result_fails(&r, HISTORY_FAIL_OPEN));
	free_one(&r, &s);
}

/* A regression and, later, its fix: reported as fixed, the gate passes. */
static void test_recovery(void **state)
{
	struct history_series s;
	struct history_result r;
	struct histgen g;
	char *st;

	(void)state;
	histgen_init(&g);
	g.nights = 45;
	g.steps[g.nsteps++] = (struct histgen_at){ 15, 0.10 };
	g.steps[g.nsteps++] = (struct histgen_at){ 28, 1 / 1.10 - 1 };
	r = check(&g, &s);
	assert_int_equal(r.ncp, 2);
	assert_int_equal(r.cp[0].kind, HCP_REGRESSION);
	assert_int_equal(r.cp[1].kind, HCP_IMPROVEMENT);
	assert_true(r.cp[0].recovered);
	assert_int_equal(r.cp[0].recovered_by, 1);
	assert_true(r.cp[0].recovered_at >= 29 && r.cp[0].recovered_at <= 34);
	assert_int_equal(history_cp_status(&r.cp[0]), HCP_STATUS_FIXED);
	assert_false(history_result_fails(&r, HISTORY_FAIL_OPEN));
	st = history_cp_status_text(&r, &r.cp[0], &(struct history_check_opts){
		.confirm.threshold = 0.02 });
	assert_non_null(strstr(st, "fixed: back within 2% of the level before it"));
	free(st);
	free_one(&r, &s);
	/* Half of it back: still open. */
	g.steps[1].size = 1 / 1.05 - 1;
	r = check(&g, &s);
	assert_int_equal(r.ncp, 2);
	assert_false(r.cp[0].recovered);
	assert_true(history_result_fails(&r, HISTORY_FAIL_OPEN));
	free_one(&r, &s);
}

static void test_git_rev(void **state)
{
	(void)state;
	assert_true(history_git_rev("abc1234"));
	assert_true(history_git_rev("0123456789abcdef0123456789abcdef01234567"));
	assert_true(history_git_rev("v6.8-rc1-123-gabcdef0"));
	assert_true(history_git_rev("v6.8"));
	assert_true(history_git_rev("v6.18-rc7"));
	assert_true(history_git_rev("next-20260101"));
	assert_false(history_git_rev("6.18.0-rc1"));
	assert_false(history_git_rev("abc123"));
	assert_false(history_git_rev("ABC1234"));
	assert_false(history_git_rev("abc1234;rm -rf /"));
	assert_false(history_git_rev("-abc1234"));
	assert_false(history_git_rev(""));
	assert_false(history_git_rev(NULL));
	assert_int_equal(history_fail_on_parse("open"), HISTORY_FAIL_OPEN);
	assert_int_equal(history_fail_on_parse("newest"), HISTORY_FAIL_NEWEST);
	assert_int_equal(history_fail_on_parse("regression"),
			 HISTORY_FAIL_REGRESSION);
	assert_int_equal(history_fail_on_parse("none"), HISTORY_FAIL_NONE);
	assert_int_equal(history_fail_on_parse("always"), -1);
	assert_string_equal(history_fail_on_name(HISTORY_FAIL_OPEN), "open");
}

/* Threads change nothing. */
static void test_check_all_threads(void **state)
{
	struct history_series v[6];
	struct history_check_opts o;
	struct history_result *a, *b;
	struct histgen g;
	size_t i, j;

	(void)state;
	for (i = 0; i < 6; i++) {
		histgen_init(&g);
		g.seed = 100 + i;
		g.steps[g.nsteps++] = (struct histgen_at){ 10 + i, 0.04 };
		histgen_series(&g, &v[i]);
	}
	history_check_opts_init(&o);
	o.threads = 1;
	a = history_check_all(v, 6, &o);
	o.threads = 3;
	b = history_check_all(v, 6, &o);
	for (i = 0; i < 6; i++) {
		assert_int_equal(a[i].ncp, b[i].ncp);
		for (j = 0; j < a[i].ncp; j++) {
			assert_int_equal(a[i].cp[j].night, b[i].cp[j].night);
			assert_string_equal(a[i].cp[j].id, b[i].cp[j].id);
			assert_true(a[i].cp[j].nt.p == b[i].cp[j].nt.p);
		}
	}
	history_results_free(a, 6);
	history_results_free(b, 6);
	for (i = 0; i < 6; i++)
		history_series_free(&v[i]);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_step_regression),
		cmocka_unit_test(test_step_improvement),
		cmocka_unit_test(test_aa_false_alarms),
		cmocka_unit_test(test_host_change),
		cmocka_unit_test(test_gates_newest),
		cmocka_unit_test(test_rejected_watch_said),
		cmocka_unit_test(test_missing_and_failed),
		cmocka_unit_test(test_outlier_night),
		cmocka_unit_test(test_recovery),
		cmocka_unit_test(test_git_rev),
		cmocka_unit_test(test_check_all_threads),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
