/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * claims_host - what the machine a run was made on does to a claim's
 * verdict, from the run's recorded environment (env.platform, measure/
 * platform.h) and its data:
 *
 *   caveats     `depends = vm,page-reporting,numa,pmu,page-tables`: a
 *               line for each kind this machine is. Free page reporting's
 *               cost is measured, not assumed: the first warm-up's pass 1
 *               (fresh pool pages) against the repetitions' pass 1 (the
 *               same pages, warm) of a case that records pass1_gbps.
 *   withheld    `depends = page-tables` on a host whose page-table writes
 *               are emulated (PVM, Xen PV, TCG): a timing metric measures
 *               the hypervisor there, so the verdict is "not measurable"
 *               (the factor is kept); a count of events keeps its verdict.
 *   not comparable here
 *               `not_comparable_on = page-reporting|vm|page-tables`: the
 *               measured figure is dominated by what this kind of machine
 *               adds, so it cannot be held against the posting's.
 */
#ifndef THPBENCH_CLAIMS_HOST_H
#define THPBENCH_CLAIMS_HOST_H

#include <jansson.h>
#include <stdbool.h>

#include "measure/suite.h"
#include "results/results.h"

/* Append one caveat line to o["caveats"]. */
void claims_add_caveat(json_t *o, const char *text);

/* Append the caveats of the claim's `depends` to o["caveats"]. */
void claims_host_caveats(json_t *o, const struct suite_claim *cl,
			 const struct tb_results *r);

/* Set a verdict the machine decides (not measurable / not comparable
 * here), keeping what was measured; true when it did. */
bool claims_host_withhold(json_t *o, const struct suite_claim *cl,
			  const struct tb_results *r);

/* Fresh memory's first touch over warm memory's (> 1: slower fresh), and
 * the case it was measured on; -1 when no case of the run measures it. */
int claims_fresh_factor(const struct tb_results *r, double *factor,
			const char **case_id);

/* The run's machine has emulated page-table writes (and why, if asked). */
bool claims_page_tables_emulated(const struct tb_results *r, const char **why);

#endif
