/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * compare_metrics - the per-metric statistics of one pair of cases
 * (compare.h describes what is computed), apart from the pairing.
 */
#ifndef THPBENCH_COMPARE_METRICS_H
#define THPBENCH_COMPARE_METRICS_H

#include <stddef.h>

#include "compare.h"

/*
 * Fill p->m, p->only_a/only_b and p->notes from p->a and p->b. -1 with
 * err set when a case's "extra" holds a malformed metric override.
 */
int compare_pair_compute(struct compare_pair *p, const struct compare_opts *o,
			 char *err, size_t errlen);
void compare_pair_free(struct compare_pair *p);

#endif
