/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * cpu_pmu - is there a CPU PMU at all? The kernel registers its core PMU
 * driver under /sys/bus/event_source/devices: "cpu" (x86), "cpu_core" /
 * "cpu_atom" (hybrid x86), "armv8_pmuv3_0" or "armv8_<core>" (arm64).
 * With none there, a hardware event fails because there is no PMU; with
 * one, an ENOENT means that PMU lacks the event (arm64: not in PMCEID).
 */
#ifndef THPBENCH_CPU_PMU_H
#define THPBENCH_CPU_PMU_H

/* The first core PMU's name, or NULL when none is registered. The
 * directory is THPBENCH_EVENT_SOURCE_DIR when set (tests). Cached. */
const char *cpu_pmu_name(void);

#endif
