/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * plot_axis - the value axis of one chart panel: linear or logarithmic,
 * its range and the unit its numbers are shown in.
 *
 * Logarithmic when every value is positive and they span more than
 * PLOT_LOG_SPAN, a decade (roi_usec of THP always vs never differs 10-20
 * times, and on a linear axis the small bar becomes a sliver). Its range
 * is then whole decades; a linear range includes 0 (bars start there) with
 * a little room above. The range is always explicit: gnuplot warns about
 * an empty autoscaled range (all zeros), and tests treat warnings as
 * failures.
 *
 * Counts are shown in thousands or millions on a linear axis, as they are
 * on a log axis with SI prefixes (10k, 1M); times and sizes take the unit
 * plot_metric_scale() picks. The .dat files keep raw values: the factor is
 * applied in the script's `using` expressions.
 */
#ifndef THPBENCH_PLOT_AXIS_H
#define THPBENCH_PLOT_AXIS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#define PLOT_LOG_SPAN 10.0

struct gp_axis {
	bool log;
	double lo, hi;		/* in display units */
	double factor;		/* display value = stored value * factor */
	char unit[32];		/* "ms", "count (thousands)", "" */
	const char *format;	/* tic format */
};

/*
 * Fit an axis to the stored values v[0..n) (NaN ignored) of metric name.
 * The first nkey values (means, single runs) decide whether it is a log
 * axis; the others (interval ends) only widen the range, on a log axis
 * only when positive: a 95% CI reaching below 0 is drawn to the edge
 * (gp_axis_col_clamped) rather than turning the log axis off.
 */
void gp_axis_fit(struct gp_axis *ax, const char *name, const double *v,
		 size_t n, size_t nkey);
/*
 * The same for a distribution: a linear range hugs the values (with a
 * margin) instead of starting at 0, where bars would start.
 */
void gp_axis_fit_spread(struct gp_axis *ax, const char *name,
			const double *v, size_t n);

/* `set logscale/yrange/format/ylabel` lines for axis 'x' or 'y'. */
void gp_axis_write(FILE *f, const struct gp_axis *ax, char axis);

/* "($4*0.001)": column col of the data in display units. */
void gp_axis_col(FILE *f, const struct gp_axis *ax, int col);

/*
 * The same, but never below the axis' bottom: on a log axis a 95% CI
 * whose lower end is <= 0 is drawn down to the edge instead of vanishing.
 */
void gp_axis_col_clamped(FILE *f, const struct gp_axis *ax, int col);

/* Where bars start: 0, or the bottom of a log axis. */
double gp_axis_base(const struct gp_axis *ax);

#endif
