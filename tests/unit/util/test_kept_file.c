// SPDX-License-Identifier: GPL-2.0-only
/* kept_file.h: a read gives what open + read would, now; a proc file kept
 * open still reads afresh; a file elsewhere is never kept, so one
 * replaced between reads reads new. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <unistd.h>

#include "util/kept_file.h"

static char dir[] = "/tmp/test_kept_file.XXXXXX";

static void put(const char *path, const char *text)
{
	FILE *f = fopen(path, "w");

	assert_non_null(f);
	fputs(text, f);
	fclose(f);
}

static int setup(void **state)
{
	(void)state;
	return mkdtemp(dir) ? 0 : -1;
}

static int teardown(void **state)
{
	char cmd[128];

	(void)state;
	kept_close_all();
	snprintf(cmd, sizeof(cmd), "rm -rf %s", dir);
	return system(cmd);
}

static void test_reads_whole_text(void **state)
{
	char path[128], buf[64];

	(void)state;
	snprintf(path, sizeof(path), "%s/a", dir);
	put(path, "always [madvise] never\n");
	assert_int_equal(kept_read(path, buf, sizeof(buf)), 23);
	assert_string_equal(buf, "always [madvise] never\n");
	/* Cut at len - 1, NUL-terminated. */
	assert_int_equal(kept_read(path, buf, 7), 6);
	assert_string_equal(buf, "always");
}

static void test_replaced_file_reads_new(void **state)
{
	char path[128], tmp[128], buf[64];

	(void)state;
	snprintf(path, sizeof(path), "%s/b", dir);
	snprintf(tmp, sizeof(tmp), "%s/b.new", dir);
	put(path, "1\n");
	assert_true(kept_read(path, buf, sizeof(buf)) > 0);
	assert_string_equal(buf, "1\n");
	put(tmp, "22\n");
	assert_int_equal(rename(tmp, path), 0);
	assert_int_equal(kept_read(path, buf, sizeof(buf)), 3);
	assert_string_equal(buf, "22\n");
	unlink(path);
	assert_int_equal(kept_read(path, buf, sizeof(buf)), -1);
	assert_int_equal(errno, ENOENT);
}

static void test_proc_file_reads_afresh(void **state)
{
	char buf[64];

	(void)state;
	assert_int_equal(prctl(PR_SET_NAME, "kept-one", 0, 0, 0), 0);
	assert_true(kept_read("/proc/self/comm", buf, sizeof(buf)) > 0);
	assert_string_equal(buf, "kept-one\n");
	assert_int_equal(prctl(PR_SET_NAME, "kept-two", 0, 0, 0), 0);
	assert_true(kept_read("/proc/self/comm", buf, sizeof(buf)) > 0);
	assert_string_equal(buf, "kept-two\n");
}

static void test_read_all_grows(void **state)
{
	char path[128], *big = malloc(20001), *buf = NULL;
	size_t cap = 0;

	(void)state;
	assert_non_null(big);
	memset(big, 'x', 20000);
	big[20000] = '\0';
	snprintf(path, sizeof(path), "%s/big", dir);
	put(path, big);
	assert_int_equal(kept_read_all(path, &buf, &cap), 20000);
	assert_true(cap > 20000);
	assert_string_equal(buf, big);
	/* /proc/self/maps of a process is longer than one page read often. */
	assert_true(kept_read_all("/proc/self/maps", &buf, &cap) > 0);
	assert_non_null(strstr(buf, "test_kept_file"));
	free(big);
	free(buf);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_reads_whole_text),
		cmocka_unit_test(test_replaced_file_reads_new),
		cmocka_unit_test(test_proc_file_reads_afresh),
		cmocka_unit_test(test_read_all_grows),
	};

	return cmocka_run_group_tests(tests, setup, teardown);
}
