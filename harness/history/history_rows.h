/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * history_rows - many rows of one table in few INSERT statements
 * ("VALUES (...), (...), ..."): on PostgreSQL one statement, one round
 * trip for up to HDB_ROWS_MAX rows instead of one each. On SQLite a row
 * per statement (db->ops->rows_per_insert): there is no round trip to
 * save, and a multi-row INSERT makes SQLite copy every page it touches
 * into a statement journal first. A night of 50 cases has about 1,500 rows.
 *
 * The first nshared parameters are the same in every row ($1..$nshared:
 * the run, the case); each row adds nper more. Parameters are typed
 * (history_backend.h); text values are not copied: they must stay valid until
 * their row is written (the hdb_rows_add that fills a batch, or
 * hdb_rows_flush), the shared ones until hdb_rows_free. The statement for a full batch is written
 * once; statements are prepared once per connection.
 */
#ifndef THPBENCH_HISTORY_ROWS_H
#define THPBENCH_HISTORY_ROWS_H

#include <stddef.h>

#include "history_backend.h"

#define HDB_ROWS_MAX 64

struct hdb_rows {
	const char *what;	/* for messages: "record a value" */
	const char *head;	/* "INSERT INTO t (a, b, c)" */
	size_t nshared, nper, nrows, batch;
	struct hdb_value *p;	/* shared, then nper per row */
	char *full_sql;		/* the statement of a full batch */
};

void hdb_rows_init(struct hdb_rows *b, const struct history_db *db,
		   const char *what, const char *head,
		   const struct hdb_value *shared, size_t nshared, size_t nper);
/* Add one row of nper values; a full batch is written at once. */
int hdb_rows_add(struct history_db *db, struct hdb_rows *b,
		 const struct hdb_value *row);
/* Write what is left; 0, or -1 with the error in history_db_error(). */
int hdb_rows_flush(struct history_db *db, struct hdb_rows *b);
void hdb_rows_free(struct hdb_rows *b);

/* Typed values, for rows and db->ops->insert. */
static inline struct hdb_value hdb_text(const char *s)
{
	return s ? (struct hdb_value){ .type = HDB_TEXT, .v.text = s } :
		   (struct hdb_value){ .type = HDB_NULL };
}

static inline struct hdb_value hdb_int(long long i)
{
	return (struct hdb_value){ .type = HDB_INT, .v.i = i };
}

static inline struct hdb_value hdb_real(double d)
{
	return (struct hdb_value){ .type = HDB_REAL, .v.real = d };
}

static inline struct hdb_value hdb_null(void)
{
	return (struct hdb_value){ .type = HDB_NULL };
}

#endif
