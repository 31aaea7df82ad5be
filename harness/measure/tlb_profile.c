// SPDX-License-Identifier: GPL-2.0-only
/*
 * The tables: libpfm4 names, each with the perf JSON event it must encode
 * the same as. Intel: walks are *_MISSES.WALK_COMPLETED on every model
 * (Ice Lake on has no MISS_CAUSES_A_WALK), so the role means the same
 * thing on all of them; walk cycles are WALK_ACTIVE (cmask 1: cycles with
 * at least one walk) where it exists, WALK_DURATION (cycles the page-miss
 * handler was busy) on Haswell and Broadwell. AMD Zen 1-3: unit masks of
 * event 0x45, L1 DTLB reloads by where they were found.
 */
#include "tlb_profile.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <perfmon/pfmlib.h>

#include "tlb_cpuinfo.h"
#include "util/util.h"

#define INTEL_RATIO_GROUP(p, walk_cycles)					\
	{ TLB_CYCLES, p "::CPU_CLK_UNHALTED:THREAD_P",				\
	  "CPU_CLK_UNHALTED.THREAD_P", 1 },					\
	{ TLB_INSTRUCTIONS, p "::INST_RETIRED:ANY_P", "INST_RETIRED.ANY_P", 1 }, \
	{ TLB_LOAD_WALKS, p "::DTLB_LOAD_MISSES:WALK_COMPLETED",		\
	  "DTLB_LOAD_MISSES.WALK_COMPLETED", 1 },				\
	{ TLB_STORE_WALKS, p "::DTLB_STORE_MISSES:WALK_COMPLETED",		\
	  "DTLB_STORE_MISSES.WALK_COMPLETED", 1 },				\
	{ TLB_LOAD_WALK_CYCLES, p "::DTLB_LOAD_MISSES:" walk_cycles,		\
	  "DTLB_LOAD_MISSES." walk_cycles, 1 },				\
	{ TLB_STORE_WALK_CYCLES, p "::DTLB_STORE_MISSES:" walk_cycles,	\
	  "DTLB_STORE_MISSES." walk_cycles, 1 }

#define INTEL_STLB_GROUP(p)							\
	{ TLB_STLB_LOAD_HITS, p "::DTLB_LOAD_MISSES:STLB_HIT",			\
	  "DTLB_LOAD_MISSES.STLB_HIT", 2 },					\
	{ TLB_STLB_STORE_HITS, p "::DTLB_STORE_MISSES:STLB_HIT",		\
	  "DTLB_STORE_MISSES.STLB_HIT", 2 }

#define INTEL(name, p, walk_cycles)						\
	static const struct tlb_event name[] = {				\
		INTEL_RATIO_GROUP(p, walk_cycles), INTEL_STLB_GROUP(p),		\
	}

INTEL(hsw, "hsw", "WALK_DURATION");
INTEL(hsw_ep, "hsw_ep", "WALK_DURATION");
INTEL(bdw, "bdw", "WALK_DURATION");
INTEL(bdw_ep, "bdw_ep", "WALK_DURATION");
INTEL(skl, "skl", "WALK_ACTIVE");
INTEL(skx, "skx", "WALK_ACTIVE");
INTEL(clx, "clx", "WALK_ACTIVE");
INTEL(icl, "icl", "WALK_ACTIVE");
INTEL(icx, "icx", "WALK_ACTIVE");
INTEL(spr, "spr", "WALK_ACTIVE");

/* perf's tables name the coalesced-page hits "32k_l2_hit" on Zen 1,
 * "coalesced_page_hit" later. */
#define ZEN_HIT(coalesced)							\
	"ls_l1_d_tlb_miss.tlb_reload_4k_l2_hit+"				\
	"ls_l1_d_tlb_miss.tlb_reload_" coalesced "+"				\
	"ls_l1_d_tlb_miss.tlb_reload_2m_l2_hit+"				\
	"ls_l1_d_tlb_miss.tlb_reload_1g_l2_hit"

