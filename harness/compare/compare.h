/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * compare - A/B comparison of results: which cases pair up, whether the
 * environments allow the comparison, and every statistic per metric.
 *
 * Pairing:
 *   files       BASE vs NEW: cases with the same workload, arguments,
 *               environment variables and THP mode (label and kernel are
 *               what differ). With several candidates, the same id, then
 *               the same name, then file order decides.
 *   --by thp    inside one file: cases with the same workload, arguments,
 *               environment and label; each THP mode against the base mode
 *               (--base, else the first in file order).
 *   --by label  inside one file: same workload, arguments and THP mode
 *               (environment may differ: a label often names a tunable);
 *               each label against the base label.
 * A case that finds no partner is kept in `unmatched` with the reason.
 *
 * Environment (files only): a different hostname, cpu, nr_cpus or machine,
 * any different env.thp knob (but "enabled" when every paired case set its
 * own mode), or different per-case settings (but the THP mode knob under
 * --by thp) invalidate the comparison; compare_build() then fails unless
 * opts.force, and the differences are in `diffs` either way (exempt knobs
 * are left out: they differ by design). Kernel,
 * glibc, memory and hugetlb pools are reported, never blocking.
 *
 * Per metric of a pair: summaries of the ok runs, outliers (flagged, kept),
 * the change with its interval and the Welch test on the same scale
 * (hypothesis.h change_ci(): log scale when every value is > 0, else the
 * difference), Mann-Whitney, and the verdict (verdict.h). Multiplicity:
 * the judged metrics of a pair form two families, directional and neutral
 * (so dozens of vmstat counters do not dilute the timing metric); in a
 * family of m, p is Bonferroni-adjusted (m p, at most 1) and the interval
 * is at confidence 1 - alpha/m, so the interval excludes 0 exactly when
 * the adjusted Welch p is below alpha, and "the interval lies beyond the
 * threshold" implies "significant". Not judged, and in no family: metrics
 * that are 0 in every run on both sides, and gauges (levels such as
 * vmstat.nr_*, metric_info.h) unless opts.judge_gauges. The test deciding
 * significance is opts.test; Mann-Whitney can disagree with the Welch
 * interval, and the verdict's reason then says so. The smallest detectable
 * change and the runs needed are those of the verdict rule itself.
 */
#ifndef THPBENCH_COMPARE_H
#define THPBENCH_COMPARE_H

#include <stdbool.h>
#include <stddef.h>

#include "stats/hypothesis.h"
#include "stats/metric_info.h"
#include "results/results.h"
#include "stats/stats.h"
#include "stats/verdict.h"

enum compare_by {
	COMPARE_FILES,
	COMPARE_BY_THP,
	COMPARE_BY_LABEL,
	COMPARE_BY_MTHP,	/* the "mthp" dimension (measure/axes.h) */
	COMPARE_BY_MEM,		/* the "mem" dimension */
};

enum compare_test {
	COMPARE_TEST_WELCH,
	COMPARE_TEST_MW,
	COMPARE_TEST_BOTH,	/* both must be significant */
};

/* "files", "thp", "label", "mthp", "mem"; -1 when s is none but files. */
const char *compare_by_name(enum compare_by by);
int compare_by_parse(const char *s);
/* In words: "THP mode", "label", "mTHP size", "memory state". */
const char *compare_by_what(enum compare_by by);
/* What a case is along by ("always", "64K"); "" when it has no value. */
const char *compare_by_value(const struct tb_case *c, enum compare_by by);

const char *compare_test_name(enum compare_test t);
int compare_test_parse(const char *s);

