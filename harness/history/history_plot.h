/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * history_plot - a trend chart per series of a checked history, written
 * like every other chart (plot.h, plot_gp.h): STEM.gp, STEM.dat,
 * STEM.seg.dat, and after plot_render() STEM.png and STEM.svg.
 *
 * One point per night (its mean) with a bar from the smallest to the
 * largest repetition; the mean of each segment between change points as a
 * horizontal line; each change point a vertical dashed line at the first
 * night after it, coloured by kind (regression red, improvement green,
 * environment or neutral change blue, rejected candidate grey) and
 * labelled with its kind and the first bad kernel id. The x axis counts
 * nights; a few of them are labelled with their dates.
 *
 * STEM is "history-" and a file-name-safe form of host, suite, case and
 * metric, then the first 8 characters of the suite hash: unique per
 * series.
 */
#ifndef THPBENCH_HISTORY_PLOT_H
#define THPBENCH_HISTORY_PLOT_H

#include <stddef.h>

#include "history_check.h"
#include "plot/plot.h"

const char *history_plot_stem(const struct history_series *s, char *buf,
			      size_t len);

/* Write the charts of r[0..n) into dir (created). -1 with err set. */
int history_plot(const struct history_result *r, size_t n, const char *dir,
		 struct plot_set *ps, char *err, size_t errlen);

#endif