#define ZEN(name, p, coalesced)							\
	static const struct tlb_event name[] = {				\
		{ TLB_CYCLES, p "::CYCLES_NOT_IN_HALT", "ls_not_halted_cyc", 1 }, \
		{ TLB_INSTRUCTIONS, p "::RETIRED_INSTRUCTIONS", "ex_ret_instr", 1 }, \
		{ TLB_WALKS, p "::L1_DTLB_MISS:TLB_RELOAD_4K_L2_MISS:"		\
		  "TLB_RELOAD_COALESCED_PAGE_MISS:TLB_RELOAD_2M_L2_MISS:"	\
		  "TLB_RELOAD_1G_L2_MISS", "l2_dtlb_misses", 1 },		\
		{ TLB_STLB_HITS, p "::L1_DTLB_MISS:TLB_RELOAD_4K_L2_HIT:"	\
		  "TLB_RELOAD_COALESCED_PAGE_HIT:TLB_RELOAD_2M_L2_HIT:"		\
		  "TLB_RELOAD_1G_L2_HIT", ZEN_HIT(coalesced), 1 },		\
	}

ZEN(zen1, "amd64_fam17h_zen1", "32k_l2_hit");
ZEN(zen2, "amd64_fam17h_zen2", "coalesced_page_hit");
ZEN(zen3, "amd64_fam19h_zen3", "coalesced_page_hit");

/* --- raw encodings from perf's JSON (libpfm4 4.13 has no table) ----- *
 * Each row's `perf` is the JSON EventName it encodes; test_tlb_roles.c
 * checks the bits and the description against the kernel tree's JSON
 * (tests/fixtures/perf-events for models newer than Linux 6.1). */

#define X(pmu, terms) pmu "/" terms "/"

/* Zen 4 and Zen 5 as Zen 3: event 0x45 by where the reload was found;
 * iTLB: 0x85, fetches that missed both ITLBs. */
#define ZEN_RAW(name, cyc_perf)							\
	static const struct tlb_event name[] = {				\
		{ TLB_CYCLES, X("cpu", "event=0x76"), cyc_perf, 1 },		\
		{ TLB_INSTRUCTIONS, X("cpu", "event=0xc0"), NULL, 1 },		\
		{ TLB_WALKS, X("cpu", "event=0x45,umask=0xf0"),			\
		  "ls_l1_d_tlb_miss.all_l2_miss", 1 },				\
		{ TLB_STLB_HITS, X("cpu", "event=0x45,umask=0x0f"),		\
		  ZEN_HIT("coalesced_page_hit"), 1 },				\
		{ TLB_ITLB_WALKS, X("cpu", "event=0x85,umask=0x0f"),		\
		  "bp_l1_tlb_miss_l2_tlb_miss.all", 1 },			\
	}

ZEN_RAW(zen4, NULL);
ZEN_RAW(zen5, "ls_not_halted_cyc");

/* Golden Cove / Raptor Cove cores: event codes 0x11 (iTLB), 0x12 (loads),
 * 0x13 (stores); umask 0x0e walks completed, 0x10 cmask 1 walk active,
 * 0x20 STLB hit. */
#define GLC(name, pmu, cyc_perf, ins_perf)					\
	static const struct tlb_event name[] = {				\
		{ TLB_CYCLES, X(pmu, "event=0x3c"), cyc_perf, 1 },		\
		{ TLB_INSTRUCTIONS, X(pmu, "event=0xc0"), ins_perf, 1 },	\
		{ TLB_LOAD_WALKS, X(pmu, "event=0x12,umask=0x0e"),		\
		  "DTLB_LOAD_MISSES.WALK_COMPLETED", 1 },			\
		{ TLB_STORE_WALKS, X(pmu, "event=0x13,umask=0x0e"),		\
		  "DTLB_STORE_MISSES.WALK_COMPLETED", 1 },			\
		{ TLB_LOAD_WALK_CYCLES, X(pmu, "event=0x12,umask=0x10,cmask=1"), \
		  "DTLB_LOAD_MISSES.WALK_ACTIVE", 1 },				\
		{ TLB_STORE_WALK_CYCLES, X(pmu, "event=0x13,umask=0x10,cmask=1"), \
		  "DTLB_STORE_MISSES.WALK_ACTIVE", 1 },				\
		{ TLB_STLB_LOAD_HITS, X(pmu, "event=0x12,umask=0x20"),		\
		  "DTLB_LOAD_MISSES.STLB_HIT", 2 },				\
		{ TLB_STLB_STORE_HITS, X(pmu, "event=0x13,umask=0x20"),		\
		  "DTLB_STORE_MISSES.STLB_HIT", 2 },				\
		{ TLB_ITLB_WALKS, X(pmu, "event=0x11,umask=0x0e"),		\
		  "ITLB_MISSES.WALK_COMPLETED", 2 },				\
	}

