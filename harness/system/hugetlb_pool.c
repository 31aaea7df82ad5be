// SPDX-License-Identifier: GPL-2.0-only
#include "hugetlb_pool.h"
#include "knob.h"
#include "util/util.h"

#include <dirent.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static bool ends_with(const char *s, const char *suffix)
{
	size_t a = strlen(s), b = strlen(suffix);

	return a >= b && !strcmp(s + a - b, suffix);
}

bool hugetlb_is_pool_knob(const char *name)
{
	return !strncmp(name, HUGETLB_DIR "/", sizeof(HUGETLB_DIR));
}

bool hugetlb_is_pool_size(const char *name)
{
	return hugetlb_is_pool_knob(name) && ends_with(name, "/nr_hugepages");
}

void hugetlb_pool_of(const char *name, char *buf, size_t len)
{
	const char *p = name + sizeof(HUGETLB_DIR);

	snprintf(buf, len, "%.*s", (int)strcspn(p, "/"), p);
}

static int is_pool_dir(const struct dirent *e)
{
	return !strncmp(e->d_name, "hugepages-", 10);
}

int hugetlb_pool_knobs(const char *root, hugetlb_knob_fn fn, void *arg)
{
	static const char *const files[] = { "nr_overcommit_hugepages",
					     "nr_hugepages" };
	char rel[PATH_MAX], dir[PATH_MAX];
	struct dirent **ents;
	size_t f;
	int i, n;

	snprintf(dir, sizeof(dir), "%s/" HUGETLB_DIR, root);
	n = scandir(dir, &ents, is_pool_dir, alphasort);
	if (n < 0)
		return -1;
	for (i = 0; i < n; i++) {
		for (f = 0; f < ARRAY_SIZE(files); f++) {
			snprintf(rel, sizeof(rel), HUGETLB_DIR "/%s/%s",
				 ents[i]->d_name, files[f]);
			fn(root, rel, arg);
		}
		free(ents[i]);
	}
	free(ents);
	return 0;
}

int hugetlb_pool_shortfall(const char *name, const char *want,
			   const char *got, char *err, size_t errlen)
{
	char pool[64];
	long w, g;

	if (!hugetlb_is_pool_size(name) || parse_long(want, &w) ||
	    parse_long(got, &g) || g >= w)
		return 0;
	hugetlb_pool_of(name, pool, sizeof(pool));
	snprintf(err, errlen,
		 "kernel provided only %ld of %ld huge pages (%s); free memory or reserve at boot",
		 g, w, pool);
	return 1;
}
