/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * history_migrate - bring a database written by an older thpbench up to
 * the current schema (history_schema.h), in place, in one transaction
 * (under the same lock as the schema's creation, so that two first
 * openers do not both migrate). A crash mid-migration leaves the old
 * version, which the next open migrates again.
 *
 *   1 -> 2   runs.hostname (filled from host: until then the hostname was
 *            the machine's name) and the triage table
 *
 * Opening calls it (history_db.h); its errors are left in the handle
 * (history_db_error), as every history_db function leaves them.
 */
#ifndef THPBENCH_HISTORY_MIGRATE_H
#define THPBENCH_HISTORY_MIGRATE_H

struct history_db;

/* Migrate from version `from` to HISTORY_SCHEMA_VERSION; 0 or -1. */
int history_migrate(struct history_db *db, long from);

/*
 * Begin a write transaction that holds the schema lock (PostgreSQL: an
 * advisory lock, so that two first openers of one server neither both
 * create the tables nor both migrate them; SQLite: its write lock). 0, or
 * -1 with the error in history_db_error() and nothing begun.
 */
int history_schema_begin(struct history_db *db);

#endif
