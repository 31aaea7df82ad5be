// SPDX-License-Identifier: GPL-2.0-only
/*
 * Patch coverage (compare/compare_pcov.h) on a series' hunks
 * (results/patch_hunks.h) against a tracefile, and the per-file table
 * (compare/compare_kcov.h).
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../fake_tree.h"
#include "compare/compare_kcov.h"
#include "compare/compare_pcov.h"
#include "results/lcov.h"
#include "results/patch_hunks.h"

FAKE_DIR_GROUP("kcov")

/* Patch 1 adds lines 11-13 of mm/a.c (11 code, 12 a comment, 13 code)
 * and, in a second hunk, only removes two lines before line 30. */
static const char *const p1 =
	"From x\nSubject: [PATCH 1/2] one\n\n---\n mm/a.c | 3 +++\n\n"
	"diff --git a/mm/a.c b/mm/a.c\n--- a/mm/a.c\n+++ b/mm/a.c\n"
	"@@ -10,2 +10,5 @@ f\n ctx10\n+add11\n+/* add12 */\n+add13\n ctx14\n"
	"@@ -29,6 +32,4 @@ g\n ctx32\n--- removed: starts like a header\n-removed2\n ctx33\n ctx34\n ctx35\n"
	"-- \n2.39.0\n";
/* Patch 2 inserts two lines at the top of mm/a.c (all of patch 1 moves
 * down 2) and touches fs/none.c, which the kernel does not profile. */
static const char *const p2 =
	"diff --git a/mm/a.c b/mm/a.c\n--- a/mm/a.c\n+++ b/mm/a.c\n"
	"@@ -1,1 +1,3 @@\n top\n+ins2\n+ins3\n"
	"diff --git a/fs/none.c b/fs/none.c\n--- a/fs/none.c\n+++ b/fs/none.c\n"
	"@@ -1,0 +1,1 @@\n+new\n";

static void read_series(struct patch_set *ps)
{
	char err[256], sdir[64];

	snprintf(sdir, sizeof(sdir), "%s/series", dir);
	put("series/0001-one.patch", p1);
	put("series/0002-two.patch", p2);
	put("series/notes.txt", "not a patch");
	assert_int_equal(patch_hunks_read_dir(sdir, ps, err, sizeof(err)), 0);
}

static void test_hunks_settled_into_built_tree(void **state)
{
	struct patch_set ps = { 0 };

	(void)state;
	read_series(&ps);
	assert_int_equal(ps.nnames, 2);
	assert_int_equal(ps.n, 4);
	/* patch 1, hunk 1: 11-13 in its tree, 13-15 after patch 2. */
	assert_string_equal(ps.h[0].file, "mm/a.c");
	assert_int_equal(ps.h[0].nadded, 3);
	assert_int_equal(ps.h[0].added[0], 13);
	assert_int_equal(ps.h[0].added[2], 15);
	/* hunk 2 removes 2 lines ("--- removed" is text inside a hunk). */
	assert_int_equal(ps.h[1].removed, 2);
	assert_int_equal(ps.h[1].nadded, 0);
	assert_int_equal(ps.h[1].anchor, 35);
	assert_string_equal(ps.h[3].file, "fs/none.c");
	patch_hunks_free(&ps);
}

/* A later patch that rewrites a line an earlier one added owns it. */
static void test_later_patch_drops_line(void **state)
{
	struct patch_set ps = { 0 };
	char err[256], sdir[64];

	(void)state;
	snprintf(sdir, sizeof(sdir), "%s/s2", dir);
	put("s2/1.patch", "+++ b/x.c\n@@ -1,1 +1,2 @@\n a\n+b\n");
	put("s2/2.patch", "+++ b/x.c\n@@ -1,2 +1,2 @@\n a\n-b\n+c\n");
	assert_int_equal(patch_hunks_read_dir(sdir, &ps, err, sizeof(err)), 0);
	assert_int_equal(ps.h[0].added[0], 0);
	assert_int_equal(ps.h[1].added[0], 2);
	patch_hunks_free(&ps);
}

static void test_hostile_patch_refused(void **state)
{
	struct patch_set ps = { 0 };
	char err[256];

	(void)state;
	assert_int_equal(patch_hunks_read(put("bad1.patch", "+++ b/x.c\n@@ -1,2 +1,1 @@\n a\n+b\n"),
					  &ps, err, sizeof(err)), -1);
	assert_non_null(strstr(err, "bad1.patch:4"));
	patch_hunks_free(&ps);
	assert_int_equal(patch_hunks_read(put("bad2.patch", "+++ b/x.c\n@@ -1,1 +1,99999999999 @@\n"),
					  &ps, err, sizeof(err)), -1);
	assert_non_null(strstr(err, "malformed @@"));
	patch_hunks_free(&ps);
	assert_int_equal(patch_hunks_read(put("bad3.patch", "+++ b/x.c\n@@ -1,3 +1,3 @@\n a\n"),
					  &ps, err, sizeof(err)), -1);
	assert_non_null(strstr(err, "ends inside a hunk"));
	patch_hunks_free(&ps);
}