GLC(emr, "cpu", NULL, NULL);
GLC(adl_p, "cpu_core", "CPU_CLK_UNHALTED.THREAD_P", "INST_RETIRED.ANY_P");

/* perf's graniterapids table lists the walks completed only. */
static const struct tlb_event gnr[] = {
	{ TLB_CYCLES, X("cpu", "event=0x3c"), NULL, 1 },
	{ TLB_INSTRUCTIONS, X("cpu", "event=0xc0"), NULL, 1 },
	{ TLB_LOAD_WALKS, X("cpu", "event=0x12,umask=0x0e"),
	  "DTLB_LOAD_MISSES.WALK_COMPLETED", 1 },
	{ TLB_STORE_WALKS, X("cpu", "event=0x13,umask=0x0e"),
	  "DTLB_STORE_MISSES.WALK_COMPLETED", 1 },
	{ TLB_ITLB_WALKS, X("cpu", "event=0x11,umask=0x0e"),
	  "ITLB_MISSES.WALK_COMPLETED", 1 },
};

/* Gracemont (Alder Lake E-cores): other event codes, no walk-active or
 * STLB-hit event in perf's table. */
static const struct tlb_event adl_e[] = {
	{ TLB_CYCLES, X("cpu_atom", "event=0x3c"), "CPU_CLK_UNHALTED.CORE_P", 1 },
	{ TLB_INSTRUCTIONS, X("cpu_atom", "event=0xc0"), "INST_RETIRED.ANY_P", 1 },
	{ TLB_LOAD_WALKS, X("cpu_atom", "event=0x08,umask=0x0e"),
	  "DTLB_LOAD_MISSES.WALK_COMPLETED", 1 },
	{ TLB_STORE_WALKS, X("cpu_atom", "event=0x49,umask=0x0e"),
	  "DTLB_STORE_MISSES.WALK_COMPLETED", 1 },
	{ TLB_ITLB_WALKS, X("cpu_atom", "event=0x85,umask=0x0e"),
	  "ITLB_MISSES.WALK_COMPLETED", 1 },
};

/* arm64: the PMUv3 common events by number, which every Neoverse core
 * implements; perf's names are their ArchStdEvent. */
static const struct tlb_event neoverse[] = {
	{ TLB_CYCLES, "r11", "CPU_CYCLES", 1 },
	{ TLB_INSTRUCTIONS, "r08", "INST_RETIRED", 1 },
	{ TLB_WALKS, "r34", "DTLB_WALK", 1 },
	{ TLB_L1D_REFILLS, "r05", "L1D_TLB_REFILL", 1 },
	{ TLB_L2_REFILLS, "r2d", "L2D_TLB_REFILL", 1 },
	{ TLB_ITLB_WALKS, "r35", "ITLB_WALK", 1 },
};

/* The same; perf's neoverse-n2-v2 INST_RETIRED entry is not among the
 * excerpts the role test reads. */
