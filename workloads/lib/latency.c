// SPDX-License-Identifier: GPL-2.0-only
/*
 * Per-fault latency distributions: the figures fault-path patches are
 * judged by (p50, p99, max, mean), printed and reported as metrics under
 * one prefix so that a workload timing several phases (a child's and a
 * parent's COW faults, read and write faults) reports each apart.
 */
#include "wl.h"

#include <gsl/gsl_sort.h>
#include <gsl/gsl_statistics_double.h>
#include <stdio.h>

static void report(const char *prefix, const char *what, double v)
{
	char name[96];

	snprintf(name, sizeof(name), "%s_%s_usec", prefix, what);
	printf("%s %.3f\n", name, v);
	wl_metric(name, v);
}

void wl_report_latency(const char *prefix, double *usec, size_t n)
{
	if (!n)
		return;
	gsl_sort(usec, 1, n);
	report(prefix, "p50", gsl_stats_quantile_from_sorted_data(usec, 1, n, 0.5));
	report(prefix, "p99", gsl_stats_quantile_from_sorted_data(usec, 1, n, 0.99));
	report(prefix, "max", usec[n - 1]);
	report(prefix, "mean", gsl_stats_mean(usec, 1, n));
}
