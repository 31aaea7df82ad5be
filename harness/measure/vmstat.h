/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * vmstat - the /proc/vmstat counters that tell what huge pages did during
 * a run: thp_*, compact_*, pgfault, pgmajfault, htlb_*, numa_hint/huge
 * ones. Snapshots before and after; counters of events go into a run's
 * metrics as their delta, "vmstat.<name>"; levels (gauges, nr_*: pages in
 * use at a moment) as the two levels, "vmstat.<name>.before" and
 * "vmstat.<name>.after" (a delta of a level is mostly other processes'
 * noise). These are system-wide: other activity on the machine
 * shows up too, which is why the harness runs one workload at a time.
 */
#ifndef THPBENCH_VMSTAT_H
#define THPBENCH_VMSTAT_H

#include <stddef.h>

#include "results/results.h"

struct vmstat_name;	/* one counter's name and metric keys, vmstat.c */

/*
 * names[i] is interned: the same counter is the same pointer in every
 * snapshot, and stays valid to the process's end.
 */
struct vmstat_snap {
	const struct vmstat_name **names;
	unsigned long long *vals;
	size_t n, cap;
};

/* True for the counters we keep (by name). */
int vmstat_wanted(const char *name);
/*
 * Read the wanted counters from path (NULL: /proc/vmstat). 0 or -1. The
 * file lists the same names in the same order at every read: each line's
 * name is checked against the one at its place last time (a memcmp), and
 * only a new one is looked up, judged by vmstat_wanted and interned.
 */
int vmstat_read(const char *path, struct vmstat_snap *s);
/* For every name in both: after - before as "vmstat.<name>", or for a
 * level (nr_*) both levels as "vmstat.<name>.before" / ".after". */
void vmstat_delta(const struct vmstat_snap *before,
		  const struct vmstat_snap *after, struct metric_set *out);
void vmstat_free(struct vmstat_snap *s);

#endif
