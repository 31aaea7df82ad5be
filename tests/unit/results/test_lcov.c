// SPDX-License-Identifier: GPL-2.0-only
/* lcov tracefiles read, merged, tagged and written back (results/lcov.h). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "../fake_tree.h"
#include "results/lcov.h"

FAKE_DIR_GROUP("lcov")

/* geninfo writes a header once per object that includes it: the records merge. */
static void test_read_merges_and_strips(void **state)
{
	struct lcov lc = { 0 };
	const struct lcov_file *f;
	char err[256];
	size_t n, h, fn, fh;

	(void)state;
	assert_int_equal(lcov_read(put("a.info",
		"TN:\nSF:/src/tree/mm/huge_memory.c\nFN:10,do_huge\nFNDA:3,do_huge\n"
		"FN:20,never\nFNDA:0,never\nDA:11,3\nDA:12,0\nDA:21,0\nLF:3\nLH:1\nend_of_record\n"
		"SF:/src/tree/include/linux/mm.h\nDA:5,1\nend_of_record\n"
		"SF:/src/tree/mm/huge_memory.c\nFNDA:2,do_huge\nDA:12,4\nDA:11,1\nend_of_record\n"),
		"/src/tree", &lc, err, sizeof(err)), 0);
	assert_int_equal(lc.nfiles, 2);
	f = lcov_find(&lc, "mm/huge_memory.c");
	assert_non_null(f);
	assert_non_null(lcov_find(&lc, "include/linux/mm.h"));
	assert_null(lcov_find(&lc, "/src/tree/mm/huge_memory.c"));
	assert_int_equal(lcov_line_find(f, 11)->count, 4);
	assert_int_equal(lcov_line_find(f, 12)->count, 4);
	assert_int_equal(lcov_line_find(f, 21)->count, 0);
	assert_null(lcov_line_find(f, 13));
	lcov_file_totals(f, &n, &h, &fn, &fh);
	assert_int_equal(n, 3);
	assert_int_equal(h, 2);
	assert_int_equal(fn, 2);
	assert_int_equal(fh, 1);
	lcov_free(&lc);
}

/* first: the earliest tag that ran a line, whatever order counts come in. */
static void test_tags_mark_first_run(void **state)
{
	struct lcov base = { 0 }, a = { 0 }, b = { 0 };
	const struct lcov_file *f;
	char err[256];

	(void)state;
	assert_int_equal(lcov_read(put("base.info", "SF:x.c\nDA:1,0\nDA:2,0\nDA:3,0\nend_of_record\n"),
				   NULL, &base, err, sizeof(err)), 0);
	assert_int_equal(lcov_read(put("3.info", "SF:x.c\nDA:1,5\nDA:2,0\nend_of_record\n"),
				   NULL, &a, err, sizeof(err)), 0);
	assert_int_equal(lcov_read(put("5.info", "SF:x.c\nDA:1,1\nDA:2,7\nend_of_record\n"),
				   NULL, &b, err, sizeof(err)), 0);
	lcov_add_tagged(&base, &a, 3);
	lcov_add_tagged(&base, &b, 5);
	f = lcov_find(&base, "x.c");
	assert_int_equal(f->nlines, 3);
	assert_int_equal(lcov_line_find(f, 1)->first, 3);
	assert_int_equal(lcov_line_find(f, 1)->count, 6);
	assert_int_equal(lcov_line_find(f, 2)->first, 5);
	assert_int_equal(lcov_line_find(f, 3)->first, -1);
	lcov_free(&base);
	lcov_free(&a);
	lcov_free(&b);
}

static void expect_bad(const char *text, const char *what)
{
	struct lcov lc = { 0 };
	char err[256] = "";

	assert_int_equal(lcov_read(put("bad.info", text), NULL, &lc, err, sizeof(err)), -1);
	if (!strstr(err, what))
		fail_msg("\"%s\" lacks \"%s\"", err, what);
	lcov_free(&lc);
}

static void test_hostile_input_refused(void **state)
{
	(void)state;
	expect_bad("DA:1,1\n", "bad.info:1: a record line outside");
	expect_bad("SF:x.c\nDA:one,1\nend_of_record\n", "bad.info:2: DA:");
	expect_bad("SF:x.c\nDA:1,99999999999999999999999\nend_of_record\n", "DA:");
	expect_bad("SF:x.c\nDA:1,1\n", "no end_of_record");
	expect_bad("SF:x.c\nSF:y.c\n", "SF: inside a record");
	expect_bad("SF:x\001.c\nend_of_record\n", "control character");
	expect_bad("SF:x.c\nFN:1\nend_of_record\n", "FN:");
}

/* What the writer writes, the reader reads back the same (genhtml's input). */
static void test_write_round_trip(void **state)
{
	struct lcov a = { 0 }, b = { 0 };
	const struct lcov_file *f;
	char err[256], path[128];
	FILE *out;

	(void)state;
	assert_int_equal(lcov_read(put("w.info",
		"SF:/t/mm/b.c\nFN:3,g\nFNDA:1,g\nDA:4,1\nDA:5,0\nend_of_record\n"
		"SF:/abs/elsewhere.h\nDA:1,2\nend_of_record\n"), "/t", &a, err, sizeof(err)), 0);
	snprintf(path, sizeof(path), "%s/out.info", dir);
	out = fopen(path, "w");
	assert_non_null(out);
	assert_int_equal(lcov_write(&a, out, "/snap/src"), 0);
	fclose(out);
	assert_int_equal(lcov_read(path, "/snap/src", &b, err, sizeof(err)), 0);
	f = lcov_find(&b, "mm/b.c");
	assert_non_null(f);
	assert_int_equal(lcov_line_find(f, 4)->count, 1);
	assert_int_equal(lcov_line_find(f, 5)->count, 0);
	assert_int_equal(f->nfns, 1);
	assert_int_equal(f->fns[0].line, 3);
	assert_non_null(lcov_find(&b, "/abs/elsewhere.h"));
	lcov_free(&a);
	lcov_free(&b);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_read_merges_and_strips),
		cmocka_unit_test(test_tags_mark_first_run),
		cmocka_unit_test(test_hostile_input_refused),
		cmocka_unit_test(test_write_round_trip),
	};

	return cmocka_run_group_tests(tests, setup, teardown);
}
