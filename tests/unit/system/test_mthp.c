// SPDX-License-Identifier: GPL-2.0-only
/*
 * mthp: sizes read from a fake mm sysfs tree (a temp directory, never
 * /sys), size and choice syntax, and which knobs a choice writes.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "system/mthp.h"
#include "../fake_tree.h"
#include "util/util.h"

static char g_root[64];

/* A knob file: its text and a newline, as sysfs shows it. */
static void put(const char *rel, const char *text)
{
	char line[256];

	snprintf(line, sizeof(line), "%s\n", text);
	assert_int_equal(fake_put(g_root, rel, line), 0);
}

/* 6.18's shapes: 8kB for shmem only, 1 GiB-free, 2048kB inheriting. */
static int setup(void **state)
{
	(void)state;
	snprintf(g_root, sizeof(g_root), "/tmp/thpbench-mthp-XXXXXX");
	assert_non_null(mkdtemp(g_root));
	put("transparent_hugepage/enabled", "always [madvise] never");
	put("transparent_hugepage/hugepages-8kB/shmem_enabled",
	    "always inherit within_size advise [never]");
	put("transparent_hugepage/hugepages-2048kB/enabled",
	    "always [inherit] madvise never");
	put("transparent_hugepage/hugepages-2048kB/shmem_enabled",
	    "always [inherit] within_size advise never");
	put("transparent_hugepage/hugepages-64kB/enabled",
	    "always inherit madvise [never]");
	put("transparent_hugepage/hugepages-64kB/shmem_enabled",
	    "always inherit within_size advise [never]");
	put("transparent_hugepage/hugepages-16kB/enabled",
	    "always inherit madvise [never]");
	put("transparent_hugepage/hugepages-notasize/enabled", "x");
	return 0;
}

static int teardown(void **state)
{
	char cmd[128];

	(void)state;
	snprintf(cmd, sizeof(cmd), "rm -rf %s", g_root);
	return system(cmd);
}

static void test_sizes_from_tree(void **state)
{
	struct mthp_size s[MTHP_MAX_SIZES];
	size_t n = mthp_list_sizes(g_root, s, MTHP_MAX_SIZES);

	(void)state;
	assert_int_equal(n, 4);
	assert_int_equal(s[0].kb, 8);
	assert_false(s[0].anon);
	assert_true(s[0].shmem);
	assert_int_equal(s[1].kb, 16);
	assert_true(s[1].anon);
	assert_false(s[1].shmem);
	assert_int_equal(s[2].kb, 64);
	assert_int_equal(s[3].kb, 2048);
	assert_true(s[3].anon && s[3].shmem);
	assert_int_equal(mthp_list_sizes("/nonexistent", s, MTHP_MAX_SIZES), 0);
}

static void test_size_syntax(void **state)
{
	static const struct {
		const char *text;
		long kb;	/* -1: refused */
	} cases[] = {
		{ "64K", 64 }, { "64k", 64 }, { "64kB", 64 }, { "2M", 2048 },
		{ "2048kB", 2048 }, { "65536", 64 }, { "1G", 1048576 },
		{ "8K", 8 }, { "4K", -1 }, { "48K", -1 }, { "2G", -1 },
		{ "", -1 }, { "64Q", -1 }, { "-64K", -1 }, { "1000", -1 },
	};
	unsigned long kb;
	size_t i;

	(void)state;
	for (i = 0; i < ARRAY_SIZE(cases); i++) {
		int rc = mthp_parse_size(cases[i].text, &kb);

		if (cases[i].kb < 0) {
			if (!rc)
				fail_msg("\"%s\" was accepted as %lu kB", cases[i].text, kb);
			continue;
		}
		if (rc || kb != (unsigned long)cases[i].kb)
			fail_msg("\"%s\": rc %d, %lu kB, wanted %ld", cases[i].text, rc,
				 kb, cases[i].kb);
	}
}

static void test_names_and_orders(void **state)
{
	char buf[128];

	(void)state;
	mthp_size_name(64, buf, sizeof(buf));
	assert_string_equal(buf, "64K");
	mthp_size_name(2048, buf, sizeof(buf));
	assert_string_equal(buf, "2M");
	mthp_size_name(1048576, buf, sizeof(buf));
	assert_string_equal(buf, "1G");
	mthp_knob_name(64, "enabled", buf, sizeof(buf));
	assert_string_equal(buf, "transparent_hugepage/hugepages-64kB/enabled");
	assert_int_equal(mthp_order(8), 1);
	assert_int_equal(mthp_order(64), 4);
	assert_int_equal(mthp_order(2048), 9);
	assert_true(mthp_mode_ok("inherit"));
	assert_false(mthp_mode_ok("within_size"));
	assert_true(mthp_shmem_mode_ok("within_size"));
	assert_false(mthp_shmem_mode_ok("madvise"));
}

static void test_choices(void **state)
{
	struct mthp_choice *c;
	char err[256];
	size_t n;

	(void)state;
	assert_int_equal(mthp_parse_choices("16K, 64K+16K,2048kB=inherit", &c, &n,
					    err, sizeof(err)), 0);
	assert_int_equal(n, 3);
	assert_string_equal(c[0].name, "16K");
	assert_string_equal(c[1].name, "16K+64K");
	assert_int_equal(c[1].n, 2);
	assert_int_equal(c[1].kb[0], 16);
	assert_string_equal(c[2].name, "2M=inherit");
	assert_string_equal(c[2].mode, "inherit");
	free(c);
}

