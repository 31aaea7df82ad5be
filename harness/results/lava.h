/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * lava - the words LAVA's test shell takes, and the test-case lines of one
 * results file (the one writer of `lava-test-case` lines for a run; the
 * history's gate lines, history_ci.c, use the same words).
 *
 * A line is "lava-test-case NAME --result R" with R pass, fail or skip,
 * and for a figure " --measurement V --units U". LAVA splits the line on
 * blanks and stores NAME and U as they are, so both hold only
 * [A-Za-z0-9._-] (lava_token: anything else becomes '_'; never empty). A
 * measurement always has units (LAVA's server shows a bare number as
 * having none): the metric's unit (stats/metric_unit.h, "µs" as "us"),
 * "none" where the unit is not known. V is finite, %.10g.
 *
 * lava_cases_write, per case of the file in its order:
 *   CASE          pass: every repetition ran ok; skip: no repetition ran
 *                 (or none was asked); fail: any other status
 *   CASE.METRIC   pass, with the mean over the ok repetitions, for each
 *                 metric any ok repetition has
 * CASE is lava_token of the case id ("mremap/thp=always" ->
 * "mremap_thp_always").
 */
#ifndef THPBENCH_LAVA_H
#define THPBENCH_LAVA_H

#include <stddef.h>
#include <stdio.h>

#include "results.h"

const char *lava_token(const char *s, char *buf, size_t len);
const char *lava_units(const char *metric, char *buf, size_t len);
void lava_cases_write(FILE *f, const struct tb_results *r);

#endif
