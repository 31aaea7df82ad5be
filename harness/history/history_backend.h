/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * history_backend - what history_db.c needs from a database engine, and
 * nothing more: statements with bound text parameters, rows handed to a
 * callback as text, transactions.
 *
 * SQL is written once for both engines with numbered parameters $1, $2...
 * (PostgreSQL's syntax; the SQLite backend binds them by name). A NULL
 * parameter is SQL NULL. In a row, a NULL cell is SQL NULL; numbers come
 * as text that round-trips (hexadecimal %a for SQLite reals,
 * PostgreSQL's shortest exact decimal; strtod reads both). Statements are prepared once per connection and reused.
 *
 * Each function returns 0, or -1 with the error in db->err (naming the
 * statement's purpose when the caller gives one through `what`); nothing
 * here prints (history_db.h).
 */
#ifndef THPBENCH_HISTORY_BACKEND_H
#define THPBENCH_HISTORY_BACKEND_H

#include <stdbool.h>
#include <stddef.h>

#include "history_schema.h"

struct history_db;

/*
 * A typed parameter of db->ops->insert: numbers go to SQLite as numbers
 * (no text to print and parse again, 1.2 million values in 1,000 nights);
 * PostgreSQL gets them printed as the text the server parses. A text
 * value is not copied: it stays valid until the call returns.
 */
enum hdb_type { HDB_NULL, HDB_TEXT, HDB_INT, HDB_REAL };

struct hdb_value {
	enum hdb_type type;
	union {
		const char *text;
		long long i;
		double real;
	} v;
};

/* Return non-zero to stop the iteration (the query then returns that). */
typedef int (*hdb_row_fn)(void *ctx, size_t ncols, const char *const *cells);

struct hdb_ops {
	enum hdb_dialect dialect;
	int (*query)(struct history_db *db, const char *what, const char *sql,
		     size_t np, const char *const *params, hdb_row_fn fn,
		     void *ctx);
	/* A statement with typed parameters and no rows (an INSERT). */
	int (*insert)(struct history_db *db, const char *what, const char *sql,
		      size_t np, const struct hdb_value *params);
	/* One statement without parameters or rows (DDL, settings). */
	int (*script)(struct history_db *db, const char *what, const char *sql);
	/* A write transaction: SQLite takes the write lock at once. */
	int (*begin)(struct history_db *db);
	int (*commit)(struct history_db *db);
	void (*rollback)(struct history_db *db);
	/*
	 * Outside a transaction: on, the writer vouches that every row it
	 * writes refers to rows it wrote before (a bulk import), and SQLite
	 * stops looking each reference up (a third of its work); off again
	 * after. NULL where the engine has no such switch.
	 */
	int (*bulk)(struct history_db *db, bool on);
	void (*close)(struct history_db *db);
	/* Rows per INSERT that history_rows.h writes: one on SQLite (a
	 * single-row INSERT needs no statement journal), many on PostgreSQL
	 * (one round trip for them all). */
	size_t rows_per_insert;
};

struct history_db {
	const struct hdb_ops *ops;
	void *conn;		/* sqlite3 * or PGconn * */
	void *cache;		/* the backend's prepared statements */
	char *name;		/* for messages; never holds a password */
	/* The last error: one message a line, without the "thpbench: "
	 * prefix the cli adds (history_db_error). */
	char err[2048];
};

/* Set db->err to the message; returns -1. */
int hdb_fail(struct history_db *db, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
/* Add a line after the message already in db->err; returns -1. */
int hdb_fail_more(struct history_db *db, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

int hdb_sqlite_open(const char *path, bool create, struct history_db *db);
int hdb_pg_open(const char *uri, struct history_db *db);

/* db->ops->query without rows. */
int hdb_exec(struct history_db *db, const char *what, const char *sql,
	     size_t np, const char *const *params);

#endif
