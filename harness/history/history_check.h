/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * history_check - the verdicts of a nightly history: change points of
 * each series, confirmed on the raw repetitions, with the kernels on
 * either side, and the CI gate.
 *
 * Per series: the night means (nights without values skipped) go through
 * E-Divisive (history_edivisive.h); each candidate is confirmed on the
 * repetitions of up to confirm_nights nights on either side, within its
 * neighbouring change points (history_confirm.h). Its kind:
 *   regression / improvement   confirmed, by the metric's direction
 *   changed                    confirmed, a neutral metric (a counter)
 *   environment                confirmed, but the host fingerprint changed
 *                              within one night of it: new microcode, a
 *                              BIOS setting; not blamed on the kernel
 *   rejected                   the repetitions (or the night means) do
 *                              not show a change beyond the noise threshold
 *
 * Newest-night test: E-Divisive cannot give a one-night tail p below
 * about 1/T, so before 1/alpha nights (and after a wilder earlier night)
 * tonight could never gate. When no change point starts at the newest
 * night and its mean lies beyond every night of the current segment (up
 * to confirm_nights, outlier nights aside; at least HISTORY_NEWEST_MIN)
 * and, from 3 such nights on, outside their prediction interval for one
 * more night (at the confirmation's confidence), it is a candidate too,
 * confirmed the same way and kept only when confirmed (newest_test set,
 * p_split NAN). One night has no night-to-night spread of its own:
 * night-to-night noise beyond the threshold makes false alarms (raise
 * the threshold there).
 *
 * Kernels: the last good is the kernel of the last night before the
 * change, the first bad that of its first night; when both look like git
 * revisions (a hex id of 7-40 digits, `git describe` output ending in
 * -g<hex>, a tag like v6.8-rc1 or next-20260101) and differ, a
 * `git bisect start BAD GOOD` line is ready (for an improvement, with
 * --term-old=slow --term-new=fast).
 *
 * Gate (--fail-on): "newest" (default) fails a series whose newest night
 * starts a confirmed regression; "regression" fails one whose latest
 * confirmed change is a regression (still in effect, also when the night
 * that started it was missed); "none" never fails.
 *
 * Each series gets its own random stream, seeded from the seed and the
 * series' name, so a result never depends on which other series were
 * checked or on the number of threads.
 */
#ifndef THPBENCH_HISTORY_CHECK_H
#define THPBENCH_HISTORY_CHECK_H

#include <stdbool.h>
#include <stddef.h>

#include "history_confirm.h"
#include "history_edivisive.h"
#include "history_series.h"

enum history_fail_on {
	HISTORY_FAIL_NEWEST,
	HISTORY_FAIL_REGRESSION,
	HISTORY_FAIL_NONE,
};

struct history_check_opts {
	struct edv_opts edv;
	struct history_confirm_opts confirm;
	size_t confirm_nights;	/* per side, at most; 20 */
	enum history_fail_on fail_on;
	unsigned threads;	/* 0: one per online CPU */
};

/* Nights before the newest one that the newest-night test needs. */
#define HISTORY_NEWEST_MIN 2

enum hcp_kind {
	HCP_REGRESSION,
	HCP_IMPROVEMENT,
	HCP_CHANGED,
	HCP_ENVIRONMENT,
	HCP_REJECTED,
};

struct history_cp {
	size_t night;		/* index of the first night after the change */
	size_t good;		/* index of the last night before it */
	size_t a_from, b_to;	/* nights used: [a_from, night), [night, b_to) */
	double q, p_split;	/* E-Divisive statistic and permutation p */
	struct history_confirm c;
	enum hcp_kind kind;
	bool kernel_changed;	/* kernel_id differs across the change */
	bool host_changed;	/* fingerprint changed within one night */
	char *bisect;		/* "git bisect start ..." or NULL */
	bool newest_test;	/* found by the newest-night test, not E-Divisive */
};

struct history_result {
	const struct history_series *s;
	enum better better;
	size_t n_used;		/* nights with values */
	size_t n_overflow;	/* nights with values whose mean overflows:
				 * left out, and said (history import refuses
				 * such values now; an older database may
				 * hold them) */
	size_t newest;		/* index of the newest night with values */
	struct history_cp *cp;
	size_t ncp;
	bool newest_regression;	/* the newest night starts a confirmed regression */
	bool open_regression;	/* the latest confirmed change is a regression */
};

void history_check_opts_init(struct history_check_opts *o);
/* -1 when s names no gate. */
int history_fail_on_parse(const char *s);
const char *hcp_kind_name(enum hcp_kind k);

/* Check one series. */
void history_check_series(const struct history_series *s,
			  const struct history_check_opts *o,
			  struct history_result *r);
/* Check v[0..n) (threads per o->threads) into a malloc'ed array. */
struct history_result *history_check_all(const struct history_series *v,
					 size_t n,
					 const struct history_check_opts *o);
void history_results_free(struct history_result *r, size_t n);

/* Does r fail the gate? */
bool history_result_fails(const struct history_result *r,
			  enum history_fail_on f);

/* Whether s looks like a git revision (see above). */
bool history_git_rev(const char *s);

/*
 * One line describing a change point (no newline), e.g.
 * "regression at night 2026-11-20 (kernel abc1234): +5.1% [+4.0%, +6.2%],
 * mean 100 -> 105.1 over 10 vs 8 nights (50 vs 40 repetitions), p 1e-09,
 * smallest detectable 1.2%; last good abc1233, first bad abc1234"
 * malloc'ed.
 */
char *history_cp_text(const struct history_result *r,
		      const struct history_cp *cp);

#endif
