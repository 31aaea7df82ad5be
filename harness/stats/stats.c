// SPDX-License-Identifier: GPL-2.0-only
#include "stats.h"

#include <gsl/gsl_cdf.h>
#include <gsl/gsl_errno.h>
#include <gsl/gsl_sort.h>
#include <gsl/gsl_statistics_double.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util/util.h"

/* Iglewicz and Hoaglin's cut-off for the modified z-score. */
#define MAD_Z_LIMIT 3.5
/* MAD of a normal sample estimates 0.6745 sigma; 1/0.6745 = 1.4826. */
#define MAD_TO_SIGMA 1.482602218505602
/* Mean absolute deviation of a normal sample is sigma * sqrt(2/pi). */
#define MEANAD_TO_SIGMA 1.2533141373155003
#define TUKEY_K 1.5

int stats_ci_mean(const struct summary *s, double confidence, double *lo,
		  double *hi)
{
	double t;

	*lo = *hi = NAN;
	if (s->n < 2)
		return -1;
	t = gsl_cdf_tdist_Pinv(0.5 + confidence / 2, (double)(s->n - 1));
	*lo = s->mean - t * s->stderr_mean;
	*hi = s->mean + t * s->stderr_mean;
	return 0;
}

static char gsl_err[256];

static void gsl_record(const char *reason, const char *file, int line,
		       int gsl_errno)
{
	if (gsl_err[0])
		return;
	snprintf(gsl_err, sizeof(gsl_err), "GSL error %d (%s) at %s:%d",
		 gsl_errno, reason, file, line);
}

void stats_gsl_trap(void)
{
	gsl_set_error_handler(gsl_record);
}

const char *stats_gsl_error(void)
{
	return gsl_err[0] ? gsl_err : NULL;
}

void stats_gsl_clear(void)
{
	gsl_err[0] = 0;
}

int stats_check_values(const double *x, size_t n, double *bad)
{
	size_t i;

	for (i = 0; i < n; i++)
		if (!isfinite(x[i]) || fabs(x[i]) >= STATS_MAX_ABS) {
			*bad = x[i];
			return -1;
		}
	return 0;
}

/* Mean and standard deviation over x - shift (the sorted sample's middle
 * value): large offsets cancel exactly before anything is summed. */
static void centred_moments(const double *x, const double *sorted, size_t n,
			    struct summary *s)
{
	double *d = xmalloc(n * sizeof(*d));
	size_t i;

	s->shift = sorted[n / 2];
	for (i = 0; i < n; i++)
		d[i] = x[i] - s->shift;
	s->dmean = gsl_stats_mean(d, 1, n);
	s->mean = s->shift + s->dmean;
	s->centred = true;
	if (n >= 2)
		s->stddev = gsl_stats_sd_m(d, 1, n, s->dmean);
	free(d);
}

/*
 * Two selections, not a sort and three (gsl_stats_mad0 finds the median
 * again): the history check asks this of every night's window of every
 * series, and the sort was a fifth of its time. The same values as from
 * sorted data: (a + b) / 2 of the middle two is exact either way, and the
 * MAD is the median of the distances to that median, as mad0's.
 */
static void median_mad(const double *x, size_t n, struct summary *s)
{
	double *work = xmalloc(n * sizeof(*work));
	size_t i;

	memcpy(work, x, n * sizeof(*work));
	s->median = gsl_stats_median(work, 1, n);
	for (i = 0; i < n; i++)
		work[i] = fabs(x[i] - s->median);
	s->mad = gsl_stats_median(work, 1, n);
	free(work);
}

int stats_summary(const double *x, size_t n, struct summary *s)
{
	double *sorted;

	memset(s, 0, sizeof(*s));
	if (!n) {
		/* No value: no statistic either, never a made-up 0. */
		s->mean = s->stddev = s->stderr_mean = s->cv = NAN;
		s->min = s->median = s->max = NAN;
		s->ci95_lo = s->ci95_hi = s->q1 = s->q3 = s->mad = NAN;
		s->shift = s->dmean = NAN;
		return -1;
	}
	sorted = xmalloc(n * sizeof(*sorted));
	memcpy(sorted, x, n * sizeof(*sorted));
	gsl_sort(sorted, 1, n);
	s->n = n;
	s->min = sorted[0];
	s->max = sorted[n - 1];
	s->stddev = s->stderr_mean = s->cv = NAN;
	s->ci95_lo = s->ci95_hi = NAN;
	centred_moments(x, sorted, n, s);
	s->median = gsl_stats_median_from_sorted_data(sorted, 1, n);
	s->q1 = gsl_stats_quantile_from_sorted_data(sorted, 1, n, 0.25);
	s->q3 = gsl_stats_quantile_from_sorted_data(sorted, 1, n, 0.75);
	/* Last use of sorted: mad0 may reorder its work array. */
	s->mad = gsl_stats_mad0(sorted, 1, n, sorted);
	if (n >= 2) {
		s->stderr_mean = s->stddev / sqrt((double)n);
		s->cv = s->mean != 0 ? s->stddev / fabs(s->mean) : NAN;
		stats_ci_mean(s, 0.95, &s->ci95_lo, &s->ci95_hi);
	}
	free(sorted);
	return 0;
}

const char *outlier_method_name(enum outlier_method m)
{
	return m == OUTLIER_TUKEY ? "tukey" : "mad";
}

int outlier_method_parse(const char *s)
{
	if (!strcmp(s, "mad"))
		return OUTLIER_MAD;
	if (!strcmp(s, "tukey"))
		return OUTLIER_TUKEY;
	return -1;
}

static size_t flag_outside(const double *x, size_t n, double lo, double hi,
			   bool *flag)
{
	size_t i, k = 0;

	for (i = 0; i < n; i++) {
		flag[i] = x[i] < lo || x[i] > hi;
		k += flag[i];
	}
	return k;
}

static double mean_abs_dev(const double *x, size_t n, double center)
{
	double sum = 0;
	size_t i;

	for (i = 0; i < n; i++)
		sum += fabs(x[i] - center);
	return sum / (double)n;
}

size_t stats_outliers(const double *x, size_t n, enum outlier_method m,
		      bool *flag)
{
	struct summary s;
	double sigma, iqr;

	memset(flag, 0, n * sizeof(*flag));
	if (n < 3)
		return 0;
	if (m == OUTLIER_TUKEY) {
		stats_summary(x, n, &s);
		iqr = s.q3 - s.q1;
		return flag_outside(x, n, s.q1 - TUKEY_K * iqr,
				    s.q3 + TUKEY_K * iqr, flag);
	}
	/* Only the median and the MAD: the history check asks this of every
	 * night's window, the rest of a summary (its interval) costs more. */
	median_mad(x, n, &s);
	sigma = s.mad * MAD_TO_SIGMA;
	if (sigma == 0)
		sigma = mean_abs_dev(x, n, s.median) * MEANAD_TO_SIGMA;
	if (sigma == 0)
		return 0;
	return flag_outside(x, n, s.median - MAD_Z_LIMIT * sigma,
			    s.median + MAD_Z_LIMIT * sigma, flag);
}
