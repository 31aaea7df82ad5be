/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * claims_events - the hardware events behind a claim's metric, named.
 *
 * A claim on a TLB profile metric (tlb.dtlb_walks, tlb.walk_cycles_pct,
 * ...; tlb_profile.h) is counted with different events on each
 * microarchitecture. The results file says which (env.tlb_profile, written
 * by the run), so the claim table names them for the machine the run was
 * made on, whether or not it could count them: "on AMD Zen 3:
 * tlb.dtlb_walks = amd64_fam19h_zen3::L1_DTLB_MISS:...". A metric the
 * model has no event for says so. Other metrics, and results files without
 * env.tlb_profile, get nothing.
 */
#ifndef THPBENCH_CLAIMS_EVENTS_H
#define THPBENCH_CLAIMS_EVENTS_H

#include <jansson.h>

/* Set o's "events" (a string) for metric, from env; nothing if n/a. */
void claims_name_events(json_t *o, const char *metric, const json_t *env);

#endif
