// SPDX-License-Identifier: GPL-2.0-only
/*
 * The SQLite backend of history_backend.h: one file, WAL journal, full
 * sync, foreign keys on, a 60 s busy timeout and BEGIN IMMEDIATE so that
 * two writers queue for the write lock instead of failing or deadlocking.
 */
#include "history_backend.h"

#include <math.h>
#include <pthread.h>
#include <sqlite3.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "util/util.h"

#define BUSY_TIMEOUT_MS 60000

/*
 * Prepared statements by their text, each with where its parameters go:
 * pos[k] is the SQLite index of $(k+1), 0 when the statement does not use
 * it (looked up once, not per call).
 */
struct prepared_stmt {
	char *sql;
	sqlite3_stmt *stmt;
	int *pos;
	size_t npos;
};

struct stmt_cache {
	struct prepared_stmt *v;
	size_t n, cap;
};

static const struct prepared_stmt *prepared(struct history_db *db,
					   const char *what, const char *sql)
{
	struct stmt_cache *c = db->cache;
	struct prepared_stmt *p;
	sqlite3_stmt *st;
	int k, n;
	size_t i;

	for (i = 0; i < c->n; i++)
		if (!strcmp(c->v[i].sql, sql))
			return &c->v[i];
	if (sqlite3_prepare_v2(db->conn, sql, -1, &st, NULL) != SQLITE_OK) {
		hdb_fail(db, "%s: %s: %s", db->name, what, sqlite3_errmsg(db->conn));
		return NULL;
	}
	c->v = xgrow(c->v, sizeof(*c->v), &c->cap, c->n);
	p = &c->v[c->n++];
	p->sql = xstrdup(sql);
	p->stmt = st;
	n = sqlite3_bind_parameter_count(st);
	p->npos = 0;
	p->pos = NULL;
	for (k = 1; k <= n; k++) {
		const char *name = sqlite3_bind_parameter_name(st, k);
		long at;

		if (!name || name[0] != '$' || parse_long(name + 1, &at) ||
		    at < 1 || at > 65536)
			continue;
		if ((size_t)at > p->npos) {
			p->pos = xrealloc(p->pos, (size_t)at * sizeof(*p->pos));
			memset(p->pos + p->npos, 0,
			       ((size_t)at - p->npos) * sizeof(*p->pos));
			p->npos = (size_t)at;
		}
		p->pos[at - 1] = k;
	}
	return p;
}

static int bind_all(struct history_db *db, const struct prepared_stmt *p,
		    size_t np, const char *const *params)
{
	size_t i;

	for (i = 0; i < np && i < p->npos; i++) {
		if (!p->pos[i])
			continue;	/* the statement does not use it */
		if (sqlite3_bind_text(p->stmt, p->pos[i], params[i], -1,
				      SQLITE_TRANSIENT) != SQLITE_OK) {
			hdb_fail(db, "%s: %s", db->name, sqlite3_errmsg(db->conn));
			return -1;
		}
	}
	return 0;
}

static int row_out(sqlite3_stmt *st, hdb_row_fn fn, void *ctx)
{
	int i, ncol = sqlite3_column_count(st), rc;
	const char **cells = xcalloc((size_t)ncol + 1, sizeof(*cells));
	char (*num)[32] = xmalloc(((size_t)ncol + 1) * sizeof(*num));

	for (i = 0; i < ncol; i++) {
		switch (sqlite3_column_type(st, i)) {
		case SQLITE_NULL:
			cells[i] = NULL;
			break;
		case SQLITE_FLOAT:
			/* Hex: exact, and far cheaper to print and parse. */
			snprintf(num[i], sizeof(num[i]), "%a",
				 sqlite3_column_double(st, i));
			cells[i] = num[i];
			break;
		default:
			cells[i] = (const char *)sqlite3_column_text(st, i);
		}
	}
	rc = fn(ctx, (size_t)ncol, cells);
	free(cells);
	free(num);
	return rc;
}

static int sq_query(struct history_db *db, const char *what, const char *sql,
		    size_t np, const char *const *params, hdb_row_fn fn,
		    void *ctx)
{
	const struct prepared_stmt *p = prepared(db, what, sql);
	sqlite3_stmt *st;
	int rc = 0, s;

	if (!p)
		return -1;
	st = p->stmt;
	if (bind_all(db, p, np, params)) {
		rc = -1;
		goto out;
	}
	while ((s = sqlite3_step(st)) == SQLITE_ROW)
		if (fn && (rc = row_out(st, fn, ctx)))
			goto out;
	if (s != SQLITE_DONE) {
		hdb_fail(db, "%s: %s: %s", db->name, what, sqlite3_errmsg(db->conn));
		rc = -1;
	}
out:
	sqlite3_reset(st);
	sqlite3_clear_bindings(st);
	return rc;
}

/* A non-finite real as the text %.17g prints, as the text path stores it. */
static int bind_value(sqlite3_stmt *st, int at, const struct hdb_value *v)
{
	char buf[40];

	switch (v->type) {
	case HDB_TEXT:
		return sqlite3_bind_text(st, at, v->v.text, -1, SQLITE_STATIC);
	case HDB_INT:
		return sqlite3_bind_int64(st, at, v->v.i);
	case HDB_REAL:
		if (isfinite(v->v.real))
			return sqlite3_bind_double(st, at, v->v.real);
		snprintf(buf, sizeof(buf), "%.17g", v->v.real);
		return sqlite3_bind_text(st, at, buf, -1, SQLITE_TRANSIENT);
	default:
		return sqlite3_bind_null(st, at);
	}
}

