// SPDX-License-Identifier: GPL-2.0-only
/*
 * history_db - opening (schema creation, version check), loading series
 * and listing runs, on either backend (history_backend.h).
 */
#include "history_db.h"
#include "history_backend.h"
#include "history_kernel_order.h"
#include "history_migrate.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util/utf8.h"
#include "util/util.h"

const char *history_db_error(const struct history_db *db)
{
	return db && db->err[0] ? db->err : "history: unknown error";
}

int hdb_exec(struct history_db *db, const char *what, const char *sql,
	     size_t np, const char *const *params)
{
	return db->ops->query(db, what, sql, np, params, NULL, NULL);
}

static int first_cell(void *ctx, size_t ncols, const char *const *cells)
{
	char **out = ctx;

	if (ncols && !*out)
		*out = xstrdup(cells[0] ? cells[0] : "");
	return 0;
}

/* The first cell of the first row as a malloc'ed string (NULL: no row). */
static int query_one(struct history_db *db, const char *what, const char *sql,
		     size_t np, const char *const *params, char **out)
{
	*out = NULL;
	return db->ops->query(db, what, sql, np, params, first_cell, out);
}

static int has_schema(struct history_db *db, bool *yes)
{
	static const char *const sql[] = {
		[HDB_SQLITE] = "SELECT count(*) FROM sqlite_master "
			       "WHERE type = 'table' AND name = 'thpbench_schema'",
		[HDB_PG] = "SELECT count(*) FROM pg_catalog.pg_tables "
			   "WHERE tablename = 'thpbench_schema' "
			   "AND schemaname = current_schema()",
	};
	char *n;

	if (query_one(db, "look for the schema", sql[db->ops->dialect], 0, NULL, &n))
		return -1;
	*yes = n && strcmp(n, "0");
	free(n);
	return 0;
}

static int create_schema(struct history_db *db)
{
	const char *const *ddl = history_schema_ddl(db->ops->dialect);
	char ver[16], *have;
	const char *p[1] = { ver };
	bool present;
	size_t i;

	/*
	 * Only a database without the schema runs the DDL: CREATE INDEX IF NOT
	 * EXISTS still locks its table, and would deadlock with a writer.
	 */
	if (has_schema(db, &present))
		return -1;
	if (present)
		return 0;
	/* Two first writers on one server must not both create the tables. */
	if (history_schema_begin(db))
		return -1;
	if (has_schema(db, &present))
		goto fail;
	if (present)
		return db->ops->commit(db);
	for (i = 0; ddl[i]; i++)
		if (db->ops->script(db, "create the history schema", ddl[i]))
			goto fail;
	if (query_one(db, "read the schema version",
		      "SELECT count(*) FROM thpbench_schema", 0, NULL, &have))
		goto fail;
	snprintf(ver, sizeof(ver), "%d", HISTORY_SCHEMA_VERSION);
	if (have && !strcmp(have, "0") &&
	    hdb_exec(db, "record the schema version",
		     "INSERT INTO thpbench_schema (version) VALUES ($1)", 1, p)) {
		free(have);
		goto fail;
	}
	free(have);
	return db->ops->commit(db);
fail:
	db->ops->rollback(db);
	return -1;
}

static int check_version(struct history_db *db)
{
	char *v;
	long n;

	if (query_one(db, "read the schema version",
		      "SELECT max(version) FROM thpbench_schema", 0, NULL, &v))
		return -1;
	if (!v || parse_long(v, &n)) {
		hdb_fail(db, "%s: the thpbench_schema table holds no version; not a thpbench history database",
			 db->name);
		free(v);
		return -1;
	}
	free(v);
	if (n > HISTORY_SCHEMA_VERSION) {
		hdb_fail(db, "%s: written by a newer thpbench (history schema %ld, this one reads %d); upgrade thpbench",
			 db->name, n, HISTORY_SCHEMA_VERSION);
		return -1;
	}
	if (n < HISTORY_SCHEMA_VERSION)
		return history_migrate(db, n);
	return 0;
}

