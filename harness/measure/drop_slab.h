/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * drop_slab - the `drop_slab = yes` step of a case (suite.h): before each
 * of its repetitions (warm-ups too), outside the region of interest, "2"
 * is written to <sysctl root>/vm/drop_caches, which runs every shrinker
 * of the machine once (global reclaim of slab objects; the page cache is
 * left alone, that would be "1").
 *
 * Why a case wants it: the huge zero folio is allocated on the first read
 * fault that needs it and kept while anyone maps it; only its shrinker,
 * run by global reclaim (never by memcg reclaim), frees it once nobody
 * does. Without this step only the first run after boot can move
 * thp_zero_page_alloc; with it every repetition of workloads/zero_page
 * allocates it again, unless some other process still maps it (the
 * counter is the machine's: the workload only bounds it). A kernel with
 * CONFIG_PERSISTENT_HUGE_ZERO_FOLIO=y never frees it: the step runs but
 * cannot help.
 *
 * The sysctl root is settings' (sysctl_knob.h: $THPBENCH_PROC_SYS_ROOT
 * or /proc/sys); with none (a fake mm root and no sysctl root) the step
 * is an error, never a write to the real /proc/sys. It changes nothing
 * that needs putting back, so nothing is journalled. The run records
 * metric "drop_slab.usec" (how long the write took): its presence is the
 * record that the step ran.
 */
#ifndef THPBENCH_DROP_SLAB_H
#define THPBENCH_DROP_SLAB_H

#include <stddef.h>

#include "results/results.h"

/* 0 and the metric put, or -1 with err saying which file and why. */
int drop_slab_run(const char *sysctl_root, struct metric_set *out, char *err,
		  size_t errlen);

#endif
