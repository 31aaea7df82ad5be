// SPDX-License-Identifier: GPL-2.0-only
/*
 * read() layouts of perf event fds and perf's scaling, on synthetic
 * buffers laid out as the kernel's perf_read_one() / perf_read_group()
 * write them: no PMU needed to check multiplexing arithmetic.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <linux/perf_event.h>
#include <string.h>

#include "measure/perf_read.h"

#ifndef PERF_FORMAT_LOST
#define PERF_FORMAT_LOST (1U << 4)
#endif

#define TIMES (PERF_FORMAT_TOTAL_TIME_ENABLED | PERF_FORMAT_TOTAL_TIME_RUNNING)

static void test_sizes(void **state)
{
	(void)state;
	assert_int_equal(perf_read_size(0, 1), 8);
	assert_int_equal(perf_read_size(TIMES, 1), 24);
	assert_int_equal(perf_read_size(TIMES, 5), 24);	/* no GROUP: nr ignored */
	assert_int_equal(perf_read_size(TIMES | PERF_FORMAT_GROUP, 3), 6 * 8);
	assert_int_equal(perf_read_size(TIMES | PERF_FORMAT_GROUP |
					PERF_FORMAT_ID | PERF_FORMAT_LOST, 2),
			 (3 + 2 * 3) * 8);
	assert_int_equal(perf_read_size(PERF_FORMAT_ID, 1), 16);
}

static void test_single(void **state)
{
	uint64_t buf[] = { 1234, 1000, 250 };
	struct perf_count c[2];

	(void)state;
	assert_int_equal(perf_read_parse(buf, sizeof(buf), TIMES, c, 2), 1);
	assert_int_equal(c[0].value, 1234);
	assert_int_equal(c[0].enabled, 1000);
	assert_int_equal(c[0].running, 250);
	/* only RUNNING asked: the one time word is running */
	assert_int_equal(perf_read_parse(buf, 16, PERF_FORMAT_TOTAL_TIME_RUNNING,
					 c, 1), 1);
	assert_int_equal(c[0].enabled, 0);
	assert_int_equal(c[0].running, 1000);
	/* no times: nothing to scale by */
	assert_int_equal(perf_read_parse(buf, 8, 0, c, 1), 1);
	assert_int_equal(c[0].value, 1234);
	assert_int_equal(c[0].enabled, 0);
}

/* ID and LOST words sit after the value; the value must not move. */
static void test_single_with_id_and_lost(void **state)
{
	uint64_t buf[] = { 77, 900, 900, 0xdead, 3 };
	struct perf_count c;

	(void)state;
	assert_int_equal(perf_read_parse(buf, sizeof(buf), TIMES | PERF_FORMAT_ID |
					 PERF_FORMAT_LOST, &c, 1), 1);
	assert_int_equal(c.value, 77);
	assert_int_equal(c.enabled, 900);
	assert_int_equal(c.running, 900);
}

/* nr, enabled, running, then a value per member: all share the times. */
static void test_group(void **state)
{
	uint64_t buf[] = { 3, 2000, 500, 10, 20, 30 };
	struct perf_count c[4];

	(void)state;
	assert_int_equal(perf_read_parse(buf, sizeof(buf), TIMES | PERF_FORMAT_GROUP,
					 c, 4), 3);
	for (int i = 0; i < 3; i++) {
		assert_int_equal(c[i].value, 10 * (i + 1));
		assert_int_equal(c[i].enabled, 2000);
		assert_int_equal(c[i].running, 500);
	}
}

static void test_group_with_ids(void **state)
{
	uint64_t buf[] = { 2, 100, 100, 5, 901, 1, 6, 902, 0 };
	struct perf_count c[2];

	(void)state;
	assert_int_equal(perf_read_parse(buf, sizeof(buf), TIMES | PERF_FORMAT_GROUP |
					 PERF_FORMAT_ID | PERF_FORMAT_LOST, c, 2), 2);
	assert_int_equal(c[0].value, 5);
	assert_int_equal(c[1].value, 6);
}

