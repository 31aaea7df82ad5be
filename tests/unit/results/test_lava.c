// SPDX-License-Identifier: GPL-2.0-only
/*
 * lava.h: names and units hold only [A-Za-z0-9._-] and are never empty;
 * every measurement has units ("none" where the unit is not known); a
 * case is pass when every repetition ran ok, fail when one did not, skip
 * when none ran; a metric's measurement is the mean of the ok repetitions
 * only, and a metric no ok repetition has gets no line.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "results/lava.h"
#include "util/util.h"

static void test_token_and_units(void **state)
{
	char b[64];

	(void)state;
	assert_string_equal(lava_token("mremap/thp=always roi", b, sizeof(b)),
			    "mremap_thp_always_roi");
	assert_string_equal(lava_token("a$(id);\n`x`", b, sizeof(b)), "a__id____x_");
	assert_string_equal(lava_token("", b, sizeof(b)), "_");
	assert_string_equal(lava_token(NULL, b, sizeof(b)), "_");
	assert_string_equal(lava_token("abcdef", b, 4), "abc");
	assert_string_equal(lava_units("roi_usec", b, sizeof(b)), "us");
	assert_string_equal(lava_units("gbps", b, sizeof(b)), "GB_s");
	assert_string_equal(lava_units("vmstat.thp_split_pmd", b, sizeof(b)), "count");
	assert_string_equal(lava_units("some_ratio", b, sizeof(b)), "none");
}

static struct tb_case *add_case(struct tb_results *r, const char *id)
{
	struct tb_case *c = results_add_case(r);

	c->id = xstrdup(id);
	c->name = xstrdup(id);
	c->workload = xstrdup("w");
	c->thp = xstrdup("always");
	c->label = xstrdup("");
	return c;
}

static void add_run(struct tb_case *c, enum run_status st, double roi, double split)
{
	struct tb_run *run = case_add_run(c);

	run->status = st;
	metric_set_put(&run->metrics, "roi_usec", roi);
	if (split >= 0)
		metric_set_put(&run->metrics, "vmstat.thp_split_pmd", split);
}

static char *render(const struct tb_results *r)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	lava_cases_write(f, r);
	fclose(f);
	return buf;
}

static void test_cases(void **state)
{
	struct tb_results r = { 0 };
	struct tb_case *c;
	char *s;

	(void)state;
	c = add_case(&r, "mremap/thp=always");
	add_run(c, RUN_OK, 10, 0);
	add_run(c, RUN_OK, 20, 512);
	c = add_case(&r, "bad case;rm");
	add_run(c, RUN_OK, 4, -1);
	add_run(c, RUN_FAILED, 1000, 7);
	add_case(&r, "never");
	s = render(&r);
	assert_string_equal(s,
		"lava-test-case mremap_thp_always --result pass\n"
		"lava-test-case mremap_thp_always.roi_usec --result pass --measurement 15 --units us\n"
		"lava-test-case mremap_thp_always.vmstat.thp_split_pmd --result pass --measurement 256 --units count\n"
		"lava-test-case bad_case_rm --result fail\n"
		"lava-test-case bad_case_rm.roi_usec --result pass --measurement 4 --units us\n"
		"lava-test-case never --result skip\n");
	free(s);
	results_free(&r);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_token_and_units),
		cmocka_unit_test(test_cases),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
