/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * history_report - a static HTML page of a checked history: DIR/index.html
 * next to the charts of history_plot.h (drawn here), no script, no style
 * or font from the network: it opens from the file system in any browser
 * and can be published as a CI artifact as is.
 *
 * The page: the gate's outcome; the newest night's verdicts (a table, id
 * "verdicts", one row per series in history_format.h's order: whether it
 * fails the gate, the newest night and kernel, its mean, and what the
 * newest change point says); then per series its chart (PNG, linked to
 * the SVG), its change points (kind, change with interval, p, smallest
 * detectable change, last good and first bad kernels, the bisect line) and
 * its nights in a <details> table. Every text from the database is
 * HTML-escaped (history_xml_escape). Without gnuplot the page says so
 * where a chart would be.
 */
#ifndef THPBENCH_HISTORY_REPORT_H
#define THPBENCH_HISTORY_REPORT_H

#include <stddef.h>

#include "history_check.h"

/*
 * Write dir/index.html and the charts. source names the database (shown,
 * escaped). 0, or -1 with the error printed; gnuplot missing is not an
 * error (one line on stderr).
 */
int history_report(const struct history_result *r, size_t n,
		   const struct history_check_opts *o, const char *source,
		   const char *dir);

#endif
