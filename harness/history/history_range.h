/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * history_range - the two kernels a bisection starts from, taken from the
 * history (`./run.sh bisect --from-history`, through `thpbench history
 * range`): of the one series the filter leaves (one host and one suite;
 * several are an error that names them), its newest confirmed
 * regression, improvement or change; GOOD is the kernel id of the last
 * night before it, BAD of the first night after. The strings point into
 * the analysis. 0, or -1 with the reason in err (and nothing in *r).
 */
#ifndef THPBENCH_HISTORY_RANGE_H
#define THPBENCH_HISTORY_RANGE_H

#include <stddef.h>

#include "history_analysis.h"

struct history_range {
	const char *kind;	/* "regression", "improvement" or "changed" */
	const char *good, *bad;	/* kernel ids */
};

int history_range_pick(const struct history_analysis *a,
		       const struct history_filter *f,
		       struct history_range *r, char *err, size_t errlen);

#endif
