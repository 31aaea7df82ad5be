/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * history_format - what the output formats of history_print.h share: the
 * order of the series, XML escaping, LAVA tokens, the
 * newest night's mean.
 *
 * Order: the series failing the gate first, then those with a change
 * confirmed tonight or a watch on the newest night, then the rest as
 * given.
 */
#ifndef THPBENCH_HISTORY_FORMAT_H
#define THPBENCH_HISTORY_FORMAT_H

#include <stdio.h>

#include "history_check.h"

/* The order above, as indices into r (malloc'ed). */
size_t *history_order(const struct history_result *r, size_t n,
		      enum history_fail_on f);

/* Was a change confirmed tonight, or is the newest night a watch? */
bool history_newest_changed(const struct history_result *r);

/*
 * s as XML/HTML character data or attribute value: & < > " ' escaped,
 * control characters other than tab and newline, and bytes that are not
 * valid UTF-8, replaced by U+FFFD.
 */
void history_xml_escape(FILE *f, const char *s);

/* Mean of the newest night with values; NAN when none. */
double history_newest_mean(const struct history_result *r);

/*
 * How the kernels on either side of a change are called: "first bad" and
 * "last good" for a regression, "first fast" and "last slow" for an
 * improvement, "first changed" and "last before" otherwise.
 */
const char *hcp_first_term(enum hcp_kind k);
const char *hcp_last_term(enum hcp_kind k);

/*
 * A value of metric as people read it: in the unit that keeps it short
 * (plot_metric_scale: "7.521 ms", not 7521 µs), digits grouped
 * ("12,345"), no unit for counts. The unit is the one for magnitude ref
 * (values shown side by side share one), |v| when ref is NAN. In buf;
 * returns buf.
 */
const char *history_value_text(const char *metric, double v, double ref,
			       char *buf, size_t len);

#endif
