// SPDX-License-Identifier: GPL-2.0-only
/*
 * The history analysis on synthetic histories with known answers
 * (tests/history/histgen.h): E-Divisive against a brute-force statistic,
 * steps found at their night and called by direction, A/A histories
 * that stay quiet, host changes not blamed on the kernel, the gate on the
 * newest night, missing and failed nights, outlier nights.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <cmocka.h>

#include <gsl/gsl_randist.h>
#include <gsl/gsl_rng.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../../history/histgen.h"
#include "history/history_check.h"
#include "history/history_edivisive.h"
#include "util/util.h"

/* q of the split of x[0..n) at t, straight from the definition. */
static double q_naive(const double *x, size_t n, size_t t)
{
	double between = 0, wl = 0, wr = 0, a = (double)t, b = (double)(n - t);
	double e;
	size_t i, j;

	for (i = 0; i < t; i++)
		for (j = t; j < n; j++)
			between += fabs(x[i] - x[j]);
	for (i = 0; i < t; i++)
		for (j = i + 1; j < t; j++)
			wl += fabs(x[i] - x[j]);
	for (i = t; i < n; i++)
		for (j = i + 1; j < n; j++)
			wr += fabs(x[i] - x[j]);
	e = 2 * between / (a * b);
	if (t > 1)
		e -= wl / (a * (a - 1) / 2);
	if (n - t > 1)
		e -= wr / (b * (b - 1) / 2);
	return a * b / (a + b) * e;
}

static void test_scan_matches_definition(void **state)
{
	gsl_rng *rng = gsl_rng_alloc(gsl_rng_mt19937);
	double x[41], q, best = -INFINITY;
	size_t n = 41, i, t, bt = 0;

	(void)state;
	gsl_rng_set(rng, 7);
	for (i = 0; i < n; i++)	/* ties included: rounded values */
		x[i] = round(gsl_ran_gaussian(rng, 3)) + (i >= 25 ? 2 : 0);
	for (t = 3; t + 2 <= n; t++) {
		double qn = q_naive(x, n, t);

		if (qn > best) {
			best = qn;
			bt = t;
		}
	}
	t = edv_best_split(x, n, 3, 2, &q);
	assert_int_equal(t, bt);
	assert_true(fabs(q - best) <= 1e-9 * fabs(best));
	/* One value per side is allowed when asked for. */
	t = edv_best_split(x, 2, 1, 1, &q);
	assert_int_equal(t, 1);
	assert_true(fabs(q - q_naive(x, 2, 1)) < 1e-12);
	/* Too short for the minimum: no split. */
	assert_int_equal(edv_best_split(x, 5, 3, 3, &q), 0);
	gsl_rng_free(rng);
}

static void test_edivisive_steps_and_seed(void **state)
{
	gsl_rng *rng = gsl_rng_alloc(gsl_rng_mt19937);
	struct edv_opts o;
	struct edv_cp *a, *b;
	size_t na, nb, i;
	double x[90];

	(void)state;
	gsl_rng_set(rng, 3);
	for (i = 0; i < 90; i++)
		x[i] = gsl_ran_gaussian(rng, 1) + (i >= 30 ? 4 : 0) +
		       (i >= 60 ? -8 : 0);
	edv_opts_init(&o);
	o.seed = 11;
	edivisive(x, 90, &o, &a, &na);
	assert_int_equal(na, 2);
	assert_true(a[0].index >= 29 && a[0].index <= 31);
	assert_true(a[1].index >= 59 && a[1].index <= 61);
	assert_true(a[0].p <= 0.05 && a[1].p <= 0.05);
	edivisive(x, 90, &o, &b, &nb);
	assert_int_equal(na, nb);
	for (i = 0; i < na; i++) {
		assert_int_equal(a[i].index, b[i].index);
		assert_true(a[i].p == b[i].p);
	}
	free(a);
	free(b);
	/* Constant input: nothing. */
	for (i = 0; i < 90; i++)
		x[i] = 5;
	edivisive(x, 90, &o, &a, &na);
	assert_int_equal(na, 0);
	free(a);
	gsl_rng_free(rng);
}

