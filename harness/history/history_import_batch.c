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
#include <time.h>

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
static int expand_dir(const char *dir, struct paths *out, char *err,
		      size_t errlen)
{
	DIR *d = opendir(dir);
	struct dirent *e;
	struct stat sb;
	struct paths found = { 0 };
	size_t i;

	if (!d) {
		snprintf(err, errlen, "%s: cannot read the directory: %s", dir,
			 strerror(errno));
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
		snprintf(err, errlen, "%s: no results file in it (*.json, */results.json)",
			 dir);
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
			  size_t *npaths, char *err, size_t errlen)
{
	struct paths out = { 0 };
	struct stat sb;
	size_t i;

	for (i = 0; i < n; i++) {
		if (!stat(args[i], &sb) && S_ISDIR(sb.st_mode)) {
			if (expand_dir(args[i], &out, err, errlen))
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

/* CPU seconds of the calling thread. */
static double thread_cpu(void)
{
	struct timespec ts;

	if (clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts))
		return 0;
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

struct reader {
	char *const *paths;
	size_t n;
	const struct history_import_opts *o;
	struct history_import_prep **prep;
	bool *ready;
	size_t written;		/* files the writer is done with */
	size_t freed;		/* of those, freed by the reader */
	bool stop;		/* the writer gave up: read no more */
	double cpu_s;		/* the reader's CPU seconds, when done */
	pthread_mutex_t mu;
	pthread_cond_t cv;
};

/*
 * The files the writer is done with, freed here: a parsed night is
 * thousands of small blocks, and freeing them took a tenth of the
 * writer's time.
 */
static void free_written(struct reader *rd)
{
	size_t i, to;

	pthread_mutex_lock(&rd->mu);
	to = rd->written;
	pthread_mutex_unlock(&rd->mu);
	for (i = rd->freed; i < to; i++) {
		history_import_prep_free(rd->prep[i]);
		rd->prep[i] = NULL;
	}
	rd->freed = to;
}

static void *read_ahead(void *arg)
{
	struct reader *rd = arg;
	size_t i;

	for (i = 0; i < rd->n; i++) {
		struct history_import_prep *p;

		free_written(rd);
		pthread_mutex_lock(&rd->mu);
		while (i >= rd->written + AHEAD && !rd->stop)
			pthread_cond_wait(&rd->cv, &rd->mu);
		if (rd->stop) {
			pthread_mutex_unlock(&rd->mu);
			break;
		}
		pthread_mutex_unlock(&rd->mu);
		p = history_import_prepare(rd->paths[i], rd->o);
		pthread_mutex_lock(&rd->mu);
		rd->prep[i] = p;
		rd->ready[i] = true;
		pthread_cond_broadcast(&rd->cv);
		pthread_mutex_unlock(&rd->mu);
	}
	rd->cpu_s = thread_cpu();
	return NULL;
}

/* The prepared file i, waiting for the reader (NULL: it failed, said);
 * it stays in prep[i] for the reader to free. */
static struct history_import_prep *take(struct reader *rd, size_t i)
{
	struct history_import_prep *p;

	pthread_mutex_lock(&rd->mu);
	while (!rd->ready[i])
		pthread_cond_wait(&rd->cv, &rd->mu);
	p = rd->prep[i];
	pthread_mutex_unlock(&rd->mu);
	return p;
}

static void done_with(struct reader *rd, size_t i, bool stop)
{
	pthread_mutex_lock(&rd->mu);
	rd->written = i + 1;
	rd->stop = stop;
	pthread_cond_broadcast(&rd->cv);
	pthread_mutex_unlock(&rd->mu);
}

/*
 * Fast: no savepoint per file (SQLite would copy every page a file
 * touches into its sub-journal), the checks that refuse a file all come
 * before its first write. Returns the index of a file that broke the
 * transaction (HISTORY_WRITE_BROKEN), else n; rc[] and id[] per file.
 */
static size_t import_fast(struct history_db *db, char *const *paths, size_t n,
			  const struct history_import_opts *o, int *rc,
			  int64_t *id)
{
	struct reader rd = { .paths = paths, .n = n, .o = o };
	size_t i, broke = n;
	pthread_t th;
	bool threaded;

	rd.prep = xcalloc(n ? n : 1, sizeof(*rd.prep));
	rd.ready = xcalloc(n ? n : 1, sizeof(*rd.ready));
	pthread_mutex_init(&rd.mu, NULL);
	pthread_cond_init(&rd.cv, NULL);
	/* jansson seeds its hash tables once: before a second thread does. */
	json_object_seed(0);
	threaded = n > 1 && !pthread_create(&th, NULL, read_ahead, &rd);
	for (i = 0; i < n && broke == n; i++) {
		struct history_import_prep *p = threaded ? take(&rd, i) :
						history_import_prepare(paths[i], o);

		rc[i] = p ? history_import_write(db, p, &id[i], false) : -1;
		if (!threaded)
			history_import_prep_free(p);
		if (rc[i] == HISTORY_WRITE_BROKEN)
			broke = i;
		if (threaded)
			done_with(&rd, i, broke != n);
	}
	if (threaded)
		pthread_join(th, NULL);
	if (threaded && o->cpu)
		o->cpu->read_s = rd.cpu_s;
	for (i = 0; i < n; i++)
		history_import_prep_free(rd.prep[i]);	/* the reader left them */
	pthread_cond_destroy(&rd.cv);
	pthread_mutex_destroy(&rd.mu);
	free(rd.prep);
	free(rd.ready);
	return broke;
}

/*
 * Careful, after a file broke the fast pass: every file again under a
 * savepoint of its own, so that the one that fails takes back only
 * itself. The files refused before it are refused again without a second
 * reading (nothing of theirs was written).
 */
static void import_careful(struct history_db *db, char *const *paths,
			   size_t broke, size_t n,
			   const struct history_import_opts *o, int *rc,
			   int64_t *id)
{
	size_t i;

	for (i = 0; i < n; i++) {
		struct history_import_prep *p;

		if (i < broke && rc[i] < 0)
			continue;
		p = history_import_prepare(paths[i], o);
		rc[i] = p ? history_import_write(db, p, &id[i], true) : -1;
		history_import_prep_free(p);
	}
}

long history_import_files(struct history_db *db, char *const *paths, size_t n,
			  const struct history_import_opts *o,
			  history_import_fn fn, void *ctx)
{
	int *rc = xcalloc(n ? n : 1, sizeof(*rc));
	int64_t *id = xcalloc(n ? n : 1, sizeof(*id));
	long failed = 0;
	size_t i, broke;
	double cpu0 = thread_cpu();

	if (o->cpu)
		*o->cpu = (struct history_import_cpu){ 0 };
	if (db->ops->bulk && db->ops->bulk(db, true))
		goto fail;
	if (db->ops->begin(db))
		goto fail;
	broke = import_fast(db, paths, n, o, rc, id);
	if (broke < n) {
		db->ops->rollback(db);
		if (o->say) {
			char msg[4200];

			snprintf(msg, sizeof(msg), "%s: took the transaction back; importing every file again, each under a savepoint",
				 paths[broke]);
			o->say(o->say_ctx, true, msg);
		}
		memset(id, 0, n * sizeof(*id));
		if (db->ops->begin(db))
			goto fail;
		import_careful(db, paths, broke, n, o, rc, id);
	}
	if (db->ops->commit(db)) {
		db->ops->rollback(db);
		goto fail;
	}
	if (o->cpu)
		o->cpu->write_s = thread_cpu() - cpu0;
	if (db->ops->bulk)
		db->ops->bulk(db, false);
	for (i = 0; i < n; i++) {
		failed += rc[i] < 0;
		if (fn)
			fn(ctx, paths[i], rc[i], id[i]);
	}
	free(rc);
	free(id);
	return failed;
fail:
	if (db->ops->bulk)
		db->ops->bulk(db, false);
	free(rc);
	free(id);
	return -1;
}
