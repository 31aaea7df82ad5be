/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * claims - check a posting's claim against what this run measured.
 *
 * A [claim ID] section of a suite says: on `metric`, case `new` is
 * `claimed_value` times better than case `base` ("17.3x faster"), where
 * better is lower or higher values (`better`). The measured factor is
 * mean(base)/mean(new) for lower-is-better metrics and mean(new)/mean(base)
 * otherwise, with a 95% interval from the log-scale Welch interval of the
 * ratio (hypothesis.h change_ci()).
 *
 * The size counts, not only the sign. With claimed factor c > 1 and
 * tolerance T (`tolerance`, default 2) the consistent band is
 *     [max(c/T, c^(1/T)), min(c*T, c^T)]
 * - within T times the claimed factor, and within T times the claimed
 * effect on a log scale (so a claimed 1.22x is not "reproduced" by a
 * measured 2.4x, nor 17.3x by 6x). Verdicts:
 *   reproduced        the interval lies above 1 and the factor lies in the
 *                     band (measured/claimed is printed either way)
 *   direction only    the interval lies above 1, the factor outside the
 *                     band, or the claim states no claimed_value
 *   (claimed_value = 1 claims no effect - a control: reproduced when the
 *   interval lies within [1/1.1, 1.1], not reproduced otherwise)
 *   superseded        not reproduced, and `superseded_by = VERSION TEXT`
 *                     names a later kernel change that explains it: the
 *                     running kernel is VERSION or later AND
 *                     `superseded_check = METRIC OP NUMBER` (OP one of
 *                     == != < <= > >=) holds in every ok run of base and
 *                     new - the counter shows the change at work, the
 *                     version number alone is not taken as proof
 *   not reproduced    the interval lies below 1 (significant the other
 *                     way) or contains 1 (no significant difference);
 *                     the reason says which, and why a superseding
 *                     change was not confirmed where one was named
 *   not measurable    `needs = pmu` without a usable PMU, `needs = numa`
 *                     on fewer than 2 NUMA nodes, `needs = glibc-hugetlb`
 *                     with glibc < 2.35, `needs = kernel-ab ...`, the
 *                     metric was not counted, or a case has < 3 ok runs;
 *                     the reason says which (what was measured is kept)
 * A metric of the TLB profile (tlb.*) gets "events": the events it is
 * counted with on the run's machine (claims_events.h), measurable or not.
 * `depends = vm,page-reporting,numa,pmu` (any of them) adds a caveat line
 * where this machine is of that kind. `note` is printed under the row:
 * what became of the posting's headline on today's kernels.
 * A claim without `new` only reports base's mean and stddev: "reported".
 */
#ifndef THPBENCH_CLAIMS_H
#define THPBENCH_CLAIMS_H

#include <jansson.h>
#include <stdio.h>

#include "results/results.h"
#include "measure/suite.h"

/* One object per claim: id, posting, comparison, claimed, factor, ci_lo,
 * ci_hi, of_claimed, measured (text), verdict, reason, caveats, note,
 * events. */
json_t *claims_evaluate(const struct suite_claim *claims, size_t n,
			const struct tb_results *r);
/* The table, headed by the environment that bounds its verdicts. */
void claims_print(FILE *f, const json_t *evaluated, const json_t *env);

/* The consistent band of a claimed factor c (> 1) at tolerance t (> 1). */
void claims_band(double c, double t, double *lo, double *hi);

#endif