static struct history_result check(const struct histgen *g,
				   struct history_series *s)
{
	struct history_check_opts o;
	struct history_result r;

	histgen_series(g, s);
	history_check_opts_init(&o);
	o.edv.seed = 42;
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
	struct history_result *heap = xmalloc(sizeof(*heap));

	*heap = *r;
	history_results_free(heap, 1);
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
		assert_true(r.cp[0].c.ch.lo > 0.02 && r.cp[0].c.ch.hi < 0.09);
		assert_true(r.cp[0].kernel_changed);
		assert_false(r.newest_regression);
		assert_true(r.open_regression);
		assert_false(history_result_fails(&r, HISTORY_FAIL_NEWEST));
		assert_true(history_result_fails(&r, HISTORY_FAIL_REGRESSION));
		assert_false(history_result_fails(&r, HISTORY_FAIL_NONE));
		histgen_kernel_id(r.cp[0].night, id, sizeof(id));
		snprintf(want, sizeof(want), "git bisect start %s ", id);
		histgen_kernel_id(r.cp[0].night - 1, id, sizeof(id));
		strcat(want, id);
		assert_non_null(r.cp[0].bisect);
		assert_string_equal(r.cp[0].bisect, want);
		text = history_cp_text(&r, &r.cp[0]);
		assert_non_null(strstr(text, "regression at night 2023-01-1"));
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
	assert_false(r.open_regression);
	assert_non_null(strstr(r.cp[0].bisect, "--term-old=slow --term-new=fast"));
	free_one(&r, &s);
	/* The same numbers for a higher-is-better metric: a regression. */
	g.metric = "gbps";
	g.better = NULL;
	r = check(&g, &s);
	assert_int_equal(r.ncp, 1);
	assert_int_equal(r.cp[0].kind, HCP_REGRESSION);
	free_one(&r, &s);
	/* A neutral counter: changed, never a regression. */
	g.metric = "vmstat.thp_fault_alloc";
	r = check(&g, &s);
	assert_int_equal(r.ncp, 1);
	assert_int_equal(r.cp[0].kind, HCP_CHANGED);
	assert_null(r.cp[0].bisect);
	free_one(&r, &s);
}

/* 100 A/A histories of 30 nights: at most 5 raise anything. */
static void test_aa_false_alarms(void **state)
{
	size_t alarms = 0, candidates = 0, raw = 0;
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
		candidates += r.ncp;
		raw += r.ncp > 0;
		alarms += confirmed(&r) > 0;
		free_one(&r, &s);
	}
	print_message("A/A: %zu of 100 histories raised an alarm; E-Divisive alone: %zu histories, %zu candidates\n",
		      alarms, raw, candidates);
	assert_true(alarms <= 5);
	/* The permutation test alone holds its level (0.05), give or take. */
	assert_true(raw <= 10);
}

/* New microcode with a step on the same night: an environment change. */
static void test_host_change(void **state)
{
	struct history_series s;
	struct history_result r;
	struct histgen g;
	char *text;

	(void)state;
	histgen_init(&g);
	g.hosts[g.nhosts++] = 18;
	g.steps[g.nsteps++] = (struct histgen_at){ 18, 0.08 };
	r = check(&g, &s);
	assert_int_equal(r.ncp, 1);
	assert_int_equal(r.cp[0].kind, HCP_ENVIRONMENT);
	assert_true(r.cp[0].host_changed);
	assert_null(r.cp[0].bisect);
	assert_false(r.open_regression);
	text = history_cp_text(&r, &r.cp[0]);
	assert_non_null(strstr(text, "not blamed on the kernel"));
	free(text);
	free_one(&r, &s);
	/* The host changed, nothing else: no change point at all. */
	g.nsteps = 0;
	r = check(&g, &s);
	assert_int_equal(confirmed(&r), 0);
	free_one(&r, &s);
}

