// SPDX-License-Identifier: GPL-2.0-only
#include "metric_info.h"

#include <fnmatch.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "util/util.h"

struct better_rule {
	const char *pattern;
	enum better better;
};

/*
 * First match wins, case-insensitively. vmstat.* comes first so that
 * vmstat.pgfault is a neutral counter, not a "fault" to be minimised.
 */
static const struct better_rule rules[] = {
	{ "vmstat.*", BETTER_NEUTRAL },
	{ "mthp.*", BETTER_NEUTRAL },
	{ "buddy.*", BETTER_NEUTRAL },
	{ "memstate.*", BETTER_NEUTRAL },
	{ "*success_pct", BETTER_HIGHER },
	{ "*gbps*", BETTER_HIGHER },
	{ "*gb/s*", BETTER_HIGHER },
	{ "*gb_s", BETTER_HIGHER },
	{ "*mbps*", BETTER_HIGHER },
	{ "*mb/s*", BETTER_HIGHER },
	{ "*throughput*", BETTER_HIGHER },
	{ "*bandwidth*", BETTER_HIGHER },
	{ "ops", BETTER_HIGHER },
	{ "*_ops", BETTER_HIGHER },
	{ "*-ops", BETTER_HIGHER },
	{ "*ops_per_sec*", BETTER_HIGHER },
	{ "*ops/s*", BETTER_HIGHER },
	{ "*iops*", BETTER_HIGHER },
	{ "*usec", BETTER_LOWER },
	{ "*nsec", BETTER_LOWER },
	{ "*msec", BETTER_LOWER },
	{ "*_us", BETTER_LOWER },
	{ "*_ns", BETTER_LOWER },
	{ "*_ms", BETTER_LOWER },
	{ "*_sec", BETTER_LOWER },
	{ "*_s", BETTER_LOWER },
	{ "*time*", BETTER_LOWER },
	{ "wall*", BETTER_LOWER },
	{ "user*", BETTER_LOWER },
	{ "sys*", BETTER_LOWER },
	{ "*-clock", BETTER_LOWER },
	{ "cycles", BETTER_LOWER },
	{ "*-misses", BETTER_LOWER },
	{ "*_misses", BETTER_LOWER },
	{ "*faults*", BETTER_LOWER },
	{ "*-fault*", BETTER_LOWER },
	/* getrusage's names (and a workload's roi_minflt): faults too */
	{ "*minflt", BETTER_LOWER },
	{ "*majflt", BETTER_LOWER },
	{ "tlb:*", BETTER_LOWER },
	{ "tlb.instructions", BETTER_NEUTRAL },
	{ "tlb.*", BETTER_LOWER },
	{ "exceptions:page_fault*", BETTER_LOWER },
};

static const char *const better_names[] = {
	[BETTER_NEUTRAL] = "neutral",
	[BETTER_LOWER] = "lower",
	[BETTER_HIGHER] = "higher",
};

const char *better_name(enum better b)
{
	if ((size_t)b < ARRAY_SIZE(better_names))
		return better_names[b];
	return "neutral";
}

int better_parse(const char *s)
{
	size_t i;

	for (i = 0; i < ARRAY_SIZE(better_names); i++)
		if (!strcmp(s, better_names[i]))
			return (int)i;
	return -1;
}

/*
 * Levels, not events of the run: vmstat and mTHP nr_* before and after,
 * the state of free memory around it (buddy.*), what preparing that
 * state did (memstate.*).
 */
bool metric_is_gauge(const char *name)
{
	return !fnmatch("vmstat.nr_*", name, 0) || !fnmatch("mthp.*.nr_*", name, 0) ||
	       !fnmatch("buddy.*", name, 0) || !fnmatch("memstate.*", name, 0) ||
	       /* A profile share is a level of a repetition, judged on its own
		* (compare_profile.h), not in the families of the counters. */
	       !fnmatch("prof.*", name, 0);
}

/* Directed metrics that count events rather than time them. */
static const char *const count_patterns[] = {
	"*-misses", "*_misses", "*faults*", "*-fault*", "*minflt", "*majflt",
	"tlb:*", "exceptions:*",
};

bool metric_is_timing(const char *name)
{
	size_t i;

	if (metric_default_better(name) == BETTER_NEUTRAL)
		return false;
	for (i = 0; i < ARRAY_SIZE(count_patterns); i++)
		if (!fnmatch(count_patterns[i], name, FNM_CASEFOLD))
			return false;
	return true;
}

enum better metric_default_better(const char *name)
{
	size_t i;

	for (i = 0; i < ARRAY_SIZE(rules); i++)
		if (!fnmatch(rules[i].pattern, name, FNM_CASEFOLD))
			return rules[i].better;
	return BETTER_NEUTRAL;
}

static int apply_extra(const char *name, const json_t *extra,
		       struct metric_info *mi, char *err, size_t errlen)
{
	json_t *metrics, *o, *v;
	int b;

	metrics = extra ? json_object_get(extra, "metric") : NULL;
	o = metrics ? json_object_get(metrics, name) : NULL;
	if (!o)
		return 0;
	if (!json_is_object(o)) {
		snprintf(err, errlen,
			 "extra.metric.%s: expected an object like {\"better\": \"lower\", \"threshold\": 0.02}",
			 name);
		return -1;
	}
	v = json_object_get(o, "better");
	if (v) {
		b = json_is_string(v) ? better_parse(json_string_value(v)) : -1;
		if (b < 0) {
			snprintf(err, errlen,
				 "extra.metric.%s.better: expected \"lower\", \"higher\" or \"neutral\"",
				 name);
			return -1;
		}
		mi->better = (enum better)b;
	}
	v = json_object_get(o, "threshold");
	if (v) {
		if (!json_is_number(v) || json_number_value(v) < 0 ||
		    json_number_value(v) >= 1) {
			snprintf(err, errlen,
				 "extra.metric.%s.threshold: expected a fraction in [0, 1) such as 0.05 for 5%%",
				 name);
			return -1;
		}
		mi->threshold = json_number_value(v);
	}
	return 0;
}

int metric_info_get(const char *name, const json_t *const *extras,
		    size_t nextras, const struct metric_override *ov, size_t nov,
		    double default_threshold, struct metric_info *mi,
		    char *err, size_t errlen)
{
	size_t i;

	mi->better = metric_default_better(name);
	mi->threshold = default_threshold;
	mi->gauge = metric_is_gauge(name);
	for (i = 0; i < nextras; i++)
		if (apply_extra(name, extras[i], mi, err, errlen))
			return -1;
	for (i = 0; i < nov; i++) {
		if (fnmatch(ov[i].pattern, name, 0))
			continue;
		if (!isnan(ov[i].threshold))
			mi->threshold = ov[i].threshold;
		if (ov[i].better >= 0)
			mi->better = (enum better)ov[i].better;
	}
	return 0;
}
