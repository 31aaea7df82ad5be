/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * bisect_plot - the chart of a bisection: the metric along the commits
 * from GOOD to BAD (x: position in history, first parent; tics name the
 * measured commits), every repetition as a grey dot, each decided step's
 * mean and interval coloured by verdict (good green, bad red, partial
 * yellow, inconclusive grey), GOOD's and BAD's levels as dashed lines,
 * skipped commits as crosses on the bottom edge, and the first bad
 * commit (or each jump of a spread change) marked by a vertical line.
 * Files: DIR/bisect-METRIC.{gp,dat,runs.dat,png,svg} (plot.h's rules:
 * the script redraws both images from anywhere; strings from the plan,
 * like commit subjects, never reach it unquoted).
 */
#ifndef THPBENCH_BISECT_PLOT_H
#define THPBENCH_BISECT_PLOT_H

#include <stddef.h>

#include "plot/plot_set.h"
#include "bisect_report.h"

/* Write the chart's script and data into dir. -1 with err set. */
int bisect_plot(const struct bisect_result *r, const char *dir,
		struct plot_set *ps, char *err, size_t errlen);

#endif
