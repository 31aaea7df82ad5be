/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * sysctl_knob - the few /proc/sys knobs thpbench may change for a case,
 * beside the mm sysfs ones (knob.h).
 *
 * vm/compaction_proactiveness: kcompactd's proactive compaction (default
 * 20) rebuilds free 2 MiB blocks about as fast as the fragmenter breaks
 * them up, so a "fragmented" memory state (measure/memstate.h) sets it to
 * 0 for the case.
 *
 * vm/hugetlb_optimize_vmemmap: whether hugetlb pages allocated from now
 * on have their struct page vmemmap freed (HVO); a suite sets it for a
 * case (`set = vm/hugetlb_optimize_vmemmap=1`) to time the pool growing
 * and shrinking with and without it (workloads/hugetlb_paths --path pool).
 *
 * kernel/numa_balancing: automatic NUMA balancing (hint faults, then
 * migration of misplaced pages); a suite sets it for a case (`set =
 * kernel/numa_balancing=1`) to measure THP migration by balancing
 * (workloads/migrate_thp --mode balancing).
 *
 * vm/compact_unevictable_allowed: whether compaction may move unevictable
 * (mlocked) pages (default 1; 0 on PREEMPT_RT); a case sets it to 0
 * (`set = vm/compact_unevictable_allowed=0`) so that pages a workload
 * mlocked to break up free 2 MiB blocks stay where they are: the "pinned"
 * memory state (thp_collapse_alloc_failed, thp_zero_page_alloc_failed)
 * and workloads/migrate_thp --dest-fragmented (thp_migration_split).
 *
 * A sysctl knob's name is its path under the sysctl root
 * ("vm/compaction_proactiveness"); the names cannot clash with the mm
 * ones, which all start with transparent_hugepage/ or hugepages/. The
 * knobs join the settings snapshot and journal with their own root
 * recorded (journal.h), so they get the same verify, restore, journal
 * and signal-path handling as the mm knobs.
 *
 * The root: $THPBENCH_PROC_SYS_ROOT (tests: a fake directory), else
 * /proc/sys - but only when the mm root is the real /sys/kernel/mm: a
 * run against a fake mm tree never writes the real /proc/sys unless told
 * to. NULL: no sysctl knobs are managed.
 */
#ifndef THPBENCH_SYSCTL_KNOB_H
#define THPBENCH_SYSCTL_KNOB_H

#include <stdbool.h>
#include <stddef.h>

#include "snapshot.h"

#define SYSCTL_PROACTIVENESS "vm/compaction_proactiveness"
#define SYSCTL_HUGETLB_VMEMMAP "vm/hugetlb_optimize_vmemmap"
#define SYSCTL_NUMA_BALANCING "kernel/numa_balancing"
#define SYSCTL_COMPACT_UNEVICTABLE "vm/compact_unevictable_allowed"

/* The sysctl root for an mm root (above), malloc'd, or NULL. */
char *sysctl_root_for(const char *mm_root);

/* One of the knobs thpbench may change (no paths built from others);
 * the list itself (sysctl_names.c), in restore order. */
bool sysctl_knob_name_ok(const char *name);
extern const char *const sysctl_knob_names[];
extern const size_t sysctl_knob_count;

/*
 * Add to snap each allowed knob under root that exists as a regular file
 * with read and write bits, with its current value. Nothing when root is
 * NULL.
 */
void sysctl_knobs_snapshot(const char *root, struct snapshot *snap);

/*
 * Where a knob lives: sysctl_root/name for a sysctl knob, else
 * mm_root/name. 0, or -1 when name is a sysctl knob and sysctl_root is
 * NULL (no sysctl knobs in use).
 */
int sysctl_knob_path(const char *mm_root, const char *sysctl_root,
		     const char *name, char *buf, size_t len);

#endif