static int db_open(const char *spec, bool create, struct history_db **out,
		   char *err, size_t errlen)
{
	struct history_db *db = xcalloc(1, sizeof(*db));
	bool present;
	int rc;

	*out = NULL;
	if (!spec || !*spec) {
		snprintf(err, errlen, "--db: empty database name");
		free(db);
		return -1;
	}
	rc = history_db_spec_is_pg(spec) ? hdb_pg_open(spec, db)
					 : hdb_sqlite_open(spec, create, db);
	if (rc)
		goto fail;
	if (create && create_schema(db))
		goto fail;
	if (has_schema(db, &present))
		goto fail;
	if (!present) {
		hdb_fail(db, "%s: not a thpbench history database (no thpbench_schema table); `thpbench history import` creates one",
			 db->name);
		goto fail;
	}
	if (check_version(db))
		goto fail;
	*out = db;
	return 0;
fail:
	snprintf(err, errlen, "%s", db->err);
	history_db_close(db);
	return -1;
}

int history_db_open(const char *spec, struct history_db **out, char *err,
		    size_t errlen)
{
	return db_open(spec, true, out, err, errlen);
}

int history_db_open_existing(const char *spec, struct history_db **out,
			     char *err, size_t errlen)
{
	return db_open(spec, false, out, err, errlen);
}

void history_db_close(struct history_db *db)
{
	if (!db)
		return;
	if (db->ops)
		db->ops->close(db);
	free(db->name);
	free(db);
}

/* " AND col = $k" for each set filter, and its parameter. */
struct where {
	char sql[512];
	const char *params[4];
	size_t np;
};

static void where_add(struct where *w, const char *col, const char *val)
{
	size_t l = strlen(w->sql);

	if (!val)
		return;
	w->params[w->np++] = val;
	snprintf(w->sql + l, sizeof(w->sql) - l, " AND %s = $%zu", col, w->np);
}

static void where_build(struct where *w, const struct history_filter *f,
			const char *prefix, bool series_cols)
{
	char col[64];

	memset(w, 0, sizeof(*w));
	if (!f)
		return;
	snprintf(col, sizeof(col), "%s.host", prefix);
	where_add(w, col, f->host);
	snprintf(col, sizeof(col), "%s.suite", prefix);
	where_add(w, col, f->suite);
	if (!series_cols)
		return;
	snprintf(col, sizeof(col), "%s.case_id", prefix);
	where_add(w, col, f->case_id);
	snprintf(col, sizeof(col), "%s.metric", prefix);
	where_add(w, col, f->metric);
}

/*
 * A series is loaded in two queries rather than one join sorted by series,
 * night and repetition (that sort, done by SQLite in a temporary b-tree,
 * was two thirds of the load): the nights of the matching series, in
 * series order (night_metrics' series index: a night_metrics row exists
 * only for n >= 1 ok values), then the values by primary key, each put in
 * its night by (run, case, metric). Values of repetitions that did not end
 * ok are skipped (struct not_ok_set). See history_db_load_series().
 */
enum {
	LS_HOST, LS_SUITE, LS_SUITE_HASH, LS_CASE, LS_METRIC, LS_BETTER,
	LS_RUN, LS_TIME, LS_KERNEL_ID, LS_KERNEL_RELEASE, LS_FINGERPRINT,
	LS_NCOLS
};

enum { LV_RUN, LV_CASE, LV_METRIC, LV_REP, LV_VALUE, LV_NCOLS };

/*
 * The repetitions that did not end ok (few): their values are stored but
 * never part of a series. Read once and looked up, rather than joining
 * every value to its repetition (a million b-tree seeks at 1,000 nights
 * of 200 series, half the load's time).
 */
struct not_ok {
	long long run;
	long rep;
	char *case_id;
};

struct not_ok_set {
	struct not_ok *v;
	size_t n, cap;
};

static int cmp_not_ok(const void *pa, const void *pb)
{
	const struct not_ok *a = pa, *b = pb;

	if (a->run != b->run)
		return a->run < b->run ? -1 : 1;
	if (a->rep != b->rep)
		return a->rep < b->rep ? -1 : 1;
	return strcmp(a->case_id, b->case_id);
}

