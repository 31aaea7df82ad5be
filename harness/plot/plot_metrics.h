/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * plot_metrics - which metrics the charts show, in which order and unit.
 *
 * A results file holds dozens of metrics per case; a chart that showed
 * them all would be read by nobody. Two kinds are drawn:
 *   PM_PERF     what the experiment is about: times (*_usec, task-clock,
 *               ...) and throughputs (GB/s, ops); the workload's own
 *               figures first, then wall, task-clock, sys, user time
 *   PM_COUNTER  faults, TLB misses, tracepoints (tlb:tlb_flush) and the
 *               vmstat thp_* deltas
 * Everything else (RSS, other vmstat counters) is PM_OTHER: in the
 * results file, not on the charts.
 *
 * Units are the raw unit of the values as stored, from
 * stats/metric_unit.h (the one table that knows units; these two forward
 * to it). Charts show a time or size in the unit that keeps its numbers
 * readable (ms rather than 12345678 us): plot_metric_scale() gives the
 * factor, applied in the gnuplot script so the .dat files keep the values
 * of the results file unchanged.
 */
#ifndef THPBENCH_PLOT_METRICS_H
#define THPBENCH_PLOT_METRICS_H

#include <stdbool.h>
#include <stddef.h>

enum pm_kind {
	PM_OTHER,
	PM_PERF,
	PM_COUNTER,
};

enum pm_kind plot_metric_kind(const char *name);

/* Unit of the stored values: "µs", "ns", "GB/s", "KiB", "count"; "" unknown. */
const char *plot_metric_unit(const char *name);

/* How one axis shows a metric: value * factor, in unit. */
struct pm_scale {
	const char *unit;
	double factor;
};

/* The display unit for values whose largest magnitude is maxabs. */
void plot_metric_scale(const char *name, double maxabs, struct pm_scale *s);

/* qsort() order of metric names: the kind's ranking, then by name. */
int plot_metric_cmp(const void *a, const void *b);

/*
 * Keep the names of kind `kind` of v[0..n) (a strv, pointers borrowed),
 * in chart order, at most max of them. Returns how many; *dropped counts
 * those cut by max.
 */
size_t plot_metric_pick(char **v, size_t n, enum pm_kind kind, size_t max,
			char ***out, size_t *dropped);

#endif