static const struct tlb_event neoverse_v2[] = {
	{ TLB_CYCLES, "r11", "CPU_CYCLES", 1 },
	{ TLB_INSTRUCTIONS, "r08", NULL, 1 },
	{ TLB_WALKS, "r34", "DTLB_WALK", 1 },
	{ TLB_L1D_REFILLS, "r05", "L1D_TLB_REFILL", 1 },
	{ TLB_L2_REFILLS, "r2d", "L2D_TLB_REFILL", 1 },
	{ TLB_ITLB_WALKS, "r35", "ITLB_WALK", 1 },
};

#define NOTE_INTEL "walks are page walks completed (WALK_COMPLETED), not started"
#define NOTE_EPT NOTE_INTEL "; walk cycles exclude EPT walks (in a guest they undercount)"
#define NOTE_DEMAND NOTE_INTEL "; walk cycles and load walks count demand loads only (not prefetches)"
#define NOTE_AMD "walks are L1 DTLB misses that missed the L2 DTLB: page walks requested (event 0x45), not completed as Intel's; Zen has no walk-cycles event"
#define NOTE_RAW(dir) "; raw encodings taken from perf's JSON (tools/perf/pmu-events/arch/" dir "), not libpfm4 names"
#define NOTE_ARM "tlb.dtlb_walks is DTLB_WALK (translation table walks); L1D_TLB_REFILL counts refills from the L2 TLB or a walk, not walks; L2D_TLB_REFILL counts data and instruction refills; no walk-cycles or STLB-hit event; PMUv3 common events by number"

#define P(k, p, f, m, d, u, n, e)						\
	{ .key = k, .pmu = p, .pfm = f, .model = m, .perf_dir = d,		\
	  .perf_unit = u, .notes = n, .ev = e, .nev = ARRAY_SIZE(e) }
#define PFM(k, pmu, m, d, n, e) P(k, pmu, pmu, m, d, NULL, n, e)
#define RAW(k, f, m, d, u, n, e) P(k, "", f, m, d, u, n NOTE_RAW(d), e)

static const struct tlb_profile profiles[] = {
	PFM("hsw", "hsw", "Intel Haswell (client)", "x86/haswell", NOTE_INTEL, hsw),
	PFM("hsw_ep", "hsw_ep", "Intel Haswell-EP (server)", "x86/haswellx", NOTE_INTEL, hsw_ep),
	PFM("bdw", "bdw", "Intel Broadwell (client)", "x86/broadwell", NOTE_INTEL, bdw),
	PFM("bdw_ep", "bdw_ep", "Intel Broadwell-EP (server)", "x86/broadwellx", NOTE_INTEL, bdw_ep),
	PFM("skl", "skl", "Intel Skylake (client)", "x86/skylake", NOTE_EPT, skl),
	PFM("skx", "skx", "Intel Skylake-SP (server)", "x86/skylakex", NOTE_EPT, skx),
	PFM("clx", "clx", "Intel Cascade Lake (server)", "x86/cascadelakex", NOTE_EPT, clx),
	PFM("icl", "icl", "Intel Ice Lake (client)", "x86/icelake", NOTE_DEMAND, icl),
	PFM("icx", "icx", "Intel Ice Lake-SP (server)", "x86/icelakex", NOTE_DEMAND, icx),
	PFM("spr", "spr", "Intel Sapphire Rapids (server)", "x86/sapphirerapids", NOTE_DEMAND, spr),
	RAW("emr", NULL, "Intel Emerald Rapids (server)", "x86/emeraldrapids", NULL, NOTE_DEMAND, emr),
	RAW("gnr", NULL, "Intel Granite Rapids (server)", "x86/graniterapids", NULL,
	    NOTE_INTEL "; perf's table has no walk-active or STLB-hit event for it: no walk cycles, no STLB hits", gnr),
	RAW("adl_p", NULL, "Intel Alder/Raptor Lake P-cores (hybrid, cpu_core PMU)", "x86/alderlake", "cpu_core",
	    NOTE_DEMAND "; hybrid: counts only while the task runs on a P-core (pin it there with taskset; THPBENCH_TLB_MODEL=adl_e for the E-cores)", adl_p),
	RAW("adl_e", NULL, "Intel Alder/Raptor Lake E-cores (hybrid, cpu_atom PMU)", "x86/alderlake", "cpu_atom",
	    NOTE_INTEL "; hybrid: counts only while the task runs on an E-core; Gracemont has no walk-active or STLB-hit event in perf's table", adl_e),
	PFM("zen1", "amd64_fam17h_zen1", "AMD Zen", "x86/amdzen1", NOTE_AMD, zen1),
	PFM("zen2", "amd64_fam17h_zen2", "AMD Zen 2", "x86/amdzen2", NOTE_AMD, zen2),
	PFM("zen3", "amd64_fam19h_zen3", "AMD Zen 3", "x86/amdzen3", NOTE_AMD, zen3),
	RAW("zen4", "amd64_fam19h_zen4", "AMD Zen 4", "x86/amdzen4", NULL,
	    NOTE_AMD "; libpfm4 4.13 knows Zen 4 (amd64_fam19h_zen4) but detects model 0x11 only", zen4),
	RAW("zen5", NULL, "AMD Zen 5", "x86/amdzen5", NULL, NOTE_AMD, zen5),
	RAW("neoverse_n1", NULL, "Arm Neoverse N1", "arm64/arm/cortex-a76-n1", NULL, NOTE_ARM, neoverse),
	RAW("neoverse_n2", NULL, "Arm Neoverse N2", "arm64/arm/neoverse-n2", NULL, NOTE_ARM, neoverse),
	RAW("neoverse_v1", NULL, "Arm Neoverse V1", "arm64/arm/neoverse-v1", NULL, NOTE_ARM, neoverse),
	RAW("neoverse_v2", NULL, "Arm Neoverse V2", "arm64/arm/neoverse-n2-v2", NULL, NOTE_ARM, neoverse_v2),
};

