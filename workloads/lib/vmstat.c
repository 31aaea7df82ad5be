// SPDX-License-Identifier: GPL-2.0-only
/*
 * /proc/vmstat counters around a phase. They are system-wide, so a
 * delta is at least what this process caused; workloads check lower
 * bounds only.
 */
#include "wl.h"

#include <stdio.h>
#include <string.h>

int wl_vmstat_read(const char *const *names, uint64_t *vals, size_t n,
		   size_t *missing)
{
	FILE *f = fopen("/proc/vmstat", "r");
	unsigned long long v;
	char name[128];
	size_t i, found = 0;
	unsigned char seen[64] = { 0 };

	if (!f || n > sizeof(seen)) {
		if (f)
			fclose(f);
		return -1;
	}
	for (i = 0; i < n; i++)
		vals[i] = 0;
	while (fscanf(f, "%127s %llu", name, &v) == 2) {
		for (i = 0; i < n; i++) {
			if (!seen[i] && !strcmp(name, names[i])) {
				vals[i] = v;
				seen[i] = 1;
				found++;
			}
		}
	}
	fclose(f);
	if (missing)
		*missing = n - found;
	return 0;
}
