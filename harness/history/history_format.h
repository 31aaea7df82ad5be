/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * history_format - `history check` results in the forms people and CI
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
 *
 * Order: the series failing the gate first, then those whose newest
 * night starts a change, then the rest as given.
 */
#ifndef THPBENCH_HISTORY_FORMAT_H
#define THPBENCH_HISTORY_FORMAT_H

#include <stdio.h>

#include "history_check.h"

enum history_format {
	HISTORY_FMT_TEXT,
	HISTORY_FMT_JSON,
	HISTORY_FMT_JUNIT,
	HISTORY_FMT_TAP,
	HISTORY_FMT_LAVA,
};

/* -1 when s names no format. */
int history_format_parse(const char *s);

/* Write r[0..n) to f in fmt; -1 (errno set) when writing failed. */
int history_write(FILE *f, enum history_format fmt,
		  const struct history_result *r, size_t n,
		  const struct history_check_opts *o);

/* The order above, as indices into r (malloc'ed). */
size_t *history_order(const struct history_result *r, size_t n,
		      enum history_fail_on f);

/* Does the newest night start a confirmed (not rejected) change? */
bool history_newest_changed(const struct history_result *r);

/*
 * s as XML/HTML character data or attribute value: & < > " ' escaped,
 * control characters other than tab and newline, and bytes that are not
 * valid UTF-8, replaced by U+FFFD.
 */
void history_xml_escape(FILE *f, const char *s);

/*
 * A malloc'ed copy of s with every byte that is not valid UTF-8 replaced
 * by U+FFFD (jansson refuses invalid UTF-8; a database may hold anything).
 */
char *history_utf8_clean(const char *s);

/* A name without spaces for LAVA: [A-Za-z0-9._-], others as '_'. */
const char *history_token(const char *s, char *buf, size_t len);

/* Mean of the newest night with values; NAN when none. */
double history_newest_mean(const struct history_result *r);

/* Each output format (history_format.c, history_json.c, history_ci.c). */
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

#endif
