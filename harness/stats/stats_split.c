// SPDX-License-Identifier: GPL-2.0-only
#include "stats_split.h"

#include <gsl/gsl_sort.h>
#include <gsl/gsl_statistics_double.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "util/util.h"

static bool tight(const double *v, size_t n, double gap)
{
	return v[n - 1] / v[0] < sqrt(gap);
}

bool stats_split(const double *x, size_t n, struct split *s)
{
	double *v, best = 0;
	size_t i, k = 0;
	bool found = false;

	if (n < 4)
		return false;
	v = xmalloc(n * sizeof(*v));
	memcpy(v, x, n * sizeof(*v));
	gsl_sort(v, 1, n);
	if (!(v[0] > 0) || !isfinite(v[n - 1]))
		goto out;
	for (i = 2; i + 1 < n; i++)	/* groups of 2 or more */
		if (v[i] / v[i - 1] > best) {
			best = v[i] / v[i - 1];
			k = i;
		}
	if (k < 2 || n - k < 2 || best < SPLIT_MIN_GAP ||
	    !tight(v, k, best) || !tight(v + k, n - k, best))
		goto out;
	s->n_low = k;
	s->n_high = n - k;
	s->low_median = gsl_stats_median_from_sorted_data(v, 1, k);
	s->high_median = gsl_stats_median_from_sorted_data(v + k, 1, n - k);
	s->gap = best;
	found = true;
out:
	free(v);
	return found;
}
