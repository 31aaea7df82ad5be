/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * compare_coverage - the path coverage table of a results set: for every
 * THP event counter the run recorded, which cases moved it and by how
 * much per repetition beyond the background, and which counters nothing
 * moved, with the reason where it is known.
 *
 * The counters: vmstat thp_* (thp_migration_* among them), compact_*,
 * htlb_*, numa_huge_*, recorded as "vmstat.NAME" deltas, and each mTHP
 * size's event stats, "mthp.SIZE.NAME" (measure/vmstat.h, mthp_stats.h);
 * levels (".before"/".after") are not events and are left out. A row is
 * a kind: a vmstat counter, or one mTHP stat over all sizes (a hit then
 * names the size). Kinds this module knows a 6.x kernel has
 * (COMPARE_COV_KNOWN) but the results lack are listed as not exposed by
 * this kernel.
 *
 * Moved, per case and counter: the mean delta per ok repetition, x, less
 * the background b: the mean over the case's idle intervals
 * (measure/background.h) of each interval's delta scaled to the case's
 * mean wall_usec (delta / interval wall * case wall). Moved when
 *   x - b >= COMPARE_COV_MIN_EVENTS  (half an event a repetition: less
 *                                     is not a path the case drives) and
 *   x - b >  COMPARE_COV_K * s       (s: the sample standard deviation of
 *                                     the scaled intervals, 0 for one)
 * A case with no intervals is judged against b = 0 and s = 0 and the
 * table says so: its figures include the machine's own activity.
 */
#ifndef THPBENCH_COMPARE_COVERAGE_H
#define THPBENCH_COMPARE_COVERAGE_H

#include <jansson.h>
#include <stdbool.h>
#include <stdio.h>

#include "results/results.h"

#define COMPARE_COV_K 3.0
#define COMPARE_COV_MIN_EVENTS 0.5
#define COMPARE_COV_SCHEMA "thpbench-coverage/1"

enum compare_cov_family {
	COMPARE_COV_THP,	/* vmstat thp_* */
	COMPARE_COV_MTHP,	/* per-size mTHP stats */
	COMPARE_COV_COMPACT,
	COMPARE_COV_HTLB,
	COMPARE_COV_NUMA,
	COMPARE_COV_NFAMILIES
};

/* One case that moved a kind (for an mTHP kind: at one size). */
struct compare_cov_hit {
	size_t case_idx;
	char size[16];		/* "64K"; "" for a vmstat counter */
	double excess;		/* mean - background, per repetition */
	double mean, background, spread;
	size_t nruns, nbg;
	bool moved;		/* beyond the background (above) */
};

struct compare_cov_row {
	char *kind;		/* "thp_split_pmd", "anon_fault_alloc" */
	enum compare_cov_family family;
	bool exposed;		/* recorded in the results */
	double bg_max;		/* largest background mean seen, any case */
	struct compare_cov_hit *hits;	/* the cases that moved it */
	size_t nhits, cap;
	struct compare_cov_hit *cells;	/* every case that recorded it */
	size_t ncells, ccap;
	char *reason;		/* when nothing moved it; owned */
};

struct compare_coverage {
	const struct tb_results *res;
	struct compare_cov_row *rows;
	size_t n, cap;
	size_t cases_bg;	/* cases with idle intervals */
	size_t cases_ok;	/* cases with ok repetitions */
};

/* Build the table of r (which must outlive it). */
void compare_coverage_build(const struct tb_results *r,
			    struct compare_coverage *cov);
/* Kinds of a family moved / exposed. */
void compare_coverage_count(const struct compare_coverage *cov,
			    enum compare_cov_family f, size_t *moved,
			    size_t *total);
void compare_coverage_text(FILE *f, const struct compare_coverage *cov);
json_t *compare_coverage_json(const struct compare_coverage *cov);
void compare_coverage_free(struct compare_coverage *cov);

#endif