static int sq_insert(struct history_db *db, const char *what, const char *sql,
		     size_t np, const struct hdb_value *params)
{
	const struct prepared_stmt *p = prepared(db, what, sql);
	size_t i;
	int rc = 0, s;

	if (!p)
		return -1;
	/* Every parameter is bound again below, unless some are not given:
	 * no bindings of the last call may be left for those. */
	if (np < p->npos)
		sqlite3_clear_bindings(p->stmt);
	for (i = 0; i < np && i < p->npos; i++) {
		if (p->pos[i] && bind_value(p->stmt, p->pos[i], &params[i]) != SQLITE_OK) {
			hdb_fail(db, "%s: %s: %s", db->name, what, sqlite3_errmsg(db->conn));
			rc = -1;
			goto out;
		}
	}
	while ((s = sqlite3_step(p->stmt)) == SQLITE_ROW)
		;
	if (s != SQLITE_DONE) {
		hdb_fail(db, "%s: %s: %s", db->name, what, sqlite3_errmsg(db->conn));
		rc = -1;
	}
out:
	sqlite3_reset(p->stmt);
	return rc;
}

static int sq_simple(struct history_db *db, const char *what, const char *sql)
{
	char *msg = NULL;

	if (sqlite3_exec(db->conn, sql, NULL, NULL, &msg) != SQLITE_OK) {
		hdb_fail(db, "%s: %s: %s", db->name, what, msg ? msg : sqlite3_errmsg(db->conn));
		sqlite3_free(msg);
		return -1;
	}
	return 0;
}

static int sq_begin(struct history_db *db)
{
	return sq_simple(db, "begin a write transaction", "BEGIN IMMEDIATE");
}

static int sq_commit(struct history_db *db)
{
	return sq_simple(db, "commit", "COMMIT");
}

static void sq_rollback(struct history_db *db)
{
	if (!sqlite3_get_autocommit(db->conn))
		sqlite3_exec(db->conn, "ROLLBACK", NULL, NULL, NULL);
}

static int sq_bulk(struct history_db *db, bool on)
{
	return sq_simple(db, "switch foreign key checks",
			 on ? "PRAGMA foreign_keys = OFF" : "PRAGMA foreign_keys = ON");
}

static void sq_close(struct history_db *db)
{
	struct stmt_cache *c = db->cache;
	size_t i;

	for (i = 0; c && i < c->n; i++) {
		sqlite3_finalize(c->v[i].stmt);
		free(c->v[i].sql);
		free(c->v[i].pos);
	}
	if (c) {
		free(c->v);
		free(c);
	}
	sqlite3_close(db->conn);
}

static const struct hdb_ops sqlite_ops = {
	.dialect = HDB_SQLITE,
	.query = sq_query,
	.insert = sq_insert,
	.script = sq_simple,
	.begin = sq_begin,
	.commit = sq_commit,
	.rollback = sq_rollback,
	.bulk = sq_bulk,
	.close = sq_close,
	.rows_per_insert = 1,
};

/*
 * A new database in a directory that is not there: say which directory,
 * rather than SQLite's "unable to open database file".
 */
static bool missing_dir(struct history_db *db, const char *path)
{
	char *dir = xstrdup(path), *slash = strrchr(dir, '/');
	struct stat sb;
	bool missing = false;

	if (slash && slash != dir) {
		*slash = '\0';
		if (stat(dir, &sb) || !S_ISDIR(sb.st_mode)) {
			hdb_fail(db, "%s: the directory %s does not exist: create it (mkdir -p %s) or give --db another path",
				 path, dir, dir);
			missing = true;
		}
	}
	free(dir);
	return missing;
}

/*
 * Before SQLite's first use: no global count of its memory (each of its
 * allocations took a mutex for it, millions in a bulk import).
 */
static void setup_library(void)
{
	sqlite3_config(SQLITE_CONFIG_MEMSTATUS, 0);
}

int hdb_sqlite_open(const char *path, bool create, struct history_db *db)
{
	static pthread_once_t once = PTHREAD_ONCE_INIT;
	static const char *const pragmas =
		"PRAGMA foreign_keys = ON;"
		"PRAGMA synchronous = FULL;"
		/* Reading a whole history: map the file, keep 64 MiB of pages. */
		"PRAGMA mmap_size = 1073741824;"
		"PRAGMA cache_size = -65536;";
	struct stat sb;
	sqlite3 *conn = NULL;
	int flags = SQLITE_OPEN_READWRITE | SQLITE_OPEN_NOMUTEX;

	if (!create && stat(path, &sb)) {
		hdb_fail(db, "%s: no such history database (thpbench history import creates one)",
			 path);
		return -1;
	}
	if (create && missing_dir(db, path))
		return -1;
	if (create)
		flags |= SQLITE_OPEN_CREATE;
	pthread_once(&once, setup_library);
	if (sqlite3_open_v2(path, &conn, flags, NULL) != SQLITE_OK) {
		hdb_fail(db, "%s: cannot open the SQLite database: %s", path,
			 conn ? sqlite3_errmsg(conn) : "out of memory");
		sqlite3_close(conn);
		return -1;
	}
	sqlite3_busy_timeout(conn, BUSY_TIMEOUT_MS);
	sqlite3_extended_result_codes(conn, 1);
	db->ops = &sqlite_ops;
	db->conn = conn;
	db->cache = xcalloc(1, sizeof(struct stmt_cache));
	db->name = xstrdup(path);
	if (sq_simple(db, "set up the connection", pragmas))
		return -1;
	/* WAL: readers never block the writer. It persists in the file; a
	 * database that cannot use it (e.g. on NFS) keeps its rollback journal. */
	sqlite3_exec(conn, "PRAGMA journal_mode = WAL", NULL, NULL, NULL);
	return 0;
}
