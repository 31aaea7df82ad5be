// SPDX-License-Identifier: GPL-2.0-only
/*
 * kcidb.h: the origin rule; test paths cleaned of anything but
 * [A-Za-z0-9_-] with '.', '/' and ':' as separators and no empty part;
 * times as RFC 3339 or refused; ids the same for the same inputs and
 * different for different ones; a checkout or build added twice written
 * once; no null and no non-finite number in the document.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "results/kcidb.h"

static void test_origin(void **state)
{
	(void)state;
	assert_true(kcidb_origin_valid("lab_1"));
	assert_true(kcidb_origin_valid("thpbench"));
	assert_false(kcidb_origin_valid(""));
	assert_false(kcidb_origin_valid(NULL));
	assert_false(kcidb_origin_valid("Lab"));
	assert_false(kcidb_origin_valid("a-b"));
	assert_false(kcidb_origin_valid("a:b"));
	assert_false(kcidb_origin_valid("a b"));
}

static void path_is(const char *const *n, size_t count, const char *want)
{
	char *p = kcidb_path(n, count);

	assert_string_equal(p, want);
	free(p);
}

static void test_path(void **state)
{
	const char *a[] = { "thpbench", "seeds", "mremap/thp=always", "vmstat.thp_fault_alloc" };
	const char *b[] = { "x$(id);\n", "..//a b", "\xc3\xa9t\xff" };
	const char *c[] = { "", "...", "$" };
	const char *d[] = { NULL, "-_" };

	(void)state;
	path_is(a, 4, "thpbench.seeds.mremap.thpalways.vmstat.thp_fault_alloc");
	path_is(b, 3, "xid.ab.t");
	path_is(c, 3, "_");
	path_is(d, 2, "-_");
}

static void time_is(const char *in, const char *want)
{
	char out[64];

	if (!want) {
		assert_false(kcidb_time(in, out, sizeof(out)));
		return;
	}
	assert_true(kcidb_time(in, out, sizeof(out)));
	assert_string_equal(out, want);
}

static void test_time(void **state)
{
	(void)state;
	time_is("2026-11-20T01:02:03Z", "2026-11-20T01:02:03Z");
	time_is("2026-11-20 01:02:03", "2026-11-20T01:02:03Z");
	time_is("2026-11-20T01:02:03.25+01:00", "2026-11-20T01:02:03.25+01:00");
	time_is("2026-11-20T01:02:03z", "2026-11-20T01:02:03Z");
	time_is("2026-13-20T01:02:03Z", NULL);
	time_is("2026-11-20T25:02:03Z", NULL);
	time_is("2026-11-20T01:02:03+1", NULL);
	time_is("2026-11-20T01:02:03.Z", NULL);
	time_is("yesterday", NULL);
	time_is(NULL, NULL);
}

static void test_ids_and_dedupe(void **state)
{
	struct kcidb *k = kcidb_new("lab");
	const char *p1[] = { "a", "b" }, *p2[] = { "ab", "" }, *path[] = { "s" };
	char i1[KCIDB_ID_LEN], i2[KCIDB_ID_LEN], i3[KCIDB_ID_LEN], co[KCIDB_ID_LEN],
	     co2[KCIDB_ID_LEN], bu[KCIDB_ID_LEN];
	struct kcidb_checkout c = { .key = "v6.8" };
	struct kcidb_build b = { 0 };
	struct kcidb_test t = { 0 };
	char *text = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&text, &len);
	json_t *doc;

	(void)state;
	kcidb_id(k, "test", p1, 2, i1);
	kcidb_id(k, "test", p1, 2, i2);
	kcidb_id(k, "test", p2, 2, i3);
	assert_string_equal(i1, i2);
	assert_string_not_equal(i1, i3);	/* parts are delimited */
	assert_int_equal(strncmp(i1, "lab:", 4), 0);
	assert_int_equal(strlen(i1), 4 + 64);
	kcidb_add_checkout(k, &c, co);
	kcidb_add_checkout(k, &c, co2);
	assert_string_equal(co, co2);
	b.checkout_id = co;
	b.key = "6.8.0";
	kcidb_add_build(k, &b, bu);
	kcidb_add_build(k, &b, bu);
	t.build_id = bu;
	t.path = path;
	t.npath = 1;
	t.status = "nonsense";
	t.value = NAN;
	t.start_time = "not a time";
	t.misc = json_object();
	kcidb_misc_num(t.misc, "p", NAN);
	kcidb_misc_str(t.misc, "s", NULL);
	kcidb_add_test(k, &t);
	assert_int_equal(kcidb_write(k, f), 0);
	fclose(f);
	doc = json_loads(text, 0, NULL);
	assert_non_null(doc);
	assert_int_equal(json_array_size(json_object_get(doc, "checkouts")), 1);
	assert_int_equal(json_array_size(json_object_get(doc, "builds")), 1);
	t.misc = NULL;
	{
		json_t *tt = json_array_get(json_object_get(doc, "tests"), 0);

		assert_string_equal(json_string_value(json_object_get(tt, "status")), "ERROR");
		assert_null(json_object_get(tt, "number"));
		assert_null(json_object_get(tt, "start_time"));
		assert_null(json_object_get(tt, "misc"));	/* empty: left out */
	}
	assert_null(strstr(text, "null"));
	json_decref(doc);
	free(text);
	kcidb_free(k);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_origin),
		cmocka_unit_test(test_path),
		cmocka_unit_test(test_time),
		cmocka_unit_test(test_ids_and_dedupe),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
