/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * compare_kcov - which kernel lines a suite ran (./run.sh coverage,
 * thpbench kernel-coverage; docs/kernel-coverage.md).
 *
 * In: the notes' baseline (geninfo --initial: every executable line of
 * every profiled file, count 0) and one tracefile per measured repetition
 * (geninfo over that repetition's .gcda: run --kernel-gcov keeps
 * OUTDIR/kgcov/SEQ), named by SEQ, read in SEQ order; the run's
 * results.json names the case of each SEQ. Out: the merged counts, each
 * line and function marked with the first repetition that ran it, so
 * each file's row can say which case ran its lines first.
 *
 * The table lists the files THP paths live in (COMPARE_KCOV_FILES, or
 * those given), "not built" for one the kernel does not compile or
 * profile, and a row for all of mm/ (its .c files); the JSON has the same per file
 * with the functions and the lines not run as ranges.
 */
#ifndef THPBENCH_COMPARE_KCOV_H
#define THPBENCH_COMPARE_KCOV_H

#include <jansson.h>
#include <stdio.h>

#include "results/lcov.h"
#include "results/results.h"

#define COMPARE_KCOV_FILES "mm/huge_memory.c,mm/khugepaged.c,mm/hugetlb.c," \
	"mm/memory.c,mm/shmem.c,mm/migrate.c,mm/mremap.c,mm/swapfile.c," \
	"mm/compaction.c,mm/page_alloc.c"

struct compare_kcov {
	struct lcov total;
	const struct tb_results *res;
	size_t nreps;		/* repetitions read */
	long *seq;		/* every run's seq, sorted ... */
	size_t *seq_case;	/* ... and its case's index in res */
	size_t nseq;
};

/* Build k from base (may be NULL), every DIR/SEQ.info, and res; the
 * tracefiles' paths lose strip. */
int compare_kcov_load(struct compare_kcov *k, const char *base, const char *dir,
		      const char *strip, const struct tb_results *res,
		      char *err, size_t errlen);
/* The case a repetition's seq belongs to ("?" when none). */
const char *compare_kcov_case(const struct compare_kcov *k, long seq);
void compare_kcov_table(FILE *f, const struct compare_kcov *k, const char *files);
json_t *compare_kcov_json(const struct compare_kcov *k, const char *files);
/* The last index of the run of consecutive lines (ascending) from i. */
size_t compare_kcov_run_end(const unsigned int *lines, size_t n, size_t i);
/* Ranges "a-b, c" of the lines of f that did not run, into buf. */
void compare_kcov_ranges(const unsigned int *lines, size_t n, char *buf, size_t len);
void compare_kcov_free(struct compare_kcov *k);

#endif
