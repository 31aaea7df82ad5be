// SPDX-License-Identifier: GPL-2.0-only
/*
 * hugetlb pool counters per page size, from
 * /sys/kernel/mm/hugepages/hugepages-<kB>kB/. Workloads read them to say
 * how many pages a run used and how many it would need.
 */
#include "wl.h"

#include <stdio.h>

static long pool_read(uint64_t page_size, const char *knob)
{
	char path[128];
	long v = -1;
	FILE *f;

	snprintf(path, sizeof(path), "/sys/kernel/mm/hugepages/hugepages-%llukB/%s",
		 (unsigned long long)(page_size / 1024), knob);
	f = fopen(path, "r");
	if (!f)
		return -1;
	if (fscanf(f, "%ld", &v) != 1)
		v = -1;
	fclose(f);
	return v;
}

long wl_hugetlb_free(uint64_t page_size)
{
	return pool_read(page_size, "free_hugepages");
}

long wl_hugetlb_total(uint64_t page_size)
{
	return pool_read(page_size, "nr_hugepages");
}
