/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * history_edivisive - change points of one series of numbers (a night
 * mean each) by E-Divisive means (Matteson & James, JASA 2014), as
 * MongoDB's signal-processing-algorithms and Apache Otava use it.
 *
 * For a segment split at tau into X (n values) and Y (m values):
 *   E = 2/(n m) sum|x - y| - sum_{x<x'}|x - x'| / C(n,2) - same for Y
 *   q = n m / (n + m) * E
 * with the distance exponent 1 (the usual choice: it needs only a finite
 * mean). The segment end is fixed (kappa = end of the segment, as in
 * signal-processing-algorithms), so one scan over tau costs O(L log L): the
 * within and between sums come from two passes with a Fenwick tree over
 * the ranks (sum |x - x_i| = cnt_below x - sum_below + sum_above - cnt_above x).
 *
 * Recursive bisection: the best split over all current segments is tested
 * by a permutation test (values shuffled within every segment, the best q
 * over all segments recomputed; p = (1 + #{q_perm >= q}) / (1 + R)); while
 * p <= alpha it is kept and the search goes on. A permutation run stops
 * as soon as the test can no longer come out significant. Deterministic
 * given the seed (GSL's MT19937).
 *
 * Minimum segment length: every segment keeps at least min_segment values,
 * but the last one (ending at the newest value) only min_tail: that is
 * what lets the newest night start a change point. Note that with T values
 * before it a single-value tail cannot reach p below about 1/T: a change on
 * the newest night needs 1/alpha nights of history (20 at 0.05).
 */
#ifndef THPBENCH_HISTORY_EDIVISIVE_H
#define THPBENCH_HISTORY_EDIVISIVE_H

#include <stddef.h>
#include <stdint.h>

struct edv_opts {
	double alpha;		/* significance of a split, 0.05 */
	unsigned permutations;	/* R, 199 */
	size_t min_segment;	/* >= 1; 3 */
	size_t min_tail;	/* >= 1; 1 */
	uint64_t seed;
};

struct edv_cp {
	size_t index;		/* first value of the new segment */
	double q;		/* the statistic of the split when it was found */
	double p;		/* its permutation p-value */
};

void edv_opts_init(struct edv_opts *o);

/*
 * Change points of x[0..n) (finite values), sorted by index, in a malloc'ed
 * array (*out, *nout; NULL and 0 for none).
 */
void edivisive(const double *x, size_t n, const struct edv_opts *o,
	       struct edv_cp **out, size_t *nout);

/*
 * The best split of x[0..n) alone, without a test: its index (0 when no
 * split respects min_left/min_right) and q. For tests and the charts.
 */
size_t edv_best_split(const double *x, size_t n, size_t min_left,
		      size_t min_right, double *q);

#endif
