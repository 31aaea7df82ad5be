// SPDX-License-Identifier: GPL-2.0-only
#include "vmstat.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util/util.h"

int vmstat_wanted(const char *name)
{
	static const char *const prefixes[] = {
		"thp_", "compact_", "htlb_", "numa_huge", "nr_anon_transparent",
	};
	size_t i;

	if (!strcmp(name, "pgfault") || !strcmp(name, "pgmajfault"))
		return 1;
	for (i = 0; i < ARRAY_SIZE(prefixes); i++)
		if (!strncmp(name, prefixes[i], strlen(prefixes[i])))
			return 1;
	return 0;
}

int vmstat_read(const char *path, struct vmstat_snap *s)
{
	char name[128];
	unsigned long long v;
	FILE *f = fopen(path ? path : "/proc/vmstat", "re");

	memset(s, 0, sizeof(*s));
	if (!f)
		return -1;
	while (fscanf(f, "%127s %llu", name, &v) == 2) {
		if (!vmstat_wanted(name))
			continue;
		s->names = xgrow(s->names, sizeof(*s->names), &s->cap, s->n);
		s->vals = xrealloc(s->vals, s->cap * sizeof(*s->vals));
		s->names[s->n] = xstrdup(name);
		s->vals[s->n++] = v;
	}
	fclose(f);
	return 0;
}

static int find(const struct vmstat_snap *s, const char *name)
{
	size_t i;

	for (i = 0; i < s->n; i++)
		if (!strcmp(s->names[i], name))
			return (int)i;
	return -1;
}

void vmstat_delta(const struct vmstat_snap *before,
		  const struct vmstat_snap *after, struct metric_set *out)
{
	char key[160];
	size_t i;
	int j;

	for (i = 0; i < after->n; i++) {
		j = find(before, after->names[i]);
		if (j < 0)
			continue;
		if (!strncmp(after->names[i], "nr_", 3)) {
			snprintf(key, sizeof(key), "vmstat.%s.before", after->names[i]);
			metric_set_put(out, key, (double)before->vals[j]);
			snprintf(key, sizeof(key), "vmstat.%s.after", after->names[i]);
			metric_set_put(out, key, (double)after->vals[i]);
			continue;
		}
		snprintf(key, sizeof(key), "vmstat.%s", after->names[i]);
		metric_set_put(out, key, (double)after->vals[i] -
					 (double)before->vals[j]);
	}
}

void vmstat_free(struct vmstat_snap *s)
{
	size_t i;

	for (i = 0; i < s->n; i++)
		free(s->names[i]);
	free(s->names);
	free(s->vals);
	memset(s, 0, sizeof(*s));
}
