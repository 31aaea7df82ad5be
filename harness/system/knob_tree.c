// SPDX-License-Identifier: GPL-2.0-only
#include "knob_tree.h"
#include "hugetlb_pool.h"
#include "knob.h"

#include <dirent.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

struct walk {
	knob_tree_fn fn;
	void *arg;
};

static void add_if_knob(const char *root, const char *rel, void *arg)
{
	const struct walk *w = arg;
	char path[PATH_MAX], val[KNOB_MAX];
	struct stat st;

	snprintf(path, sizeof(path), "%s/%s", root, rel);
	if (lstat(path, &st) || !S_ISREG(st.st_mode) ||
	    !(st.st_mode & 0222) || !(st.st_mode & 0444))
		return;
	if (hugetlb_knob_read_path(path, val, sizeof(val)))
		return;
	w->fn(root, rel, val, w->arg);
}

static int walk_thp(const char *root, const char *rel, struct walk *w)
{
	char dir[PATH_MAX], sub[PATH_MAX], path[PATH_MAX];
	struct dirent **ents;
	struct stat st;
	int i, n;

	snprintf(dir, sizeof(dir), "%s/%s", root, rel);
	n = scandir(dir, &ents, NULL, alphasort);
	if (n < 0)
		return -1;
	for (i = 0; i < n; i++) {
		const char *e = ents[i]->d_name;

		if (strcmp(e, ".") && strcmp(e, "..") &&
		    snprintf(sub, sizeof(sub), "%s/%s", rel, e) <
			    (int)sizeof(sub)) {
			if (snprintf(path, sizeof(path), "%s/%s", root, sub) <
				    (int)sizeof(path) &&
			    !lstat(path, &st) && S_ISDIR(st.st_mode))
				walk_thp(root, sub, w);
			else
				add_if_knob(root, sub, w);
		}
		free(ents[i]);
	}
	free(ents);
	return 0;
}

int knob_tree_walk(const char *root, knob_tree_fn fn, void *arg, char *err,
		   size_t errlen)
{
	struct walk w = { .fn = fn, .arg = arg };
	int thp, tlb;

	thp = walk_thp(root, THP_DIR, &w);
	tlb = hugetlb_pool_knobs(root, add_if_knob, &w);
	if (thp && tlb) {
		snprintf(err, errlen,
			 "neither %s/" THP_DIR " nor %s/" HUGETLB_DIR
			 " can be read: not the mm sysfs root (check THPBENCH_SYSFS_ROOT) or a kernel without THP and hugetlb",
			 root, root);
		return -1;
	}
	return 0;
}
