// SPDX-License-Identifier: GPL-2.0-only
#include "stats.h"

#include <gsl/gsl_cdf.h>
#include <gsl/gsl_sort.h>
#include <gsl/gsl_statistics_double.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "util.h"

int stats_summary(const double *x, size_t n, struct summary *s)
{
	double *sorted, t;

	memset(s, 0, sizeof(*s));
	if (!n)
		return -1;
	sorted = xmalloc(n * sizeof(*sorted));
	memcpy(sorted, x, n * sizeof(*sorted));
	gsl_sort(sorted, 1, n);
	s->n = n;
	s->mean = gsl_stats_mean(sorted, 1, n);
	s->min = sorted[0];
	s->max = sorted[n - 1];
	s->median = gsl_stats_median_from_sorted_data(sorted, 1, n);
	s->stddev = s->stderr_mean = s->cv = NAN;
	s->ci95_lo = s->ci95_hi = NAN;
	if (n >= 2) {
		s->stddev = gsl_stats_sd_m(sorted, 1, n, s->mean);
		s->stderr_mean = s->stddev / sqrt((double)n);
		s->cv = s->mean != 0 ? s->stddev / fabs(s->mean) : NAN;
		t = gsl_cdf_tdist_Pinv(0.975, (double)(n - 1));
		s->ci95_lo = s->mean - t * s->stderr_mean;
		s->ci95_hi = s->mean + t * s->stderr_mean;
	}
	free(sorted);
	return 0;
}
