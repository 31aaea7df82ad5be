// SPDX-License-Identifier: GPL-2.0-only
/*
 * sysctl_names - the sysctl knobs thpbench may change (sysctl_knob.h),
 * apart from reading and snapshotting them, so that the suite parser
 * (and its fuzzer) checks a name without the settings code.
 */
#include "sysctl_knob.h"

#include <string.h>

const char *const sysctl_knob_names[] = { SYSCTL_PROACTIVENESS,
					  SYSCTL_HUGETLB_VMEMMAP,
					  SYSCTL_NUMA_BALANCING,
					  SYSCTL_COMPACT_UNEVICTABLE };
const size_t sysctl_knob_count = sizeof(sysctl_knob_names) /
				 sizeof(sysctl_knob_names[0]);

bool sysctl_knob_name_ok(const char *name)
{
	size_t i;

	for (i = 0; i < sysctl_knob_count; i++)
		if (!strcmp(name, sysctl_knob_names[i]))
			return true;
	return false;
}
