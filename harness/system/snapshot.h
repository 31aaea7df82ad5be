/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * snapshot - the huge-page knobs and their values at one moment, and
 * putting them back.
 *
 * The order of a snapshot is its restore order: THP knobs, then hugetlb
 * overcommit, then pool sizes last, so pages freed by shrinking a pool
 * are not grabbed by anything the THP writes set off, and a pool shrinks
 * after the memory pressure is gone. Within each group the walk's (name)
 * order stays.
 */
#ifndef THPBENCH_SNAPSHOT_H
#define THPBENCH_SNAPSHOT_H

#include <stddef.h>

#include "settings_say.h"

struct knob {
	char *root;		/* the root name is relative to (mm sysfs, sysctl) */
	char *name;		/* relative path, "transparent_hugepage/enabled" */
	char *value;		/* value to write back */
	char *abspath;		/* root + "/" + name, prebuilt for the signal path */
	char *surplus;		/* a pool size's surplus_hugepages, else NULL */
};

struct snapshot {
	struct knob *v;
	size_t n, cap;
};

/* Snapshot the knobs under root (knob_tree.h). 0, or -1 with err set. */
int snapshot_take(const char *root, struct snapshot *snap, char *err,
		  size_t errlen);
const char *snapshot_get(const struct snapshot *snap, const char *name);
/* Append a knob, prebuilding its abspath as root + "/" + name. */
void snapshot_add(struct snapshot *snap, const char *root, const char *name,
		  const char *value);
/* Put the knobs in restore order (above). */
void snapshot_order(struct snapshot *snap);
void snapshot_free(struct snapshot *snap);

/*
 * Write back each knob that differs now (knob_write), then verify all of
 * them (a later write could undo an earlier one). Pool sizes are compared
 * as persistent pools (hugetlb_pool.h); surplus pages still in use are
 * warned about, naming who holds them (proc_root), not counted as
 * failures. Each knob that would not go back is told to say
 * (settings_say.h) and, when stuck is not NULL, added to it with the
 * reason. Returns how many would not; *restored counts the writes.
 */
struct unrestored;
int snapshot_restore(const struct snapshot *snap, const char *proc_root,
		     int *restored, struct unrestored *stuck,
		     const struct settings_sink *say);

#endif
