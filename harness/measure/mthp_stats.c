// SPDX-License-Identifier: GPL-2.0-only
#include "mthp_stats.h"

#include <dirent.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "system/mthp.h"
#include "util/util.h"

static void read_size(const char *root, unsigned long kb, struct mthp_stats *s)
{
	char rel[128], dir[PATH_MAX], path[PATH_MAX + 256], buf[64];
	struct dirent **names;
	unsigned long long v;
	char *end;
	int i, n;

	mthp_knob_name(kb, "stats", rel, sizeof(rel));
	snprintf(dir, sizeof(dir), "%s/%s", root, rel);
	n = scandir(dir, &names, NULL, alphasort);
	for (i = 0; i < n; i++) {
		const char *name = names[i]->d_name;

		snprintf(path, sizeof(path), "%s/%s", dir, name);
		if (name[0] != '.' && !read_file_str(path, buf, sizeof(buf))) {
			v = strtoull(buf, &end, 10);
			if (end != buf && !*end) {
				s->v = xgrow(s->v, sizeof(*s->v), &s->cap, s->n);
				s->v[s->n++] = (struct mthp_stat){
					.kb = kb, .name = xstrdup(name), .value = v,
				};
			}
		}
		free(names[i]);
	}
	if (n >= 0)
		free(names);
}

void mthp_stats_read(const char *root, const unsigned long *kb, size_t nkb,
		     struct mthp_stats *s)
{
	size_t i;

	memset(s, 0, sizeof(*s));
	for (i = 0; i < nkb; i++)
		read_size(root, kb[i], s);
}

static const struct mthp_stat *find(const struct mthp_stats *s,
				    const struct mthp_stat *like)
{
	size_t i;

	for (i = 0; i < s->n; i++)
		if (s->v[i].kb == like->kb && !strcmp(s->v[i].name, like->name))
			return &s->v[i];
	return NULL;
}

void mthp_stats_delta(const struct mthp_stats *before,
		      const struct mthp_stats *after, struct metric_set *out)
{
	const struct mthp_stat *b;
	char size[16], key[200];
	size_t i;

	for (i = 0; i < after->n; i++) {
		const struct mthp_stat *a = &after->v[i];

		b = find(before, a);
		if (!b)
			continue;
		mthp_size_name(a->kb, size, sizeof(size));
		if (!strncmp(a->name, "nr_", 3)) {
			snprintf(key, sizeof(key), "mthp.%s.%s.before", size, a->name);
			metric_set_put(out, key, (double)b->value);
			snprintf(key, sizeof(key), "mthp.%s.%s.after", size, a->name);
			metric_set_put(out, key, (double)a->value);
			continue;
		}
		snprintf(key, sizeof(key), "mthp.%s.%s", size, a->name);
		metric_set_put(out, key, (double)a->value - (double)b->value);
	}
}

void mthp_stats_free(struct mthp_stats *s)
{
	size_t i;

	for (i = 0; i < s->n; i++)
		free(s->v[i].name);
	free(s->v);
	memset(s, 0, sizeof(*s));
}
