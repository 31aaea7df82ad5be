// SPDX-License-Identifier: GPL-2.0-only
#include "vmstat.h"

#include <limits.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util/kept_file.h"
#include "util/util.h"

struct vmstat_name {
	char *name;
	size_t len;
	bool wanted;
	char *key, *key_before, *key_after;	/* wanted: the metric names */
};

/* Every name seen, and which one was on each line at the last read. */
static struct vmstat_name **seen;
static size_t nseen, seen_cap;
static struct vmstat_name **at_line;
static size_t nlines, lines_cap;

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

static char *key_of(const char *name, const char *suffix)
{
	char key[160];

	snprintf(key, sizeof(key), "vmstat.%s%s", name, suffix);
	return xstrdup(key);
}

static struct vmstat_name *intern(const char *name, size_t len)
{
	struct vmstat_name *v;
	size_t i;

	for (i = 0; i < nseen; i++)
		if (seen[i]->len == len && !memcmp(seen[i]->name, name, len))
			return seen[i];
	v = xcalloc(1, sizeof(*v));
	v->name = xstrdup(name);
	v->len = len;
	v->wanted = vmstat_wanted(name);
	if (v->wanted && !strncmp(name, "nr_", 3)) {
		v->key_before = key_of(name, ".before");
		v->key_after = key_of(name, ".after");
	} else if (v->wanted) {
		v->key = key_of(name, "");
	}
	seen = xgrow(seen, sizeof(*seen), &seen_cap, nseen);
	seen[nseen++] = v;
	return v;
}

/* The name on line `line` (NUL-terminated, len bytes), interned. */
static struct vmstat_name *name_at(size_t line, const char *name, size_t len)
{
	struct vmstat_name *v;

	if (line < nlines && at_line[line]->len == len &&
	    !memcmp(at_line[line]->name, name, len))
		return at_line[line];
	v = intern(name, len);
	if (line >= nlines) {
		at_line = xgrow(at_line, sizeof(*at_line), &lines_cap, line);
		nlines = line + 1;
	}
	at_line[line] = v;
	return v;
}

static bool is_space(char c)
{
	return c == ' ' || c == '\t' || c == '\n';
}

/* Decimal digits as strtoull takes them (ULLONG_MAX on overflow). */
static unsigned long long decimal(const char *p, char **end)
{
	unsigned long long v = 0;
	unsigned d;

	for (; *p >= '0' && *p <= '9'; p++) {
		d = (unsigned)(*p - '0');
		v = v > (ULLONG_MAX - d) / 10 ? ULLONG_MAX : v * 10 + d;
	}
	*end = (char *)p;
	return v;
}

int vmstat_read(const char *path, struct vmstat_snap *s)
{
	static char *text;	/* one reader at a time: the runner */
	static size_t cap;
	struct vmstat_name *v;
	unsigned long long val;
	char *p, *name, *end;
	size_t len, line;

	memset(s, 0, sizeof(*s));
	if (kept_read_all(path ? path : "/proc/vmstat", &text, &cap) < 0)
		return -1;
	/* "NAME VALUE" pairs, as fscanf("%127s %llu") would take them. */
	for (p = text, line = 0;; p = end, line++) {
		for (name = p; is_space(*name); name++)
			;
		for (len = 0; name[len] && !is_space(name[len]); len++)
			;
		if (!len || len > 127)
			break;
		for (p = name + len; is_space(*p); p++)
			;
		if (*p < '0' || *p > '9')
			break;
		val = decimal(p, &end);
		name[len] = '\0';
		v = name_at(line, name, len);
		if (!v->wanted)
			continue;
		if (s->n == s->cap) {
			s->names = xgrow(s->names, sizeof(*s->names), &s->cap, s->n);
			s->vals = xrealloc(s->vals, s->cap * sizeof(*s->vals));
		}
		s->names[s->n] = v;
		s->vals[s->n++] = val;
	}
	return 0;
}

/* The file lists its counters in one order: try the same place first. */
static int find(const struct vmstat_snap *s, const struct vmstat_name *name,
		size_t hint)
{
	size_t i;

	if (hint < s->n && s->names[hint] == name)
		return (int)hint;
	for (i = 0; i < s->n; i++)
		if (s->names[i] == name)
			return (int)i;
	return -1;
}

void vmstat_delta(const struct vmstat_snap *before,
		  const struct vmstat_snap *after, struct metric_set *out)
{
	const struct vmstat_name *v;
	size_t i;
	int j;

	for (i = 0; i < after->n; i++) {
		v = after->names[i];
		j = find(before, v, i);
		if (j < 0)
			continue;
		if (v->key_before) {
			metric_set_put(out, v->key_before, (double)before->vals[j]);
			metric_set_put(out, v->key_after, (double)after->vals[i]);
			continue;
		}
		metric_set_put(out, v->key, (double)after->vals[i] -
					    (double)before->vals[j]);
	}
}

void vmstat_free(struct vmstat_snap *s)
{
	free(s->names);
	free(s->vals);
	memset(s, 0, sizeof(*s));
}
