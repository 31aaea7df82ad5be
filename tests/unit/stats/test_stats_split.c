// SPDX-License-Identifier: GPL-2.0-only
/* Runs that fall into a slow and a fast group (stats_split.h). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "stats/stats_split.h"

static void test_two_groups(void **state)
{
	/* The 001 shape: cold first touches among warm ones, shuffled. */
	const double v[] = { 9.8, 1.1, 10.2, 1.0, 10.0 };
	struct split s;

	(void)state;
	assert_true(stats_split(v, 5, &s));
	assert_int_equal(s.n_low, 2);
	assert_int_equal(s.n_high, 3);
	assert_float_equal(s.low_median, 1.05, 1e-12);
	assert_float_equal(s.high_median, 10.0, 1e-12);
	assert_float_equal(s.gap, 9.8 / 1.1, 1e-12);
}

static void test_no_split(void **state)
{
	const double spread[] = { 1, 1.3, 1.7, 2.2, 2.9, 3.8 };	/* steady, no gap */
	const double lone[] = { 1, 1.02, 0.98, 1.01, 5 };	/* one outlier */
	const double loose[] = { 1, 1.6, 4, 5 };		/* low group not tight */
	const double few[] = { 1, 10, 1 };
	struct split s;

	(void)state;
	assert_false(stats_split(spread, 6, &s));
	assert_false(stats_split(lone, 5, &s));
	assert_false(stats_split(loose, 4, &s));
	assert_false(stats_split(few, 3, &s));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_two_groups),
		cmocka_unit_test(test_no_split),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
