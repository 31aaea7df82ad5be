// SPDX-License-Identifier: GPL-2.0-only
/*
 * provenance (provenance.h): pairs to an object, typed and nested; the
 * pairs refused; a results file stamped and read back by the store,
 * and a file the store refuses left as it was.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "results/provenance.h"
#include "results/results.h"
#include "results/store.h"

static void test_pairs(void **state)
{
	char *pairs[] = { "bisect_commit=abc", "kernel.release=6.1.0-b",
			  "repetitions:=10", "kernel.x:=0.5", "vm:=false", "note=a=b" };
	char err[256];
	json_t *o = provenance_from_pairs(pairs, 6, err, sizeof(err));
	char *s;

	(void)state;
	assert_non_null(o);
	s = json_dumps(o, JSON_COMPACT);
	assert_string_equal(s, "{\"bisect_commit\":\"abc\",\"kernel\":{\"release\":\"6.1.0-b\",\"x\":0.5},"
			       "\"repetitions\":10,\"vm\":false,\"note\":\"a=b\"}");
	free(s);
	json_decref(o);
}

static void test_arrays(void **state)
{
	char *pairs[] = { "patches:=[]", "patches.0.file=a", "patches.0.id=1",
			  "patches.1.file=b", "tags.0=x", "tags.1=y", "none:=[]" };
	char err[256];
	json_t *o = provenance_from_pairs(pairs, 7, err, sizeof(err));
	char *s;

	(void)state;
	assert_non_null(o);
	s = json_dumps(o, JSON_COMPACT);
	assert_string_equal(s, "{\"patches\":[{\"file\":\"a\",\"id\":\"1\"},{\"file\":\"b\"}],"
			       "\"tags\":[\"x\",\"y\"],\"none\":[]}");
	free(s);
	json_decref(o);
}

static void expect_refused(char *pair, const char *want)
{
	char *pairs[] = { "kernel.release=x", pair };
	char err[256];

	assert_null(provenance_from_pairs(pairs, 2, err, sizeof(err)));
	if (!strstr(err, want))
		fail_msg("'%s' lacks '%s'", err, want);
}

static void test_pairs_refused(void **state)
{
	(void)state;
	expect_refused("kernel=y", "both a value and an object");
	expect_refused("kernel.release=y", "given twice");
	expect_refused("n:=12abc", "a number, true, false, null, [] or {}");
	expect_refused("n:=nan", "a number");
	expect_refused("a..b=1", "KEY of [A-Za-z0-9_] parts");
	expect_refused("$(x)=1", "KEY of [A-Za-z0-9_] parts");
	expect_refused("novalue", "KEY=TEXT");
	expect_refused("list.1.a=x", "an index that skips");
	expect_refused("kernel.0=x", "where a name goes");
}

static void test_stamp(void **state)
{
	char path[] = "/tmp/test_provenance.XXXXXX", err[512];
	char *pairs[] = { "role=step", "repetitions:=4" };
	struct tb_results r = { 0 };
	json_t *o;
	FILE *f;
	int fd;

	(void)state;
	fd = mkstemp(path);
	assert_true(fd >= 0);
	f = fdopen(fd, "w");
	fputs("{\"schema\": \"thpbench-results/1\", \"meta\": {\"suite\": \"s\"}, \"env\": {}, \"cases\": []}\n", f);
	fclose(f);
	o = provenance_from_pairs(pairs, 2, err, sizeof(err));
	assert_int_equal(provenance_stamp(path, "provenance", o, "qemu kvm guest", err, sizeof(err)), 0);
	json_decref(o);
	assert_int_equal(store_load(path, &r, err, sizeof(err)), 0);
	assert_string_equal(json_string_value(json_object_get(r.meta, "suite")), "s");
	assert_string_equal(json_string_value(json_object_get(r.meta, "timings")), "qemu kvm guest");
	assert_int_equal(json_integer_value(json_object_get(json_object_get(r.meta, "provenance"),
							    "repetitions")), 4);
	results_free(&r);

	assert_int_equal(provenance_stamp(path, "a.b", NULL, NULL, err, sizeof(err)), -1);
	f = fopen(path, "w");
	fputs("{\"meta\": 3}", f);
	fclose(f);
	assert_int_equal(provenance_stamp(path, "provenance", NULL, "x", err, sizeof(err)), -1);
	f = fopen(path, "r");
	assert_non_null(fgets(err, sizeof(err), f));
	fclose(f);
	assert_string_equal(err, "{\"meta\": 3}");
	unlink(path);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_pairs),
		cmocka_unit_test(test_arrays),
		cmocka_unit_test(test_pairs_refused),
		cmocka_unit_test(test_stamp),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
