// SPDX-License-Identifier: GPL-2.0-only
/*
 * bisect_plan_next_n (bisect_plan.h): with k = 1 it picks what
 * bisect_plan_next picks, on every state; with k devices it names k
 * distinct untested commits inside the jump, commits still measuring
 * first; the search it drives finds the first bad commit wherever it is,
 * in at most ceil(log_{k+1}(n - 1)) rounds (n - 1 candidates), and in
 * exactly that many for the worst placement; more devices never take
 * more rounds.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdlib.h>
#include <string.h>

#include "bisect/bisect_plan.h"

/* ceil(log_b(m)) in integers: the least r with b^r >= m. */
static size_t ceil_log(size_t b, size_t m)
{
	size_t r = 0, p = 1;

	while (p < m) {
		p *= b;
		r++;
	}
	return r;
}

static void test_k1_is_binary(void **state)
{
	enum bisect_class c[40];
	size_t n, first, out[1], x;

	(void)state;
	for (n = 3; n <= 40; n++)
		for (first = 1; first < n; first++) {
			memset(c, 0, sizeof(c));
			c[0] = BC_GOOD;
			c[n - 1] = BC_BAD;
			for (;;) {
				x = bisect_plan_next(c, n);
				if (x == SIZE_MAX) {
					assert_int_equal(bisect_plan_next_n(c, n, 1, out), 0);
					break;
				}
				assert_int_equal(bisect_plan_next_n(c, n, 1, out), 1);
				assert_int_equal(out[0], x);
				c[x] = x >= first ? BC_BAD : BC_GOOD;
			}
		}
}

static void test_picks(void **state)
{
	enum bisect_class c[12] = { BC_GOOD };
	size_t out[8], got, i, j;

	(void)state;
	c[11] = BC_BAD;
	c[4] = BC_MEASURING;
	c[7] = BC_SKIP;
	got = bisect_plan_next_n(c, 12, 4, out);
	assert_int_equal(got, 4);
	assert_int_equal(out[0], 4);
	for (i = 1; i < got; i++) {
		assert_true(out[i] > 0 && out[i] < 11);
		assert_int_equal(c[out[i]], BC_UNTESTED);
		for (j = 0; j < i; j++)
			assert_true(out[i] != out[j]);
	}
	/* More devices than untested commits: every untested one, no more. */
	memset(c, 0, sizeof(c));
	c[0] = BC_GOOD;
	c[3] = BC_BAD;
	got = bisect_plan_next_n(c, 4, 8, out);
	assert_int_equal(got, 2);
	assert_true((out[0] == 1 && out[1] == 2) || (out[0] == 2 && out[1] == 1));
	/* Nothing left: 0. */
	c[1] = BC_GOOD;
	c[2] = BC_BAD;
	assert_int_equal(bisect_plan_next_n(c, 4, 3, out), 0);
}

/* The search with k at once finds the first bad commit, every placement. */
static void test_finds(void **state)
{
	enum bisect_class c[64];
	size_t n = 64, k, first, out[8], got, x;
	struct bisect_outcome o;

	(void)state;
	for (k = 1; k <= 8; k++)
		for (first = 1; first < n; first++) {
			memset(c, 0, sizeof(c));
			c[0] = BC_GOOD;
			c[n - 1] = BC_BAD;
			while ((got = bisect_plan_next_n(c, n, k, out)) > 0)
				for (x = 0; x < got; x++)
					c[out[x]] = out[x] >= first ? BC_BAD : BC_GOOD;
			bisect_plan_outcome(c, n, &o);
			assert_int_equal(o.kind, BO_FOUND);
			assert_int_equal(o.njumps, 1);
			assert_int_equal(o.jumps[0].last, first);
			bisect_outcome_free(&o);
		}
}

static void test_rounds(void **state)
{
	static const size_t ns[] = { 2, 3, 5, 9, 17, 33, 100, 257, 1000 };
	size_t a, k, first, worst, prev_worst;

	(void)state;
	for (a = 0; a < sizeof(ns) / sizeof(ns[0]); a++) {
		prev_worst = SIZE_MAX;
		for (k = 1; k <= 8; k++) {
			worst = 0;
			for (first = 1; first < ns[a]; first++) {
				size_t r = bisect_plan_rounds(ns[a], k, first);

				if (r > worst)
					worst = r;
			}
			assert_int_equal(worst, ceil_log(k + 1, ns[a] - 1));
			assert_true(worst <= prev_worst);
			prev_worst = worst;
		}
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_k1_is_binary),
		cmocka_unit_test(test_picks),
		cmocka_unit_test(test_finds),
		cmocka_unit_test(test_rounds),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
