/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * report - the summary printed after a run, in perf stat's dialect.
 *
 * Per case: a header naming the command, the THP mode and how many runs
 * were ok (and why the others were not), then one row per metric:
 *
 *        mean  ( +- stderr% )    n        min     median        max  metric
 *
 * "( +- x% )" is the standard error of the mean relative to the mean,
 * exactly what `perf stat -r` prints; the legend under the table says so.
 * Events that could not be counted print "<not supported>" with the
 * reason; vmstat counters that did not move are folded into one line.
 */
#ifndef THPBENCH_REPORT_H
#define THPBENCH_REPORT_H

#include <stdio.h>

#include "results.h"

void report_case(FILE *f, const struct tb_case *c);
void report_results(FILE *f, const struct tb_results *r);

/* 1234567.891 -> "1,234,567.89" (perf's thousands grouping). */
void fmt_grouped(char *buf, size_t len, double v);

#endif
