// SPDX-License-Identifier: GPL-2.0-only
#include "history_rows.h"
#include "history_backend.h"

#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util/util.h"

static char *dup_or_null(const char *s)
{
	return s ? xstrdup(s) : NULL;
}

void hdb_rows_init(struct hdb_rows *b, const char *what, const char *head,
		   const char *const *shared, size_t nshared, size_t nper)
{
	size_t i;

	memset(b, 0, sizeof(*b));
	b->what = what;
	b->head = head;
	b->nshared = nshared;
	b->nper = nper;
	b->cap = nshared + nper * HDB_ROWS_MAX;
	b->p = xcalloc(b->cap, sizeof(*b->p));
	for (i = 0; i < nshared; i++)
		b->p[i] = dup_or_null(shared[i]);
}

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

/*
 * "HEAD VALUES ($1, .., $k, $k+1, ..), ($1, .., $k, ..), ..." (by hand:
 * a thousand snprintf calls a night showed in the import's profile).
 */
static char *statement(const struct hdb_rows *b)
{
	size_t hl = strlen(b->head), r, i, k = b->nshared, n;
	size_t len = hl + 16 + b->nrows * ((b->nshared + b->nper) * 24 + 8);
	char *sql = xmalloc(len);

	memcpy(sql, b->head, hl);
	memcpy(sql + hl, " VALUES ", 8);
	n = hl + 8;
	for (r = 0; r < b->nrows; r++) {
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

static void clear_rows(struct hdb_rows *b)
{
	size_t i;

	for (i = b->nshared; i < b->nshared + b->nrows * b->nper; i++) {
		free(b->p[i]);
		b->p[i] = NULL;
	}
	b->nrows = 0;
}

int hdb_rows_flush(struct history_db *db, struct hdb_rows *b)
{
	char *sql;
	int rc;

	if (!b->nrows)
		return 0;
	sql = statement(b);
	rc = db->ops->query(db, b->what, sql, b->nshared + b->nrows * b->nper,
			    (const char *const *)b->p, NULL, NULL);
	free(sql);
	clear_rows(b);
	return rc;
}

int hdb_rows_add(struct history_db *db, struct hdb_rows *b,
		 const char *const *row)
{
	size_t i, at = b->nshared + b->nrows * b->nper;

	for (i = 0; i < b->nper; i++)
		b->p[at + i] = dup_or_null(row[i]);
	b->nrows++;
	return b->nrows == HDB_ROWS_MAX ? hdb_rows_flush(db, b) : 0;
}

void hdb_rows_free(struct hdb_rows *b)
{
	size_t i;

	for (i = 0; b->p && i < b->cap; i++)
		free(b->p[i]);
	free(b->p);
	memset(b, 0, sizeof(*b));
}
