/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * background - what the machine moves in a repetition's counters with the
 * case idle: khugepaged, kcompactd, the page cache, other processes.
 *
 * `thpbench coverage` counts a counter as moved by a case only beyond
 * this (compare/compare_coverage.h). When a session is asked for it
 * (`run --background`, suite key `background = yes`, or `thpbench
 * coverage SUITE.conf`), each of a case's first BACKGROUND_PER_CASE
 * recorded repetitions that ended ok is followed by one idle interval,
 * measured the same way: the same runner (vmstat and the per-size mTHP
 * stats, as sysstate.h takes them) around `sleep`, under the case's knobs
 * (still applied: a khugepaged case's scan_sleep_millisecs shapes its own
 * background), as long as that repetition took (wall_usec), at most
 * BACKGROUND_MAX_USEC (a longer case's background is scaled by time when
 * read: compare_coverage.h).
 *
 * Stored in the case's extra, as results.json keeps it:
 *   "background": [ { "wall_usec": W, "vmstat.thp_fault_alloc": D,
 *                     "mthp.64K.anon_fault_alloc": D, ... }, ... ]
 * the event counters only (no levels, no perf events), one object per
 * interval. An interval that did not run ok is not stored (said on
 * stderr).
 */
#ifndef THPBENCH_BACKGROUND_H
#define THPBENCH_BACKGROUND_H

#include <stdbool.h>

#include "runner.h"
#include "results/results.h"

#define BACKGROUND_PER_CASE 3
#define BACKGROUND_MAX_USEC 5000000.0
#define BACKGROUND_KEY "background"

/* The case has fewer than BACKGROUND_PER_CASE intervals recorded. */
bool background_wanted(const struct tb_case *c);
/* The metric names an interval keeps: vmstat and mTHP event counters. */
bool background_keeps(const char *metric);
/*
 * One idle interval as long as `run` took, measured with spec's events,
 * sysstate and child hook (its program and arguments are not used);
 * appended to c's "background". run must be ok and have wall_usec.
 */
void background_measure(const struct run_spec *spec, const struct tb_run *run,
			struct tb_case *c);
/*
 * meta.background: how the intervals were taken, and what the reader of
 * a coverage table needs to say why a counter could not move here
 * ("swap_devices": the swap devices on, -1 unknown).
 */
json_t *background_meta(void);

#endif
