/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * compare_print - print a struct comparison (compare.h) in one of the
 * dialects kernel developers read:
 *   text      LKP-style columns: base %stddev %change [CI] new %stddev
 *             p verdict metric; rows with a claimed change marked '*'
 *   ministat  one block per metric, exactly as ministat(1) prints it
 *             (plot, table, pooled Student's t), then our verdict
 *   welch     the same table with the difference from Welch's t
 *   email     plain text, at most 72 columns, for a cover letter
 *   cover     the block for a cover letter: what was compared, only the
 *             metrics that changed, the environment in one line, the
 *             command to reproduce, the charts (email's rules)
 *   md, csv   tables; csv has every statistic, one row per metric
 *   json      every statistic (schema "thpbench-compare/2")
 *   kcidb     a KernelCI KCIDB v5 report (compare_kcidb.c), ids under
 *             opts.origin: the new side's tests carry the verdict (FAIL
 *             for a regression), the base side's are DONE
 * Each format is a file of its own (compare_text.c, compare_ministat.c,
 * ...); the pieces they share are compare_format.h.
 * All output is deterministic for given input (golden-tested).
 */
#ifndef THPBENCH_COMPARE_PRINT_H
#define THPBENCH_COMPARE_PRINT_H

#include <stdio.h>

#include "compare.h"

enum compare_format {
	COMPARE_FMT_TEXT,
	COMPARE_FMT_MINISTAT,
	COMPARE_FMT_EMAIL,
	COMPARE_FMT_MD,
	COMPARE_FMT_CSV,
	COMPARE_FMT_JSON,
	COMPARE_FMT_WELCH,
	COMPARE_FMT_COVER,
	COMPARE_FMT_KCIDB,
};

/* -1 when s names no format. */
int compare_format_parse(const char *s);
void compare_print(const struct comparison *c, enum compare_format f,
		   FILE *out);

void compare_print_text(const struct comparison *c, FILE *out);
void compare_print_ministat(const struct comparison *c, FILE *out);
void compare_print_email(const struct comparison *c, FILE *out);
void compare_print_md(const struct comparison *c, FILE *out);
void compare_print_csv(const struct comparison *c, FILE *out);
void compare_print_json(const struct comparison *c, FILE *out);
void compare_print_welch(const struct comparison *c, FILE *out);
void compare_print_cover(const struct comparison *c, FILE *out);
void compare_print_kcidb(const struct comparison *c, FILE *out);

/* ministat(1)'s output for the two sides of m, names on its x/+ lines. */
void compare_ministat_block(FILE *out, const struct compare_metric *m,
			    const char *a_name, const char *b_name,
			    double confidence);

#endif
