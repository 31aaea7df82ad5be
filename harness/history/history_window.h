/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * history_window - the change points of one series, found night by night
 * as a lab's gate sees them, so that they never change afterwards.
 *
 * Replay: the nights (those with values) are taken oldest first. After
 * night t is added, only the current segment (since the last confirmed
 * change point) is examined, and only its newest nights: a change that
 * starts m nights before the end (min_after <= m <= confirm_nights) is
 * tested, with the level before it taken from at most confirm_nights
 * nights and the night-to-night spread pooled over at most
 * variance_nights. A change confirmed on night t is final: its first bad
 * night, its kind and its statistics are those of night t, and nights
 * added later are never looked at for it again. So appending nights never
 * removes or moves a confirmed change point, and far-away nights cannot
 * dilute a local change (what a whole-series analysis does). Running the
 * replay again over the same nights gives the same answer: nothing is
 * random, nothing is stored.
 *
 * The unit is the night. Repetitions of one night share a boot, a page
 * cache and a placement: they are not independent samples of the kernel.
 * Each night is one value, the log of its mean (raw means where a mean is
 * <= 0), and the variance of a night's value is estimated from the
 * nights themselves (both components, night-to-night and within-night/n),
 * floored by the within-night part the repetitions show: the error of a
 * split is at least the before nights' within-night part over their count
 * plus the after nights' own over theirs (a count the same every night
 * before, no spread at all, that is 0 or 1 tonight, is noise, not an
 * infinitely significant step). A candidate is confirmed when
 *   1. night test: pooled two-sample t of the nights after against the
 *      nights before (outlier nights before it left out, MAD rule), one
 *      sided p below a share of alpha for m <= fast nights (0.2, 0.6
 *      and 2 alpha for 2, 3 and 4 nights: most where a step of about
 *      two night spreads first shows), alpha/4 for longer (the longer
 *      ones are tested again every night); and the change of
 *      the night means beyond the noise threshold; the most significant
 *      candidate of the night is taken;
 *   2. repetitions: compare's verdict (history_confirm.h) is the same
 *      change in the same direction.
 * alpha is a false-alarm level per night and direction: over N quiet
 * nights about N * alpha * (a small factor for the overlapping tests)
 * false changes are expected. Stated assumption: within a segment the
 * night values are exchangeable with a common spread; a split whose
 * nights a hinge (a drift: history_trend.h) fits better than its step
 * confirms nothing, and the drift is reported once, after the replay.
 *
 * Kinds (history_check.h): regression / improvement / changed by the
 * metric's direction; when the host fingerprint changed within a night of
 * the change, an environment change if the kernel did not change across
 * it, else the kernel's verdict with `ambiguous` set (both changed: said,
 * and a regression gates until triaged).
 *
 * Recovery: a regression is "recovered" (reported as fixed) on the first
 * night on which the segment after a later change point, at least
 * min_after nights long, lies within the noise threshold of the level
 * before the regression; recovered_by names that change point.
 *
 * Early warning (the newest-night test): after the last night, when it
 * lies outside the prediction interval (at the confirmation's confidence)
 * of its segment's last nights and beyond the threshold, it is reported
 * as a watch, with what its repetitions say: a one-night change cannot be
 * told from a wild night, so it is confirmed, or not, by the next night.
 * A watch at alpha / 10 (strong) that its repetitions agree with fails
 * the default gate tonight (history_gate.h).
 */
#ifndef THPBENCH_HISTORY_WINDOW_H
#define THPBENCH_HISTORY_WINDOW_H

#include <stdbool.h>
#include <stddef.h>

struct history_window_opts {
	double alpha;		/* night test level, per night: 0.00015 */
	size_t min_segment;	/* nights before a change at least: 3 */
	size_t min_after;	/* nights after it before it is confirmed: 2 */
	size_t fast;		/* after-lengths tested at alpha: up to 4 */
	size_t variance_nights;	/* nights the spread is pooled over: 60 */
};

/* The night-level test of one split. */
struct history_night_test {
	size_t nights_a, nights_b;	/* before, after (values used) */
	size_t outliers_a;		/* outlier nights left out before */
	size_t df;			/* of the pooled spread */
	double mean_a, mean_b;		/* of the night values (exp'd on the log scale) */
	double change;			/* relative, of the night means */
	double sd;			/* spread of one night's value (relative on the log scale) */
	double sd_within;		/* the within-night floor of it */
	double t, p;			/* p one-sided, in the change's direction */
	double p_spread;		/* F test: after nights as spread as before */
					/* (p and p_spread exact only where p < level) */
	double level;			/* the p it had to beat */
	bool log_scale;
};

void history_window_opts_init(struct history_window_opts *o);

struct history_check_opts;
struct history_result;

/*
 * Replay r->s (history_check.h: r->s, r->better, r->used and r->n_used
 * set) into r->cp (oldest first), r->ncp and r->watch.
 */
void history_window_scan(const struct history_check_opts *o,
			 struct history_result *r);

#endif
