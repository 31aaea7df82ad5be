/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * vmstat - the /proc/vmstat counters that tell what huge pages did during
 * a run: thp_*, compact_*, pgfault, pgmajfault, htlb_*, numa_hint/huge
 * ones. Snapshots before and after; deltas go into a run's metrics as
 * "vmstat.<name>". These are system-wide: other activity on the machine
 * shows up too, which is why the harness runs one workload at a time.
 */
#ifndef THPBENCH_VMSTAT_H
#define THPBENCH_VMSTAT_H

#include <stddef.h>

#include "results.h"

struct vmstat_snap {
	char **names;
	unsigned long long *vals;
	size_t n, cap;
};

/* True for the counters we keep (by name). */
int vmstat_wanted(const char *name);
/* Read the wanted counters from path (NULL: /proc/vmstat). 0 or -1. */
int vmstat_read(const char *path, struct vmstat_snap *s);
/* after - before for every counter in both, as "vmstat.<name>" metrics. */
void vmstat_delta(const struct vmstat_snap *before,
		  const struct vmstat_snap *after, struct metric_set *out);
void vmstat_free(struct vmstat_snap *s);

#endif