static const struct tlb_event generic_ev[] = {
	{ TLB_CYCLES, "cycles", NULL, 1 },
	{ TLB_INSTRUCTIONS, "instructions", NULL, 1 },
	{ TLB_LOAD_MISSES, "dTLB-load-misses", NULL, 1 },
	{ TLB_STORE_MISSES, "dTLB-store-misses", NULL, 1 },
};

static const struct tlb_profile generic = {
	.key = "generic", .pmu = "", .pfm = NULL,
	.model = "perf's generic events (no TLB profile for this CPU)",
	.perf_dir = "", .perf_unit = NULL,
	.notes = "dTLB-load-misses and dTLB-store-misses are whatever the kernel maps them to on this CPU (on Zen the store one is nothing; on arm64 the load one is L1D_TLB_REFILL, refills, not walks)",
	.ev = generic_ev, .nev = ARRAY_SIZE(generic_ev),
};

static const struct {
	const char *metric, *text;
} roles[TLB_NROLES] = {
	[TLB_CYCLES] = { "tlb.cycles", "core cycles, not halted" },
	[TLB_INSTRUCTIONS] = { "tlb.instructions", "instructions retired" },
	[TLB_LOAD_WALKS] = { "tlb.dtlb_load_walks",
			     "loads that missed every TLB level: page walks completed" },
	[TLB_STORE_WALKS] = { "tlb.dtlb_store_walks",
			      "stores that missed every TLB level: page walks completed" },
	[TLB_WALKS] = { "tlb.dtlb_walks",
			"loads and stores that missed every TLB level (page walks)" },
	[TLB_LOAD_WALK_CYCLES] = { "tlb.load_walk_cycles",
				   "cycles with a load page walk in progress" },
	[TLB_STORE_WALK_CYCLES] = { "tlb.store_walk_cycles",
				    "cycles with a store page walk in progress" },
	[TLB_STLB_LOAD_HITS] = { "tlb.stlb_load_hits",
				 "load dTLB misses that hit the second-level TLB" },
	[TLB_STLB_STORE_HITS] = { "tlb.stlb_store_hits",
				  "store dTLB misses that hit the second-level TLB" },
	[TLB_STLB_HITS] = { "tlb.stlb_hits",
			    "dTLB misses that hit the second-level TLB" },
	[TLB_ITLB_WALKS] = { "tlb.itlb_walks",
			     "instruction fetches that missed every TLB level (page walks)" },
	[TLB_L1D_REFILLS] = { "tlb.l1d_tlb_refills",
			      "L1 data TLB refills, from the L2 TLB or a walk (not walks)" },
	[TLB_L2_REFILLS] = { "tlb.l2_tlb_refills",
			     "L2 TLB refills, data and instruction side" },
	[TLB_LOAD_MISSES] = { "tlb.dtlb_load_misses",
			      "perf's dTLB-load-misses (the kernel picks the event)" },
	[TLB_STORE_MISSES] = { "tlb.dtlb_store_misses",
			       "perf's dTLB-store-misses (the kernel picks the event)" },
};

