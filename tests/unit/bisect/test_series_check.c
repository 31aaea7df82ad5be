// SPDX-License-Identifier: GPL-2.0-only
/*
 * The patch series checker (series_check.h) on hostile input: every
 * header patch(1) or git reads, checked outside the hunks and not inside
 * them; the names, types and size of a series directory; the paths it
 * prints, -p1 stripped, sorted and unique.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "bisect/series_check.h"
#include "util/util.h"

/* TEXT as one patch: 0 and the paths joined by ' ', or 1, *line, why. */
static int paths_of(const char *text, char *joined, size_t len, long *line,
		    char *why, size_t whylen)
{
	struct series_paths p = { 0 };
	FILE *f = fmemopen((void *)text, strlen(text), "r");
	size_t i, o = 0;
	int rc;

	assert_non_null(f);
	rc = series_patch_paths(f, &p, line, why, whylen);
	fclose(f);
	joined[0] = '\0';
	for (i = 0; i < p.n; i++)
		o += (size_t)snprintf(joined + o, len - o, "%s%s", i ? " " : "", p.v[i]);
	series_paths_free(&p);
	return rc;
}

static void assert_refused(const char *text, long want_line, const char *want)
{
	char joined[1024], why[512];
	long line = 0;

	assert_int_equal(paths_of(text, joined, sizeof(joined), &line, why, sizeof(why)), 1);
	assert_int_equal(line, want_line);
	if (!strstr(why, want))
		fail_msg("why '%s' lacks '%s'", why, want);
}

#define HEAD "From x\nSubject: s\n\ndiff --git a/mm/a.c b/mm/a.c\n--- a/mm/a.c\n+++ b/mm/a.c\n"

static void test_plain_patch(void **state)
{
	char joined[1024], why[256];
	long line;

	(void)state;
	assert_int_equal(paths_of(HEAD "@@ -1,2 +1,2 @@\n x\n-y\n+z\n-- \n2.39\n",
				  joined, sizeof(joined), &line, why, sizeof(why)), 0);
	assert_string_equal(joined, "mm/a.c mm/a.c mm/a.c mm/a.c");
}

static void test_headers_refused(void **state)
{
	(void)state;
	assert_refused(HEAD "--- /etc/passwd\n", 7, "absolute path /etc/passwd");
	assert_refused(HEAD "+++ b/../x\n", 7, "\"..\" component");
	assert_refused(HEAD "+++ b/x/./y\n", 7, "\".\" component");
	assert_refused(HEAD "+++ b/x//y\n", 7, "\"\" component");
	assert_refused(HEAD "--- \"a/q\"\n", 7, "quoted file name");
	assert_refused(HEAD "Index: a/x$y\n", 7, "no Linux source name has");
	assert_refused(HEAD "diff --git a/x b/y z\n", 7, "quoted name or a space");
	assert_refused(HEAD "rename from ../e\n", 7, "\"..\" component");
	assert_refused(HEAD "old mode 120000\n", 7, "120000 (a symlink)");
	assert_refused(HEAD "new file mode 160000\n", 7, "(a submodule)");
	assert_refused(HEAD "index 01ab..cd23 120000\n", 7, "a symlink");
	assert_refused(HEAD "***************\n", 7, "a context diff");
	assert_refused(HEAD "GIT binary patch\n", 7, "a binary patch");
	assert_refused(HEAD "+++ nothing\n", 7, "no a/ or b/ prefix");
}

/* A header line inside a hunk is the hunk's text; after it, a header. */
static void test_hunks_counted(void **state)
{
	char joined[1024], why[256];
	long line;

	(void)state;
	assert_int_equal(paths_of(HEAD "@@ -1,3 +1,3 @@\n x\n--- /etc/passwd\n++++ b/../x\n y\n",
				  joined, sizeof(joined), &line, why, sizeof(why)), 0);
	/* a short hunk: the next line is read as a header, as patch(1) does */
	assert_refused(HEAD "@@ -1,3 +1,3 @@\n x\nIndex: /etc/passwd\n", 9, "absolute path");
	/* a hunk that is done: a "--- " line is a header again */
	assert_refused(HEAD "@@ -1 +1 @@\n-a\n+b\n--- /abs\n", 10, "absolute path");
}

