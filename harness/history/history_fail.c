// SPDX-License-Identifier: GPL-2.0-only
/*
 * hdb_fail, hdb_fail_more (history_backend.h): how the history layer
 * keeps an error in the handle for the caller to print, since nothing in
 * history/ prints (history_db.h). A file of its own: the backends, the
 * opening code and the migration all call it, and history_db.c calls
 * them (make layers allows no call circle).
 */
#include "history_backend.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

static void vfail(struct history_db *db, size_t at, const char *fmt,
		  va_list ap)
{
	vsnprintf(db->err + at, sizeof(db->err) - at, fmt, ap);
}

int hdb_fail(struct history_db *db, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vfail(db, 0, fmt, ap);
	va_end(ap);
	return -1;
}

int hdb_fail_more(struct history_db *db, const char *fmt, ...)
{
	size_t at = strlen(db->err);
	va_list ap;

	if (at && at + 1 < sizeof(db->err))
		db->err[at++] = '\n';
	va_start(ap, fmt);
	vfail(db, at, fmt, ap);
	va_end(ap);
	return -1;
}
