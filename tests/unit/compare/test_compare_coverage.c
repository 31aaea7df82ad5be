// SPDX-License-Identifier: GPL-2.0-only
/*
 * The path coverage table on results built in memory: a counter one case
 * moved, a counter the background alone moves, the background scaled by
 * time, a noisy background, a counter the kernel does not expose, levels
 * left out, the reasons and the JSON counts.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "compare/compare_coverage.h"
#include "measure/background.h"
#include "results/results.h"
#include "util/util.h"

/* A case whose ok runs have metric = vals[i] and wall_usec 1000. */
static struct tb_case *add_case(struct tb_results *r, const char *id,
				const char *metric, const double *vals, size_t n)
{
	struct tb_case *c = results_add_case(r);
	struct tb_run *run;
	size_t i;

	c->id = xstrdup(id);
	c->name = xstrdup(id);
	for (i = 0; i < n; i++) {
		run = case_add_run(c);
		run->status = RUN_OK;
		run->huge = -1;
		metric_set_put(&run->metrics, "wall_usec", 1000);
		metric_set_put(&run->metrics, "vmstat.thp_fault_alloc", 0);
		metric_set_put(&run->metrics, "mthp.64K.nr_anon.before", 5);
		if (metric)
			metric_set_put(&run->metrics, metric, vals[i]);
	}
	return c;
}

/* An idle interval of wall usec that moved metric by v. */
static void add_bg(struct tb_case *c, const char *metric, double wall, double v)
{
	json_t *a;

	if (!c->extra)
		c->extra = json_object();
	a = json_object_get(c->extra, BACKGROUND_KEY);
	if (!a) {
		a = json_array();
		json_object_set_new(c->extra, BACKGROUND_KEY, a);
	}
	json_array_append_new(a, json_pack("{s:f, s:f}", "wall_usec", wall, metric, v));
}

static void init(struct tb_results *r, int swaps, int nodes)
{
	memset(r, 0, sizeof(*r));
	r->meta = json_pack("{s:{s:i}}", BACKGROUND_KEY, "swap_devices", swaps);
	r->env = json_pack("{s:i}", "numa_nodes", nodes);
}

static const struct compare_cov_row *row(const struct compare_coverage *cov,
					 const char *kind)
{
	size_t i;

	for (i = 0; i < cov->n; i++)
		if (!strcmp(cov->rows[i].kind, kind))
			return &cov->rows[i];
	return NULL;
}

static void test_one_case_moves(void **state)
{
	static const double split[] = { 50, 50, 51 }, none[] = { 0, 0, 0 };
	struct compare_coverage cov;
	struct tb_results r;
	const struct compare_cov_row *w;
	struct tb_case *c;

	(void)state;
	init(&r, 1, 2);
	c = add_case(&r, "split/thp=always", "vmstat.thp_split_pmd", split, 3);
	add_bg(c, "vmstat.thp_split_pmd", 1000, 0);
	add_bg(c, "vmstat.thp_split_pmd", 1000, 0);
	c = add_case(&r, "other", "vmstat.thp_split_pmd", none, 3);
	add_bg(c, "vmstat.thp_split_pmd", 1000, 0);
	compare_coverage_build(&r, &cov);
	w = row(&cov, "thp_split_pmd");
	assert_non_null(w);
	assert_true(w->exposed);
	assert_int_equal(w->nhits, 1);
	assert_int_equal(w->hits[0].case_idx, 0);
	assert_true(w->hits[0].excess > 50.3 && w->hits[0].excess < 50.4);
	assert_int_equal(w->hits[0].nbg, 2);
	assert_null(w->reason);
	/* both cases' figures are kept, the one that moved marked */
	assert_int_equal(w->ncells, 2);
	assert_true(w->cells[0].moved);
	assert_false(w->cells[1].moved);
	assert_true(w->cells[1].mean == 0);
	/* recorded, moved by nothing */
	w = row(&cov, "thp_fault_alloc");
	assert_non_null(w);
	assert_int_equal(w->nhits, 0);
	assert_non_null(strstr(w->reason, "no case here drives it"));
	assert_int_equal(cov.cases_bg, 2);
	compare_coverage_free(&cov);
	results_free(&r);
}

static void test_background_only(void **state)
{
	static const double wake[] = { 2, 3, 2 }, scan[] = { 10, 10, 10 };
	struct compare_coverage cov;
	struct tb_results r;
	const struct compare_cov_row *w;
	struct tb_case *c;

	(void)state;
	init(&r, 1, 2);
	/* kcompactd wakes as often idle as with the case */
	c = add_case(&r, "a", "vmstat.compact_daemon_wake", wake, 3);
	add_bg(c, "vmstat.compact_daemon_wake", 1000, 2);
	add_bg(c, "vmstat.compact_daemon_wake", 1000, 3);
	add_bg(c, "vmstat.compact_daemon_wake", 1000, 2);
	/* an interval half as long as the case: its 5 count as 10 */
	c = add_case(&r, "b", "vmstat.thp_collapse_alloc", scan, 3);
	add_bg(c, "vmstat.thp_collapse_alloc", 500, 5);
	add_bg(c, "vmstat.thp_collapse_alloc", 500, 5);
	compare_coverage_build(&r, &cov);
	w = row(&cov, "compact_daemon_wake");
	assert_non_null(w);
	assert_int_equal(w->nhits, 0);
	assert_non_null(strstr(w->reason, "background only"));
	w = row(&cov, "thp_collapse_alloc");
	assert_non_null(w);
	assert_int_equal(w->nhits, 0);
	compare_coverage_free(&cov);
	results_free(&r);
}

