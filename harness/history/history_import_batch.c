// SPDX-License-Identifier: GPL-2.0-only
#include "history_import_batch.h"
#include "history_backend.h"

#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "util/util.h"

struct paths {
	char **v;
	size_t n, cap;
};

static void add(struct paths *p, char *path)
{
	p->v = xgrow(p->v, sizeof(*p->v), &p->cap, p->n);
	p->v[p->n++] = path;
}

static char *join(const char *a, const char *b, const char *c)
{
	size_t len = strlen(a) + strlen(b) + (c ? strlen(c) : 0) + 3;
	char *s = xmalloc(len);

	snprintf(s, len, "%s/%s%s%s", a, b, c ? "/" : "", c ? c : "");
	return s;
}

static bool ends_with(const char *s, const char *suffix)
{
	size_t n = strlen(s), m = strlen(suffix);

	return n > m && !strcmp(s + n - m, suffix);
}

static int cmp_str(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* DIR/x.json and DIR/sub/results.json, in name order. */
static int expand_dir(const char *dir, struct paths *out)
{
	DIR *d = opendir(dir);
	struct dirent *e;
	struct stat sb;
	struct paths found = { 0 };
	size_t i;

	if (!d) {
		tb_err("%s: cannot read the directory: %s", dir, strerror(errno));
		return -1;
	}
	while ((e = readdir(d))) {
		char *p;

		if (e->d_name[0] == '.')
			continue;
		p = join(dir, e->d_name, NULL);
		if (!stat(p, &sb) && S_ISREG(sb.st_mode) && ends_with(e->d_name, ".json")) {
			add(&found, p);
			continue;
		}
		free(p);
		p = join(dir, e->d_name, "results.json");
		if (!stat(p, &sb) && S_ISREG(sb.st_mode))
			add(&found, p);
		else
			free(p);
	}
	closedir(d);
	if (!found.n) {
		tb_err("%s: no results file in it (*.json, */results.json)", dir);
		free(found.v);
		return -1;
	}
	qsort(found.v, found.n, sizeof(*found.v), cmp_str);
	for (i = 0; i < found.n; i++)
		add(out, found.v[i]);
	free(found.v);
	return 0;
}

int history_import_expand(char *const *args, size_t n, char ***paths,
			  size_t *npaths)
{
	struct paths out = { 0 };
	struct stat sb;
	size_t i;

	for (i = 0; i < n; i++) {
		if (!stat(args[i], &sb) && S_ISDIR(sb.st_mode)) {
			if (expand_dir(args[i], &out))
				goto fail;
			continue;
		}
		add(&out, xstrdup(args[i]));	/* a missing file is the import's to say */
	}
	*paths = out.v;
	*npaths = out.n;
	return 0;
fail:
	free_strv(out.v, out.n);
	*paths = NULL;
	*npaths = 0;
	return -1;
}

long history_import_files(struct history_db *db, char *const *paths, size_t n,
			  const struct history_import_opts *o,
			  history_import_fn fn, void *ctx)
{
	long failed = 0;
	int64_t id;
	size_t i;
	int rc;

	if (db->ops->begin(db))
		return -1;
	for (i = 0; i < n; i++) {
		rc = history_import_one(db, paths[i], o, &id);
		failed += rc < 0;
		if (fn)
			fn(ctx, paths[i], rc, id);
	}
	if (db->ops->commit(db)) {
		db->ops->rollback(db);
		return -1;
	}
	return failed;
}
