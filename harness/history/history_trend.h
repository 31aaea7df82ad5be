/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * history_trend - slow drifts of a night series: told from steps, and
 * reported once.
 *
 * Model: a hinge, flat up to night k and a straight line from there on
 * (on the night values of history_window.h: logs of the night means),
 * fitted by least squares for every k; the best k is where the drift
 * starts. A step (two flat levels) and a hinge have the same number of
 * parameters (two levels or a level and a slope, and where), so the one
 * with the smaller residual sum of squares is the better description of
 * the nights; a drift is what a hinge describes better than any step.
 *
 * history_trend_step_like(): the window replay (history_window.c) asks it
 * before it confirms a step: nights that a hinge fits better than the
 * candidate step are a drift, not a step, and confirm nothing (so a slow
 * drift is not cut into a staircase of change points).
 *
 * history_trend_scan(): after the replay, the current segment (since the
 * last confirmed change, 12 nights or more, outlier nights left out by
 * the MAD rule): the drift is reported (r->drift, r->ndrift = 1) when
 *   - the hinge fits better than every single step of the segment,
 *   - its slope is significant: one-sided t test below a tenth of the
 *     night test's alpha (history_window.h; where it starts was searched
 *     for), the variance of a night from the hinge's
 *     residuals, floored by the within-night part, and
 *   - the total change from its start to the newest night is beyond the
 *     noise threshold, over 6 nights or more.
 * Its kind follows the metric's direction, as a change point's; the gate
 * fails on an untriaged regression drift like on a regression
 * (history_gate.h). Nothing is random.
 */
#ifndef THPBENCH_HISTORY_TREND_H
#define THPBENCH_HISTORY_TREND_H

#include <stdbool.h>
#include <stddef.h>

struct history_check_opts;
struct history_result;

/* The best hinge of y[0..n) (skip[i]: left out), k in [kmin, kmax]. */
struct history_hinge {
	size_t k;		/* flat up to k, the slope from k on */
	double level, slope;	/* level at k, slope a night */
	double rss, sxx;	/* residual sum of squares; sum (x - mean x)^2 */
	size_t n;		/* nights fitted */
};

bool history_hinge_best(const double *y, const bool *skip, size_t n,
			size_t kmin, size_t kmax, struct history_hinge *h);

/*
 * Is a step at night tau (up: dir > 0) with residual sum of squares
 * step_rss over y[0..n) (skip[i] left out) a step? false: the nights
 * drift: a hinge that starts TREND_LEAD nights or more before the step
 * fits y better than the step (a hinge starting at the step mimics it),
 * and, for a step of TREND_FAST nights or fewer, the nights before it
 * already slope its way (a line through them alone, one-sided t test at
 * TREND_BEFORE_LEVEL): a hinge fits the 2-4 newest nights of a real step
 * about as well as the step, and a step after flat nights is a step.
 */
#define TREND_LEAD 3
#define TREND_FAST 4
#define TREND_BEFORE_LEVEL 0.01
bool history_trend_step_like(const double *y, const bool *skip, size_t n,
			     size_t tau, double step_rss, int dir);

/*
 * The drift of the current segment, used nights [c, n_used) with values
 * y and within-night variances wv (history_window.c's scale).
 */
void history_trend_scan(const struct history_check_opts *o,
			struct history_result *r, const double *y,
			const double *wv, bool log_scale, size_t c);

#endif
