/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * history_rows - many rows of one table in few INSERT statements
 * ("VALUES (...), (...), ..."): one statement, one round trip to a
 * PostgreSQL server, one pass of SQLite's engine for up to HDB_ROWS_MAX
 * rows instead of one each. A night of 50 cases has about 1,500 rows.
 *
 * The first nshared parameters are the same in every row ($1..$nshared:
 * the run, the case); each row adds nper more. Values are copied when
 * added (callers reuse their buffers); NULL is SQL NULL. Statements of
 * each row count are prepared once per connection (history_backend.h).
 */
#ifndef THPBENCH_HISTORY_ROWS_H
#define THPBENCH_HISTORY_ROWS_H

#include <stddef.h>

#define HDB_ROWS_MAX 64

struct history_db;

struct hdb_rows {
	const char *what;	/* for messages: "record a value" */
	const char *head;	/* "INSERT INTO t (a, b, c)" */
	size_t nshared, nper, nrows;
	char **p;		/* shared, then nper per row: owned copies */
	size_t cap;
};

void hdb_rows_init(struct hdb_rows *b, const char *what, const char *head,
		   const char *const *shared, size_t nshared, size_t nper);
/* Add one row of nper values; a full batch is written at once. */
int hdb_rows_add(struct history_db *db, struct hdb_rows *b,
		 const char *const *row);
/* Write what is left; 0, or -1 with the error printed. */
int hdb_rows_flush(struct history_db *db, struct hdb_rows *b);
void hdb_rows_free(struct hdb_rows *b);

#endif