size_t tlb_profile_count(void)
{
	return ARRAY_SIZE(profiles);
}

const struct tlb_profile *tlb_profile_at(size_t i)
{
	return i < ARRAY_SIZE(profiles) ? &profiles[i] : NULL;
}

const struct tlb_profile *tlb_profile_find(const char *pmu)
{
	size_t i;

	for (i = 0; i < ARRAY_SIZE(profiles); i++)
		if (profiles[i].pfm && !strcmp(profiles[i].pfm, pmu))
			return &profiles[i];
	return NULL;
}

const struct tlb_profile *tlb_profile_by_key(const char *key)
{
	size_t i;

	for (i = 0; i < ARRAY_SIZE(profiles); i++)
		if (!strcmp(profiles[i].key, key))
			return &profiles[i];
	return NULL;
}

const struct tlb_profile *tlb_profile_generic(void)
{
	return &generic;
}

const char *tlb_role_metric(enum tlb_role r)
{
	return (size_t)r < TLB_NROLES ? roles[r].metric : "tlb.?";
}

const char *tlb_role_text(enum tlb_role r)
{
	return (size_t)r < TLB_NROLES ? roles[r].text : "?";
}

static const char *model_env(void)
{
	const char *m = getenv("THPBENCH_TLB_MODEL");

	return m && *m ? m : NULL;
}

int tlb_model_check(char *err, size_t len)
{
	const char *m = model_env();
	size_t i, off;

	if (!m || tlb_profile_by_key(m))
		return 0;
	off = (size_t)snprintf(err, len, "THPBENCH_TLB_MODEL=%.40s%s: no such TLB profile; known models:",
			       m, strlen(m) > 40 ? "..." : "");
	for (i = 0; i < ARRAY_SIZE(profiles) && off < len; i++)
		off += (size_t)snprintf(err + off, len - off, " %s", profiles[i].key);
	return -1;
}

void tlb_model_prepare(void)
{
	const char *m = model_env();
	const struct tlb_profile *p = m ? tlb_profile_by_key(m) : NULL;

	if (p && p->pmu[0])
		setenv("LIBPFM_FORCE_PMU", p->pmu, 0);
}

/* A present core PMU with a profile wins over one without (Zen 1 is both
 * amd64_fam17h, deprecated, and amd64_fam17h_zen1). */
static void detect_libpfm(struct tlb_host *h)
{
	const char *forced = getenv("LIBPFM_FORCE_PMU");
	const struct tlb_profile *p;
	pfm_pmu_info_t info;
	pfm_pmu_t pmu;

	tlb_model_prepare();
	if (pfm_initialize() != PFM_SUCCESS)
		return;
	pfm_for_all_pmus(pmu) {
		memset(&info, 0, sizeof(info));
		info.size = sizeof(info);
		if (pfm_get_pmu_info(pmu, &info) != PFM_SUCCESS ||
		    !info.is_present || info.type != PFM_PMU_TYPE_CORE)
			continue;
		p = tlb_profile_find(info.name);
		if (!p && h->pmu[0])
			continue;
		snprintf(h->pmu, sizeof(h->pmu), "%s", info.name);
		snprintf(h->desc, sizeof(h->desc), "%s", info.desc);
		if (p) {
			h->profile = p;
			h->chosen_by = forced && *forced ? "LIBPFM_FORCE_PMU" : "libpfm4";
			return;
		}
	}
}

