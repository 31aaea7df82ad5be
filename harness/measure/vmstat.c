// SPDX-License-Identifier: GPL-2.0-only
#include "vmstat.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util/kept_file.h"
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
	static char *text;	/* one reader at a time: the runner */
	static size_t cap;
	unsigned long long v;
	char *p, *name, *end;
	size_t len;

	memset(s, 0, sizeof(*s));
	if (kept_read_all(path ? path : "/proc/vmstat", &text, &cap) < 0)
		return -1;
	/* "NAME VALUE" pairs, as fscanf("%127s %llu") would take them. */
	for (p = text;; p = end) {
		name = p + strspn(p, " \t\n");
		len = strcspn(name, " \t\n");
		if (!len || len > 127)
			break;
		p = name + len + strspn(name + len, " \t\n");
		if (*p < '0' || *p > '9')
			break;
		v = strtoull(p, &end, 10);
		name[len] = '\0';
		if (!vmstat_wanted(name))
			continue;
		s->names = xgrow(s->names, sizeof(*s->names), &s->cap, s->n);
		s->vals = xrealloc(s->vals, s->cap * sizeof(*s->vals));
		s->names[s->n] = xstrdup(name);
		s->vals[s->n++] = v;
	}
	return 0;
}

/* The file lists its counters in one order: try the same place first. */
static int find(const struct vmstat_snap *s, const char *name, size_t hint)
{
	size_t i;

	if (hint < s->n && !strcmp(s->names[hint], name))
		return (int)hint;

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
		j = find(before, after->names[i], i);
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