/* The tree after the series: 13 and 15 are code (13 ran, 15 did not), 14
 * is a comment; the removal's anchor 35 is a blank, 36 the code after it
 * (ran). fs/none.c is not in the tracefile. */
static const char *const trace =
	"SF:/t/mm/a.c\nDA:1,1\nDA:13,4\nDA:15,0\nDA:36,2\nDA:40,0\nend_of_record\n";

static void test_patch_coverage(void **state)
{
	struct patch_set ps = { 0 };
	struct lcov lc = { 0 };
	struct compare_pcov pc;
	char err[256], *buf = NULL;
	size_t len = 0;
	FILE *f;

	(void)state;
	read_series(&ps);
	assert_int_equal(lcov_read(put("t.info", trace), "/t", &lc, err, sizeof(err)), 0);
	compare_pcov_build(&pc, &ps, &lc);
	assert_int_equal(pc.v[0].state, COMPARE_PCOV_CODE);
	assert_int_equal(pc.v[0].nlines, 2);
	assert_int_equal(pc.v[0].nmissed, 1);
	assert_int_equal(pc.v[0].missed[0], 15);
	assert_true(pc.v[1].after_removal);
	assert_int_equal(pc.v[1].lines[0], 36);
	assert_int_equal(pc.v[1].nmissed, 0);
	/* patch 2's own lines 2-3 are not executable: no code. */
	assert_int_equal(pc.v[2].state, COMPARE_PCOV_NO_CODE);
	assert_int_equal(pc.v[3].state, COMPARE_PCOV_NOT_BUILT);
	assert_int_equal(pc.total, 3);
	assert_int_equal(pc.ran, 2);
	f = open_memstream(&buf, &len);
	compare_pcov_summary(f, &pc, 72);
	fclose(f);
	assert_string_equal(buf, "the suite ran 2 of 3 changed lines; not run: mm/a.c:15\n");
	free(buf);
	compare_pcov_free(&pc);
	lcov_free(&lc);
	patch_hunks_free(&ps);
}

/* Many ranges not run: the sentence wraps at 72 and stops listing at 8. */
static void test_summary_wraps(void **state)
{
	struct patch_set ps = { 0 };
	struct lcov lc = { 0 };
	struct compare_pcov pc;
	char err[256], *buf = NULL, *line, *save;
	char patch[4096] = "+++ b/mm/very/long/path/name/memory_tiering.c\n@@ -1,0 +1,40 @@\n";
	char tr[4096] = "SF:mm/very/long/path/name/memory_tiering.c\n";
	size_t len = 0, i, nlines = 0;
	FILE *f;

	(void)state;
	for (i = 1; i <= 40; i++) {
		strcat(patch, "+x\n");
		if (i % 2)
			snprintf(tr + strlen(tr), sizeof(tr) - strlen(tr), "DA:%zu,0\n", i);
	}
	strcat(tr, "end_of_record\n");
	assert_int_equal(patch_hunks_read(put("w.patch", patch), &ps, err, sizeof(err)), 0);
	assert_int_equal(lcov_read(put("w.info", tr), NULL, &lc, err, sizeof(err)), 0);
	compare_pcov_build(&pc, &ps, &lc);
	assert_int_equal(pc.total, 20);
	assert_int_equal(pc.ran, 0);
	f = open_memstream(&buf, &len);
	compare_pcov_summary(f, &pc, 72);
	fclose(f);
	assert_non_null(strstr(buf, "and 12 more"));
	for (line = strtok_r(buf, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
		assert_true(strlen(line) <= 72);
		nlines++;
	}
	assert_true(nlines > 1);
	free(buf);
	compare_pcov_free(&pc);
	lcov_free(&lc);
	patch_hunks_free(&ps);
}

static void test_ranges(void **state)
{
	const unsigned int v[] = { 3, 4, 5, 9, 11, 12 };
	char buf[64];

	(void)state;
	compare_kcov_ranges(v, 6, buf, sizeof(buf));
	assert_string_equal(buf, "3-5, 9, 11-12");
	compare_kcov_ranges(v, 6, buf, 8);
	assert_string_equal(buf, "3-5, 9");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_hunks_settled_into_built_tree),
		cmocka_unit_test(test_later_patch_drops_line),
		cmocka_unit_test(test_hostile_patch_refused),
		cmocka_unit_test(test_patch_coverage),
		cmocka_unit_test(test_summary_wraps),
		cmocka_unit_test(test_ranges),
	};

	return cmocka_run_group_tests(tests, setup, teardown);
}
