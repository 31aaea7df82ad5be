// SPDX-License-Identifier: GPL-2.0-only
/*
 * The PostgreSQL backend of history_backend.h (libpq). Statements are
 * prepared once per connection (PQprepare) and run with text parameters;
 * the server infers each parameter's type from its column. Notices
 * ("relation already exists, skipping") are dropped. The connection URI is
 * never printed, and libpq's connection errors are redacted
 * (history_spec.h): it may hold a password.
 */
#include "history_backend.h"
#include "history_spec.h"

#include <libpq-fe.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util/util.h"

struct pg_cache {
	char **sql;
	size_t n, cap;
};

static void pg_error(struct history_db *db, const char *what, const PGresult *res)
{
	const char *msg = res ? PQresultErrorMessage(res) : "";

	if (!msg || !*msg)
		msg = PQerrorMessage(db->conn);
	hdb_fail(db, "%s: %s: %.*s", db->name, what, (int)strcspn(msg, "\n"), msg);
}

/* The name of the prepared statement for sql ("s<index>"), preparing it. */
static int prepared(struct history_db *db, const char *what, const char *sql,
		    char *name, size_t len)
{
	struct pg_cache *c = db->cache;
	PGresult *res;
	size_t i;

	for (i = 0; i < c->n; i++)
		if (!strcmp(c->sql[i], sql)) {
			snprintf(name, len, "s%zu", i);
			return 0;
		}
	snprintf(name, len, "s%zu", c->n);
	res = PQprepare(db->conn, name, sql, 0, NULL);
	if (PQresultStatus(res) != PGRES_COMMAND_OK) {
		pg_error(db, what, res);
		PQclear(res);
		return -1;
	}
	PQclear(res);
	c->sql = xgrow(c->sql, sizeof(*c->sql), &c->cap, c->n);
	c->sql[c->n++] = xstrdup(sql);
	return 0;
}

static int pg_query(struct history_db *db, const char *what, const char *sql,
		    size_t np, const char *const *params, hdb_row_fn fn,
		    void *ctx)
{
	char name[32];
	PGresult *res;
	const char **cells = NULL;
	int r, c, nrows, ncols, rc = 0;

	if (prepared(db, what, sql, name, sizeof(name)))
		return -1;
	res = PQexecPrepared(db->conn, name, (int)np, params, NULL, NULL, 0);
	switch (PQresultStatus(res)) {
	case PGRES_COMMAND_OK:
	case PGRES_TUPLES_OK:
		break;
	default:
		pg_error(db, what, res);
		PQclear(res);
		return -1;
	}
	nrows = PQntuples(res);
	ncols = PQnfields(res);
	cells = xcalloc((size_t)ncols + 1, sizeof(*cells));
	for (r = 0; fn && r < nrows && !rc; r++) {
		for (c = 0; c < ncols; c++)
			cells[c] = PQgetisnull(res, r, c) ? NULL : PQgetvalue(res, r, c);
		rc = fn(ctx, (size_t)ncols, cells);
	}
	free(cells);
	PQclear(res);
	return rc;
}

/* Numbers printed as the text the server parses (%.17g round-trips). */
static int pg_insert(struct history_db *db, const char *what, const char *sql,
		     size_t np, const struct hdb_value *params)
{
	const char **text = xcalloc(np ? np : 1, sizeof(*text));
	char (*num)[40] = xmalloc((np ? np : 1) * sizeof(*num));
	size_t i;
	int rc;

	for (i = 0; i < np; i++) {
		const struct hdb_value *v = &params[i];

		switch (v->type) {
		case HDB_TEXT:
			text[i] = v->v.text;
			break;
		case HDB_INT:
			snprintf(num[i], sizeof(num[i]), "%lld", v->v.i);
			text[i] = num[i];
			break;
		case HDB_REAL:
			snprintf(num[i], sizeof(num[i]), "%.17g", v->v.real);
			text[i] = num[i];
			break;
		default:
			text[i] = NULL;
		}
	}
	rc = pg_query(db, what, sql, np, text, NULL, NULL);
	free(text);
	free(num);
	return rc;
}

static int pg_simple(struct history_db *db, const char *what, const char *sql)
{
	PGresult *res = PQexec(db->conn, sql);
	int ok = PQresultStatus(res) == PGRES_COMMAND_OK ||
		 PQresultStatus(res) == PGRES_TUPLES_OK;

	if (!ok)
		pg_error(db, what, res);
	PQclear(res);
	return ok ? 0 : -1;
}

static int pg_begin(struct history_db *db)
{
	return pg_simple(db, "begin a transaction", "BEGIN");
}

static int pg_commit(struct history_db *db)
{
	return pg_simple(db, "commit", "COMMIT");
}

static void pg_rollback(struct history_db *db)
{
	if (PQtransactionStatus(db->conn) != PQTRANS_IDLE)
		PQclear(PQexec(db->conn, "ROLLBACK"));
}

static void pg_close(struct history_db *db)
{
	struct pg_cache *c = db->cache;

	if (c) {
		free_strv(c->sql, c->n);
		free(c);
	}
	PQfinish(db->conn);
}

static const struct hdb_ops pg_ops = {
	.dialect = HDB_PG,
	.query = pg_query,
	.insert = pg_insert,
	.script = pg_simple,
	.begin = pg_begin,
	.commit = pg_commit,
	.rollback = pg_rollback,
	.close = pg_close,
	.rows_per_insert = 64,
};

static void quiet(void *arg, const char *msg)
{
	(void)arg;
	(void)msg;
}

int hdb_pg_open(const char *uri, struct history_db *db)
{
	PGconn *conn = PQconnectdb(uri);
	char msg[1024];

	if (!conn)
		tb_die("out of memory");
	if (PQstatus(conn) != CONNECTION_OK) {
		/* libpq's message can quote pieces of the URI, the password's too */
		history_redact(uri, PQerrorMessage(conn), msg, sizeof(msg));
		hdb_fail(db, "cannot connect to the PostgreSQL history database: %.*s",
			 (int)strcspn(msg, "\n"), msg);
		PQfinish(conn);
		return -1;
	}
	PQsetNoticeProcessor(conn, quiet, NULL);
	db->ops = &pg_ops;
	db->conn = conn;
	db->cache = xcalloc(1, sizeof(struct pg_cache));
	db->name = xmalloc(strlen(PQdb(conn)) + 32);
	sprintf(db->name, "postgresql database %s", PQdb(conn));
	return pg_simple(db, "set up the connection",
			 "SET client_min_messages = warning; SET TIME ZONE 'UTC'");
}
