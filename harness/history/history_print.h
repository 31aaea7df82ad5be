/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * history_print - `history check` results in the forms people and CI
 * systems read.
 *
 *   text    per series one line (FAIL / ok, nights, newest mean), then one
 *           line per change point (history_cp_text) and the bisect line
 *   json    everything, schema "thpbench-history-check/1"
 *   junit   JUnit XML for Jenkins' junit step and GitLab's
 *           artifacts:reports:junit: a testsuite per host and suite, one
 *           testcase per case and metric (classname HOST/SUITE, name
 *           "CASE METRIC"), a <failure> carrying the change-point text
 *           when the series fails the gate, every change point in
 *           <system-out>; times are "0" (the check measures no time)
 *   tap     TAP version 13: "ok N - NAME" / "not ok N - NAME" per series,
 *           a YAML block with the change points of those that have any
 *   lava    one `lava-test-case NAME --result pass|fail --measurement V
 *           --units U` line per series (V the newest night's mean), for a
 *           LAVA test shell; NAME (HOST/SUITE_CASE_METRIC) and U hold only
 *           [A-Za-z0-9._-]
 *   kcidb   a KernelCI KCIDB v5 report (results/kcidb.h), ids under
 *           o->origin: per kernel (the newest night's) a checkout and a
 *           build, per series one test thpbench.SUITE.CASE.METRIC with
 *           the newest night's mean as its number; FAIL when the series
 *           fails the gate, PASS when its metric has a direction and it
 *           does not, DONE where no verdict applies (a neutral metric,
 *           --fail-on none), SKIP without a night with values; the
 *           latest change point's p, change, interval and the threshold
 *           in misc
 *
 * Each format is a file of its own (history_text.c, history_json.c,
 * history_ci.c, history_kcidb.c); the order of the series and the other pieces they
 * share are history_format.h.
 */
#ifndef THPBENCH_HISTORY_PRINT_H
#define THPBENCH_HISTORY_PRINT_H

#include <stdio.h>

#include "history_check.h"

enum history_format {
	HISTORY_FMT_TEXT,
	HISTORY_FMT_JSON,
	HISTORY_FMT_JUNIT,
	HISTORY_FMT_TAP,
	HISTORY_FMT_LAVA,
	HISTORY_FMT_KCIDB,
};

/* -1 when s names no format. */
int history_format_parse(const char *s);

/* Write r[0..n) to f in fmt; -1 (errno set) when writing failed. */
int history_write(FILE *f, enum history_format fmt,
		  const struct history_result *r, size_t n,
		  const struct history_check_opts *o);

/* Each output format. */
void history_write_text(FILE *f, const struct history_result *r, size_t n,
			const struct history_check_opts *o);
void history_write_json(FILE *f, const struct history_result *r, size_t n,
			const struct history_check_opts *o);
void history_write_junit(FILE *f, const struct history_result *r, size_t n,
			 const struct history_check_opts *o);
void history_write_tap(FILE *f, const struct history_result *r, size_t n,
		       const struct history_check_opts *o);
void history_write_lava(FILE *f, const struct history_result *r, size_t n,
			const struct history_check_opts *o);
void history_write_kcidb(FILE *f, const struct history_result *r, size_t n,
			 const struct history_check_opts *o);

#endif
