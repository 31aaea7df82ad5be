// SPDX-License-Identifier: GPL-2.0-only
/* Claim verdicts on constructed results. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <string.h>

#include "claims/claims.h"
#include "claims/claims_supersede.h"
#include "util/util.h"
#include "claims_fx.h"

static const char *claimed_value = "10";
static const char *kernel_release = "6.18.44";
static json_t *extra_fields;

static struct suite_claim make_claim(const char *better, const char *needs)
{
	struct suite_claim cl = { .id = "x", .fields = json_object() };
	const char *k;
	json_t *v;

	if (claimed_value)
		json_object_set_new(cl.fields, "claimed_value",
				    json_string(claimed_value));
	json_object_foreach(extra_fields, k, v)
		json_object_set(cl.fields, k, v);

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
	json_object_set_new(r.env, "kernel", json_string(kernel_release));
	json_object_set_new(r.env, "numa_nodes", json_integer(1));
	fx_add_case(&r, "slow", "usec", slow, n);
	fx_add_case(&r, "fast", "usec", fast, n);
	out = claims_evaluate(&cl, 1, &r);
	json_decref(cl.fields);
	results_free(&r);
	return out;
}

static const char *verdict(json_t *out)
{
	return json_string_value(json_object_get(json_array_get(out, 0), "verdict"));
}

static const char *reason(json_t *out)
{
	const char *s = json_string_value(json_object_get(json_array_get(out, 0),
							  "reason"));
	return s ? s : "";
}

static int reset(void **state)
{
	(void)state;
	claimed_value = "10";
	kernel_release = "6.18.44";
	json_decref(extra_fields);
	extra_fields = json_object();
	return 0;
}

static void set_field(const char *k, const char *v)
{
	json_object_set_new(extra_fields, k, json_string(v));
}

static const double slow[] = { 100, 104, 98, 101, 99 };
static const double fast[] = { 10, 11, 9, 10.5, 9.5 };
static const double same_a[] = { 10, 12, 9, 11, 10 };
static const double same_b[] = { 11, 9, 10, 12, 10 };

static void test_reproduced(void **state)
{
	json_t *out = judge(slow, fast, 5, "lower", NULL, false);
	double f = json_real_value(json_object_get(json_array_get(out, 0), "factor"));

	(void)state;
	assert_string_equal(verdict(out), "reproduced");
	assert_true(f > 9.5 && f < 10.5);
	json_decref(out);
}

/* Significant and the right way, but far from the claimed size. */
static void test_direction_only(void **state)
{
	json_t *small, *big, *none;

	(void)state;
	claimed_value = "1.22";
	small = judge(slow, fast, 5, "lower", NULL, false);
	claimed_value = "52.8";
	big = judge(slow, fast, 5, "lower", NULL, false);
	claimed_value = NULL;
	none = judge(slow, fast, 5, "lower", NULL, false);
	assert_string_equal(verdict(small), "direction only");
	assert_non_null(strstr(reason(small), "measured/claimed = 8."));
	assert_string_equal(verdict(big), "direction only");
	assert_non_null(strstr(reason(big), "measured/claimed = 0.19"));
	assert_string_equal(verdict(none), "direction only");
	json_decref(small);
	json_decref(big);
	json_decref(none);
}

/* A control claims no effect: equality must be shown, not assumed. */
static void test_no_effect_claim(void **state)
{
	const double a[] = { 1000, 1002, 998, 1001, 999 };
	const double b[] = { 1001, 999, 1000, 1002, 998 };
	json_t *same, *differ, *noisy;

	(void)state;
	claimed_value = "1";
	same = judge(a, b, 5, "lower", NULL, false);
	differ = judge(slow, fast, 5, "lower", NULL, false);
	noisy = judge(same_a, fast, 5, "lower", NULL, false);
	assert_string_equal(verdict(same), "reproduced");
	assert_string_equal(verdict(differ), "not reproduced");
	assert_non_null(strstr(reason(differ), "significant difference"));
	assert_string_equal(verdict(noisy), "not reproduced");
	json_decref(same);
	json_decref(differ);
	json_decref(noisy);
}

static void test_band(void **state)
{
	double lo, hi;

	(void)state;
	claims_band(17.3, 2, &lo, &hi);
	assert_float_equal(lo, 8.65, 1e-9);
	assert_float_equal(hi, 34.6, 1e-9);
	/* Near 1 the effect, not the factor, limits: 1.22x is 22%. */
	claims_band(1.22, 2, &lo, &hi);
	assert_float_equal(lo, 1.104536, 1e-6);
	assert_float_equal(hi, 1.4884, 1e-9);
}

