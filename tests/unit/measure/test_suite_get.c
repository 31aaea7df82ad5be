// SPDX-License-Identifier: GPL-2.0-only
/*
 * suite_get (suite_get.h): a key the file sets, a default it does not,
 * the case list, and the keys it refuses.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "measure/suite.h"
#include "measure/suite_get.h"

static const char text[] =
	"[suite]\nname = s\nrepetitions = 12\nthp = always,never\n\n"
	"[case a]\nworkload = mremap\n\n[case b]\nworkload = mremap\n";

/* KEY of text as printed; -1 when refused (err then names the file). */
static int get(const char *key, char *out, size_t len, char *err, size_t errlen)
{
	struct suite s;
	FILE *f = fmemopen(out, len, "w");
	int rc;

	assert_non_null(f);
	assert_int_equal(suite_parse("t.conf", text, strlen(text), &s, err, errlen), 0);
	rc = suite_get(&s, key, f, err, errlen);
	fclose(f);
	suite_free(&s);
	return rc;
}

static void test_get(void **state)
{
	char out[256], err[256];

	(void)state;
	assert_int_equal(get("repetitions", out, sizeof(out), err, sizeof(err)), 0);
	assert_string_equal(out, "12\n");
	assert_int_equal(get("warmup", out, sizeof(out), err, sizeof(err)), 0);
	assert_string_equal(out, "1\n");	/* suite.h's default */
	assert_int_equal(get("thp", out, sizeof(out), err, sizeof(err)), 0);
	assert_string_equal(out, "always,never\n");
	assert_int_equal(get("cases", out, sizeof(out), err, sizeof(err)), 0);
	assert_string_equal(out, "a\nb\n");
}

static void test_refused(void **state)
{
	char out[256], err[256];

	(void)state;
	assert_int_equal(get("seed", out, sizeof(out), err, sizeof(err)), -1);
	assert_non_null(strstr(err, "t.conf: the suite sets no seed"));
	assert_int_equal(get("../etc", out, sizeof(out), err, sizeof(err)), -1);
	assert_non_null(strstr(err, "no such key"));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_get),
		cmocka_unit_test(test_refused),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