/* What is not printable in the input is '?' in the reason. */
static void test_reason_printable(void **state)
{
	char joined[256], why[256];
	long line;
	const char text[] = "--- a/x\033[2J\n";

	(void)state;
	assert_int_equal(paths_of(text, joined, sizeof(joined), &line, why, sizeof(why)), 1);
	assert_null(strchr(why, '\033'));
	assert_non_null(strstr(why, "a/x?[2J"));
}

static void test_quote_name(void **state)
{
	char buf[64];

	(void)state;
	series_quote_name("x\n*.patch", buf, sizeof(buf));
	assert_string_equal(buf, "$'x\\n*.patch'");
	series_quote_name("a*b.patch", buf, sizeof(buf));
	assert_string_equal(buf, "a\\*b.patch");
	series_quote_name("e\033.patch", buf, sizeof(buf));
	assert_string_equal(buf, "$'e\\E.patch'");
}

static char dir[64];

static void put(const char *name, const char *text)
{
	char path[256];
	FILE *f;

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	f = fopen(path, "w");
	assert_non_null(f);
	fputs(text, f);
	fclose(f);
}

static int setup_dir(void **state)
{
	(void)state;
	snprintf(dir, sizeof(dir), "/tmp/test_series_check.XXXXXX");
	return mkdtemp(dir) ? 0 : -1;
}

static int teardown_dir(void **state)
{
	char cmd[128];

	(void)state;
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", dir);
	return system(cmd) ? -1 : 0;
}

static void test_dir(void **state)
{
	struct series_limits lim = { 500, 64 };
	struct series_paths out = { 0 };
	char err[512], path[256];

	(void)state;
	put("0002-b.patch", "--- a/mm/b.c\n+++ b/mm/b.c\n");
	put("0001-a b.patch", HEAD);
	put("notes.txt", "--- /etc/passwd\n");
	assert_int_equal(series_check_dir(dir, &lim, &out, err, sizeof(err)), 0);
	assert_int_equal(out.n, 2);
	assert_string_equal(out.v[0], "mm/a.c");
	assert_string_equal(out.v[1], "mm/b.c");
	series_paths_free(&out);

	lim.max_patches = 1;
	assert_int_equal(series_check_dir(dir, &lim, &out, err, sizeof(err)), -1);
	assert_non_null(strstr(err, "holds 2 patches, more than the limit of 1"));
	lim.max_patches = 500;

	put("0003-c.patch", HEAD "@@ -1 +1 @@\n-a\n+b\nrename to ../../x\n");
	assert_int_equal(series_check_dir(dir, &lim, &out, err, sizeof(err)), -1);
	assert_non_null(strstr(err, "refusing the series: 0003-c.patch:10: "));
	assert_int_equal(out.n, 0);
	snprintf(path, sizeof(path), "%s/0003-c.patch", dir);
	unlink(path);

	assert_int_equal(symlink("/etc/passwd", (snprintf(path, sizeof(path), "%s/0004-l.patch", dir), path)), 0);
	assert_int_equal(series_check_dir(dir, &lim, &out, err, sizeof(err)), -1);
	assert_non_null(strstr(err, "not a regular file"));
	unlink(path);

	put("0005-x\n.patch", HEAD);
	assert_int_equal(series_check_dir(dir, &lim, &out, err, sizeof(err)), -1);
	assert_non_null(strstr(err, "refusing patch file name $'0005-x\\n.patch'"));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_plain_patch),
		cmocka_unit_test(test_headers_refused),
		cmocka_unit_test(test_hunks_counted),
		cmocka_unit_test(test_reason_printable),
		cmocka_unit_test(test_quote_name),
		cmocka_unit_test_setup_teardown(test_dir, setup_dir, teardown_dir),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