static int not_ok_row(void *ctx, size_t ncols, const char *const *c)
{
	struct not_ok_set *s = ctx;
	struct not_ok *k;

	if (ncols != 3 || !c[0] || !c[1] || !c[2])
		return -1;
	s->v = xgrow(s->v, sizeof(*s->v), &s->cap, s->n);
	k = &s->v[s->n++];
	k->run = strtoll(c[0], NULL, 10);
	k->case_id = xstrdup(c[1]);
	k->rep = strtol(c[2], NULL, 10);
	return 0;
}

static void not_ok_free(struct not_ok_set *s)
{
	size_t i;

	for (i = 0; i < s->n; i++)
		free(s->v[i].case_id);
	free(s->v);
}



/*
 * Where the values of (run, case, metric) go: series and night indices,
 * and the repetition of each value so far (the values query promises no
 * order: they are put in repetition order once all are in).
 */
struct night_key {
	long long run;
	const char *case_id, *metric;	/* the series' own strings */
	size_t series, night;
	long *reps;
	size_t cap;			/* of reps and the night's values */
};

static int cmp_night_key(const void *pa, const void *pb)
{
	const struct night_key *a = pa, *b = pb;
	int r;

	if (a->run != b->run)
		return a->run < b->run ? -1 : 1;
	if ((r = strcmp(a->case_id, b->case_id)))
		return r;
	return strcmp(a->metric, b->metric);
}

struct series_builder {
	struct history_db *db;		/* for its errors */
	struct history_series *v;
	size_t n, cap;
	const struct not_ok_set *skip;
	size_t night_cap;		/* of the last series */
	struct night_key *keys;		/* sorted, once the nights are in */
	size_t nkeys;
	struct night_key *at;		/* the night the last value went to */
	int err;
};

static bool same(const char *a, const char *b)
{
	return (!a && !b) || (a && b && !strcmp(a, b));
}

static char *dup_or_null(const char *s)
{
	return s ? xstrdup(s) : NULL;
}

static struct history_series *series_for(struct series_builder *b,
					 const char *const *c)
{
	struct history_series *s = b->n ? &b->v[b->n - 1] : NULL;

	if (s && same(s->host, c[LS_HOST]) && same(s->suite, c[LS_SUITE]) &&
	    same(s->suite_hash, c[LS_SUITE_HASH]) &&
	    same(s->case_id, c[LS_CASE]) && same(s->metric, c[LS_METRIC]))
		return s;
	b->v = xgrow(b->v, sizeof(*b->v), &b->cap, b->n);
	s = &b->v[b->n++];
	memset(s, 0, sizeof(*s));
	s->host = dup_or_null(c[LS_HOST]);
	s->suite = dup_or_null(c[LS_SUITE]);
	s->suite_hash = dup_or_null(c[LS_SUITE_HASH]);
	s->case_id = dup_or_null(c[LS_CASE]);
	s->metric = dup_or_null(c[LS_METRIC]);
	s->better = dup_or_null(c[LS_BETTER]);
	b->night_cap = 0;
	return s;
}

static const char *str_or_empty(const char *s)
{
	return s ? s : "";
}

static int night_row(void *ctx, size_t ncols, const char *const *c)
{
	struct series_builder *b = ctx;
	struct history_series *s;
	struct history_night *nt;
	long run;

	if (ncols != LS_NCOLS || parse_long(c[LS_RUN], &run)) {
		hdb_fail(b->db, "history: unexpected row from the series query");
		return b->err = -1;
	}
	s = series_for(b, c);
	s->nights = xgrow(s->nights, sizeof(*s->nights), &b->night_cap,
			  s->n_nights);
	nt = &s->nights[s->n_nights++];
	memset(nt, 0, sizeof(*nt));
	nt->run_id = run;
	nt->started = dup_or_null(c[LS_TIME]);
	nt->kernel_id = dup_or_null(c[LS_KERNEL_ID]);
	nt->kernel_release = dup_or_null(c[LS_KERNEL_RELEASE]);
	nt->host_fingerprint = dup_or_null(c[LS_FINGERPRINT]);
	return 0;
}

