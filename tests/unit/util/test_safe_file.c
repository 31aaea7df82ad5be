// SPDX-License-Identifier: GPL-2.0-only
/*
 * safe_file (issue 36 rows 3, 6 and 7): a FIFO, a directory or a link
 * (SF_NOFOLLOW) refused at once with a message naming the file; a file
 * created afresh and renamed, never written through a planted link; a
 * jansson message cut before the text it quotes from the input.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <errno.h>
#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "util/safe_file.h"
#include "util/util.h"

static char dir[64], path[128], link_path[128], target[128];

static int setup(void **state)
{
	(void)state;
	snprintf(dir, sizeof(dir), "/tmp/tb-safe-XXXXXX");
	assert_non_null(mkdtemp(dir));
	snprintf(path, sizeof(path), "%s/f", dir);
	snprintf(link_path, sizeof(link_path), "%s/l", dir);
	snprintf(target, sizeof(target), "%s/target", dir);
	return 0;
}

static int teardown(void **state)
{
	char cmd[128];

	(void)state;
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", dir);
	assert_int_equal(system(cmd), 0);
	return 0;
}

/* issue 36 row 6: a FIFO is refused at once (alarm: a blocking open
 * would kill the test), as a directory is. */
static void test_fifo_refused(void **state)
{
	char err[512] = "", buf[16];
	size_t len;

	(void)state;
	assert_int_equal(mkfifo(path, 0644), 0);
	alarm(5);
	assert_null(read_regular(path, 0, &len, err, sizeof(err)));
	assert_non_null(strstr(err, "is a FIFO, not a regular file"));
	assert_non_null(strstr(err, path));
	assert_int_equal(read_regular_str(path, 0, buf, sizeof(buf), err, sizeof(err)), -1);
	assert_null(read_whole_file(path, &len));
	alarm(0);
	assert_null(read_regular(dir, 0, &len, err, sizeof(err)));
	assert_non_null(strstr(err, "is a directory"));
}

static void test_link_refused_when_asked(void **state)
{
	char err[512] = "", buf[16];
	size_t len;
	char *t;
	FILE *f = fopen(target, "w");

	(void)state;
	assert_non_null(f);
	fputs("x\n", f);
	fclose(f);
	assert_int_equal(symlink(target, link_path), 0);
	t = read_regular(link_path, 0, &len, err, sizeof(err));
	assert_non_null(t);	/* a user's link to a results file is read */
	free(t);
	assert_int_equal(read_regular_str(link_path, SF_NOFOLLOW, buf, sizeof(buf),
					  err, sizeof(err)), -1);
	assert_non_null(strstr(err, "refusing to follow it"));
}

/* issue 36 row 3: PATH.tmp planted as a link: replaced, target untouched. */
static void test_replace_not_through_link(void **state)
{
	char err[512] = "", tmp[256], buf[16];
	FILE *f = fopen(target, "w");
	struct stat st;

	(void)state;
	assert_non_null(f);
	fputs("keep\n", f);
	fclose(f);
	snprintf(tmp, sizeof(tmp), "%s.tmp", path);
	assert_int_equal(symlink(target, tmp), 0);
	f = sf_replace_open(path, tmp, sizeof(tmp), err, sizeof(err));
	assert_non_null(f);
	fputs("new\n", f);
	assert_int_equal(sf_replace_close(f, tmp, path, err, sizeof(err)), 0);
	assert_int_equal(read_file_str(target, buf, sizeof(buf)), 0);
	assert_string_equal(buf, "keep");
	assert_int_equal(read_file_str(path, buf, sizeof(buf)), 0);
	assert_string_equal(buf, "new");
	assert_int_equal(lstat(tmp, &st), -1);
}

/* issue 36 row 7: jansson's text without the input's bytes. */
static void test_json_error_safe(void **state)
{
	const char *in[] = { "SECRET:x", "{\"a\": SECRET}", "[\"\\uD800SECRET\"]",
			     "{\"SECRET\x01\": 1}" };
	char buf[JSON_ERROR_TEXT_LENGTH];
	json_error_t je;
	size_t i;

	(void)state;
	for (i = 0; i < ARRAY_SIZE(in); i++) {
		assert_null(json_loads(in[i], 0, &je));
		json_error_safe(je.text, buf, sizeof(buf));
		if (strstr(buf, "SECRET") || strstr(buf, "D800") || !*buf)
			fail_msg("\"%s\" -> \"%s\"", je.text, buf);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_fifo_refused, setup, teardown),
		cmocka_unit_test_setup_teardown(test_link_refused_when_asked, setup, teardown),
		cmocka_unit_test_setup_teardown(test_replace_not_through_link, setup, teardown),
		cmocka_unit_test_setup_teardown(test_json_error_safe, setup, teardown),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
