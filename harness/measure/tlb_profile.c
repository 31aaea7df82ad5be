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
#include <string.h>

#include <perfmon/pfmlib.h>

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

#define PROFILE(pmu, model, dir, ev) { pmu, model, dir, ev, ARRAY_SIZE(ev) }

static const struct tlb_profile profiles[] = {
	PROFILE("hsw", "Intel Haswell (client)", "x86/haswell", hsw),
	PROFILE("hsw_ep", "Intel Haswell-EP (server)", "x86/haswellx", hsw_ep),
	PROFILE("bdw", "Intel Broadwell (client)", "x86/broadwell", bdw),
	PROFILE("bdw_ep", "Intel Broadwell-EP (server)", "x86/broadwellx", bdw_ep),
	PROFILE("skl", "Intel Skylake (client)", "x86/skylake", skl),
	PROFILE("skx", "Intel Skylake-SP (server)", "x86/skylakex", skx),
	PROFILE("clx", "Intel Cascade Lake (server)", "x86/cascadelakex", clx),
	PROFILE("icl", "Intel Ice Lake (client)", "x86/icelake", icl),
	PROFILE("icx", "Intel Ice Lake-SP (server)", "x86/icelakex", icx),
	PROFILE("spr", "Intel Sapphire Rapids (server)", "x86/sapphirerapids", spr),
	PROFILE("amd64_fam17h_zen1", "AMD Zen", "x86/amdzen1", zen1),
	PROFILE("amd64_fam17h_zen2", "AMD Zen 2", "x86/amdzen2", zen2),
	PROFILE("amd64_fam19h_zen3", "AMD Zen 3", "x86/amdzen3", zen3),
};

static const struct tlb_event generic_ev[] = {
	{ TLB_CYCLES, "cycles", NULL, 1 },
	{ TLB_INSTRUCTIONS, "instructions", NULL, 1 },
	{ TLB_LOAD_MISSES, "dTLB-load-misses", NULL, 1 },
	{ TLB_STORE_MISSES, "dTLB-store-misses", NULL, 1 },
};

static const struct tlb_profile generic = {
	"", "perf's generic events (no TLB profile for this CPU)", "",
	generic_ev, ARRAY_SIZE(generic_ev),
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
		if (!strcmp(profiles[i].pmu, pmu))
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

/* A present core PMU with a profile wins over one without (Zen 1 is both
 * amd64_fam17h, deprecated, and amd64_fam17h_zen1). */
void tlb_host_detect(struct tlb_host *h)
{
	const struct tlb_profile *p;
	pfm_pmu_info_t info;
	pfm_pmu_t pmu;

	memset(h, 0, sizeof(*h));
	h->profile = &generic;
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
			return;
		}
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

	json_object_set_new(o, "pmu", json_string(p->pmu));
	json_object_set_new(o, "model", json_string(p->model));
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
