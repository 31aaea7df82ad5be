// SPDX-License-Identifier: GPL-2.0-only
/* Claim verdicts on constructed results. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <string.h>

#include "claims.h"
#include "util.h"

static void add_case(struct tb_results *r, const char *id, const char *metric,
		     const double *v, size_t n)
{
	struct tb_case *c = results_add_case(r);
	size_t i;

	c->id = xstrdup(id);
	c->workload = xstrdup("w");
	for (i = 0; i < n; i++) {
		struct tb_run *run = case_add_run(c);

		run->status = RUN_OK;
		metric_set_put(&run->metrics, metric, v[i]);
	}
}

static struct suite_claim make_claim(const char *better, const char *needs)
{
	struct suite_claim cl = { .id = "x", .fields = json_object() };

	json_object_set_new(cl.fields, "metric", json_string("usec"));
	json_object_set_new(cl.fields, "base", json_string("slow"));
	json_object_set_new(cl.fields, "new", json_string("fast"));
	json_object_set_new(cl.fields, "better", json_string(better));
	if (needs)
		json_object_set_new(cl.fields, "needs", json_string(needs));
	return cl;
}

static json_t *judge(const double *slow, const double *fast, size_t n,
		     const char *better, const char *needs, bool pmu)
{
	struct tb_results r = { .env = json_object() };
	struct suite_claim cl = make_claim(better, needs);
	json_t *out;

	json_object_set_new(r.env, "pmu", json_boolean(pmu));
	json_object_set_new(r.env, "glibc", json_string("2.31"));
	json_object_set_new(r.env, "glibc_malloc_hugetlb", json_false());
	add_case(&r, "slow", "usec", slow, n);
	add_case(&r, "fast", "usec", fast, n);
	out = claims_evaluate(&cl, 1, &r);
	json_decref(cl.fields);
	results_free(&r);
	return out;
}

static const char *verdict(json_t *out)
{
	return json_string_value(json_object_get(json_array_get(out, 0), "verdict"));
}

static const double slow[] = { 100, 104, 98, 101, 99 };
static const double fast[] = { 10, 11, 9, 10.5, 9.5 };

static void test_reproduced(void **state)
{
	json_t *out = judge(slow, fast, 5, "lower", NULL, false);
	double f = json_real_value(json_object_get(json_array_get(out, 0), "factor"));

	(void)state;
	assert_string_equal(verdict(out), "reproduced");
	assert_true(f > 9.5 && f < 10.5);
	json_decref(out);
}

static void test_other_direction(void **state)
{
	json_t *out = judge(fast, slow, 5, "lower", NULL, false);

	(void)state;
	assert_string_equal(verdict(out), "not reproduced");
	assert_string_equal(json_string_value(json_object_get(json_array_get(out, 0),
				"reason")), "significant in the other direction");
	json_decref(out);
}

static void test_higher_is_better(void **state)
{
	/* For GB/s the "new" side must be higher: here it is lower. */
	json_t *out = judge(slow, fast, 5, "higher", NULL, false);

	(void)state;
	assert_string_equal(verdict(out), "not reproduced");
	json_decref(out);
}

static void test_no_difference(void **state)
{
	const double a[] = { 10, 12, 9, 11, 10 }, b[] = { 11, 9, 10, 12, 10 };
	json_t *out = judge(a, b, 5, "lower", NULL, false);

	(void)state;
	assert_string_equal(verdict(out), "not reproduced");
	assert_string_equal(json_string_value(json_object_get(json_array_get(out, 0),
				"reason")), "no significant difference");
	json_decref(out);
}

static void test_not_measurable(void **state)
{
	json_t *pmu = judge(slow, fast, 5, "lower", "pmu", false);
	json_t *pmu_ok = judge(slow, fast, 5, "lower", "pmu", true);
	json_t *ab = judge(slow, fast, 5, "lower", "kernel-ab kernel-patches/x", true);
	json_t *few = judge(slow, fast, 2, "lower", NULL, true);
	json_t *old_glibc = judge(slow, fast, 5, "lower", "glibc-hugetlb", true);

	(void)state;
	assert_string_equal(verdict(pmu), "not measurable");
	assert_string_equal(verdict(pmu_ok), "reproduced");
	assert_string_equal(verdict(ab), "not measurable");
	assert_non_null(strstr(json_string_value(json_object_get(
		json_array_get(ab, 0), "reason")), "./run.sh ab kernel-patches/x"));
	assert_string_equal(verdict(few), "not measurable");
	assert_string_equal(verdict(old_glibc), "not measurable");
	assert_non_null(strstr(json_string_value(json_object_get(
		json_array_get(old_glibc, 0), "reason")), "glibc 2.31"));
	json_decref(old_glibc);
	json_decref(pmu);
	json_decref(pmu_ok);
	json_decref(ab);
	json_decref(few);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_reproduced),
		cmocka_unit_test(test_other_direction),
		cmocka_unit_test(test_higher_is_better),
		cmocka_unit_test(test_no_difference),
		cmocka_unit_test(test_not_measurable),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