void tlb_host_detect(struct tlb_host *h)
{
	const char *m = model_env(), *key;

	memset(h, 0, sizeof(*h));
	h->profile = &generic;
	h->chosen_by = "none";
	if (m && tlb_model_check(h->error, sizeof(h->error)))
		return;
	detect_libpfm(h);
	if (m) {
		h->profile = tlb_profile_by_key(m);
		h->chosen_by = "THPBENCH_TLB_MODEL";
		return;
	}
	if (h->profile != &generic)
		return;
	key = tlb_cpuinfo_key(NULL);
	if (key && tlb_profile_by_key(key)) {
		h->profile = tlb_profile_by_key(key);
		h->chosen_by = "/proc/cpuinfo";
	}
}

/* --- derived figures ------------------------------------------------- */

struct derived {
	const char *name;
	const char *sum[2];	/* added (the second may be NULL) */
	const char *per;	/* divided by, or NULL */
	double scale;
	const char *text;
};

/* In order: later ones use earlier ones (walks_pki uses dtlb_walks). */
static const struct derived derived[] = {
	{ "tlb.dtlb_walks", { "tlb.dtlb_load_walks", "tlb.dtlb_store_walks" },
	  NULL, 1, "load + store page walks" },
	{ "tlb.stlb_hits", { "tlb.stlb_load_hits", "tlb.stlb_store_hits" },
	  NULL, 1, "load + store STLB hits" },
	{ "tlb.walk_cycles_pct",
	  { "tlb.load_walk_cycles", "tlb.store_walk_cycles" }, "tlb.cycles", 100,
	  "100 * (load + store walk cycles) / cycles" },
	{ "tlb.walks_pki", { "tlb.dtlb_walks", NULL }, "tlb.instructions", 1000,
	  "page walks per 1000 instructions" },
	{ "tlb.misses_pki", { "tlb.dtlb_load_misses", "tlb.dtlb_store_misses" },
	  "tlb.instructions", 1000, "dTLB misses per 1000 instructions" },
};

struct inputs {
	const char *name[3];
	size_t n;
};

static void derived_inputs(const struct derived *d, struct inputs *in)
{
	in->n = 0;
	in->name[in->n++] = d->sum[0];
	if (d->sum[1])
		in->name[in->n++] = d->sum[1];
	if (d->per)
		in->name[in->n++] = d->per;
}

/* "<not supported>: why" of an input becomes "<not supported>: derived
 * from INPUT: why", keeping the marker the tables show. */
static void not_counted_from(const char *name, const char *input,
			     const char *why, struct note_set *unsupported)
{
	const char *end = why[0] == '<' ? strstr(why, ">: ") : NULL;
	char reason[320];

	if (end)
		snprintf(reason, sizeof(reason), "%.*s: derived from %s: %s",
			 (int)(end + 1 - why), why, input, end + 3);
	else
		snprintf(reason, sizeof(reason), "derived from %s: %s", input,
			 why);
	note_set_put(unsupported, name, reason);
}

static void derive_one(const struct derived *d, struct metric_set *metrics,
		       struct metric_set *counted_pct, struct note_set *unsupported)
{
	const struct metric *m, *c;
	const struct note *why;
	struct inputs in;
	double v[3], share = 100;
	char reason[320];
	size_t i;

	if (metric_set_find(metrics, d->name) || note_set_find(unsupported, d->name))
		return;
	derived_inputs(d, &in);
	for (i = 0; i < in.n; i++) {
		m = metric_set_find(metrics, in.name[i]);
		why = note_set_find(unsupported, in.name[i]);
		if (!m && !why)
			return;		/* not this profile's figure */
		if (!m) {
			not_counted_from(d->name, in.name[i], why->reason,
					 unsupported);
			return;
		}
		v[i] = m->value;
		c = metric_set_find(counted_pct, in.name[i]);
		if (c && c->value < share)
			share = c->value;
	}
	if (d->per && v[in.n - 1] == 0) {
		snprintf(reason, sizeof(reason),
			 "<not counted>: %s was 0, nothing to divide by", d->per);
		note_set_put(unsupported, d->name, reason);
		return;
	}
	v[0] += d->sum[1] ? v[1] : 0;
	metric_set_put(metrics, d->name,
		       d->scale * v[0] / (d->per ? v[in.n - 1] : 1));
	metric_set_put(counted_pct, d->name, share);
}