static void test_malformed(void **state)
{
	uint64_t buf[] = { 3, 2000, 500, 10, 20, 30 };
	struct perf_count c[4];

	(void)state;
	/* short read */
	assert_int_equal(perf_read_parse(buf, 5 * 8, TIMES | PERF_FORMAT_GROUP, c, 4), -1);
	/* more members than the caller has room for */
	assert_int_equal(perf_read_parse(buf, sizeof(buf), TIMES | PERF_FORMAT_GROUP, c, 2), -1);
	/* nr says 3, the buffer holds 2 */
	buf[0] = 2;
	assert_int_equal(perf_read_parse(buf, sizeof(buf), TIMES | PERF_FORMAT_GROUP, c, 4), -1);
	buf[0] = 0;
	assert_int_equal(perf_read_parse(buf, 3 * 8, TIMES | PERF_FORMAT_GROUP, c, 4), -1);
	/* a single read of the wrong length, or not whole words */
	assert_int_equal(perf_read_parse(buf, 16, TIMES, c, 1), -1);
	assert_int_equal(perf_read_parse(buf, 23, TIMES, c, 1), -1);
	assert_int_equal(perf_read_parse(buf, 0, TIMES, c, 1), -1);
}

static void test_scale_full(void **state)
{
	struct perf_count c = { 500, 1000, 1000 };
	double v = -1, share = -1;

	(void)state;
	assert_int_equal(perf_count_scale(&c, &v, &share), PERF_COUNTED_FULL);
	assert_true(v == 500);
	assert_true(share == 100);
	/* running a hair past enabled (clock reads) is not "more than 100%" */
	c.running = 1001;
	assert_int_equal(perf_count_scale(&c, &v, &share), PERF_COUNTED_FULL);
	assert_true(v == 500 && share == 100);
}

/* perf stat: value * enabled / running, with the share printed beside. */
static void test_scale_partly_counted(void **state)
{
	struct perf_count c = { 123, 4000, 1000 };
	double v = -1, share = -1;

	(void)state;
	assert_int_equal(perf_count_scale(&c, &v, &share), PERF_COUNTED_SCALED);
	assert_true(v == 492);
	assert_true(share == 25);
	c = (struct perf_count){ 3, 3, 1 };
	assert_int_equal(perf_count_scale(&c, &v, &share), PERF_COUNTED_SCALED);
	assert_true(v == 9);
	assert_float_equal(share, 100.0 / 3, 1e-12);
}

/* Never a value when it never ran: no 0, no guess, untouched outputs. */
static void test_not_counted(void **state)
{
	struct perf_count c = { 0, 5000, 0 };
	double v = -1, share = -1;

	(void)state;
	assert_int_equal(perf_count_scale(&c, &v, &share), PERF_NOT_COUNTED);
	assert_true(v == -1 && share == -1);
	c.value = 42;	/* a count with no running time is still not a value */
	assert_int_equal(perf_count_scale(&c, &v, &share), PERF_NOT_COUNTED);
	assert_true(v == -1);
	c = (struct perf_count){ 0, 0, 0 };
	assert_int_equal(perf_count_scale(&c, &v, &share), PERF_NOT_ENABLED);
	assert_true(v == -1 && share == -1);
}

/* A multiplexed group: each member scaled by the one pair, so ratios of
 * members are the ratio of their raw counts. */
static void test_group_ratio_survives_scaling(void **state)
{
	uint64_t buf[] = { 2, 3000, 1000, 400, 100000 };
	struct perf_count c[2];
	double walks, cycles, s1, s2;

	(void)state;
	assert_int_equal(perf_read_parse(buf, sizeof(buf), TIMES | PERF_FORMAT_GROUP,
					 c, 2), 2);
	assert_int_equal(perf_count_scale(&c[0], &walks, &s1), PERF_COUNTED_SCALED);
	assert_int_equal(perf_count_scale(&c[1], &cycles, &s2), PERF_COUNTED_SCALED);
	assert_true(walks == 1200 && cycles == 300000);
	assert_true(s1 == s2);
	assert_float_equal(walks / cycles, 400.0 / 100000, 1e-15);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_sizes),
		cmocka_unit_test(test_single),
		cmocka_unit_test(test_single_with_id_and_lost),
		cmocka_unit_test(test_group),
		cmocka_unit_test(test_group_with_ids),
		cmocka_unit_test(test_malformed),
		cmocka_unit_test(test_scale_full),
		cmocka_unit_test(test_scale_partly_counted),
		cmocka_unit_test(test_not_counted),
		cmocka_unit_test(test_group_ratio_survives_scaling),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
