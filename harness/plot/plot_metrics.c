// SPDX-License-Identifier: GPL-2.0-only
#include "plot_metrics.h"

#include <fnmatch.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "util/util.h"

enum base_unit {
	U_NONE,
	U_COUNT,
	U_NSEC,
	U_USEC,
	U_MSEC,
	U_SEC,
	U_KIB,
	U_GBPS,
	U_MBPS,
	U_OPS,
};

struct unit_rule {
	const char *pattern;
	enum base_unit unit;
};

/* First match wins (case-insensitive); vmstat.* before the *fault* rule. */
static const struct unit_rule unit_rules[] = {
	{ "vmstat.*", U_COUNT },
	{ "*usec", U_USEC },
	{ "*_us", U_USEC },
	{ "*nsec", U_NSEC },
	{ "*_ns", U_NSEC },
	{ "*-clock", U_NSEC },		/* perf's task-clock/cpu-clock */
	{ "*msec", U_MSEC },
	{ "*_ms", U_MSEC },
	{ "*_sec", U_SEC },
	{ "*_s", U_SEC },
	{ "*gbps*", U_GBPS },
	{ "*gb/s*", U_GBPS },
	{ "*gb_s", U_GBPS },
	{ "*mbps*", U_MBPS },
	{ "*mb/s*", U_MBPS },
	{ "*_kb", U_KIB },
	{ "*ops*", U_OPS },
	{ "*throughput*", U_OPS },
	{ "minflt", U_COUNT },
	{ "majflt", U_COUNT },
	{ "*fault*", U_COUNT },
	{ "*-misses", U_COUNT },
	{ "*_misses", U_COUNT },
	{ "*-loads", U_COUNT },
	{ "*-stores", U_COUNT },
	{ "cycles", U_COUNT },
	{ "instructions", U_COUNT },
	{ "*:*", U_COUNT },		/* tracepoints */
};

static enum base_unit base_unit(const char *name)
{
	size_t i;

	for (i = 0; i < ARRAY_SIZE(unit_rules); i++)
		if (!fnmatch(unit_rules[i].pattern, name, FNM_CASEFOLD))
			return unit_rules[i].unit;
	return U_NONE;
}

static bool is_counter(const char *name)
{
	if (!strncmp(name, "vmstat.", 7))
		return !strncmp(name, "vmstat.thp_", 11);
	return base_unit(name) == U_COUNT;
}

enum pm_kind plot_metric_kind(const char *name)
{
	if (is_counter(name))
		return PM_COUNTER;
	switch (base_unit(name)) {
	case U_NSEC: case U_USEC: case U_MSEC: case U_SEC:
	case U_GBPS: case U_MBPS: case U_OPS:
		return PM_PERF;
	default:
		return PM_OTHER;
	}
}

static const char *const unit_names[] = {
	[U_NONE] = "", [U_COUNT] = "count", [U_NSEC] = "ns",
	[U_USEC] = "µs", [U_MSEC] = "ms", [U_SEC] = "s", [U_KIB] = "KiB",
	[U_GBPS] = "GB/s", [U_MBPS] = "MB/s", [U_OPS] = "ops",
};

const char *plot_metric_unit(const char *name)
{
	return unit_names[base_unit(name)];
}

static void scale_time(double seconds_per_unit, double maxabs,
		       struct pm_scale *s)
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

static void scale_kib(double maxabs, struct pm_scale *s)
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

void plot_metric_scale(const char *name, double maxabs, struct pm_scale *s)
{
	enum base_unit u = base_unit(name);

	if (!isfinite(maxabs))
		maxabs = 0;
	s->unit = unit_names[u];
	s->factor = 1;
	switch (u) {
	case U_NSEC:
		scale_time(1e-9, maxabs, s);
		break;
	case U_USEC:
		scale_time(1e-6, maxabs, s);
		break;
	case U_MSEC:
		scale_time(1e-3, maxabs, s);
		break;
	case U_SEC:
		scale_time(1, maxabs, s);
		break;
	case U_KIB:
		scale_kib(maxabs, s);
		break;
	default:
		break;
	}
}

/* Harness-measured metrics, in chart order after the workload's own. */
static const char *const ranked[] = {
	"wall_usec", "task-clock", "cpu-clock", "sys_usec", "user_usec",
	"page-faults", "exceptions:page_fault_user", "minflt", "majflt",
	"dTLB-load-misses", "dTLB-store-misses", "iTLB-load-misses",
	"tlb:tlb_flush",
};

static int rank(const char *name)
{
	size_t i;

	for (i = 0; i < ARRAY_SIZE(ranked); i++)
		if (!strcmp(name, ranked[i]))
			return 100 + (int)i;
	if (!strncmp(name, "vmstat.", 7))
		return 300;
	if (plot_metric_kind(name) == PM_COUNTER)
		return 200;		/* other events and tracepoints */
	return 0;			/* the workload's own figures */
}

int plot_metric_cmp(const void *a, const void *b)
{
	const char *x = *(char *const *)a, *y = *(char *const *)b;
	int rx = rank(x), ry = rank(y);

	if (rx != ry)
		return rx < ry ? -1 : 1;
	return strcmp(x, y);
}

size_t plot_metric_pick(char **v, size_t n, enum pm_kind kind, size_t max,
			char ***out, size_t *dropped)
{
	char **keep = xcalloc(n + 1, sizeof(*keep));
	size_t i, k = 0;

	for (i = 0; i < n; i++)
		if (plot_metric_kind(v[i]) == kind)
			keep[k++] = v[i];
	qsort(keep, k, sizeof(*keep), plot_metric_cmp);
	*dropped = k > max ? k - max : 0;
	*out = keep;
	return k > max ? max : k;
}
