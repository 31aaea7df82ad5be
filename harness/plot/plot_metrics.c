// SPDX-License-Identifier: GPL-2.0-only
#include "plot_metrics.h"

#include <stdlib.h>
#include <string.h>

#include "stats/metric_unit.h"
#include "util/util.h"

static bool is_counter(const char *name)
{
	if (!strncmp(name, "vmstat.", 7))
		return !strncmp(name, "vmstat.thp_", 11);
	return metric_unit_base(name) == MU_COUNT;
}

enum pm_kind plot_metric_kind(const char *name)
{
	if (is_counter(name))
		return PM_COUNTER;
	switch (metric_unit_base(name)) {
	case MU_NSEC: case MU_USEC: case MU_MSEC: case MU_SEC:
	case MU_GBPS: case MU_MBPS: case MU_OPS:
		return PM_PERF;
	default:
		return PM_OTHER;
	}
}

const char *plot_metric_unit(const char *name)
{
	return metric_unit(name);
}

void plot_metric_scale(const char *name, double maxabs, struct pm_scale *s)
{
	struct metric_scale m;

	metric_unit_scale(name, maxabs, &m);
	s->unit = m.unit;
	s->factor = m.factor;
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
