/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * stats_split - runs that fall into a slow and a fast group.
 *
 * A mean over two groups (runs that met fresh memory and runs that did
 * not; THPs placed on one node or another) describes neither, and its
 * interval is wide for a reason no added run will cure. stats_split()
 * sorts positive values and finds the widest gap between neighbours, as
 * a ratio. It reports a split when that gap is at least SPLIT_MIN_GAP,
 * each group holds at least 2 runs, and each group is tight compared to
 * the gap (its own max/min below the square root of the gap).
 */
#ifndef THPBENCH_STATS_SPLIT_H
#define THPBENCH_STATS_SPLIT_H

#include <stdbool.h>
#include <stddef.h>

#define SPLIT_MIN_GAP 1.5

struct split {
	size_t n_low, n_high;
	double low_median, high_median;
	double gap;		/* high group's min / low group's max */
};

/* true and *s filled when the values split; x is not modified. */
bool stats_split(const double *x, size_t n, struct split *s);

#endif