static bool profile_has(const struct tlb_profile *p, const char *metric,
			const bool *applies)
{
	size_t i;

	for (i = 0; i < p->nev; i++)
		if (!strcmp(tlb_role_metric(p->ev[i].role), metric))
			return true;
	for (i = 0; i < ARRAY_SIZE(derived); i++)
		if (applies[i] && !strcmp(derived[i].name, metric))
			return true;
	return false;
}

size_t tlb_profile_derived(const struct tlb_profile *p, const char **names,
			   const char **texts, size_t max)
{
	bool applies[ARRAY_SIZE(derived)] = { false };
	struct inputs in;
	size_t i, k, n = 0;

	for (i = 0; i < ARRAY_SIZE(derived); i++) {
		derived_inputs(&derived[i], &in);
		if (profile_has(p, derived[i].name, applies))
			continue;	/* counted as an event on this model */
		applies[i] = true;
		for (k = 0; k < in.n; k++)
			applies[i] &= profile_has(p, in.name[k], applies);
		if (applies[i] && n < max) {
			names[n] = derived[i].name;
			texts[n++] = derived[i].text;
		}
	}
	return n;
}

json_t *tlb_host_json(const struct tlb_host *h)
{
	const struct tlb_profile *p = h->profile;
	json_t *o = json_object(), *ev = json_object(), *dv = json_object();
	const char *names[ARRAY_SIZE(derived)], *texts[ARRAY_SIZE(derived)];
	struct inputs in;
	size_t i, k, j, n;

	json_object_set_new(o, "key", json_string(p->key));
	json_object_set_new(o, "pmu", json_string(p->pmu));
	json_object_set_new(o, "model", json_string(p->model));
	json_object_set_new(o, "chosen_by", json_string(h->chosen_by ? h->chosen_by : "none"));
	json_object_set_new(o, "encoding", json_string(p->pmu[0] ? "libpfm4 names" :
			    p->perf_dir[0] ? "raw, from perf's JSON" : "perf generic names"));
	if (p->perf_dir[0])
		json_object_set_new(o, "perf_json", json_string(p->perf_dir));
	json_object_set_new(o, "notes", json_string(p->notes));
	if (!p->pmu[0] && h->pmu[0])
		json_object_set_new(o, "cpu_pmu", json_string(h->pmu));
	for (i = 0; i < p->nev; i++)
		json_object_set_new(ev, tlb_role_metric(p->ev[i].role),
				    json_string(p->ev[i].event));
	n = tlb_profile_derived(p, names, texts, ARRAY_SIZE(names));
	for (i = 0; i < n; i++)
		for (k = 0; k < ARRAY_SIZE(derived); k++) {
			json_t *d, *from;

			if (strcmp(derived[k].name, names[i]))
				continue;
			derived_inputs(&derived[k], &in);
			from = json_array();
			for (j = 0; j < in.n; j++)
				json_array_append_new(from, json_string(in.name[j]));
			d = json_pack("{s:o, s:s}", "from", from, "is", texts[i]);
			json_object_set_new(dv, names[i], d);
		}
	json_object_set_new(o, "events", ev);
	json_object_set_new(o, "derived", dv);
	return o;
}

void tlb_derive(struct metric_set *metrics, struct metric_set *counted_pct,
		struct note_set *unsupported)
{
	size_t i;

	for (i = 0; i < ARRAY_SIZE(derived); i++)
		derive_one(&derived[i], metrics, counted_pct, unsupported);
}
