// SPDX-License-Identifier: GPL-2.0-only
/*
 * merge.h: every run of every file, cases by id; boot means as one run per
 * file; another setup refused (and merged with force); a different
 * hostname accepted and recorded; a case that measures something else
 * refused.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <math.h>
#include <stdio.h>
#include <string.h>

#include "results/merge.h"

#define FIX "tests/fixtures/compare/"

static json_t *load(const char *path)
{
	json_t *j = json_load_file(path, 0, NULL);

	assert_non_null(j);
	return j;
}

static size_t nruns(json_t *r, const char *id)
{
	json_t *c;
	size_t i;

	json_array_foreach(json_object_get(r, "cases"), i, c)
		if (!strcmp(json_string_value(json_object_get(c, "id")), id))
			return json_array_size(json_object_get(c, "runs"));
	return 0;
}

static void test_all_runs(void **state)
{
	json_t *in[2] = { load(FIX "aa_a.json"), load(FIX "aa_b.json") };
	const char *paths[2] = { "a.json", "b.json" };
	struct merge_opts o = { 0 };
	char err[512] = "";
	json_t *m, *runs, *from;
	size_t i, want;

	(void)state;
	m = merge_results(in, paths, 2, &o, err, sizeof(err));
	assert_non_null(m);
	want = nruns(in[0], "mremap/thp=always") + nruns(in[1], "mremap/thp=always");
	assert_int_equal(nruns(m, "mremap/thp=always"), want);
	assert_int_equal(json_array_size(json_object_get(m, "cases")),
			 json_array_size(json_object_get(in[0], "cases")));
	/* Runs renumbered: no two share a seq. */
	runs = json_object_get(json_array_get(json_object_get(m, "cases"), 0), "runs");
	for (i = 1; i < json_array_size(runs); i++)
		assert_true(json_integer_value(json_object_get(json_array_get(runs, i), "seq")) >
			    json_integer_value(json_object_get(json_array_get(runs, i - 1), "seq")));
	from = json_object_get(json_object_get(m, "meta"), "merged_from");
	assert_int_equal(json_array_size(from), 2);
	assert_string_equal(json_string_value(json_object_get(json_array_get(from, 1), "path")),
			    "b.json");
	json_decref(m);
	json_decref(in[0]);
	json_decref(in[1]);
}

static void test_boot_means(void **state)
{
	json_t *in[2] = { load(FIX "aa_a.json"), load(FIX "aa_b.json") };
	const char *paths[2] = { "a", "b" };
	struct merge_opts o = { .boot_means = true };
	char err[512];
	json_t *m, *c0 = NULL, *run, *r;
	double sum = 0, share = 97, least = 100;
	size_t i, n = 0;

	(void)state;
	/* multiplexed counts: the boot's mean keeps the least share counted */
	json_array_foreach(json_object_get(in[0], "cases"), i, c0)
		if (!strcmp(json_string_value(json_object_get(c0, "id")), "mremap/thp=always"))
			json_array_foreach(json_object_get(c0, "runs"), n, r) {
				share -= 7;
				json_object_set_new(r, "counted_pct",
						    json_pack("{sf}", "tlb.dtlb_walks", share));
				least = share < least ? share : least;
			}
	n = 0;
	m = merge_results(in, paths, 2, &o, err, sizeof(err));
	assert_non_null(m);
	assert_int_equal(nruns(m, "mremap/thp=always"), 2);
	/* The first sample is the mean of a's ok runs of that case. */
	json_array_foreach(json_object_get(in[0], "cases"), i, c0)
		if (!strcmp(json_string_value(json_object_get(c0, "id")), "mremap/thp=always"))
			break;
	json_array_foreach(json_object_get(c0, "runs"), i, r) {
		json_t *v = json_object_get(json_object_get(r, "metrics"), "roi_usec");

		if (strcmp(json_string_value(json_object_get(r, "status")), "ok") || !v)
			continue;
		sum += json_number_value(v);
		n++;
	}
	assert_true(n > 0);
	json_array_foreach(json_object_get(m, "cases"), i, c0)
		if (!strcmp(json_string_value(json_object_get(c0, "id")), "mremap/thp=always"))
			break;
	run = json_array_get(json_object_get(c0, "runs"), 0);
	assert_true(fabs(json_number_value(json_object_get(json_object_get(run, "metrics"),
				"roi_usec")) - sum / (double)n) < 1e-6 * sum);
	r = json_object_get(json_object_get(run, "counted_pct"), "tlb.dtlb_walks");
	assert_true(json_is_number(r));
	assert_true(least < 90);
	assert_true(json_number_value(r) == least);
	json_decref(m);
	json_decref(in[0]);
	json_decref(in[1]);
}

