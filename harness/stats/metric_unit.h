/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * metric_unit - the unit of a metric's stored values, from its name: the
 * one table that knows units (metric_info.h knows directions).
 *
 * *_usec microseconds, *_nsec and perf's task-clock/cpu-clock
 * nanoseconds, *_kb KiB, gbps GB/s, faults, misses, cycles, tracepoints
 * and vmstat.* counts; anything else has no known unit. The first
 * matching name pattern wins (case-insensitive).
 *
 * A value shown to people is put in the unit that keeps its number
 * readable (ms rather than 12345678 µs): metric_unit_scale() gives the
 * factor; the stored values never change. Charts (plot_metrics.h), the
 * history's texts and the KCIDB writer (results/kcidb.h) use this table.
 */
#ifndef THPBENCH_METRIC_UNIT_H
#define THPBENCH_METRIC_UNIT_H

enum metric_unit_base {
	MU_NONE,
	MU_COUNT,
	MU_NSEC,
	MU_USEC,
	MU_MSEC,
	MU_SEC,
	MU_KIB,
	MU_GBPS,
	MU_MBPS,
	MU_OPS,
};

enum metric_unit_base metric_unit_base(const char *name);

/* Unit of the stored values: "µs", "ns", "GB/s", "KiB", "count", ...;
 * "" when unknown. */
const char *metric_unit(const char *name);

/* How values are shown: value * factor, in unit. */
struct metric_scale {
	const char *unit;
	double factor;
};

/* The display unit for values whose largest magnitude is maxabs. */
void metric_unit_scale(const char *name, double maxabs, struct metric_scale *s);

#endif