static void test_kernel_at_least(void **state)
{
	(void)state;
	assert_int_equal(kernel_at_least("6.18.44-fc", "5.0"), 1);
	assert_int_equal(kernel_at_least("5.0.0", "5.0"), 1);
	assert_int_equal(kernel_at_least("4.19.2", "5.0"), 0);
	assert_int_equal(kernel_at_least("5.10", "5.9"), 1);
	assert_int_equal(kernel_at_least("x", "5.0"), -1);
	assert_int_equal(kernel_at_least("6.1", ""), -1);
}


/* The counter form of superseded_check must hold in every run. */
static void test_superseded(void **state)
{
	json_t *yes, *old, *bad_check, *no_check;

	(void)state;
	set_field("superseded_by", "5.0 2c91bd4a4e2e (HAVE_MOVE_PMD)");
	set_field("superseded_check", "usec >= 9");
	yes = judge(same_a, same_b, 5, "lower", NULL, false);
	kernel_release = "4.19.0";
	old = judge(same_a, same_b, 5, "lower", NULL, false);
	kernel_release = "6.18.44";
	set_field("superseded_check", "usec < 10");
	bad_check = judge(same_a, same_b, 5, "lower", NULL, false);
	set_field("superseded_check", "usec");
	no_check = judge(same_a, same_b, 5, "lower", NULL, false);
	assert_string_equal(verdict(yes), "superseded");
	assert_non_null(strstr(reason(yes), "v5.0 2c91bd4a4e2e"));
	assert_non_null(strstr(reason(yes), "usec >= 9 in all 10 runs"));
	assert_string_equal(verdict(old), "not reproduced");
	assert_non_null(strstr(reason(old), "predates 5.0"));
	assert_string_equal(verdict(bad_check), "not reproduced");
	assert_non_null(strstr(reason(bad_check), "not shown to be"));
	assert_string_equal(verdict(no_check), "not reproduced");
	assert_non_null(strstr(reason(no_check), "unconfirmed"));
	json_decref(yes);
	json_decref(old);
	json_decref(bad_check);
	json_decref(no_check);
}

/* A reproduced claim is never turned into "superseded". */
static void test_superseded_only_when_not_reproduced(void **state)
{
	json_t *out;

	(void)state;
	set_field("superseded_by", "5.0 x");
	set_field("superseded_check", "usec >= 0");
	out = judge(slow, fast, 5, "lower", NULL, false);
	assert_string_equal(verdict(out), "reproduced");
	json_decref(out);
}

static void test_numa_and_caveats(void **state)
{
	json_t *out, *cav;

	(void)state;
	set_field("depends", "numa, pmu");
	out = judge(slow, fast, 5, "lower", "numa", false);
	assert_string_equal(verdict(out), "not measurable");
	assert_non_null(strstr(reason(out), "2 NUMA nodes"));
	/* What was measured is kept. */
	assert_non_null(json_object_get(json_array_get(out, 0), "factor"));
	cav = json_object_get(json_array_get(out, 0), "caveats");
	assert_int_equal(json_array_size(cav), 2);
	json_decref(out);
}

static void test_other_direction(void **state)
{
	json_t *out = judge(fast, slow, 5, "lower", NULL, false);

	(void)state;
	assert_string_equal(verdict(out), "not reproduced");
	assert_non_null(strstr(reason(out), "significant in the other direction"));
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
	assert_non_null(strstr(reason(out), "no significant difference"));
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
		cmocka_unit_test_setup(test_reproduced, reset),
		cmocka_unit_test_setup(test_direction_only, reset),
		cmocka_unit_test_setup(test_band, reset),
		cmocka_unit_test_setup(test_no_effect_claim, reset),
		cmocka_unit_test_setup(test_kernel_at_least, reset),
		cmocka_unit_test_setup(test_superseded, reset),
		cmocka_unit_test_setup(test_superseded_only_when_not_reproduced, reset),
		cmocka_unit_test_setup(test_numa_and_caveats, reset),
		cmocka_unit_test_setup(test_other_direction, reset),
		cmocka_unit_test_setup(test_higher_is_better, reset),
		cmocka_unit_test_setup(test_no_difference, reset),
		cmocka_unit_test_setup(test_not_measurable, reset),
	};

	int rc = cmocka_run_group_tests(tests, NULL, NULL);

	json_decref(extra_fields);
	return rc;
}
