/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * claims - check a posting's claim against what this run measured.
 *
 * A [claim ID] section of a suite says: on `metric`, case `new` is
 * `claimed_value` times better than case `base` ("17.3x faster"), where
 * better is lower or higher values (`better`). The measured factor is
 * in the claim's direction with a 95% interval (claims_factor.h), and is
 * printed in words as a factor >= 1 ("1.18x slower", never "0.85x
 * faster").
 *
 * The size counts, not only the sign. With claimed factor c > 1 and
 * tolerance T (`tolerance`, default 2) the consistent band is
 *     [max(c/T, c^(1/T)), min(c*T, c^T)]
 * - within T times the claimed factor, and within T times the claimed
 * effect on a log scale (so a claimed 1.22x is not "reproduced" by a
 * measured 2.4x, nor 17.3x by 6x). Verdicts, decided by the interval:
 *   reproduced        the interval lies above 1 and the factor in the band
 *   inconclusive      the interval overlaps the band but the factor is
 *                     outside it, or the interval also contains 1: the
 *                     data can neither show the claim nor rule it out
 *   direction only    the interval lies above 1 and wholly outside the
 *                     band, or the claim states no claimed_value
 *   superseded        the interval's upper end lies below the band AND
 *                     `superseded_by = VERSION TEXT` names a later change
 *                     shown at work here (claims_supersede.h): the kernel
 *                     is VERSION or later, `superseded_check` holds, and
 *                     `superseded_config` (a CONFIG_ option) is set or
 *                     not known. A version number alone proves nothing.
 *   not reproduced    the interval lies below the band and at or below 1
 *                     (no significant difference, or significant the
 *                     other way); the reason says which, and why a named
 *                     superseding change was not confirmed
 *   not measurable    `needs = pmu` without a usable PMU, `needs = numa`
 *                     on fewer than 2 NUMA nodes or emulated ones
 *                     (numa=fake: placement real, remote cost not),
 *                     `needs = numa-nodes` on fewer than 2 nodes of any
 *                     kind, `needs = glibc-hugetlb`
 *                     with glibc < 2.35, `needs = kernel-ab ...`, `needs
 *                     = kernel A-B WHY` on a kernel outside A..B, the
 *                     metric was not counted, a case has < 3 ok runs, or
 *                     a timing of page-table work (`depends = page-tables`)
 *                     on a host whose page-table writes are emulated
 *                     (claims_host.h); what was measured is kept
 *   not comparable here
 *                     `not_comparable_on = page-reporting|vm|page-tables`
 *                     and this machine is of that kind: the figure is
 *                     decided by what the machine adds (claims_host.h)
 *   derived           `derived = WHY`: the row is true by construction
 *                     (a fault per 2 MiB instead of per 4 KiB); shown
 *                     where it would be "reproduced", so a broken setup
 *                     still shows
 *   as expected / not as expected
 *                     `control = WHAT`, or claimed_value = 1 (no effect):
 *                     the interval within [1/1.1, 1.1], or not. A control
 *                     checks a setup; only a claimed_value = 1 without
 *                     `control` is a posting's claim (reproduced / not)
 *   see ID            `detail_of = ID`: a row that details claim ID (the
 *                     posting's own program), with no verdict of its own
 *                     - one verdict per claim; its reason says what it
 *                     shows. `parts = M1 M2` splits the metric into parts
 *                     measured apart, each with its share and factor.
 *   reported          a claim without `new`: base's mean and stddev
 * A metric of the TLB profile (tlb.*) gets "events": the events it is
 * counted with on the run's machine (claims_events.h), measurable or not.
 * `depends = vm,page-reporting,numa,pmu,page-tables` (any of them) adds a
 * caveat where this machine is of that kind. `note` is printed under the
 * row: what became of the posting's headline on today's kernels.
 * `kind = level` claims where two cases sit instead of a factor between
 * them (claims_level.h); `source` names where the claimed figures come
 * from when it is not the posting itself (printed under the row).
 */
#ifndef THPBENCH_CLAIMS_H
#define THPBENCH_CLAIMS_H

#include <jansson.h>
#include <stdio.h>

#include "results/results.h"
#include "measure/suite.h"

/* One object per claim: id, posting, comparison, claimed, factor, ci_lo,
 * ci_hi, band_lo, band_hi, of_claimed, measured (text), verdict, reason,
 * caveats, note, parts, detail_of, events. */
json_t *claims_evaluate(const struct suite_claim *claims, size_t n,
			const struct tb_results *r);
/* The table, headed by the environment that bounds its verdicts. */
void claims_print(FILE *f, const json_t *evaluated, const json_t *env);

/* Record in env["kconfig"] the kernel config options the claims name
 * (superseded_config), read from the running kernel's config. */
void claims_record_kconfig(const struct suite_claim *claims, size_t n,
			   json_t *env);

/* The consistent band of a claimed factor c (> 1) at tolerance t (> 1). */
void claims_band(double c, double t, double *lo, double *hi);

#endif