/* 25 a repetition over a background of 0, 10, 20: not beyond 3 sd. */
static void test_noisy_background(void **state)
{
	static const double v[] = { 25, 25, 25 };
	struct compare_coverage cov;
	struct tb_results r;
	struct tb_case *c;

	(void)state;
	init(&r, 1, 2);
	c = add_case(&r, "a", "vmstat.thp_fault_fallback", v, 3);
	add_bg(c, "vmstat.thp_fault_fallback", 1000, 0);
	add_bg(c, "vmstat.thp_fault_fallback", 1000, 10);
	add_bg(c, "vmstat.thp_fault_fallback", 1000, 20);
	compare_coverage_build(&r, &cov);
	assert_int_equal(row(&cov, "thp_fault_fallback")->nhits, 0);
	compare_coverage_free(&cov);
	/* no background recorded: judged against 0, and moved */
	results_free(&r);
	init(&r, 1, 2);
	add_case(&r, "a", "vmstat.thp_fault_fallback", v, 3);
	compare_coverage_build(&r, &cov);
	assert_int_equal(row(&cov, "thp_fault_fallback")->nhits, 1);
	assert_int_equal(row(&cov, "thp_fault_fallback")->hits[0].nbg, 0);
	assert_int_equal(cov.cases_bg, 0);
	compare_coverage_free(&cov);
	results_free(&r);
}

static void test_absent_and_reasons(void **state)
{
	static const double v[] = { 4, 4 };
	struct compare_coverage cov;
	struct tb_results r;
	const struct compare_cov_row *w;
	size_t moved, total;
	json_t *j;

	(void)state;
	init(&r, 0, 1);
	add_case(&r, "m", "mthp.64K.anon_fault_alloc", v, 2);
	compare_coverage_build(&r, &cov);
	/* a known counter this "kernel" did not expose */
	w = row(&cov, "thp_split_pud");
	assert_non_null(w);
	assert_false(w->exposed);
	assert_string_equal(w->reason, "not exposed by this kernel");
	compare_coverage_count(&cov, COMPARE_COV_THP, &moved, &total);
	assert_int_equal(total, 1);	/* thp_fault_alloc only */
	assert_int_equal(moved, 0);
	compare_coverage_count(&cov, COMPARE_COV_MTHP, &moved, &total);
	assert_int_equal(total, 1);
	assert_int_equal(moved, 1);
	w = row(&cov, "anon_fault_alloc");
	assert_string_equal(w->hits[0].size, "64K");
	/* levels are no events */
	assert_null(row(&cov, "nr_anon"));
	assert_null(row(&cov, "nr_anon.before"));
	/* no compaction recorded: its kinds not listed at all */
	assert_null(row(&cov, "compact_stall"));
	w = row(&cov, "swpout");
	assert_false(w->exposed);
	j = compare_coverage_json(&cov);
	assert_int_equal(json_integer_value(json_object_get(json_object_get(
		json_object_get(j, "families"), "mthp"), "moved")), 1);
	assert_string_equal(json_string_value(json_object_get(j, "schema")),
			    COMPARE_COV_SCHEMA);
	json_decref(j);
	compare_coverage_free(&cov);
	results_free(&r);
}

static void test_swap_numa_reasons(void **state)
{
	static const double v[] = { 0, 0 };
	struct compare_coverage cov;
	struct tb_results r;

	(void)state;
	init(&r, 0, 1);
	add_case(&r, "a", "vmstat.thp_swpout", v, 2);
	metric_set_put(&r.cases[0].runs[0].metrics, "vmstat.thp_migration_success", 0);
	metric_set_put(&r.cases[0].runs[0].metrics, "vmstat.thp_split_pud", 0);
	compare_coverage_build(&r, &cov);
	assert_non_null(strstr(row(&cov, "thp_swpout")->reason, "no swap device"));
	assert_non_null(strstr(row(&cov, "thp_migration_success")->reason,
			       "one NUMA node"));
	assert_non_null(strstr(row(&cov, "thp_split_pud")->reason, "only DAX"));
	compare_coverage_free(&cov);
	results_free(&r);
	init(&r, 2, 2);
	add_case(&r, "a", "vmstat.thp_swpout", v, 2);
	compare_coverage_build(&r, &cov);
	assert_null(strstr(row(&cov, "thp_swpout")->reason, "no swap device"));
	compare_coverage_free(&cov);
	results_free(&r);
}

/* zswap on since boot: the per-size swap-in counters cannot move (the
 * kernel swaps in 4 KiB pages only), and the table says so; swap-out
 * keeps its own reason. Without zswap the reason is the plain one. */
static void test_zswap_swpin_reason(void **state)
{
	static const double v[] = { 0, 0 };
	struct compare_coverage cov;
	struct tb_results r;
	int z;

	(void)state;
	for (z = 0; z <= 1; z++) {
		init(&r, 1, 1);
		json_object_set_new(json_object_get(r.meta, BACKGROUND_KEY),
				    "zswap_since_boot", json_boolean(z));
		add_case(&r, "a", "mthp.64K.swpin", v, 2);
		metric_set_put(&r.cases[0].runs[0].metrics, "mthp.64K.swpout", 0);
		compare_coverage_build(&r, &cov);
		assert_int_equal(strstr(row(&cov, "swpin")->reason, "zswap") != NULL, z);
		assert_null(strstr(row(&cov, "swpout")->reason, "zswap"));
		compare_coverage_free(&cov);
		results_free(&r);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_one_case_moves),
		cmocka_unit_test(test_background_only),
		cmocka_unit_test(test_noisy_background),
		cmocka_unit_test(test_absent_and_reasons),
		cmocka_unit_test(test_swap_numa_reasons),
		cmocka_unit_test(test_zswap_swpin_reason),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
