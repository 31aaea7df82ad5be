/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * sysstate - the system-wide state sampled around a repetition besides
 * vmstat (vmstat.h): the per-size mTHP counters of the sizes a case runs
 * (mthp_stats.h) and how fragmented free memory is (buddyinfo.h, at
 * order 9 and those sizes' orders). Taken right before the workload is
 * released and right after it is reaped, as vmstat is.
 */
#ifndef THPBENCH_SYSSTATE_H
#define THPBENCH_SYSSTATE_H

#include <stdbool.h>
#include <stddef.h>

#include "buddyinfo.h"
#include "mthp_stats.h"
#include "results/results.h"

struct sysstate_spec {
	const char *mm_root;		/* mm sysfs root; NULL: no mTHP stats */
	const unsigned long *mthp_kb;	/* the sizes whose stats to record */
	size_t nmthp;
	const char *buddyinfo;		/* NULL: /proc/buddyinfo */
	const char *debugfs;		/* NULL: /sys/kernel/debug */
};

struct sysstate {
	struct mthp_stats mthp;
	struct buddyinfo buddy;
	bool buddy_ok;
};

void sysstate_take(const struct sysstate_spec *spec, struct sysstate *s);
/* The metrics of before -> after: mTHP deltas and levels, buddy levels. */
void sysstate_record(const struct sysstate_spec *spec,
		     const struct sysstate *before,
		     const struct sysstate *after, struct metric_set *out);
void sysstate_free(struct sysstate *s);

#endif
