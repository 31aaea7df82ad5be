// SPDX-License-Identifier: GPL-2.0-only
#include "cpu_pmu.h"

#include <dirent.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static bool is_core_pmu(const char *n)
{
	return !strcmp(n, "cpu") || !strcmp(n, "cpu_core") ||
	       !strcmp(n, "cpu_atom") || !strncmp(n, "armv8_", 6) ||
	       !strncmp(n, "armv7_", 6);
}

const char *cpu_pmu_name(void)
{
	static char name[64];
	static int done;
	const char *dir = getenv("THPBENCH_EVENT_SOURCE_DIR");
	struct dirent *de;
	DIR *d;

	if (done)
		return name[0] ? name : NULL;
	done = 1;
	d = opendir(dir && *dir ? dir : "/sys/bus/event_source/devices");
	if (!d)
		return NULL;
	/* The smallest matching name: the same answer on every run. */
	while ((de = readdir(d)))
		if (is_core_pmu(de->d_name) &&
		    (!name[0] || strcmp(de->d_name, name) < 0))
			snprintf(name, sizeof(name), "%.63s", de->d_name);
	closedir(d);
	return name[0] ? name : NULL;
}
