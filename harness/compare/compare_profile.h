/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * compare_profile - "where the time went": the functions whose profile
 * share (measure/profile.h: prof.self.k:SYM, prof.self.u:SYM, percent of a
 * repetition's samples) changed most between the two sides of a pair.
 *
 * The shares are per-repetition values like any metric; compare has
 * computed their summaries and Welch intervals (they are gauges there, so
 * they neither get verdicts nor dilute the counters' families). Here they
 * are their own family: of the k self shares present on both sides, p is
 * Bonferroni-adjusted (k p, at most 1) and the interval of B - A (in
 * percentage points) is at 1 - alpha/k. A function with no sample in any
 * repetition of one side (present in the other's results) is "absent"
 * there, shown with the other side's mean and interval, never 0 +- 0.
 * Rows: the PROFILE_ROWS largest |B - A| (an absent side counting as 0
 * for the order only); functions under 0.5% on both sides are left out.
 *
 * The other tables leave the prof.* metrics out (compare_format.h:
 * compare_metric_hidden).
 */
#ifndef THPBENCH_COMPARE_PROFILE_H
#define THPBENCH_COMPARE_PROFILE_H

#include <stdbool.h>
#include <stdio.h>

#include "compare.h"

#define PROFILE_ROWS 8
#define PROFILE_ONLY 6

/*
 * A function one side never sampled and the rows leave out (under 0.5%,
 * or past the PROFILE_ROWS): a mechanism one kernel uses and the other
 * does not is a finding however small its share (000's A moves each PMD
 * in move_huge_pmd, well under 1% of its region under icount).
 */
struct profile_only {
	char name[160];
	double mean;		/* self %, over all the side's repetitions */
	size_t seen, reps;	/* repetitions with a sample of it, of all */
};

struct profile_row {
	char name[160];		/* "[k] move_huge_pmd", "main" */
	bool absent_a, absent_b;
	struct summary a, b;	/* of the present sides */
	double a_lo, a_hi, b_lo, b_hi;	/* each mean's interval */
	double diff, lo, hi, p;	/* B - A, its interval, adjusted p; both present */
	bool significant;
};

struct profile_diff {
	struct profile_row rows[PROFILE_ROWS];
	size_t n;
	size_t family;		/* k: self shares present on both sides */
	char event[48];		/* A's meta.profile.event, or "?" */
	long freq;		/* its meta.profile.freq; 0: not recorded */
	struct profile_only only_a[PROFILE_ONLY], only_b[PROFILE_ONLY];
	size_t nonly_a, nonly_b;	/* by mean, largest first */
};

/*
 * Take the profiles from another pair of files (the A/B's profile boots,
 * docs/profiles.md): c->prof becomes their comparison, with c's options
 * but every metric, and each pair's block comes from c->prof's pair with
 * the same title (none: no block). -1 with err set when those files do
 * not compare (compare_build()); c is then unchanged.
 */
int compare_attach_profile(struct comparison *c, const struct tb_results *pa,
			   const struct tb_results *pb, char *err, size_t errlen);

/* Fill d for pair p (from c->prof when attached); false when neither side
 * was profiled. */
bool compare_profile_build(const struct comparison *c,
			   const struct compare_pair *p, struct profile_diff *d);

/* The block as text (compare's text format), indented by two. */
void compare_profile_text(FILE *out, const struct comparison *c,
			  const struct compare_pair *p);

/* The block for a cover letter, <= 72 columns; nothing when unprofiled. */
void compare_profile_cover(FILE *out, const struct comparison *c,
			   const struct compare_pair *p, bool ab);

/* A json object for compare's json format; NULL when unprofiled. */
json_t *compare_profile_json(const struct comparison *c,
			     const struct compare_pair *p);

/*
 * `thpbench run`'s view of one results file: per profiled case, its top
 * n functions by mean self share (mean +- sd over the repetitions).
 */
void compare_profile_top(FILE *out, const struct tb_results *r, size_t n);

#endif
