/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * tlb_profile - the counters that show what huge pages do to the TLB, per
 * microarchitecture.
 *
 * `-e tlb` (and `tlb` in a suite's `events`) expands to the profile of
 * this CPU, found in this order:
 *   1. THPBENCH_TLB_MODEL=<key> (zen5, adl_p, neoverse_v1, ...: the keys
 *      `thpbench list` prints): that model, whatever this CPU is; an
 *      unknown key is an error naming the variable and the known keys;
 *   2. the core PMU libpfm4 finds present (from CPUID, or
 *      LIBPFM_FORCE_PMU=<pmu> as in libpfm(3));
 *   3. /proc/cpuinfo (x86 vendor, family, model; arm64 implementer and
 *      part) for the models libpfm4 4.13 has no table for, whose events
 *      are perf raw encodings (event_raw.h) taken from perf's JSON for
 *      that model: Zen 4 (all its models; libpfm4's detection knows one),
 *      Zen 5, Emerald and Granite Rapids, hybrid Alder/Raptor Lake P- and
 *      E-cores (cpu_core / cpu_atom PMUs), Neoverse N1, N2, V1, V2;
 *   4. else perf's generic names.
 * Each profile carries notes: what its events really count where the
 * roles below read alike but differ (walks requested vs completed, EPT
 * walks, demand loads only, refills vs walks), shown by list, pmu-check
 * and results.json's env.tlb_profile. Each event is stored under a role
 * name that is the same on every model, so runs on different machines
 * read alike:
 *   tlb.cycles              unhalted core cycles
 *   tlb.instructions        instructions retired
 *   tlb.dtlb_load_walks     load misses in every TLB level whose page walk
 *   tlb.dtlb_store_walks    completed (Intel *_MISSES.WALK_COMPLETED)
 *   tlb.dtlb_walks          loads and stores (AMD Zen counts only both
 *                           together: L1 DTLB reloads that missed the L2 TLB)
 *   tlb.load_walk_cycles    cycles with a load / store page walk in
 *   tlb.store_walk_cycles   progress (WALK_ACTIVE; Haswell/Broadwell
 *                           WALK_DURATION). Zen has no such event.
 *   tlb.stlb_load_hits      first-level misses that hit the second-level
 *   tlb.stlb_store_hits     TLB (STLB) and so needed no walk
 *   tlb.stlb_hits           both (Zen: L1 DTLB reloads that hit the L2 TLB)
 *   tlb.itlb_walks          instruction fetches that missed every TLB level
 *   tlb.l1d_tlb_refills     arm64 L1D_TLB_REFILL: L1 data TLB refills, from
 *                           the L2 TLB or a walk (not walks)
 *   tlb.l2_tlb_refills      arm64 L2D_TLB_REFILL: L2 TLB refills, data and
 *                           instruction side
 * and, where the model has no profile, perf's generic names:
 *   tlb.dtlb_load_misses, tlb.dtlb_store_misses (dTLB-load-misses and
 *   dTLB-store-misses: whatever the kernel maps them to on that CPU).
 *
 * Groups: the events a ratio divides are one perf group (read together,
 * on the PMU together), so a multiplexed group's ratio compares the same
 * time slices; the STLB hits form a second group where the first would
 * need more than four general-purpose counters.
 *
 * Derived per run (tlb_derive()), from the counted values:
 *   tlb.dtlb_walks, tlb.stlb_hits   load + store, where not counted as one
 *   tlb.walk_cycles_pct   100 * (load + store walk cycles) / cycles; the
 *                         two kinds of walk may overlap, so this is an
 *                         upper bound of the cycles with any walk
 *   tlb.walks_pki         dTLB walks per 1000 instructions
 *   tlb.misses_pki        generic profile: dTLB misses per 1000 instructions
 * A derived figure whose input was not counted is not counted either (with
 * the input's reason); its counted share is the least of its inputs'.
 *
 * Every model's encodings are checked against the perf JSON event tables
 * of the kernel source (tests/unit/measure/test_tlb_profile.c): `perf`
 * names the JSON event(s) each event must equal, "a+b" meaning the same
 * event code with the unit masks of a and b OR'd; and each row's role
 * against what that JSON event's description says it counts
 * (test_tlb_roles.c), so a wrong pick fails even when its two names agree.
 */
#ifndef THPBENCH_TLB_PROFILE_H
#define THPBENCH_TLB_PROFILE_H

#include <jansson.h>
#include <stddef.h>

#include "results/results.h"

enum tlb_role {
	TLB_CYCLES,
	TLB_INSTRUCTIONS,
	TLB_LOAD_WALKS,
	TLB_STORE_WALKS,
	TLB_WALKS,
	TLB_LOAD_WALK_CYCLES,
	TLB_STORE_WALK_CYCLES,
	TLB_STLB_LOAD_HITS,
	TLB_STLB_STORE_HITS,
	TLB_STLB_HITS,
	TLB_ITLB_WALKS,
	TLB_L1D_REFILLS,
	TLB_L2_REFILLS,
	TLB_LOAD_MISSES,
	TLB_STORE_MISSES,
	TLB_NROLES,
};

struct tlb_event {
	enum tlb_role role;
	const char *event;	/* what event_encode() is given */
	const char *perf;	/* perf JSON EventName(s) it equals; NULL: a
				 * perf generic name, nothing to check */
	unsigned int group;	/* 1, 2: perf group inside the profile */
};

struct tlb_profile {
	const char *key;	/* THPBENCH_TLB_MODEL name: "skl", "zen5" */
	const char *pmu;	/* libpfm4 PMU its event names use; "" for raw
				 * encodings and the generic profile */
	const char *pfm;	/* libpfm4 PMU that selects it (pmu, or for a
				 * raw profile the PMU libpfm4 knows it as);
				 * NULL: none */
	const char *model;	/* "Intel Skylake (client)" */
	const char *perf_dir;	/* tools/perf/pmu-events/arch/<perf_dir> */
	const char *perf_unit;	/* the JSON's "Unit" (cpu_core, cpu_atom) for
				 * a hybrid model's tables; NULL */
	const char *notes;	/* what its events count, caveats */
	const struct tlb_event *ev;
	size_t nev;
};

/* The models with a profile, in a fixed order (for tests and list). */
size_t tlb_profile_count(void);
const struct tlb_profile *tlb_profile_at(size_t i);
/* NULL when pmu (a libpfm4 PMU name) has no profile. */
const struct tlb_profile *tlb_profile_find(const char *pmu);
/* NULL when no profile has this key. */
const struct tlb_profile *tlb_profile_by_key(const char *key);
/* perf's generic names, for a CPU without a profile. */
const struct tlb_profile *tlb_profile_generic(void);

struct tlb_host {
	const struct tlb_profile *profile;	/* never NULL */
	char pmu[64];		/* libpfm4's core PMU here; "" if none */
	char desc[128];		/* its description ("Intel Skylake") */
	const char *chosen_by;	/* "THPBENCH_TLB_MODEL", "LIBPFM_FORCE_PMU",
				 * "libpfm4", "/proc/cpuinfo" or "none" */
	char error[320];	/* THPBENCH_TLB_MODEL names no model; "" */
};

/*
 * The profile of this CPU (see above), else the generic one. Says
 * nothing about whether the kernel lets it count here (a VM without a
 * virtual PMU): opening does. An unknown THPBENCH_TLB_MODEL leaves the
 * generic profile and h->error set.
 */
void tlb_host_detect(struct tlb_host *h);

/*
 * 0 when THPBENCH_TLB_MODEL is unset or names a model; else -1 with err
 * naming the variable and the known keys (the CLI exits 2 on it).
 */
int tlb_model_check(char *err, size_t len);

/*
 * Before libpfm4 is initialised: a THPBENCH_TLB_MODEL whose events are
 * libpfm4 names sets LIBPFM_FORCE_PMU to that PMU (unless it is set), so
 * they encode on a CPU that is another one. events_init() calls it.
 */
void tlb_model_prepare(void);

/*
 * What `tlb` stands for on the host, for results.json's env.tlb_profile,
 * so a results file says which events its tlb.* figures were (or would
 * have been) counted with:
 *   { "key": "skl", "pmu": "skl", "model": "Intel Skylake (client)",
 *     "chosen_by": "libpfm4", "encoding": "libpfm4 names",
 *     "notes": "walks are completed walks ...",
 *     "events": { "tlb.cycles": "skl::CPU_CLK_UNHALTED:THREAD_P", ... },
 *     "derived": { "tlb.dtlb_walks": { "from": ["tlb.dtlb_load_walks",
 *                  "tlb.dtlb_store_walks"], "is": "load + store page walks" } } }
 * pmu is "" for the generic profile, with cpu_pmu the core PMU libpfm4
 * found (if any).
 */
json_t *tlb_host_json(const struct tlb_host *h);

const char *tlb_role_metric(enum tlb_role r);	/* "tlb.dtlb_load_walks" */
const char *tlb_role_text(enum tlb_role r);	/* what it counts, in words */

/* The derived figures a profile's events allow, with what each is; up to
 * max of them. */
size_t tlb_profile_derived(const struct tlb_profile *p, const char **names,
			   const char **texts, size_t max);

/* The derived figures of one run's tlb.* metrics (see above). */
void tlb_derive(struct metric_set *metrics, struct metric_set *counted_pct,
		struct note_set *unsupported);

#endif