static int cmp_night_time(const struct history_night *a,
			  const struct history_night *b)
{
	int r = strcmp(str_or_empty(a->started), str_or_empty(b->started));

	if (r)
		return r;
	return a->run_id < b->run_id ? -1 : a->run_id > b->run_id;
}

/*
 * Nights by start time, then run id: the order history_series_order_nights()
 * starts from. The query gives them by time (its index, no sort of its
 * own), so this only puts the runs of one start time in order.
 */
static void by_time_and_run(struct history_series *s)
{
	size_t i, j;

	for (i = 1; i < s->n_nights; i++)
		for (j = i; j > 0 && cmp_night_time(&s->nights[j - 1], &s->nights[j]) > 0; j--) {
			struct history_night t = s->nights[j];

			s->nights[j] = s->nights[j - 1];
			s->nights[j - 1] = t;
		}
}

static void index_nights(struct series_builder *b)
{
	size_t i, j, k = 0;

	for (i = 0; i < b->n; i++)
		by_time_and_run(&b->v[i]);

	for (i = 0; i < b->n; i++)
		k += b->v[i].n_nights;
	b->keys = xmalloc((k ? k : 1) * sizeof(*b->keys));
	for (i = 0; i < b->n; i++)
		for (j = 0; j < b->v[i].n_nights; j++)
			b->keys[b->nkeys++] = (struct night_key){
				b->v[i].nights[j].run_id,
				str_or_empty(b->v[i].case_id),
				str_or_empty(b->v[i].metric), i, j, NULL, 0,
			};
	qsort(b->keys, b->nkeys, sizeof(*b->keys), cmp_night_key);
}

/* The night (run, case, metric) is, or NULL: one not loaded. */
static struct night_key *night_of(struct series_builder *b, long long run,
				  const char *case_id, const char *metric)
{
	struct night_key key = { run, case_id, metric, 0, 0, NULL, 0 };
	struct night_key *k = b->at;

	if (k && !cmp_night_key(&key, k))
		return k;
	k = bsearch(&key, b->keys, b->nkeys, sizeof(key), cmp_night_key);
	if (k)
		b->at = k;
	return k;
}

static int value_row(void *ctx, size_t ncols, const char *const *c)
{
	struct series_builder *b = ctx;
	struct night_key *k;
	struct history_night *nt;
	long run, rep;
	double v;

	if (ncols != LV_NCOLS || parse_long(c[LV_RUN], &run) || !c[LV_CASE] ||
	    !c[LV_METRIC] || parse_long(c[LV_REP], &rep)) {
		hdb_fail(b->db, "history: unexpected row from the values query");
		return b->err = -1;
	}
	k = night_of(b, run, c[LV_CASE], c[LV_METRIC]);
	if (!k)
		return 0;	/* a series not asked for */
	if (b->skip->n) {
		struct not_ok key = { run, rep, (char *)c[LV_CASE] };

		if (bsearch(&key, b->skip->v, b->skip->n, sizeof(key), cmp_not_ok))
			return 0;	/* a repetition that did not end ok */
	}
	if (parse_double(c[LV_VALUE], &v)) {
		char shown[80];

		/* As stored: escaped, one line (utf8.h). */
		hdb_fail(b->db, "history: value \"%s\" of run %ld is not a number",
			 str_escape(c[LV_VALUE] ? c[LV_VALUE] : "NULL", shown,
				    sizeof(shown)), run);
		return b->err = -1;
	}
	nt = &b->v[k->series].nights[k->night];
	if (nt->n == k->cap) {
		k->cap = k->cap ? 2 * k->cap : 8;
		nt->values = xrealloc(nt->values, k->cap * sizeof(*nt->values));
		k->reps = xrealloc(k->reps, k->cap * sizeof(*k->reps));
	}
	k->reps[nt->n] = rep;
	nt->values[nt->n++] = v;
	return 0;
}