struct compare_opts {
	enum compare_by by;
	const char *base_value;	/* --base: THP mode or label; NULL: first */
	double confidence;	/* 0.95 */
	double threshold;	/* default noise threshold, 0.02 */
	double power;		/* for the detectable change, 0.8 */
	enum compare_test test;
	enum outlier_method outliers;
	char **metrics;		/* globs selecting metrics; none: all */
	size_t nmetrics;
	const struct metric_override *ov;
	size_t nov;
	bool force;
	bool judge_gauges;	/* give gauges (levels) verdicts too */
	const char *base_path, *new_path;	/* as given; new_path NULL for --by */
	const char *command;	/* this compare command line, to reproduce */
	const char **charts;	/* chart files a cover letter names (--chart) */
	size_t ncharts;
	const char *origin;	/* KCIDB origin of the kcidb format; NULL: "thpbench" */
};

void compare_opts_init(struct compare_opts *o);

struct compare_side {
	double *v;
	size_t n;
	struct summary s;
	double ci_lo, ci_hi;	/* interval of the mean at opts.confidence */
	bool *outlier;
	size_t noutliers;
	double counted_min;	/* least share of its enabled time the event
				 * was counting over the ok runs, percent;
				 * NAN when none recorded (not a counter) */
};

struct compare_metric {
	char *name;
	struct metric_info info;
	struct compare_side a, b;
	bool tested;		/* both sides have >= VERDICT_MIN_N values */
	bool judged;		/* tested, not all zero, not an unjudged gauge */
	size_t family;		/* metrics in its family (1 when not judged) */
	struct welch w;		/* raw scale, at opts.confidence, unadjusted */
	struct mann_whitney mw;
	double p_welch_adj, p_mw_adj, p;	/* p: the deciding one */
	struct change ch;	/* the one estimate every output shows */
	double mde;		/* smallest change the verdict rule detects */
	double target;		/* the change n_needed is for (2 x threshold) */
	size_t n_needed;	/* per side for target; 0: cannot tell */
	enum verdict verdict;
};

/* 0 in every run on both sides: not judged, folded out of tables and the
 * tally (csv and json keep it). */
bool compare_metric_all_zero(const struct compare_metric *m);

struct compare_pair {
	const struct tb_case *a, *b;
	char *title;		/* what was run: "mremap --size 1G thp=always" */
	char *a_name, *b_name;	/* what differs: labels, or "thp=never" */
	size_t a_bad, b_bad;	/* runs not ok, excluded */
	struct compare_metric *m;
	size_t nm;
	char **only_a, **only_b;	/* metrics measured on one side only */
	size_t nonly_a, nonly_b;
	char **notes;		/* unsupported metrics, small n, bad runs */
	size_t nnotes;
};

struct compare_unmatched {
	const struct tb_case *c;
	const char *side;	/* "base", "new", or the file for --by */
	char *why;
};

struct compare_diff {
	char *what;		/* "hostname", "thp.defrag", "settings of mremap/..." */
	char *a, *b;
	bool blocking;
};

struct comparison {
	struct compare_opts opts;
	const struct tb_results *ra, *rb;
	struct compare_pair *pairs;
	size_t npairs, cap;
	struct compare_unmatched *un;
	size_t nun, ucap;
	struct compare_diff *diffs;
	size_t ndiffs, dcap;
	bool blocking;		/* some diff invalidates the comparison */
	struct comparison *prof;	/* where the profile shares come from
					 * (compare_profile.h); NULL: these pairs */
};

/*
 * Pair the cases of ra and rb (the same pointer for --by), check the
 * environments and compute everything. -1 with err set when the
 * environments differ in a blocking way (and !opts->force), when nothing
 * pairs up, or when no pair has 3 ok runs on both sides; *c is still
 * filled (diffs, unmatched) for the caller to print, and must be freed.
 */
int compare_build(struct comparison *c, const struct tb_results *ra,
		  const struct tb_results *rb, const struct compare_opts *opts,
		  char *err, size_t errlen);
void compare_free(struct comparison *c);

/* Metrics with verdict v, leaving out those 0 in every run on both sides. */
size_t compare_count(const struct comparison *c, enum verdict v);

/* Environment value as text ("" when absent), for headers. */
const char *compare_env_str(const struct tb_results *r, const char *key,
			    char *buf, size_t len);

#endif
