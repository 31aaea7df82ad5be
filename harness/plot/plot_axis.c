// SPDX-License-Identifier: GPL-2.0-only
#include "plot_axis.h"

#include <math.h>
#include <string.h>

#include "plot_gp.h"
#include "plot_metrics.h"

static void minmax(const double *v, size_t n, double *lo, double *hi,
		   double *minpos)
{
	size_t i;

	*lo = INFINITY;
	*hi = -INFINITY;
	*minpos = INFINITY;
	for (i = 0; i < n; i++) {
		if (!isfinite(v[i]))
			continue;
		*lo = fmin(*lo, v[i]);
		*hi = fmax(*hi, v[i]);
		if (v[i] > 0)
			*minpos = fmin(*minpos, v[i]);
	}
	if (*lo > *hi)
		*lo = *hi = 0;
}

static void scale_count(struct gp_axis *ax, double maxabs)
{
	if (ax->log || maxabs < 1e4)
		return;
	if (maxabs >= 1e6) {
		ax->factor = 1e-6;
		snprintf(ax->unit, sizeof(ax->unit), "count (millions)");
	} else {
		ax->factor = 1e-3;
		snprintf(ax->unit, sizeof(ax->unit), "count (thousands)");
	}
}

static void fit_linear(struct gp_axis *ax, double lo, double hi, bool zero)
{
	double pad;

	if (zero) {
		lo = fmin(lo, 0);
		hi = fmax(hi, 0);
	}
	lo *= ax->factor;
	hi *= ax->factor;
	if (hi - lo <= 0) {
		/* One value: a window around it (or [0:1] around zeros). */
		pad = fabs(hi) > 0 ? fabs(hi) * 0.1 : 1;
		hi += pad;
		lo = zero && lo >= 0 ? lo : lo - pad;
	}
	pad = 0.08 * (hi - lo);
	ax->lo = zero && lo >= 0 ? lo : lo - pad;
	ax->hi = hi + pad;
	ax->format = "%g";
}

static void fit_log(struct gp_axis *ax, double minpos, double hi,
		    bool count)
{
	/* A bar exactly on a decade would have no height: go one lower. */
	ax->lo = pow(10, floor(log10(minpos * ax->factor) - 0.05));
	ax->hi = pow(10, ceil(log10(hi * ax->factor)));
	if (ax->hi <= ax->lo)
		ax->hi = ax->lo * 10;
	/* SI prefixes read well for counts (10k, 1M), not below 1 ("100m"). */
	ax->format = count && ax->lo >= 1 ? "%.0s%c" : "%g";
}

static void fit(struct gp_axis *ax, const char *name, const double *v,
		size_t n, size_t nkey, bool zero)
{
	struct pm_scale sc;
	double lo, hi, minpos;
	bool count = !strcmp(plot_metric_unit(name), "count");

	memset(ax, 0, sizeof(*ax));
	minmax(v, nkey, &lo, &hi, &minpos);
	ax->log = lo > 0 && hi / lo > PLOT_LOG_SPAN;
	if (ax->log) {
		double l2, h2;

		minmax(v, n, &l2, &h2, &minpos);
		hi = h2;
	} else {
		minmax(v, n, &lo, &hi, &minpos);
	}
	plot_metric_scale(name, fmax(fabs(lo), fabs(hi)), &sc);
	ax->factor = sc.factor;
	snprintf(ax->unit, sizeof(ax->unit), "%s", sc.unit);
	if (count)
		scale_count(ax, fmax(fabs(lo), fabs(hi)));
	if (ax->log)
		fit_log(ax, minpos, hi, count);
	else
		fit_linear(ax, lo, hi, zero);
}

void gp_axis_fit(struct gp_axis *ax, const char *name, const double *v,
		 size_t n, size_t nkey)
{
	fit(ax, name, v, n, nkey, true);
}

void gp_axis_fit_spread(struct gp_axis *ax, const char *name,
			const double *v, size_t n)
{
	fit(ax, name, v, n, n, false);
}

void gp_axis_write(FILE *f, const struct gp_axis *ax, char axis)
{
	if (ax->log)
		fprintf(f, "set logscale %c 10\n", axis);
	else
		fprintf(f, "unset logscale %c\n", axis);
	fprintf(f, "set %crange [", axis);
	gp_num(f, ax->lo);
	fputc(':', f);
	gp_num(f, ax->hi);
	fprintf(f, "]\nset format %c ", axis);
	gp_text(f, ax->format, GP_SINGLE);
	fprintf(f, "\nset %clabel ", axis);
	gp_text(f, ax->unit, GP_SINGLE);
	fputc('\n', f);
}

void gp_axis_col(FILE *f, const struct gp_axis *ax, int col)
{
	if (ax->factor == 1) {
		fprintf(f, "%d", col);
		return;
	}
	fprintf(f, "($%d*", col);
	gp_num(f, ax->factor);
	fputc(')', f);
}

void gp_axis_col_clamped(FILE *f, const struct gp_axis *ax, int col)
{
	if (!ax->log) {
		gp_axis_col(f, ax, col);
		return;
	}
	fprintf(f, "($%d*", col);
	gp_num(f, ax->factor);
	fputs(" > ", f);
	gp_num(f, ax->lo);
	fprintf(f, " ? $%d*", col);
	gp_num(f, ax->factor);
	fputs(" : ", f);
	gp_num(f, ax->lo);
	fputc(')', f);
}

double gp_axis_base(const struct gp_axis *ax)
{
	return ax->log ? ax->lo : 0;
}