/* A night's values in repetition order (as they came, mostly). */
static void by_rep(struct night_key *k, struct history_night *nt)
{
	size_t i, j;

	for (i = 1; i < nt->n; i++)
		for (j = i; j > 0 && k->reps[j - 1] > k->reps[j]; j--) {
			long r = k->reps[j];
			double v = nt->values[j];

			k->reps[j] = k->reps[j - 1];
			nt->values[j] = nt->values[j - 1];
			k->reps[j - 1] = r;
			nt->values[j - 1] = v;
		}
}

/* Each night's values in repetition order; the index is done with. */
static void free_keys(struct series_builder *b)
{
	size_t i;

	for (i = 0; i < b->nkeys; i++) {
		by_rep(&b->keys[i], &b->v[b->keys[i].series].nights[b->keys[i].night]);
		free(b->keys[i].reps);
	}
	free(b->keys);
	b->keys = NULL;
}

static int cmp_series(const void *pa, const void *pb)
{
	const struct history_series *a = pa, *b = pb;
	int r;

	if ((r = strcmp(a->host, b->host)) || (r = strcmp(a->suite, b->suite)) ||
	    (r = strcmp(a->suite_hash, b->suite_hash)) ||
	    (r = strcmp(a->case_id, b->case_id)))
		return r;
	return strcmp(a->metric, b->metric);
}

static int load_nights(struct history_db *db, const struct where *w,
		       struct series_builder *b)
{
	char t[160], *sql;
	size_t len;
	int rc;

	history_schema_time_text(db->ops->dialect, "nm.time", t, sizeof(t));
	len = strlen(t) + strlen(w->sql) + 512;
	sql = xmalloc(len);
	snprintf(sql, len,
		 "SELECT nm.host, nm.suite, nm.suite_hash, nm.case_id, nm.metric,"
		 " nm.better, nm.run_id, %s, nm.kernel_id, nm.kernel_release,"
		 " nm.host_fingerprint FROM night_metrics nm WHERE 1 = 1%s"
		 " ORDER BY nm.host, nm.suite, nm.suite_hash, nm.case_id, nm.metric,"
		 " nm.time",
		 t, w->sql);
	rc = db->ops->query(db, "load the series", sql, w->np, w->params,
			    night_row, b);
	free(sql);
	return rc || b->err ? -1 : 0;
}

/*
 * A filtered load reads the values of its nights by primary key, one
 * lookup a night, about twice the cost a value of scanning them all: it
 * scans instead when its nights are half the history or more (one machine
 * of one or two), and values of other nights are passed over.
 */
static bool scan_cheaper(struct history_db *db, const struct series_builder *b)
{
	char *all = NULL;
	long n;
	bool scan;

	if (query_one(db, "count the nights", "SELECT count(*) FROM night_metrics",
		      0, NULL, &all))
		return false;
	scan = !parse_long(all, &n) && 2 * (long)b->nkeys >= n;
	free(all);
	return scan;
}

/*
 * The values of the nights loaded, by a scan of all of them or, for a
 * small part of the history, a lookup from each matching night. No ORDER
 * BY: a sort is what this avoids, and values are put in their nights and
 * in repetition order whatever order they come in.
 */
static int load_values(struct history_db *db, const struct where *w,
		       struct series_builder *b)
{
	char *sql;
	size_t len = strlen(w->sql) + 512;
	bool scan = !w->np || scan_cheaper(db, b);
	int rc;

	sql = xmalloc(len);
	if (!scan)
		snprintf(sql, len,
			 "SELECT v.run_id, v.case_id, v.metric, v.rep, v.value"
			 " FROM night_metrics nm CROSS JOIN rep_values v"
			 " WHERE v.run_id = nm.run_id AND v.case_id = nm.case_id"
			 " AND v.metric = nm.metric%s", w->sql);
	else
		snprintf(sql, len,
			 "SELECT v.run_id, v.case_id, v.metric, v.rep, v.value"
			 " FROM rep_values v");
	rc = db->ops->query(db, "load the values of the series", sql,
			    scan ? 0 : w->np, w->params, value_row, b);
	free(sql);
	return rc || b->err ? -1 : 0;
}

int history_db_load_series(struct history_db *db,
			   const struct history_filter *f,
			   struct history_series **out, size_t *n_out)
{
	struct series_builder b = { .db = db };
	struct not_ok_set skip = { 0 };
	struct where w;
	int rc;