static void test_setup_differs(void **state)
{
	json_t *in[2] = { load(FIX "aa_a.json"), load(FIX "aa_b.json") };
	const char *paths[2] = { "a.json", "b.json" };
	struct merge_opts o = { 0 };
	char err[512] = "";
	json_t *m, *c;

	(void)state;
	/* Another hostname: fine. */
	json_object_set_new(json_object_get(in[1], "env"), "hostname", json_string("other"));
	m = merge_results(in, paths, 2, &o, err, sizeof(err));
	assert_non_null(m);
	json_decref(m);
	/* Another kernel: refused, naming the key and both values. */
	json_object_set_new(json_object_get(in[1], "env"), "kernel", json_string("6.1.0-tb-b"));
	assert_null(merge_results(in, paths, 2, &o, err, sizeof(err)));
	assert_non_null(strstr(err, "env.kernel differs"));
	assert_non_null(strstr(err, "6.1.0-tb-b in b.json"));
	o.force = true;
	m = merge_results(in, paths, 2, &o, err, sizeof(err));
	assert_non_null(m);
	json_decref(m);
	/* A case with other arguments under the same id: refused. */
	o.force = false;
	json_object_set_new(json_object_get(in[1], "env"), "kernel",
			    json_incref(json_object_get(json_object_get(in[0], "env"), "kernel")));
	c = json_array_get(json_object_get(in[1], "cases"), 0);
	json_object_set_new(c, "args", json_pack("[s]", "--size=1T"));
	assert_null(merge_results(in, paths, 2, &o, err, sizeof(err)));
	assert_non_null(strstr(err, "args"));
	json_decref(in[0]);
	json_decref(in[1]);
}

/*
 * The same results twice (n would double) and cases whose applied knobs
 * differ (compare would refuse the merged file) are refused, naming them.
 */
static void test_twice_and_settings(void **state)
{
	json_t *in[3] = { load(FIX "aa_a.json"), load(FIX "aa_b.json"),
			  load(FIX "aa_a.json") };
	const char *paths[3] = { "a.json", "b.json", "copy-of-a.json" };
	struct merge_opts o = { .force = true };
	char err[512] = "";
	json_t *m, *c;

	(void)state;
	m = merge_results(in, paths, 3, &o, err, sizeof(err));
	assert_null(m);
	assert_string_equal(err, "copy-of-a.json holds the same results as a.json: merging a file twice would count its runs twice");
	c = json_array_get(json_object_get(in[1], "cases"), 0);
	json_object_set_new(c, "settings", json_pack("{s:s}",
		"hugepages/hugepages-2048kB/nr_hugepages", "512"));
	m = merge_results(in, paths, 2, &o, err, sizeof(err));
	assert_null(m);
	assert_non_null(strstr(err, "its settings in b.json differs from the first file's"));
	json_decref(in[0]);
	json_decref(in[1]);
	json_decref(in[2]);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_all_runs),
		cmocka_unit_test(test_boot_means),
		cmocka_unit_test(test_setup_differs),
		cmocka_unit_test(test_twice_and_settings),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
