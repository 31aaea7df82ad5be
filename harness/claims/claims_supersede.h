/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * claims_supersede - a posting's effect that a later kernel change made
 * disappear: named in the claim with its version and commit
 * (`superseded_by = VERSION TEXT`), and shown at work by a counter
 * (`superseded_check = METRIC OP NUMBER`); rules in claims.h.
 */
#ifndef THPBENCH_CLAIMS_SUPERSEDE_H
#define THPBENCH_CLAIMS_SUPERSEDE_H

#include <jansson.h>

#include "measure/suite.h"
#include "results/results.h"

/*
 * Turn a "not reproduced" in `o` into "superseded" when the claim's
 * superseded_by / superseded_check hold here; else add to the reason why
 * the named change was not confirmed.
 */
void claims_supersede(json_t *o, const struct suite_claim *cl,
		      const struct tb_results *r);

/* "5.0" <= "6.18.44-x"? 1 yes, 0 no, -1 when either cannot be read. */
int kernel_at_least(const char *release, const char *version);

#endif
