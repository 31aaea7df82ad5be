/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * A fake tree of files for the unit tests: a temp directory standing in
 * for /sys/kernel/mm or /proc, never the real ones.
 */
#ifndef THPBENCH_TEST_FAKE_TREE_H
#define THPBENCH_TEST_FAKE_TREE_H

#include <ftw.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util/util.h"

/* root/rel holds text (directories made as needed); 0 or -1. */
static inline int fake_put(const char *root, const char *rel, const char *text)
{
	char path[PATH_MAX], dir[PATH_MAX];
	FILE *f;

	snprintf(path, sizeof(path), "%s/%s", root, rel);
	snprintf(dir, sizeof(dir), "%s", path);
	*strrchr(dir, '/') = '\0';
	if (mkdir_p(dir, 0755))
		return -1;
	f = fopen(path, "w");
	if (!f)
		return -1;
	fputs(text, f);
	return fclose(f);
}

/* fake_put(), then the file's path (a static buffer, valid to the next
 * call); NULL when it could not be written. */
static inline const char *fake_put_path(const char *root, const char *rel,
					const char *text)
{
	static char path[PATH_MAX];

	if (fake_put(root, rel, text))
		return NULL;
	snprintf(path, sizeof(path), "%s/%s", root, rel);
	return path;
}

/*
 * A cmocka test group's temp directory `dir` (/tmp/NAME.XXXXXX), its
 * group setup and teardown (made, removed with all in it), and put(REL,
 * TEXT): fake_put_path() in it, asserted. Include cmocka.h first.
 */
#define FAKE_DIR_GROUP(NAME)						\
static char dir[] = "/tmp/" NAME ".XXXXXX";				\
static int setup(void **state)						\
{									\
	(void)state;							\
	return mkdtemp(dir) ? 0 : -1;					\
}									\
static int teardown(void **state)					\
{									\
	(void)state;							\
	return fake_rm_tree(dir);					\
}									\
static const char *put(const char *rel, const char *text)		\
{									\
	const char *p = fake_put_path(dir, rel, text);			\
									\
	assert_non_null(p);						\
	return p;							\
}

static inline int fake_rm_one(const char *path, const struct stat *st,
			      int flag, struct FTW *ftw)
{
	(void)st;
	(void)flag;
	(void)ftw;
	return remove(path);
}

/* Remove the tree at root, root too (links not followed); 0 or -1. */
static inline int fake_rm_tree(const char *root)
{
	return nftw(root, fake_rm_one, 16, FTW_DEPTH | FTW_PHYS);
}

#endif
