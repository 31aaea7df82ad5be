// SPDX-License-Identifier: GPL-2.0-only
/*
 * Free memory by block size, from /proc/buddyinfo: how many allocations
 * of one order free memory could satisfy without compaction. The harness
 * records the same figure around every repetition (measure/buddyinfo.h);
 * a workload reads it to say what it did to memory.
 */
#include "wl.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

double wl_free_blocks(int order)
{
	return wl_node_free_blocks(-1, order);
}

double wl_node_free_blocks(int node, int order)
{
	FILE *f = fopen("/proc/buddyinfo", "r");
	char line[1024], *p, *end;
	double n = 0, v;
	int o, used, nid;

	if (!f)
		return -1;
	while (fgets(line, sizeof(line), f)) {
		used = 0;
		if (sscanf(line, "Node %d, zone %*s%n", &nid, &used) != 1 || !used ||
		    (node >= 0 && nid != node))
			continue;
		p = line + used;
		for (o = 0;; o++) {
			v = strtod(p, &end);
			if (end == p)
				break;
			if (o >= order)
				n += v * (double)(1ULL << (o - order));
			p = end;
		}
	}
	fclose(f);
	return n;
}
