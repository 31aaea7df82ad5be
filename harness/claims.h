/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * claims - check a posting's claim against what this run measured.
 *
 * A [claim ID] section of a suite says: on `metric`, case `new` is
 * `claimed_value` times better than case `base` ("17.3x faster"), where
 * better is lower or higher values (`better`). The measured factor is
 * mean(base)/mean(new) for lower-is-better metrics and mean(new)/mean(base)
 * otherwise, with a 95% interval from the log-scale Welch interval of the
 * ratio (hypothesis.h change_ci()). Verdicts:
 *   reproduced        the interval lies above 1: same direction, significant
 *   not reproduced    the interval lies below 1 (significant the other way)
 *                     or contains 1 (no significant difference)
 *   not measurable    `needs = pmu` on a machine without one, `needs =
 *                     glibc-hugetlb` with a glibc older than 2.35, `needs =
 *                     kernel-ab ...` (the claim compares kernels), the
 *                     metric was not counted, or a case has < 3 ok runs;
 *                     the reason says which.
 * A claim without `new` only reports base's mean and stddev.
 */
#ifndef THPBENCH_CLAIMS_H
#define THPBENCH_CLAIMS_H

#include <jansson.h>
#include <stdio.h>

#include "results.h"
#include "suite.h"

/* One object per claim: id, posting, comparison, claimed, factor, ci_lo,
 * ci_hi, measured (text), verdict, reason. */
json_t *claims_evaluate(const struct suite_claim *claims, size_t n,
			const struct tb_results *r);
void claims_print(FILE *f, const json_t *evaluated);

#endif
