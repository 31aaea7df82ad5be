/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * lcov - lcov's tracefile format (geninfo's output, genhtml's input;
 * geninfo(1) "TRACEFILE FORMAT"): the one reader and the one writer of
 * it here (./run.sh coverage, docs/kernel-coverage.md).
 *
 * Read: SF:PATH opens a source file's record, DA:LINE,COUNT[,SUM] a line,
 * FN:LINE,NAME a function, FNDA:COUNT,NAME its calls, end_of_record
 * closes it; TN, FNF, FNH, LF, LH, BR* and unknown lines are ignored (the
 * totals are recomputed). A file's records are merged, counts added (one
 * source is in many objects' data: a header, or a file read twice), so
 * reading several tracefiles into one struct lcov is lcov -a. PATH loses
 * the prefix given (the kernel tree's absolute path: "mm/huge_memory.c"
 * remains). Input is hostile: a line over 8 KiB, a number out of range,
 * a record outside SF/end_of_record or a path with a control character
 * is refused with the file and line named.
 *
 * Each line also keeps `first`: the first tag (a repetition's seq) that
 * lcov_add_tagged() saw it run in; -1 none.
 *
 * Write: the records sorted by path, lines by number, each path given a
 * prefix (the snapshot of the sources genhtml reads).
 */
#ifndef THPBENCH_LCOV_H
#define THPBENCH_LCOV_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

struct lcov_line {
	unsigned int line;
	uint64_t count;
	long first;		/* tag that first ran it; -1 none */
};

struct lcov_fn {
	char *name;
	unsigned int line;
	uint64_t count;
	long first;
};

struct lcov_file {
	char *path;
	struct lcov_line *lines;	/* sorted by line, unique after lcov_read */
	size_t nlines, lcap;
	struct lcov_fn *fns;
	size_t nfns, fcap;
};

struct lcov {
	struct lcov_file *files;
	size_t nfiles, cap;
};

/* Add PATH's records to lc (lc zeroed before the first call). */
int lcov_read(const char *path, const char *strip, struct lcov *lc,
	      char *err, size_t errlen);
/* Add src's counts to dst; a line or function src ran and dst had not
 * marks tag as its first. */
void lcov_add_tagged(struct lcov *dst, const struct lcov *src, long tag);
const struct lcov_file *lcov_find(const struct lcov *lc, const char *path);
/* The line's record, NULL when the line is not executable. */
const struct lcov_line *lcov_line_find(const struct lcov_file *f,
				       unsigned int line);
/* Lines and functions in f, and how many ran. */
void lcov_file_totals(const struct lcov_file *f, size_t *lines, size_t *lines_hit,
		      size_t *fns, size_t *fns_hit);
int lcov_write(const struct lcov *lc, FILE *out, const char *prefix);
void lcov_free(struct lcov *lc);

#endif
