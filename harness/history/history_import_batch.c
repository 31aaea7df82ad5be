// SPDX-License-Identifier: GPL-2.0-only
#include "history_import_batch.h"
#include "history_backend.h"

#include <dirent.h>
#include <jansson.h>
#include <pthread.h>
#include <stdbool.h>
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

/*
 * The pipeline: a second thread reads and checks (parses, hashes) the
 * files ahead of the one that writes them, at most AHEAD files ahead; the
 * database is only ever used by the writing thread.
 */
#define AHEAD 8

struct reader {
	char *const *paths;
	size_t n;
	const struct history_import_opts *o;
	struct history_import_prep **prep;
	bool *ready;
	size_t written;		/* files the writer is done with */
	pthread_mutex_t mu;
	pthread_cond_t cv;
};

static void *read_ahead(void *arg)
{
	struct reader *rd = arg;
	size_t i;

	for (i = 0; i < rd->n; i++) {
		struct history_import_prep *p;

		pthread_mutex_lock(&rd->mu);
		while (i >= rd->written + AHEAD)
			pthread_cond_wait(&rd->cv, &rd->mu);
		pthread_mutex_unlock(&rd->mu);
		p = history_import_prepare(rd->paths[i], rd->o);
		pthread_mutex_lock(&rd->mu);
		rd->prep[i] = p;
		rd->ready[i] = true;
		pthread_cond_broadcast(&rd->cv);
		pthread_mutex_unlock(&rd->mu);
	}
	return NULL;
}

/* The prepared file i, waiting for the reader (NULL: it failed, said). */
static struct history_import_prep *take(struct reader *rd, size_t i)
{
	struct history_import_prep *p;

	pthread_mutex_lock(&rd->mu);
	while (!rd->ready[i])
		pthread_cond_wait(&rd->cv, &rd->mu);
	p = rd->prep[i];
	rd->prep[i] = NULL;
	pthread_mutex_unlock(&rd->mu);
	return p;
}

static void done_with(struct reader *rd, size_t i)
{
	pthread_mutex_lock(&rd->mu);
	rd->written = i + 1;
	pthread_cond_broadcast(&rd->cv);
	pthread_mutex_unlock(&rd->mu);
}

long history_import_files(struct history_db *db, char *const *paths, size_t n,
			  const struct history_import_opts *o,
			  history_import_fn fn, void *ctx)
{
	struct reader rd = { .paths = paths, .n = n, .o = o };
	bool threaded, ok;
	pthread_t th;
	long failed = 0;
	int64_t id;
	size_t i;
	int rc;

	if (db->ops->begin(db))
		return -1;
	rd.prep = xcalloc(n ? n : 1, sizeof(*rd.prep));
	rd.ready = xcalloc(n ? n : 1, sizeof(*rd.ready));
	pthread_mutex_init(&rd.mu, NULL);
	pthread_cond_init(&rd.cv, NULL);
	/* jansson seeds its hash tables once: before a second thread does. */
	json_object_seed(0);
	threaded = n > 1 && !pthread_create(&th, NULL, read_ahead, &rd);
	for (i = 0; i < n; i++) {
		struct history_import_prep *p = threaded ? take(&rd, i) :
						history_import_prepare(paths[i], o);

		id = 0;
		rc = p ? history_import_write(db, p, &id) : -1;
		if (threaded)
			done_with(&rd, i);
		failed += rc < 0;
		if (fn)
			fn(ctx, paths[i], rc, id);
	}
	if (threaded)
		pthread_join(th, NULL);
	pthread_cond_destroy(&rd.cv);
	pthread_mutex_destroy(&rd.mu);
	free(rd.prep);
	free(rd.ready);
	ok = !db->ops->commit(db);
	if (!ok) {
		db->ops->rollback(db);
		return -1;
	}
	return failed;
}
