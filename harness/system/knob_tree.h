/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * knob_tree - find every huge-page knob under the mm sysfs root.
 *
 * A knob here is every regular file under transparent_hugepage/
 * (recursively: the mTHP sizes hugepages-<N>kB/, khugepaged/) that has
 * both a read and a write bit, and each hugetlb pool's
 * nr_overcommit_hugepages and nr_hugepages (hugetlb_pool.h). By mode
 * bits, not access(2): root may write a 0444 file, but in sysfs 0444
 * means the kernel offers no store (hpage_pmd_size, the stats/ files),
 * and a 0200 file (hugetlb demote) has no value to put back.
 */
#ifndef THPBENCH_KNOB_TREE_H
#define THPBENCH_KNOB_TREE_H

#include <stddef.h>

/*
 * Call fn(root, rel, value, arg) for each knob with its current value
 * (knob.h), in name order within transparent_hugepage/ and then within
 * hugepages/. -1 with err set when root has neither directory.
 */
typedef void (*knob_tree_fn)(const char *root, const char *rel,
			     const char *value, void *arg);
int knob_tree_walk(const char *root, knob_tree_fn fn, void *arg, char *err,
		   size_t errlen);

#endif
