// SPDX-License-Identifier: GPL-2.0-only
#include "snapshot.h"
#include "hugetlb_pool.h"
#include "knob.h"
#include "knob_tree.h"
#include "unrestored.h"
#include "util/util.h"

#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void snapshot_add(struct snapshot *snap, const char *root, const char *name,
		  const char *value)
{
	struct knob *k;
	size_t len = strlen(root) + strlen(name) + 2;

	snap->v = xgrow(snap->v, sizeof(*snap->v), &snap->cap, snap->n);
	k = &snap->v[snap->n++];
	k->root = xstrdup(root);
	k->name = xstrdup(name);
	k->value = xstrdup(value);
	k->abspath = xmalloc(len);
	snprintf(k->abspath, len, "%s/%s", root, name);
	k->surplus = NULL;
	if (hugetlb_is_pool_size(name)) {
		k->surplus = xmalloc(PATH_MAX);
		if (!hugetlb_surplus_path(k->abspath, k->surplus, PATH_MAX)) {
			free(k->surplus);
			k->surplus = NULL;
		}
	}
}

const char *snapshot_get(const struct snapshot *snap, const char *name)
{
	size_t i;

	for (i = 0; i < snap->n; i++)
		if (!strcmp(snap->v[i].name, name))
			return snap->v[i].value;
	return NULL;
}

void snapshot_free(struct snapshot *snap)
{
	size_t i;

	for (i = 0; i < snap->n; i++) {
		free(snap->v[i].root);
		free(snap->v[i].name);
		free(snap->v[i].value);
		free(snap->v[i].abspath);
		free(snap->v[i].surplus);
	}
	free(snap->v);
	memset(snap, 0, sizeof(*snap));
}

static int knob_rank(const char *name)
{
	if (!hugetlb_is_pool_knob(name))
		return 0;
	return hugetlb_is_pool_size(name) ? 2 : 1;
}

/* Stable: within a rank, the walk's (sorted) order stays. */
void snapshot_order(struct snapshot *snap)
{
	struct knob k;
	size_t i, j;

	for (i = 1; i < snap->n; i++) {
		k = snap->v[i];
		for (j = i; j > 0 && knob_rank(snap->v[j - 1].name) >
					     knob_rank(k.name); j--)
			snap->v[j] = snap->v[j - 1];
		snap->v[j] = k;
	}
}

static void add_knob(const char *root, const char *rel, const char *value,
		     void *arg)
{
	snapshot_add(arg, root, rel, value);
}

int snapshot_take(const char *root, struct snapshot *snap, char *err,
		  size_t errlen)
{
	memset(snap, 0, sizeof(*snap));
	if (knob_tree_walk(root, add_knob, snap, err, errlen))
		return -1;
	snapshot_order(snap);
	return 0;
}

/* Why k reads cur after being written back, for the record. */
static void stuck_why(const struct knob *k, const char *cur,
		      const char *proc_root, char *why, size_t len)
{
	if (hugetlb_is_pool_size(k->name))
		hugetlb_pool_stuck_why(k->name, k->value, cur, proc_root, why,
				       len);
	else
		snprintf(why, len, "the kernel kept %.200s", cur);
}

int snapshot_restore(const struct snapshot *snap, const char *proc_root,
		     int *restored, struct unrestored *stuck,
		     const struct settings_sink *say)
{
	char cur[KNOB_MAX], why[1024];
	const struct knob *k;
	int failed = 0;
	size_t i;

	for (i = 0; i < snap->n; i++) {
		k = &snap->v[i];
		if (hugetlb_knob_read_path(k->abspath, cur, sizeof(cur)))
			continue;	/* reported by the verify pass */
		if (!strcmp(cur, k->value))
			continue;
		if (knob_write(k->abspath, k->value))
			settings_say(say, false, "cannot write %s back to %s: %s",
				     k->value, k->abspath, strerror(errno));
		else
			(*restored)++;
	}
	for (i = 0; i < snap->n; i++) {
		k = &snap->v[i];
		if (hugetlb_knob_read_path(k->abspath, cur, sizeof(cur))) {
			snprintf(why, sizeof(why), "cannot read %s: %s",
				 k->abspath, strerror(errno));
			snprintf(cur, sizeof(cur), "?");
		} else if (strcmp(cur, k->value)) {
			stuck_why(k, cur, proc_root, why, sizeof(why));
		} else {
			if (hugetlb_is_pool_size(k->name) &&
			    hugetlb_pool_surplus_note(k->name, k->abspath,
						      proc_root, why, sizeof(why)))
				settings_say(say, true, "%s", why);
			continue;
		}
		settings_say(say, false, "knob %s would not go back: was %s, now %s (%s)",
			     k->name, k->value, cur, why);
		if (stuck)
			unrestored_add(stuck, k->name, k->value, cur, why);
		failed++;
	}
	return failed;
}
