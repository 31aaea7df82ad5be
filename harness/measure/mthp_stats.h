/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * mthp_stats - the per-size mTHP counters around a repetition.
 *
 * transparent_hugepage/hugepages-<N>kB/stats/ (system/mthp.h) holds event
 * counters (anon_fault_alloc, anon_fault_fallback, split, swpout,
 * shmem_alloc, ...) and levels (nr_anon, nr_anon_partially_mapped). For
 * each size asked for, every file there becomes a metric named after the
 * size as the command line writes it: a counter's delta as
 * "mthp.64K.anon_fault_alloc", a level's two values as
 * "mthp.64K.nr_anon.before" and ".after" (as vmstat.h does: the delta of
 * a level is mostly other processes' noise). The counters are system-wide,
 * as vmstat's are. A size without stats/ records nothing.
 */
#ifndef THPBENCH_MTHP_STATS_H
#define THPBENCH_MTHP_STATS_H

#include <stddef.h>

#include "results/results.h"

struct mthp_stat {
	unsigned long kb;
	char *name;		/* file name: "anon_fault_alloc" */
	unsigned long long value;
};

struct mthp_stats {
	struct mthp_stat *v;
	size_t n, cap;
};

/* Read the stats of each size in kb[] under the mm sysfs root. */
void mthp_stats_read(const char *root, const unsigned long *kb, size_t nkb,
		     struct mthp_stats *s);
/* The metrics of before -> after (above), for stats read both times. */
void mthp_stats_delta(const struct mthp_stats *before,
		      const struct mthp_stats *after, struct metric_set *out);
void mthp_stats_free(struct mthp_stats *s);

#endif
