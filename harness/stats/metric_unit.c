// SPDX-License-Identifier: GPL-2.0-only
#include "metric_unit.h"

#include <fnmatch.h>
#include <math.h>

#include "util/util.h"

struct unit_rule {
	const char *pattern;
	enum metric_unit_base unit;
};

/* First match wins (case-insensitive); vmstat.* before the *fault* rule. */
static const struct unit_rule unit_rules[] = {
	{ "vmstat.*", MU_COUNT },
	{ "*usec", MU_USEC },
	{ "*_us", MU_USEC },
	{ "*nsec", MU_NSEC },
	{ "*_ns", MU_NSEC },
	{ "*-clock", MU_NSEC },		/* perf's task-clock/cpu-clock */
	{ "*msec", MU_MSEC },
	{ "*_ms", MU_MSEC },
	{ "*_sec", MU_SEC },
	{ "*_s", MU_SEC },
	{ "*gbps*", MU_GBPS },
	{ "*gb/s*", MU_GBPS },
	{ "*gb_s", MU_GBPS },
	{ "*mbps*", MU_MBPS },
	{ "*mb/s*", MU_MBPS },
	{ "*_kb", MU_KIB },
	{ "*ops*", MU_OPS },
	{ "*throughput*", MU_OPS },
	{ "minflt", MU_COUNT },
	{ "majflt", MU_COUNT },
	{ "*fault*", MU_COUNT },
	{ "*-misses", MU_COUNT },
	{ "*_misses", MU_COUNT },
	{ "*-loads", MU_COUNT },
	{ "*-stores", MU_COUNT },
	{ "cycles", MU_COUNT },
	{ "instructions", MU_COUNT },
	{ "*:*", MU_COUNT },		/* tracepoints */
};

enum metric_unit_base metric_unit_base(const char *name)
{
	size_t i;

	for (i = 0; i < ARRAY_SIZE(unit_rules); i++)
		if (!fnmatch(unit_rules[i].pattern, name, FNM_CASEFOLD))
			return unit_rules[i].unit;
	return MU_NONE;
}

static const char *const unit_names[] = {
	[MU_NONE] = "", [MU_COUNT] = "count", [MU_NSEC] = "ns",
	[MU_USEC] = "µs", [MU_MSEC] = "ms", [MU_SEC] = "s", [MU_KIB] = "KiB",
	[MU_GBPS] = "GB/s", [MU_MBPS] = "MB/s", [MU_OPS] = "ops",
};

const char *metric_unit(const char *name)
{
	return unit_names[metric_unit_base(name)];
}

static void scale_time(double seconds_per_unit, double maxabs,
		       struct metric_scale *s)
{
	static const struct { const char *unit; double sec; } t[] = {
		{ "s", 1 }, { "ms", 1e-3 }, { "µs", 1e-6 }, { "ns", 1e-9 },
	};
	double sec = maxabs * seconds_per_unit;
	size_t i;

	for (i = 0; i < ARRAY_SIZE(t) - 1; i++)
		if (sec >= t[i].sec)
			break;
	/* Never show finer than stored: ns values stay ns even when tiny. */
	while (t[i].sec < seconds_per_unit && i > 0)
		i--;
	s->unit = t[i].unit;
	s->factor = seconds_per_unit / t[i].sec;
}

static void scale_kib(double maxabs, struct metric_scale *s)
{
	if (maxabs >= 1024.0 * 1024) {
		s->unit = "GiB";
		s->factor = 1.0 / (1024.0 * 1024);
	} else if (maxabs >= 1024) {
		s->unit = "MiB";
		s->factor = 1.0 / 1024;
	} else {
		s->unit = "KiB";
		s->factor = 1;
	}
}

void metric_unit_scale(const char *name, double maxabs, struct metric_scale *s)
{
	enum metric_unit_base u = metric_unit_base(name);

	if (!isfinite(maxabs))
		maxabs = 0;
	s->unit = unit_names[u];
	s->factor = 1;
	switch (u) {
	case MU_NSEC:
		scale_time(1e-9, maxabs, s);
		break;
	case MU_USEC:
		scale_time(1e-6, maxabs, s);
		break;
	case MU_MSEC:
		scale_time(1e-3, maxabs, s);
		break;
	case MU_SEC:
		scale_time(1, maxabs, s);
		break;
	case MU_KIB:
		scale_kib(maxabs, s);
		break;
	default:
		break;
	}
}
