/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * claims_supersede - a posting's effect that a later kernel change made
 * disappear, named in the claim with its version and commit
 * (`superseded_by = VERSION TEXT`) and shown at work here:
 *   superseded_check = METRIC: CASE_A >= Nx CASE_B
 *       the fastest ok run of A is at least N times B's fastest (for
 *       000: aligned 4 KiB mremap far below a misaligned one, which is
 *       what moving whole page tables does). A repetition slowed by
 *       others on the machine is slower, never faster, than its work:
 *       the fastest runs tell 1x from 10x where one such repetition
 *       pulls the mean ratio's interval under N (claims_supersede.c)
 *   superseded_check = METRIC OP NUMBER
 *       a counter that holds in every ok run of base and new (OP one of
 *       == != < <= > >=); a counter that is trivially so (thp_split_pmd
 *       == 0 under THP never) shows nothing
 *   superseded_config = CONFIG_NAME
 *       set (y/m) in the kernel config the run recorded (env.kconfig);
 *       "not set" refutes the change, a config that could not be read is
 *       said as "not known"
 * Only a claim whose interval lies wholly below its consistent band is
 * eligible (claims.h); the rules are there.
 */
#ifndef THPBENCH_CLAIMS_SUPERSEDE_H
#define THPBENCH_CLAIMS_SUPERSEDE_H

#include <jansson.h>

#include "measure/suite.h"
#include "results/results.h"

/*
 * Turn the verdict in `o` into "superseded" when its interval (ci_hi)
 * lies below the band (band_lo) and the claim's superseded_by, _check
 * and _config hold here; else add to the reason why the named change was
 * not confirmed.
 */
void claims_supersede(json_t *o, const struct suite_claim *cl,
		      const struct tb_results *r);

/* "5.0" <= "6.18.44-x"? 1 yes, 0 no, -1 when either cannot be read. */
int kernel_at_least(const char *release, const char *version);

#endif
