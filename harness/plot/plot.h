/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * plot - gnuplot charts of a results file and of an A/B comparison.
 *
 * Every chart is a family of files in one directory sharing a stem:
 *   STEM.gp            the script: `gnuplot STEM.gp`, from any directory,
 *                      redraws both images (it finds its data by its own
 *                      path); restyle it there
 *   STEM*.dat          the data it reads, with a comment header per block:
 *                      the values of the results file, unrounded
 *   STEM.png STEM.svg  pngcairo and SVG images, about 1000x600
 *
 * Charts of a results file (plot_results), per case group (the suite's
 * case name: the cases of one workload and arguments):
 *   NAME               per case (THP mode, label) the mean of each timing
 *                      or throughput metric as a bar, its 95% CI as an
 *                      error bar, each ok repetition as a point
 *   NAME-counters      the same for faults, TLB misses, tracepoints and
 *                      vmstat thp_* deltas
 * Charts of a comparison (plot_compare), per pair of cases:
 *   ab-NAME-change     % change of every charted metric with its interval,
 *                      as horizontal bars coloured by verdict, the noise
 *                      threshold shaded
 *   ab-NAME-dist       base and new values side by side (box plot and
 *                      points) for each timing/throughput metric
 * Both say meta.timings of the results (e.g. "emulated (qemu TCG): ...")
 * under their header, so an emulated timing is never shown as a real one.
 *
 * Writing (plot_results, plot_compare) and drawing (plot_render) are
 * separate so that gnuplot missing costs nothing but the images.
 */
#ifndef THPBENCH_PLOT_H
#define THPBENCH_PLOT_H

#include <stdio.h>

#include "compare/compare.h"
#include "results/results.h"
#include "plot_set.h"

/*
 * Write the scripts and data of r's charts into outdir (created if need
 * be). 0, or -1 with err set (a file could not be written). A results
 * file with no ok run writes nothing and succeeds.
 */
int plot_results(const struct tb_results *r, const char *outdir,
		 struct plot_set *ps, char *err, size_t errlen);

/* The same for the pairs of a comparison built by compare_build(). */
int plot_compare(const struct comparison *c, const char *outdir,
		 struct plot_set *ps, char *err, size_t errlen);

/*
 * The two tic labels of a distribution panel for side names a and b, each
 * short enough not to overlap the other: "always"/"never" for
 * "thp=always"/"thp=never", the differing tails of two kernel releases,
 * else "base"/"new". Into ta and tb (len bytes each).
 */
void plot_side_tics(const char *a, const char *b, char *ta, char *tb,
		    size_t len);

enum plot_render_status {
	PLOT_DRAWN = 0,
	PLOT_NO_GNUPLOT = 1,	/* the hint line was printed on msg */
	PLOT_FAILED = -1,	/* some script failed; said on stderr */
};

/*
 * Run gnuplot on every script of ps and record the images drawn (and
 * those of the charts kept as they were, plot_set.h). What
 * gnuplot prints (a warning, an error) is passed on to stderr naming the
 * script. gnuplot missing: one line on msg, GNUPLOT_INSTALL_HINT.
 */
enum plot_render_status plot_render(struct plot_set *ps, FILE *msg);

/*
 * For `thpbench run`: plot_results() and plot_render() into outdir, then
 * "chart: PATH" on out for each image (or, without gnuplot, the hint and
 * the scripts). Returns 0 also when gnuplot is missing; -1 (message on
 * stderr) when files could not be written or gnuplot failed. Never exits.
 */
int plot_results_dir(const struct tb_results *r, const char *outdir,
		     FILE *out);

/*
 * For `thpbench plot` of several files: where the charts of files[i] go,
 * outdir/NAME, NAME the file's name without .json (its directory's name
 * for a results.json); NAME-2, NAME-3 ... when an earlier file of
 * files[0..i-1] has that NAME. malloc'd.
 */
char *plot_file_dir(const char *outdir, char *const *files, size_t i);

#endif
