/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * plot_change - the change chart of one compared pair (STEM-change), made
 * to be linked from a cover letter. Two panels, each metric on a row of
 * its own, the metrics that changed first:
 *   timings and throughput (plot_metrics.h PM_PERF): the % change, new vs
 *     base, as a bar coloured by verdict, its interval as a whisker, the
 *     noise threshold as a grey band; a linear axis, or a log axis (labelled
 *     in %) when a change passes +100% or -50%, with as many tics as fit;
 *   counts (PM_COUNTER): the mean per run of base (outlined) and new
 *     (filled, coloured by verdict), each row scaled to its own larger
 *     mean and each bar labelled with its number, so 0 -> 256 splits and
 *     0.2 -> 0.07 page faults read as what they are, never as a percentage.
 * Each row's label says the metric, its change and verdict, in the words
 * of the tables (compare_format.h); the bars take the rest of the width.
 * STEM.dat holds block 0 (percent rows) and block 1 (count rows).
 */
#ifndef THPBENCH_PLOT_CHANGE_H
#define THPBENCH_PLOT_CHANGE_H

#include <stddef.h>

#include "compare/compare.h"
#include "plot_set.h"

/* DIR/STEM.gp, .dat (and images) for pair p; 0 also when nothing is
 * charted; -1 with err set. */
int plot_change_chart(const struct comparison *c, const struct compare_pair *p,
		      const char *dir, const char *stem, struct plot_set *ps,
		      char *err, size_t errlen);

#endif
