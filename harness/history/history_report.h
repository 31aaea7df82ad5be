/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * history_report - a static HTML page of a checked history, read in ten
 * seconds: DIR/index.html next to the charts of history_plot.h (drawn
 * here), no script, no style or font from the network: it opens from the
 * file system in any browser and can be published as a CI artifact.
 *
 * The page (the model: asv's regressions list, 0-day's mails):
 *   - the gate's verdict, large: PASS or FAIL, how many series fail it,
 *     how many regressions are open, changes are recent, series are
 *     quiet; the newest night, its kernel and host (id "gate");
 *   - "Open regressions" (id "open") and "Changes in the last 14 nights"
 *     (id "recent"), in history_digest.h's order: a card per series with
 *     its change (kind, size, 95% interval, the means before and after),
 *     first bad and last good kernels, the bisect line, its id and what
 *     became of it (history_gate.h: open, with the `history triage`
 *     command to run; fixed; accepted, a false alarm or a fix linked, by
 *     whom, when and why), the evidence (p, nights, runs, the night it
 *     was confirmed on), the size these nights detect (and, for a smaller
 *     change, why it was found and why its size is uncertain), the gate,
 *     and its trend chart; a series failing on tonight alone (the watch,
 *     not yet a change) gets a card of the same shape saying what the
 *     next night decides;
 *   - the quiet series folded away (<details id="quiet">), a row each;
 *   - how to read the page, folded.
 * Charts are drawn for the first HISTORY_REPORT_CHARTS cards only (a host
 * change can move every series at once), and a chart whose script and
 * data did not change since the last report into DIR is not drawn again
 * (plot_set.h). Every text from the database is HTML-escaped
 * (history_xml_escape). Without gnuplot the page says so where a chart
 * would be.
 */
#ifndef THPBENCH_HISTORY_REPORT_H
#define THPBENCH_HISTORY_REPORT_H

#include <stddef.h>

#include "history_check.h"

#define HISTORY_REPORT_CHARTS 40

/*
 * Write dir/index.html and the charts. source names the database (shown,
 * escaped). 0, or -1 with err set (the caller prints it; what gnuplot
 * says of a failed chart is on stderr already); gnuplot missing is not an
 * error (one line on stderr).
 */
int history_report(const struct history_result *r, size_t n,
		   const struct history_check_opts *o, const char *source,
		   const char *dir, char *err, size_t errlen);

#endif
