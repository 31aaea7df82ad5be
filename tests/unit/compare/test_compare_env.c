// SPDX-License-Identifier: GPL-2.0-only
/*
 * compare_env.h across machines and kernels: another hostname, or a THP
 * knob only one side has (a patch adding a sysfs knob), is reported and
 * compares; another CPU model, or a knob both have set differently,
 * refuses without --force.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <string.h>

#include "compare/compare.h"
#include "results/store.h"

#define FIX "tests/fixtures/compare/aa_a.json"

/* Build a comparison of the fixture against a copy whose env key (in
 * env, or env.thp when thp) is set to val; return compare_build's status
 * and whether the difference was listed, and as blocking. */
static int try_env(bool thp, const char *key, const char *val, bool *listed,
		   bool *blocking)
{
	struct tb_results a, b;
	struct comparison c;
	struct compare_opts o;
	char err[512], what[128];
	size_t i;
	int rc;

	assert_int_equal(store_load(FIX, &a, err, sizeof(err)), 0);
	assert_int_equal(store_load(FIX, &b, err, sizeof(err)), 0);
	json_object_set_new(thp ? json_object_get(b.env, "thp") : b.env, key,
			    json_string(val));
	snprintf(what, sizeof(what), "%s%s", thp ? "thp." : "", key);
	compare_opts_init(&o);
	rc = compare_build(&c, &a, &b, &o, err, sizeof(err));
	*listed = *blocking = false;
	for (i = 0; i < c.ndiffs; i++)
		if (!strcmp(c.diffs[i].what, what)) {
			*listed = true;
			*blocking = c.diffs[i].blocking;
		}
	compare_free(&c);
	results_free(&a);
	results_free(&b);
	return rc;
}

static void test_across_machines(void **state)
{
	bool listed, blocking;

	(void)state;
	assert_int_equal(try_env(false, "hostname", "other-box", &listed, &blocking), 0);
	assert_true(listed && !blocking);
	assert_int_equal(try_env(true, "hugepages-64kB/enabled", "inherit", &listed,
				 &blocking), 0);
	assert_true(listed && !blocking);
	assert_int_equal(try_env(true, "defrag", "always", &listed, &blocking), -1);
	assert_true(listed && blocking);
	assert_int_equal(try_env(false, "cpu", "Other CPU 9000", &listed, &blocking), -1);
	assert_true(listed && blocking);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_across_machines),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