/* The CI gate: the newest night starts a regression. */
static void test_newest_night_gate(void **state)
{
	struct history_series s;
	struct history_result r;
	struct histgen g;

	(void)state;
	histgen_init(&g);
	g.reps = 10;
	g.steps[g.nsteps++] = (struct histgen_at){ 29, 0.10 };
	r = check(&g, &s);
	assert_true(r.ncp >= 1);
	assert_int_equal(r.cp[r.ncp - 1].night, 29);
	assert_int_equal(r.cp[r.ncp - 1].kind, HCP_REGRESSION);
	assert_true(r.newest_regression);
	assert_true(history_result_fails(&r, HISTORY_FAIL_NEWEST));
	free_one(&r, &s);
	/* The night before it: no longer the newest night's doing. */
	g.steps[0].night = 26;
	r = check(&g, &s);
	assert_int_equal(r.ncp, 1);
	assert_int_equal(r.cp[0].kind, HCP_REGRESSION);
	assert_false(r.newest_regression);
	assert_true(r.open_regression);
	free_one(&r, &s);
	/* Same kernel all along: a regression, but nothing to bisect. */
	g.kernel_same = true;
	r = check(&g, &s);
	assert_int_equal(r.ncp, 1);
	assert_false(r.cp[0].kernel_changed);
	assert_null(r.cp[0].bisect);
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

/* A single outlier night in the middle is no regression. */
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
		r = check(&g, &s);
		assert_int_equal(confirmed(&r), 0);
		free_one(&r, &s);
	}
}

/*
 * The newest-night test: a three-night history gates on a slow fourth
 * night (E-Divisive alone needs about 20), and an earlier wilder night
 * does not hide tonight's step.
 */
static void test_newest_night_test(void **state)
{
	struct history_series s;
	struct history_result r;
	struct histgen g;

	(void)state;
	histgen_init(&g);
	g.nights = 4;
	g.steps[g.nsteps++] = (struct histgen_at){ 3, 0.10 };
	r = check(&g, &s);
	assert_int_equal(r.ncp, 1);
	assert_true(r.cp[0].newest_test);
	assert_true(isnan(r.cp[0].p_split));
	assert_int_equal(r.cp[0].night, 3);
	assert_true(r.newest_regression);
	free_one(&r, &s);
	/* Two nights are too few to call the third one out. */
	g.nights = 2;
	g.steps[0].night = 1;
	r = check(&g, &s);
	assert_int_equal(r.ncp, 0);
	free_one(&r, &s);
	/* A quiet fourth night: nothing. */
	g.nights = 4;
	g.nsteps = 0;
	r = check(&g, &s);
	assert_int_equal(r.ncp, 0);
	free_one(&r, &s);
	/* +20% on night 20, then +10% tonight: tonight still gates, and the
	 * wild night is left out of the baseline. */
	histgen_init(&g);
	g.reps = 10;
	g.outliers[g.noutliers++] = (struct histgen_at){ 20, 0.20 };
	g.steps[g.nsteps++] = (struct histgen_at){ 29, 0.10 };
	r = check(&g, &s);
	assert_true(r.newest_regression);
	assert_true(r.cp[r.ncp - 1].c.outliers_a >= 1);
	assert_true(r.cp[r.ncp - 1].c.ch.lo > 0.05);
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
	assert_int_equal(history_fail_on_parse("newest"), HISTORY_FAIL_NEWEST);
	assert_int_equal(history_fail_on_parse("regression"),
			 HISTORY_FAIL_REGRESSION);
	assert_int_equal(history_fail_on_parse("none"), HISTORY_FAIL_NONE);
	assert_int_equal(history_fail_on_parse("always"), -1);
}

/* Threads change nothing; each series keeps its own stream. */
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
			assert_true(a[i].cp[j].p_split == b[i].cp[j].p_split);
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
		cmocka_unit_test(test_scan_matches_definition),
		cmocka_unit_test(test_edivisive_steps_and_seed),
		cmocka_unit_test(test_step_regression),
		cmocka_unit_test(test_step_improvement),
		cmocka_unit_test(test_aa_false_alarms),
		cmocka_unit_test(test_host_change),
		cmocka_unit_test(test_newest_night_gate),
		cmocka_unit_test(test_missing_and_failed),
		cmocka_unit_test(test_outlier_night),
		cmocka_unit_test(test_newest_night_test),
		cmocka_unit_test(test_git_rev),
		cmocka_unit_test(test_check_all_threads),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
