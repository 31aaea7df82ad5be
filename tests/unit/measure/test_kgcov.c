// SPDX-License-Identifier: GPL-2.0-only
/* The kernel's gcov data copied per repetition (measure/kgcov.h), on a fake tree. */
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

#include "../fake_tree.h"
#include "measure/kgcov.h"
#include "util/util.h"

struct fx {
	char root[64];		/* the fake /sys/kernel/debug/gcov */
	char dest[64];
	char outside[64];	/* a file a symlink in the tree points at */
};

static int setup(void **state)
{
	struct fx *fx = calloc(1, sizeof(*fx));
	char top[] = "/tmp/kgcov.XXXXXX";

	if (!fx || !mkdtemp(top))
		return -1;
	snprintf(fx->root, sizeof(fx->root), "%s/gcov", top);
	snprintf(fx->dest, sizeof(fx->dest), "%s/out", top);
	snprintf(fx->outside, sizeof(fx->outside), "%s/secret.gcda", top);
	if (fake_put(fx->root, "reset", "") ||
	    fake_put(fx->root, "work/obj/mm/huge_memory.gcda", "zero-huge") ||
	    fake_put(fx->root, "work/obj/mm/memory.gcda", "zero-memory") ||
	    fake_put(fx->root, "work/obj/mm/notes.txt", "not gcov data") ||
	    fake_put(top, "secret.gcda", "outside the tree"))
		return -1;
	{
		char l1[128], l2[128];

		snprintf(l1, sizeof(l1), "%s/work/obj/mm/huge_memory.gcno", fx->root);
		snprintf(l2, sizeof(l2), "%s/work/obj/mm/link.gcda", fx->root);
		if (symlink("/nonexistent/huge_memory.gcno", l1) ||
		    symlink(fx->outside, l2))
			return -1;
	}
	*state = fx;
	return 0;
}

static int teardown(void **state)
{
	struct fx *fx = *state;
	char top[64];

	snprintf(top, sizeof(top), "%s", fx->root);
	*strrchr(top, '/') = '\0';
	fake_rm_tree(top);
	free(fx);
	return 0;
}

static char *slurp(const char *dir, const char *rel, size_t *len)
{
	char path[256];

	snprintf(path, sizeof(path), "%s/%s", dir, rel);
	return read_whole_file(path, len);
}

/* The zero images are taken at open; then both files change. */
static void open_and_move(struct fx *fx, struct kgcov *k)
{
	char err[512];

	assert_int_equal(kgcov_open(k, fx->root, err, sizeof(err)), 0);
	assert_int_equal(k->nfiles, 2);
	assert_int_equal(fake_put(fx->root, "work/obj/mm/huge_memory.gcda", "gcda-huge\001\002"), 0);
	assert_int_equal(fake_put(fx->root, "work/obj/mm/memory.gcda", "gcda-memory"), 0);
}

/* Every regular .gcda, its bytes exact and its path under the root kept. */
static void test_collect_copies_gcda(void **state)
{
	struct fx *fx = *state;
	struct kgcov k;
	char err[512];
	size_t n = 0, same = 9, len;
	char *s;

	open_and_move(fx, &k);
	assert_int_equal(kgcov_collect(&k, fx->dest, &n, &same, err, sizeof(err)), 0);
	assert_int_equal(n, 2);
	assert_int_equal(same, 0);
	s = slurp(fx->dest, "work/obj/mm/huge_memory.gcda", &len);
	assert_non_null(s);
	assert_int_equal(len, 11);
	assert_memory_equal(s, "gcda-huge\001\002", 11);
	free(s);
	s = slurp(fx->dest, "work/obj/mm/memory.gcda", &len);
	assert_non_null(s);
	assert_string_equal(s, "gcda-memory");
	free(s);
	kgcov_free(&k);
}

/* Symlinks (the .gcno ones, or a planted .gcda) and other files are not copied. */
static void test_collect_skips_links_and_others(void **state)
{
	struct fx *fx = *state;
	struct kgcov k;
	char err[512], path[256];
	size_t n = 0;

	open_and_move(fx, &k);
	assert_int_equal(kgcov_collect(&k, fx->dest, &n, NULL, err, sizeof(err)), 0);
	kgcov_free(&k);
	snprintf(path, sizeof(path), "%s/work/obj/mm/link.gcda", fx->dest);
	assert_int_equal(access(path, F_OK), -1);
	snprintf(path, sizeof(path), "%s/work/obj/mm/huge_memory.gcno", fx->dest);
	assert_int_equal(access(path, F_OK), -1);
	snprintf(path, sizeof(path), "%s/work/obj/mm/notes.txt", fx->dest);
	assert_int_equal(access(path, F_OK), -1);
}

/* A file the repetition did not move is left out; one it moved is kept. */
static void test_collect_leaves_unchanged(void **state)
{
	struct fx *fx = *state;
	struct kgcov k;
	char err[512], path[256];
	size_t n = 0, same = 0;

	assert_int_equal(kgcov_open(&k, fx->root, err, sizeof(err)), 0);
	assert_int_equal(fake_put(fx->root, "work/obj/mm/memory.gcda", "zero-memorx"), 0);
	assert_int_equal(kgcov_collect(&k, fx->dest, &n, &same, err, sizeof(err)), 0);
	assert_int_equal(n, 1);
	assert_int_equal(same, 1);
	snprintf(path, sizeof(path), "%s/work/obj/mm/huge_memory.gcda", fx->dest);
	assert_int_equal(access(path, F_OK), -1);
	snprintf(path, sizeof(path), "%s/work/obj/mm/memory.gcda", fx->dest);
	assert_int_equal(access(path, F_OK), 0);
	kgcov_free(&k);
}

static void test_reset_writes_one(void **state)
{
	struct fx *fx = *state;
	struct kgcov k;
	char err[512], path[128], buf[8];

	assert_int_equal(kgcov_open(&k, fx->root, err, sizeof(err)), 0);
	snprintf(path, sizeof(path), "%s/reset", fx->root);
	assert_int_equal(read_file_str(path, buf, sizeof(buf)), 0);
	assert_string_equal(buf, "1");
	assert_int_equal(write_file_str(path, "0"), 0);
	assert_int_equal(kgcov_reset(&k, err, sizeof(err)), 0);
	assert_int_equal(read_file_str(path, buf, sizeof(buf)), 0);
	assert_string_equal(buf, "1");
	kgcov_free(&k);
}

/* No gcov tree: the message says which file and what to do. */
static void test_check_without_gcov(void **state)
{
	struct fx *fx = *state;
	struct kgcov k;
	char err[512];

	assert_int_equal(kgcov_open(&k, fx->dest, err, sizeof(err)), -1);
	assert_non_null(strstr(err, "/reset"));
	assert_non_null(strstr(err, "CONFIG_GCOV_KERNEL"));
	assert_null(k.root);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_collect_copies_gcda, setup, teardown),
		cmocka_unit_test_setup_teardown(test_collect_skips_links_and_others, setup, teardown),
		cmocka_unit_test_setup_teardown(test_collect_leaves_unchanged, setup, teardown),
		cmocka_unit_test_setup_teardown(test_reset_writes_one, setup, teardown),
		cmocka_unit_test_setup_teardown(test_check_without_gcov, setup, teardown),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
