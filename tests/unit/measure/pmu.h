/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * pmu - whether this machine has a CPU PMU, judged from sysfs
 * independently of the code under test, so tests can say which answer
 * ("counts" or "<not supported>: no hardware PMU") is the right one.
 * The core PMU is "cpu" (x86; cpu_core/cpu_atom on hybrids) or, on arm,
 * the driver's name ("armv8_pmuv3_0", "armv8_cortex_a72", ...).
 */
#ifndef THPBENCH_TEST_PMU_H
#define THPBENCH_TEST_PMU_H

#include <glob.h>
#include <stdbool.h>

static inline bool no_cpu_pmu(void)
{
	static const char *const pat[] = {
		"/sys/bus/event_source/devices/cpu*",
		"/sys/bus/event_source/devices/armv8_*",
		"/sys/bus/event_source/devices/armv7_*",
	};
	glob_t g;
	unsigned int i;

	for (i = 0; i < sizeof(pat) / sizeof(pat[0]); i++) {
		if (glob(pat[i], 0, NULL, &g) == 0) {
			globfree(&g);
			return false;
		}
	}
	return true;
}

#endif
