/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * plot_pairs - what the charts of one compared pair of cases share: the
 * colour of each verdict, which metrics are charted and in which order
 * (those that changed first), and the header naming both sides (with
 * "timings: emulated ..." on every chart of an emulated guest).
 */
#ifndef THPBENCH_PLOT_PAIRS_H
#define THPBENCH_PLOT_PAIRS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#include "compare/compare.h"
#include "plot_metrics.h"

/* Width of a GP_FONT character in pixels, measured on pngcairo output. */
#define GP_CHAR_PX 10.0

/* "0xcc3311" for a verdict. */
const char *pair_rgb(enum verdict v);
/* A gnuplot function vcolor(code) giving each verdict's colour. */
void pair_write_vcolor(FILE *f);
/* The colours of the verdicts of m[0..n), in the table's order: text[k],
 * rgb[k] for k < the count returned (at most VERDICT_LEVEL + 1). */
size_t pair_verdicts_seen(const struct compare_metric **m, size_t n,
			  const char **text, const char **rgb);

/* Charted: both sides measured, not 0 in every run, kind not PM_OTHER. */
bool pair_chartable(const struct compare_metric *m);
/*
 * The pair's charted metrics of kind `kind` (PM_OTHER: all kinds) in
 * chart order: with changed_first, those whose verdict is a change come
 * first; then the kinds' ranking (plot_metrics.h). *out is allocated.
 */
size_t pair_pick(const struct compare_pair *p, enum pm_kind kind,
		 bool changed_first, const struct compare_metric ***out);

/* "TITLE: CHART\nbase: ..., n = N · new: ..., n = N[\ntimings: ...]". */
void pair_what(const struct comparison *c, const struct compare_pair *p,
	       const char *chart, char *buf, size_t len);

#endif