	*out = NULL;
	*n_out = 0;
	if (db->ops->query(db, "find the repetitions that did not end ok",
			   "SELECT run_id, case_id, rep FROM reps WHERE status <> 'ok'",
			   0, NULL, not_ok_row, &skip)) {
		not_ok_free(&skip);
		return -1;
	}
	if (skip.n)
		qsort(skip.v, skip.n, sizeof(*skip.v), cmp_not_ok);
	b.skip = &skip;
	where_build(&w, f, "nm", true);
	rc = load_nights(db, &w, &b);
	if (!rc) {
		index_nights(&b);
		rc = load_values(db, &w, &b);
		free_keys(&b);
	}
	not_ok_free(&skip);
	if (rc) {
		history_series_array_free(b.v, b.n);
		return -1;
	}
	for (size_t i = 0; i < b.n; i++)
		history_series_order_nights(&b.v[i]);
	if (b.n)
		qsort(b.v, b.n, sizeof(*b.v), cmp_series);
	*out = b.v;
	*n_out = b.n;
	return 0;
}

struct run_list {
	struct history_run_info *v;
	size_t n, cap;
};

static int run_row(void *ctx, size_t ncols, const char *const *c)
{
	struct run_list *l = ctx;
	struct history_run_info *r;
	long long id = 0;

	if (ncols != 13)
		return -1;
	l->v = xgrow(l->v, sizeof(*l->v), &l->cap, l->n);
	r = &l->v[l->n++];
	memset(r, 0, sizeof(*r));
	if (c[0])
		sscanf(c[0], "%lld", &id);
	r->id = id;
	r->started = dup_or_null(c[1]);
	r->host = dup_or_null(c[2]);
	r->host_fingerprint = dup_or_null(c[3]);
	r->kernel_id = dup_or_null(c[4]);
	r->kernel_release = dup_or_null(c[5]);
	r->suite = dup_or_null(c[6]);
	r->suite_hash = dup_or_null(c[7]);
	r->thpbench_version = dup_or_null(c[8]);
	r->source = dup_or_null(c[9]);
	r->ncases = c[10] ? strtol(c[10], NULL, 10) : 0;
	r->nmetrics = c[11] ? strtol(c[11], NULL, 10) : 0;
	r->hostname = dup_or_null(c[12]);
	return 0;
}

int history_db_list_runs(struct history_db *db,
			 const struct history_filter *f,
			 struct history_run_info **out, size_t *n_out)
{
	struct run_list l = { 0 };
	struct where w;
	char t[160], *sql;
	size_t len;
	int rc;

	where_build(&w, f, "r", false);
	history_schema_time_text(db->ops->dialect, "r.time", t, sizeof(t));
	len = strlen(t) + strlen(w.sql) + 1024;
	sql = xmalloc(len);
	snprintf(sql, len,
		 "SELECT r.id, %s, r.host, r.host_fingerprint, r.kernel_id,"
		 " r.kernel_release, r.suite, r.suite_hash, r.thpbench_version,"
		 " r.source,"
		 " (SELECT count(*) FROM cases c WHERE c.run_id = r.id),"
		 " (SELECT count(*) FROM night_metrics m WHERE m.run_id = r.id),"
		 " r.hostname"
		 " FROM runs r WHERE 1 = 1%s ORDER BY r.time, r.id",
		 t, w.sql);
	rc = db->ops->query(db, "list the runs", sql, w.np, w.params, run_row, &l);
	free(sql);
	if (rc) {
		history_run_info_free(l.v, l.n);
		return -1;
	}
	*out = l.v;
	*n_out = l.n;
	return 0;
}

void history_run_info_free(struct history_run_info *v, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++) {
		free(v[i].started);
		free(v[i].host);
		free(v[i].hostname);
		free(v[i].host_fingerprint);
		free(v[i].kernel_id);
		free(v[i].kernel_release);
		free(v[i].suite);
		free(v[i].suite_hash);
		free(v[i].thpbench_version);
		free(v[i].source);
	}
	free(v);
}
