/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * buddyinfo - how fragmented free memory is, around a repetition.
 *
 * /proc/buddyinfo gives, per node and zone, the number of free blocks of
 * each order (2^order base pages). For an order o, over all zones:
 *   blocks(o)    free blocks of order >= o counted in order-o units: how
 *                many order-o allocations free memory could satisfy
 *                without compaction (o = 9: free 2 MiB blocks)
 *   unusable(o)  the share of free memory in blocks smaller than order o,
 *                (free - blocks(o) * 2^o) / free: the kernel's "unusable
 *                free space index" (debugfs extfrag/unusable_index gives
 *                it per zone), 0 all usable .. 1 none
 * Where debugfs is mounted, extfrag/extfrag_index and unusable_index of
 * the zone with the most free memory are read as well: the kernel's
 * fragmentation index (-1: an order-o allocation would succeed now; 0
 * would fail for lack of memory; towards 1 would fail for fragmentation).
 *
 * Recorded as levels, "buddy.free_kb.before", "buddy.o9.blocks.before",
 * "buddy.o9.unusable.after", "buddy.o9.extfrag_index.before",
 * "buddy.o9.unusable_index.before", for order 9 and the orders asked for
 * (the mTHP sizes of a case).
 */
#ifndef THPBENCH_BUDDYINFO_H
#define THPBENCH_BUDDYINFO_H

#include <stdbool.h>
#include <stddef.h>

#include "results/results.h"

#define BUDDY_ORDERS 16

struct buddy_zone {
	char name[48];		/* "0 Normal": node and zone */
	unsigned long long nr[BUDDY_ORDERS];
	unsigned long long free_pages;
	double extfrag[BUDDY_ORDERS];	/* NAN when not read */
	double unusable[BUDDY_ORDERS];
};

struct buddyinfo {
	struct buddy_zone *zones;
	size_t n;
	int orders;		/* columns in the file */
	bool has_debugfs;
};

/*
 * Read path (NULL: /proc/buddyinfo), then the extfrag files under
 * debugfs (NULL: /sys/kernel/debug) where they can be read. 0, or -1
 * when path cannot be read or holds no zone line.
 */
int buddyinfo_read(const char *path, const char *debugfs,
		   struct buddyinfo *b);
unsigned long long buddy_free_pages(const struct buddyinfo *b);
double buddy_blocks(const struct buddyinfo *b, int order);
double buddy_unusable(const struct buddyinfo *b, int order);
/* The levels above for order 9 and orders[], "when" being "before" or
 * "after". */
void buddyinfo_record(const struct buddyinfo *b, const char *when,
		      const int *orders, size_t norders, struct metric_set *out);
void buddyinfo_free(struct buddyinfo *b);

#endif
