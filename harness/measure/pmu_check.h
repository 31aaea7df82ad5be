/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * pmu_check - do this machine's TLB counters tell the truth? Judged on a
 * known loop: workloads/pchase chases pointers through N pages, one load
 * per page per pass, in one random cycle, backed by 4 KiB or by 2 MiB
 * pages (configs/pmu-check.conf; `./run.sh pmu-check`).
 *
 * What the loop makes certain, whatever the model (the assumptions):
 *   - 4 KiB pages, N >= 16384 (64 MiB): no core's TLBs hold that many
 *     4 KiB entries (the largest second-level TLBs have about 3000), and
 *     the random order defeats prefetching, so nearly every load misses
 *     every TLB level and walks: walks per load near 1. A counter that
 *     reads under PMU_MIN_4K_RATE (0.5) or over PMU_MAX_RATE (4) per load
 *     is counting something else, or nothing.
 *   - 2 MiB pages over the same memory are N/512 entries (128 for 256
 *     MiB), which the second-level TLB holds: walks per load near 0. With
 *     4 KiB pages there must be at least PMU_MIN_CONTRAST (10) times more
 *     walks per load.
 *   - walks grow with the loads: going from the smallest to the largest N
 *     (at least PMU_MIN_SPAN = 2x the loads) the walks must grow by the
 *     same factor within PMU_SCALE_TOL (1.5x either way).
 *   - where walk cycles are counted, 4 KiB pages spend a larger share of
 *     cycles walking than 2 MiB pages.
 * Multiplexed counts are used (scaled, as perf does) and the share noted;
 * below COUNTED_WARN_PCT the note is a warning.
 *
 * Verdicts: PMU_BEHAVES (every check holds), PMU_MISBEHAVES (one fails:
 * the counters, or their encodings, cannot be trusted for TLB claims),
 * PMU_CANNOT_TELL (no PMU, events never counted, the 2 MiB case got no
 * huge pages, or too few runs or sizes: the reason says which).
 */
#ifndef THPBENCH_PMU_CHECK_H
#define THPBENCH_PMU_CHECK_H

#include <stdio.h>

#include "results/results.h"

#define PMU_MIN_RUNS 3
#define PMU_MIN_4K_RATE 0.5
#define PMU_MAX_RATE 4.0
#define PMU_MIN_CONTRAST 10.0
#define PMU_MIN_SPAN 2.0
#define PMU_SCALE_TOL 1.5
#define PMU_MAX_POINTS 16

/* One case of the chase: a backing and a number of pages. */
struct pmu_point {
	const char *id;		/* the case's id */
	unsigned int page_kb;	/* 4 or 2048 */
	double pages;
	size_t runs;		/* ok runs */
	size_t huge_runs;	/* of those, huge-page backed */
	double accesses;	/* mean loads chased */
	double walks;		/* mean page walks; NAN: not counted */
	double walk_cycles_pct;	/* mean share of cycles walking; NAN: none */
	double counted_min;	/* least share the walks were counted; NAN */
	char why[256];		/* why the walks were not counted */
};

struct pmu_data {
	char model[128];	/* env.tlb_profile.model, "" if absent */
	char notes[512];	/* env.tlb_profile.notes: what its events count */
	char walk_metric[48];	/* the metric read as walks */
	bool pmu;		/* env.pmu: a hardware counter opened */
	struct pmu_point pt[PMU_MAX_POINTS];
	size_t n;
};

/* The chase's cases of a results file (those with the pages and page_kb
 * metrics). -1 with err set when there are none, or too many. */
int pmu_data_from_results(const struct tb_results *r, struct pmu_data *d,
			  char *err, size_t errlen);

enum pmu_verdict {
	PMU_BEHAVES,
	PMU_MISBEHAVES,
	PMU_CANNOT_TELL,
};

enum pmu_state { PMU_FAIL, PMU_OK, PMU_UNKNOWN, PMU_NOTE };

struct pmu_finding {
	enum pmu_state state;
	char text[384];
};

struct pmu_judgement {
	enum pmu_verdict verdict;
	struct pmu_finding f[12];
	size_t nf;
};

void pmu_judge(const struct pmu_data *d, struct pmu_judgement *j);

/* The table of points, each finding ("ok:", "FAIL:", "?:", "note:") and
 * the verdict line. */
void pmu_print(FILE *f, const struct pmu_data *d, const struct pmu_judgement *j);

const char *pmu_verdict_text(enum pmu_verdict v);

#endif
