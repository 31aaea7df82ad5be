/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * compare_pcov - patch coverage: of the lines a series changes, which
 * the suite ran on the kernel built with it (./run.sh coverage --series,
 * ./run.sh ab --coverage; docs/kernel-coverage.md).
 *
 * A hunk's changed lines are its added lines (results/patch_hunks.h,
 * settled into the built tree) that gcov counts as executable in that
 * kernel: comments, declarations and blank lines are not, and removed
 * lines no longer exist, so neither counts. A hunk that only removes
 * code or only adds comments (the 000 patch drops the huge-PMD move)
 * changed what runs at its anchor: its changed line is then the first
 * executable line from the anchor through its trailing context ("after
 * the removal": the split that now runs in place of the move). A file
 * the kernel does not build or profile is "not built"; a hunk with no
 * executable line at all is "no code".
 *
 * The summary is one sentence for a cover letter, wrapped at 72
 * columns: "the suite ran X of Y changed lines; not run: FILE:A-B, ...".
 */
#ifndef THPBENCH_COMPARE_PCOV_H
#define THPBENCH_COMPARE_PCOV_H

#include <jansson.h>
#include <stdbool.h>
#include <stdio.h>

#include "results/lcov.h"
#include "results/patch_hunks.h"

enum compare_pcov_state { COMPARE_PCOV_CODE, COMPARE_PCOV_NOT_BUILT, COMPARE_PCOV_NO_CODE };

struct compare_pcov_hunk {
	const struct patch_hunk *h;
	enum compare_pcov_state state;
	bool after_removal;	/* lines[0] is the anchor's line */
	unsigned int *lines;	/* executable changed lines, ascending */
	size_t nlines;
	unsigned int *missed;	/* those that did not run */
	size_t nmissed;
};

struct compare_pcov {
	struct compare_pcov_hunk *v;
	size_t n;
	size_t total, ran;
};

void compare_pcov_build(struct compare_pcov *pc, const struct patch_set *ps,
			const struct lcov *lc);
/* Per hunk: patch, file, lines, run / not run. */
void compare_pcov_print(FILE *f, const struct compare_pcov *pc);
/* The cover-letter sentence, lines of at most width columns. */
void compare_pcov_summary(FILE *f, const struct compare_pcov *pc, int width);
json_t *compare_pcov_json(const struct compare_pcov *pc);
void compare_pcov_free(struct compare_pcov *pc);

#endif
