/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * history_confirm - does a candidate change point of a night series show
 * on the raw repetitions?
 *
 * The nights [a_from, at) (before) and [at, b_to) (after) of a series are
 * pooled into two samples of repetitions and compared with the statistics
 * of `thpbench compare` (hypothesis.h, verdict.h): the change with its
 * interval and Welch's test on one scale (change_ci), Mann-Whitney (the
 * larger p decides, so both must agree), the smallest change the verdict
 * rule could detect at these n, and the verdict for the metric's
 * direction and noise threshold. Repetitions of one night are not
 * independent (boots, page cache, placement): this is the second test of
 * a change, never the only one; the night values decide first
 * (history_window.h).
 *
 * Outlier nights are left out of each side (the MAD rule of stats.h on
 * the night means of that side, 3 nights or more): one wild night must
 * neither make a change nor hide one. Indices are into the series'
 * nights; nights without values add nothing.
 */
#ifndef THPBENCH_HISTORY_CONFIRM_H
#define THPBENCH_HISTORY_CONFIRM_H

#include <stdbool.h>
#include <stddef.h>

#include "history_series.h"
#include "stats/hypothesis.h"
#include "stats/metric_info.h"
#include "stats/stats.h"
#include "stats/verdict.h"

struct history_confirm_opts {
	double confidence;	/* 0.95 */
	double threshold;	/* relative noise threshold, 0.02 */
	double power;		/* for the detectable change, 0.8 */
};

struct history_confirm {
	size_t na, nb;			/* repetitions */
	size_t nights_a, nights_b;	/* nights pooled */
	size_t outliers_a, outliers_b;	/* outlier nights left out */
	struct summary a, b;
	struct welch w;			/* on the change's scale (log when all > 0) */
	struct mann_whitney mw;
	struct change ch;
	double p;			/* max(Welch p, Mann-Whitney p) */
	double mde;			/* smallest change the verdict rule detects */
	enum verdict verdict;		/* of the repetitions */
};

/* The series' direction: its `better`, else the metric-name table. */
enum better history_series_better(const struct history_series *s);

void history_confirm(const struct history_series *s, size_t a_from,
		     size_t at, size_t b_to, enum better better,
		     const struct history_confirm_opts *o,
		     struct history_confirm *c);

#endif
