/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * claims_level - a claim about where two cases sit, not about a factor
 * between them (`kind = level` in a [claim ID] section): on `metric`,
 * case `base` near `claimed_value` and case `new` near `claimed_new`,
 * each within `within` (default 0.15, in the metric's own units). Made
 * for shares, where a ratio is meaningless next to 0: 004's mechanism
 * is "about half of a thread's pages on another node under THP always,
 * about none under never".
 *   reproduced      both 95% intervals of the mean lie inside their bands
 *   not reproduced  an interval lies wholly outside its band (the reason
 *                   names the case and its band)
 *   inconclusive    otherwise: an interval straddles a band's edge
 * `per = GLOB` lists, under the row, each case's mean of every metric
 * matching GLOB ("remote_share.t*": one per thread), so the table shows
 * the per-thread figures the verdict stands on.
 */
#ifndef THPBENCH_CLAIMS_LEVEL_H
#define THPBENCH_CLAIMS_LEVEL_H

#include <jansson.h>

#include "measure/suite.h"
#include "results/results.h"

/* Judge the claim on its two cases (each with >= 3 ok runs of metric);
 * sets measured, verdict, reason and details in o. */
void claims_level(json_t *o, const struct suite_claim *cl,
		  const struct tb_case *base, const struct tb_case *new);

#endif
