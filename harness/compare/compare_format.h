/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * compare_format - the pieces the output formats of compare_print.h share:
 * numbers, percentages, intervals, p-values and verdict reasons as text,
 * column widths, the sources/differences/unmatched blocks. Spreads are
 * labelled wherever they are printed: "%stddev" is the sample standard
 * deviation relative to the mean (LKP), never the standard error.
 */
#ifndef THPBENCH_COMPARE_FORMAT_H
#define THPBENCH_COMPARE_FORMAT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#include "compare.h"

/* Metrics 0 in every run on both sides (compare_metric_all_zero()): the human
 * formats fold such rows into one line; csv and json keep every metric. */
void compare_fmt_print_zeros(const struct compare_pair *p, FILE *out,
			     const char *indent);

/* LKP-like number: integers from 100 up, 4 significant digits below,
 * exponent from 1e9; "-" for NAN. */
const char *compare_fmt_num(double v, char *buf, size_t len);
/* Relative change as "+5.1%" ("n/a" for NAN). */
const char *compare_fmt_pct(double rel, char *buf, size_t len);
/* cv as "±1.2%" ("" for NAN). */
const char *compare_fmt_sd(double cv, char *buf, size_t len);
/* The one estimate of the change (m->ch.rel) as "+5.1%"; "Δ+256" for a
 * difference from a base of 0; "" when not tested. Every format and the
 * chart show this number. */
const char *compare_fmt_change(const struct compare_metric *m, char *buf,
			       size_t len);
/* Its interval: "[-2.1%, +0.3%]" on the log scale, "Δ[-14.5, -3.6]" for
 * the difference (values <= 0); "" when not tested. */
const char *compare_fmt_interval(const struct compare_metric *m, char *buf,
				 size_t len);
/* "[-2.1%, +0.3%]" ("" when either bound is NAN). */
const char *compare_fmt_ci(double lo, double hi, char *buf, size_t len);
/* p-value as "0.0123" or "<0.0001" ("-" for NAN). */
const char *compare_fmt_p(double p, char *buf, size_t len);
/* "= 0.0123" or "< 0.0001", to follow "p " in a sentence. */
const char *compare_fmt_p_eq(double p, char *buf, size_t len);
/* Percent of a fraction without sign: 0.95 -> "95", 0.975 -> "97.5". */
const char *compare_fmt_level(double frac, char *buf, size_t len);

/* "kernel 6.1.0" or "" : short description of one side's file. */
const char *compare_fmt_kernel(const struct tb_results *r, char *buf,
			       size_t len);
/* "testbox, Example CPU, 2 CPUs" */
const char *compare_fmt_machine(const struct tb_results *r, char *buf,
				size_t len);
/* Why the verdict is what it is, one sentence without a final period. */
const char *compare_fmt_why(const struct compare_metric *m,
			    const struct compare_opts *o, char *buf,
			    size_t len);
/* Outliers of one side as "#2 = 9123, #4 = 10", 1-based positions among
 * the ok values ("" when none). */
const char *compare_fmt_outliers(const struct compare_side *s, char *buf,
				 size_t len);
/* Column header word for the test deciding significance. */
const char *compare_fmt_test_desc(const struct compare_opts *o);



/* Display width of UTF-8 text (columns, not bytes: "±" is one). */
int compare_fmt_width(const char *s);
/* Print s padded to width columns: right-aligned, or left when width < 0. */
void compare_fmt_put(FILE *out, const char *s, int width);
/* Header lines shared by text and email: what, machine, kernel(s). */
void compare_fmt_print_sources(const struct comparison *c, FILE *out,
			       const char *indent);
/* The environment differences and unmatched cases, one per line. */
void compare_fmt_print_diffs(const struct comparison *c, FILE *out,
			     const char *indent);
void compare_fmt_print_unmatched(const struct comparison *c, FILE *out,
				 const char *indent);
/*
 * The verdict's word. Between two files (a change of kernel, patch or
 * setting) it is verdict_name(): improvement, regression. Between THP
 * modes or labels of one run (--by) nothing regressed: the other side is
 * "better" or "worse" on that metric (thp=never's 512x more faults are
 * what 4 KiB pages are, not a regression).
 */
const char *compare_fmt_verdict(const struct comparison *c, enum verdict v);
/* "1 improvement, 0 regressions, ..." (--by: "1 better, 0 worse, ...") */
const char *compare_fmt_tally(const struct comparison *c, char *buf,
			      size_t len);

/* A profile share (prof.*): only compare_profile.h's block shows it. */
bool compare_metric_is_profile(const char *name);

/* Not in a metric table: 0 everywhere, or a profile share. */
bool compare_metric_hidden(const struct compare_metric *m);

#endif
