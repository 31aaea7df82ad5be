// SPDX-License-Identifier: GPL-2.0-only
#include "history_migrate.h"
#include "history_backend.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util/util.h"

/* The statements that take version v - 1 to v (v >= 2). */
static const char *const *steps(long v)
{
	static const char *const to2[] = {
		"ALTER TABLE runs ADD COLUMN hostname TEXT",
		"UPDATE runs SET hostname = host",
		NULL,
	};

	return v == 2 ? to2 : NULL;
}

static int version_cb(void *ctx, size_t ncols, const char *const *cells)
{
	long *v = ctx;

	if (ncols && cells[0] && parse_long(cells[0], v))
		*v = -1;
	return 0;
}

static int current_version(struct history_db *db, long *v)
{
	*v = -1;
	return db->ops->query(db, "read the schema version",
			      "SELECT max(version) FROM thpbench_schema", 0,
			      NULL, version_cb, v);
}

/* The tables and indexes a step adds: the schema's own CREATE ... IF NOT EXISTS. */
static int create_missing(struct history_db *db)
{
	const char *const *ddl = history_schema_ddl(db->ops->dialect);
	size_t i;

	for (i = 0; ddl[i]; i++)
		if (db->ops->script(db, "add the new tables", ddl[i]))
			return -1;
	return 0;
}

int history_schema_begin(struct history_db *db)
{
	if (db->ops->begin(db))
		return -1;
	if (db->ops->dialect == HDB_PG &&
	    db->ops->script(db, "lock the schema",
			    "SELECT pg_advisory_xact_lock(7301179011)")) {
		db->ops->rollback(db);
		return -1;
	}
	return 0;
}

int history_migrate(struct history_db *db, long from)
{
	char ver[16];
	const char *p[1] = { ver };
	long v;

	db->err[0] = '\0';
	if (history_schema_begin(db))
		return -1;
	/* Another opener may have migrated it while we waited. */
	if (current_version(db, &from))
		goto fail;
	for (v = from + 1; v <= HISTORY_SCHEMA_VERSION; v++) {
		const char *const *s = steps(v);

		for (; s && *s; s++)
			if (db->ops->script(db, "migrate the history schema", *s))
				goto fail;
	}
	if (from < HISTORY_SCHEMA_VERSION && create_missing(db))
		goto fail;
	snprintf(ver, sizeof(ver), "%d", HISTORY_SCHEMA_VERSION);
	if (from < HISTORY_SCHEMA_VERSION &&
	    db->ops->query(db, "record the schema version",
			   "UPDATE thpbench_schema SET version = $1", 1, p,
			   NULL, NULL))
		goto fail;
	return db->ops->commit(db);
fail:
	db->ops->rollback(db);
	/* After the engine's own message, which says what failed. */
	return hdb_fail_more(db, "%s: could not bring the history schema from version %ld to %d (nothing was changed)",
			     db->name, from, HISTORY_SCHEMA_VERSION);
}