static void test_choice_errors(void **state)
{
	static const struct {
		const char *list, *why;
	} bad[] = {
		{ "64K,64K", "listed twice" },
		{ "64K+64k", "named twice" },
		{ "64K,", "empty mTHP choice" },
		{ "", "empty mTHP choice" },
		{ "48K", "not an mTHP size" },
		{ "64K=sometimes", "not an mTHP mode" },
		{ "64K=within_size", "not an mTHP mode" },
	};
	struct mthp_choice *c = (void *)1;
	char err[256];
	size_t i, n = 7;

	(void)state;
	for (i = 0; i < ARRAY_SIZE(bad); i++) {
		err[0] = '\0';
		assert_int_equal(mthp_parse_choices(bad[i].list, &c, &n, err,
						    sizeof(err)), -1);
		assert_null(c);
		assert_int_equal(n, 0);
		if (!strstr(err, bad[i].why))
			fail_msg("\"%s\": error \"%s\" lacks \"%s\"", bad[i].list, err,
				 bad[i].why);
	}
}

struct written {
	char knob[16][128];
	char value[16][32];
	size_t n;
};

static void record(const char *knob, const char *value, void *arg)
{
	struct written *w = arg;

	assert_true(w->n < 16);
	snprintf(w->knob[w->n], sizeof(w->knob[0]), "%s", knob);
	snprintf(w->value[w->n++], sizeof(w->value[0]), "%s", value);
}

static const char *value_of(const struct written *w, const char *knob)
{
	size_t i;

	for (i = 0; i < w->n; i++)
		if (!strcmp(w->knob[i], knob))
			return w->value[i];
	return NULL;
}

#define H(kb, f) "transparent_hugepage/hugepages-" #kb "kB/" f

static void test_choice_knobs(void **state)
{
	struct mthp_size s[MTHP_MAX_SIZES];
	size_t n = mthp_list_sizes(g_root, s, MTHP_MAX_SIZES);
	struct mthp_choice *c;
	struct written w = { .n = 0 };
	char err[256], why[256];
	size_t nc;

	(void)state;
	assert_int_equal(mthp_parse_choices("64K,16K+2M=madvise,8K,1M", &c, &nc,
					    err, sizeof(err)), 0);
	/* 64K under always: 64K always, every other anon size never; shmem
	 * left alone without a shmem mode. */
	assert_int_equal(mthp_choice_knobs(&c[0], "always", NULL, s, n, record, &w,
					   why, sizeof(why)), 0);
	assert_int_equal(w.n, 3);
	assert_string_equal(value_of(&w, H(64, "enabled")), "always");
	assert_string_equal(value_of(&w, H(16, "enabled")), "never");
	assert_string_equal(value_of(&w, H(2048, "enabled")), "never");
	assert_null(value_of(&w, H(8, "shmem_enabled")));
	/* The choice's own mode wins over the THP mode; shmem too. */
	w.n = 0;
	assert_int_equal(mthp_choice_knobs(&c[1], "never", "within_size", s, n,
					   record, &w, why, sizeof(why)), -1);
	assert_non_null(strstr(why, "no shmem THP"));	/* 16K has no shmem_enabled */
	w.n = 0;
	assert_int_equal(mthp_choice_knobs(&c[1], "never", NULL, s, n, record, &w,
					   why, sizeof(why)), 0);
	assert_string_equal(value_of(&w, H(16, "enabled")), "madvise");
	assert_string_equal(value_of(&w, H(2048, "enabled")), "madvise");
	assert_string_equal(value_of(&w, H(64, "enabled")), "never");
	w.n = 0;
	assert_int_equal(mthp_choice_knobs(&c[0], "always", "advise", s, n, record,
					   &w, why, sizeof(why)), 0);
	assert_string_equal(value_of(&w, H(64, "shmem_enabled")), "advise");
	assert_string_equal(value_of(&w, H(8, "shmem_enabled")), "never");
	assert_string_equal(value_of(&w, H(2048, "shmem_enabled")), "never");
	/* 8K is shmem only here; 1M is not offered at all. */
	assert_int_equal(mthp_choice_knobs(&c[2], "always", NULL, s, n, record, &w,
					   why, sizeof(why)), -1);
	assert_non_null(strstr(why, "only to shmem"));
	assert_int_equal(mthp_choice_knobs(&c[3], "always", NULL, s, n, record, &w,
					   why, sizeof(why)), -1);
	assert_non_null(strstr(why, "no 1M mTHP size"));
	free(c);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_sizes_from_tree),
		cmocka_unit_test(test_size_syntax),
		cmocka_unit_test(test_names_and_orders),
		cmocka_unit_test(test_choices),
		cmocka_unit_test(test_choice_errors),
		cmocka_unit_test(test_choice_knobs),
	};

	return cmocka_run_group_tests(tests, setup, teardown);
}
