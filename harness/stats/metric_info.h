/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * metric_info - which way is better for a metric, and how big a change is
 * noise.
 *
 * Direction comes from the first matching name pattern of a table
 * (metric_info.c): times, misses, faults (minflt, majflt too) and TLB
 * tracepoints are lower-is-better; GB/s, throughput and ops are
 * higher-is-better; vmstat.* and any other counter is neutral (a change
 * is reported as "changed", never as an improvement or a regression: more
 * thp_fault_alloc is good or bad depending on the experiment).
 *
 * Gauges: prof.* (profile shares, compare_profile.h) and vmstat.nr_* are levels (pages in use at a moment), not counts
 * of events; a run records them as levels (vmstat.h), and compare leaves
 * them out of verdicts unless asked (compare.h).
 *
 * Overrides, later ones winning: the case's "extra" object in the results
 * file ({"metric": {"gbps": {"better": "higher", "threshold": 0.05}}},
 * threshold a fraction), then the command line (struct metric_override,
 * name patterns are fnmatch globs).
 */
#ifndef THPBENCH_METRIC_INFO_H
#define THPBENCH_METRIC_INFO_H

#include <jansson.h>
#include <stdbool.h>
#include <stddef.h>

enum better {
	BETTER_NEUTRAL,
	BETTER_LOWER,
	BETTER_HIGHER,
};

struct metric_info {
	enum better better;
	double threshold;	/* relative noise threshold, 0.02 = 2% */
	bool gauge;		/* a level, not an event count */
};

/* True for a level (vmstat.nr_*) rather than a count of events. */
bool metric_is_gauge(const char *name);

struct metric_override {
	char *pattern;		/* fnmatch glob on the metric name */
	double threshold;	/* NAN: not overridden */
	int better;		/* enum better, or -1: not overridden */
};

const char *better_name(enum better b);	/* "lower", "higher", "neutral" */
/* -1 when s is none of the names above. */
int better_parse(const char *s);

/*
 * A time or a rate (roi_usec, wall_usec, task-clock, cycles, gbps): what
 * a machine's speed decides. Not a count of events (faults, misses, TLB
 * flushes, splits), which a slow or emulated machine does not change.
 */
bool metric_is_timing(const char *name);

/* The table's direction for a metric name. */
enum better metric_default_better(const char *name);

/*
 * Direction and threshold of `name`: the table and default_threshold, then
 * extras[0..nextras) (case "extra" objects, NULL entries skipped) and
 * ov[0..nov). -1 with err set when extra holds a
 * malformed override for this metric (the message names it).
 */
int metric_info_get(const char *name, const json_t *const *extras,
		    size_t nextras, const struct metric_override *ov, size_t nov,
		    double default_threshold, struct metric_info *mi,
		    char *err, size_t errlen);

#endif
