// SPDX-License-Identifier: GPL-2.0-only
#include "history_rows.h"

#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util/util.h"

/* Append ", $k" (or "$k" first in a row) to sql at *n. */
static void param(char *sql, size_t *n, size_t k, bool first)
{
	char digits[24];
	size_t d = 0;

	if (!first) {
		sql[(*n)++] = ',';
		sql[(*n)++] = ' ';
	}
	sql[(*n)++] = '$';
	do
		digits[d++] = (char)('0' + k % 10);
	while ((k /= 10));
	while (d)
		sql[(*n)++] = digits[--d];
}

/* "HEAD VALUES ($1, .., $k, $k+1, ..), ($1, .., $k, ..), ..." for nrows. */
static char *statement(const struct hdb_rows *b, size_t nrows)
{
	size_t hl = strlen(b->head), r, i, k = b->nshared, n;
	size_t len = hl + 16 + nrows * ((b->nshared + b->nper) * 24 + 8);
	char *sql = xmalloc(len);

	memcpy(sql, b->head, hl);
	memcpy(sql + hl, " VALUES ", 8);
	n = hl + 8;
	for (r = 0; r < nrows; r++) {
		if (r) {
			sql[n++] = ',';
			sql[n++] = ' ';
		}
		sql[n++] = '(';
		for (i = 0; i < b->nshared; i++)
			param(sql, &n, i + 1, !i);
		for (i = 0; i < b->nper; i++)
			param(sql, &n, ++k, !i && !b->nshared);
		sql[n++] = ')';
	}
	sql[n] = 0;
	return sql;
}

void hdb_rows_init(struct hdb_rows *b, const struct history_db *db,
		   const char *what, const char *head,
		   const struct hdb_value *shared, size_t nshared, size_t nper)
{
	size_t batch = db->ops->rows_per_insert;

	memset(b, 0, sizeof(*b));
	b->what = what;
	b->head = head;
	b->nshared = nshared;
	b->nper = nper;
	b->batch = batch < 1 ? 1 : batch > HDB_ROWS_MAX ? HDB_ROWS_MAX : batch;
	b->p = xcalloc(nshared + nper * b->batch, sizeof(*b->p));
	memcpy(b->p, shared, nshared * sizeof(*shared));
	b->full_sql = statement(b, b->batch);
}

int hdb_rows_flush(struct history_db *db, struct hdb_rows *b)
{
	char *sql;
	int rc;

	if (!b->nrows)
		return 0;
	sql = b->nrows == b->batch ? b->full_sql : statement(b, b->nrows);
	rc = db->ops->insert(db, b->what, sql, b->nshared + b->nrows * b->nper,
			     b->p);
	if (sql != b->full_sql)
		free(sql);
	b->nrows = 0;
	return rc;
}

int hdb_rows_add(struct history_db *db, struct hdb_rows *b,
		 const struct hdb_value *row)
{
	memcpy(b->p + b->nshared + b->nrows * b->nper, row, b->nper * sizeof(*row));
	b->nrows++;
	return b->nrows == b->batch ? hdb_rows_flush(db, b) : 0;
}

void hdb_rows_free(struct hdb_rows *b)
{
	free(b->p);
	free(b->full_sql);
	memset(b, 0, sizeof(*b));
}
