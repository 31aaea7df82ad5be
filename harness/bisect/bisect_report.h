/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * bisect_report - what a bisection found, in the forms it is used:
 *
 *   text     at most 72 columns, plain ASCII but for commit subjects and
 *            authors (UTF-8 kept, control characters blanked, cut with
 *            "..." to fit): ready to paste into a reply to the offending
 *            patch. The outcome first (the first bad commit with subject,
 *            author, date and patch-id; or the commits it may be; or the
 *            jumps of a spread change; or "nothing to bisect"), then the
 *            references, then each step: verdict, repetitions, boots,
 *            the commit's mean with its interval and its position between
 *            GOOD (0) and BAD (1) with its interval.
 *   json     schema thpbench-bisect-report/1, everything above with full
 *            precision, and the options.
 *   gitlog   `git bisect replay` input: start, then good / bad / skip per
 *            step in the order measured (partial and inconclusive steps
 *            are skips, with a comment saying why).
 *
 * The outcome word (text, json "outcome", exit status of `thpbench
 * bisect report`): found (0), range, spread, nonmonotone (1: no single
 * commit), nothing (3: GOOD vs BAD is no change), incomplete (the search
 * is not over: resume it), error (GOOD or BAD cannot be measured).
 */
#ifndef THPBENCH_BISECT_REPORT_H
#define THPBENCH_BISECT_REPORT_H

#include <jansson.h>
#include <stdio.h>

#include "bisect_state.h"

#define BISECT_REPORT_SCHEMA "thpbench-bisect-report/1"
#define BISECT_TEXT_WIDTH 72

struct bisect_result {
	const struct bisect_state *s;
	struct bisect_action a;
	const char *outcome;		/* the word above */
	struct bisect_outcome o;	/* when the search is over */
	bool have_o;
	size_t *order;			/* measured commits by first run */
	size_t norder;
};

/* Evaluate s (bisect_state_eval) and sum it up. */
void bisect_result_build(struct bisect_result *r, struct bisect_state *s);
void bisect_result_free(struct bisect_result *r);
/* 0 found, 1 no single commit, 3 nothing to bisect, 2 error or incomplete. */
int bisect_result_exit(const struct bisect_result *r);

void bisect_report_text(FILE *f, const struct bisect_result *r);
json_t *bisect_report_json(const struct bisect_result *r);
void bisect_report_gitlog(FILE *f, const struct bisect_result *r);

/*
 * s with control characters blanked, cut to at most cols columns (UTF-8
 * code points) with "..." when longer, into buf.
 */
const char *bisect_fit(const char *s, size_t cols, char *buf, size_t len);

#endif
