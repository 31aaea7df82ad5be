/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * verdict - what a comparison of one metric allows one to claim.
 *
 * With threshold T (relative) and the change's interval (hypothesis.h:
 * on the log scale, or of the difference against T * |mean base|):
 *   too few       fewer than 3 values on a side: nothing is claimed
 *   improvement / the test is significant (p < alpha, p already adjusted
 *   regression    for multiple metrics) and the whole interval lies beyond
 *                 +-T; which of the two follows the metric's direction
 *                 and the sign of the difference (never of a ratio: a
 *                 lower-is-better -10 -> -5 is a regression)
 *   changed       the same for a neutral metric (a counter)
 *   no change     the whole interval lies inside [-T, +T]: any change is
 *                 smaller than the noise threshold (an equivalence claim)
 *   inconclusive  anything else: the data can neither show a change
 *                 beyond T nor rule one out
 *   level         a gauge (a level, not a count of events) that was not
 *                 asked to be judged; never counted in a tally
 * A base mean of 0 makes the threshold 0: then the interval of the
 * difference decides alone, and two identical constant samples are
 * "no change".
 */
#ifndef THPBENCH_VERDICT_H
#define THPBENCH_VERDICT_H

#include <stddef.h>

#include "hypothesis.h"
#include "metric_info.h"

enum verdict {
	VERDICT_TOO_FEW,
	VERDICT_INCONCLUSIVE,
	VERDICT_NO_CHANGE,
	VERDICT_IMPROVEMENT,
	VERDICT_REGRESSION,
	VERDICT_CHANGED,
	VERDICT_LEVEL,
};

#define VERDICT_MIN_N 3

struct verdict_in {
	size_t na, nb;
	enum better better;
	double threshold;
	double alpha;		/* 1 - confidence */
	double p;		/* of the deciding test, adjusted */
	double diff;		/* mean b - mean a */
	struct change ch;
};

enum verdict verdict_decide(const struct verdict_in *in);
const char *verdict_name(enum verdict v);
/* A verdict that claims a change (improvement, regression, changed). */
int verdict_is_change(enum verdict v);

#endif
