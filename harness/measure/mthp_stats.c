// SPDX-License-Identifier: GPL-2.0-only
#include "mthp_stats.h"

#include <dirent.h>
#include <limits.h>
#include <linux/magic.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/vfs.h>

#include "system/mthp.h"
#include "util/kept_file.h"
#include "util/util.h"

/*
 * The file names in a sysfs stats/ directory, listed once: a kernel's
 * attribute set does not change while it runs, and a listing is three
 * system calls a size. A directory elsewhere (a test's fake root) is
 * listed at every read.
 */
struct listing {
	char *dir;
	char **names;
	size_t n;
};

static struct listing listings[MTHP_MAX_SIZES * 2];
static size_t nlistings;

static bool on_sysfs(const char *dir)
{
	struct statfs sf;

	return !statfs(dir, &sf) && sf.f_type == SYSFS_MAGIC;
}

/* scandir's names, sorted, without the dot files; -1 when unreadable. */
static int list_dir(const char *dir, char ***out, size_t *nout)
{
	struct dirent **names;
	int i, n = scandir(dir, &names, NULL, alphasort);

	*out = NULL;
	*nout = 0;
	if (n < 0)
		return -1;
	*out = xcalloc((size_t)n + 1, sizeof(char *));
	for (i = 0; i < n; i++) {
		if (names[i]->d_name[0] != '.')
			(*out)[(*nout)++] = xstrdup(names[i]->d_name);
		free(names[i]);
	}
	free(names);
	return 0;
}

static void free_names(char **names, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++)
		free(names[i]);
	free(names);
}

/* The listing of dir: cached (owned here) or fresh (*fresh: caller frees). */
static const struct listing *listing_of(const char *dir, struct listing *fresh)
{
	struct listing *l;
	size_t i;

	for (i = 0; i < nlistings; i++)
		if (!strcmp(listings[i].dir, dir))
			return &listings[i];
	memset(fresh, 0, sizeof(*fresh));
	if (list_dir(dir, &fresh->names, &fresh->n))
		return NULL;
	if (nlistings == ARRAY_SIZE(listings) || !on_sysfs(dir))
		return fresh;
	l = &listings[nlistings++];
	*l = *fresh;
	l->dir = xstrdup(dir);
	memset(fresh, 0, sizeof(*fresh));
	return l;
}

static void read_size(const char *root, unsigned long kb, struct mthp_stats *s)
{
	char rel[128], dir[PATH_MAX], path[PATH_MAX + 256], buf[64];
	struct listing fresh = { 0 };
	const struct listing *l;
	unsigned long long v;
	char *end;
	size_t i, n;

	mthp_knob_name(kb, "stats", rel, sizeof(rel));
	snprintf(dir, sizeof(dir), "%s/%s", root, rel);
	l = listing_of(dir, &fresh);
	for (i = 0; l && i < l->n; i++) {
		const char *name = l->names[i];

		snprintf(path, sizeof(path), "%s/%s", dir, name);
		if (kept_read(path, buf, sizeof(buf)) < 0)
			continue;
		for (n = strlen(buf); n && (buf[n - 1] == '\n' || buf[n - 1] == ' ');)
			buf[--n] = '\0';
		v = strtoull(buf, &end, 10);
		if (end != buf && !*end) {
			s->v = xgrow(s->v, sizeof(*s->v), &s->cap, s->n);
			s->v[s->n++] = (struct mthp_stat){
				.kb = kb, .name = xstrdup(name), .value = v,
			};
		}
	}
	free_names(fresh.names, fresh.n);
}

void mthp_stats_read(const char *root, const unsigned long *kb, size_t nkb,
		     struct mthp_stats *s)
{
	size_t i;

	memset(s, 0, sizeof(*s));
	for (i = 0; i < nkb; i++)
		read_size(root, kb[i], s);
}

/* Both reads list the same files in one order: try the same place first. */
static const struct mthp_stat *find(const struct mthp_stats *s,
				    const struct mthp_stat *like, size_t hint)
{
	size_t i;

	if (hint < s->n && s->v[hint].kb == like->kb &&
	    !strcmp(s->v[hint].name, like->name))
		return &s->v[hint];
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

		b = find(before, a, i);
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
