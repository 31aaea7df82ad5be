/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * pmu - whether this machine has a CPU PMU, judged from sysfs
 * independently of the code under test, so tests can say which answer
 * ("counts" or "<not supported>: no hardware PMU") is the right one.
 */
#ifndef THPBENCH_TEST_PMU_H
#define THPBENCH_TEST_PMU_H

#include <glob.h>
#include <stdbool.h>

static inline bool no_cpu_pmu(void)
{
	glob_t g;
	bool none;

	none = glob("/sys/bus/event_source/devices/cpu*", 0, NULL, &g) != 0;
	if (!none)
		globfree(&g);
	return none;
}

#endif
