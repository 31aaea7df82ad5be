// SPDX-License-Identifier: GPL-2.0-only
#include "history_delete.h"
#include "history_backend.h"

#include <inttypes.h>
#include <stdio.h>

#include "util/util.h"

struct found {
	char *what;
	size_t len;
	int n;
};

static int describe(void *ctx, size_t ncols, const char *const *cells)
{
	struct found *f = ctx;

	if (ncols < 4)
		return -1;
	snprintf(f->what, f->len, "%s host %s kernel %s from %s",
		 cells[0] ? cells[0] : "?", cells[1] ? cells[1] : "?",
		 cells[2] ? cells[2] : "?", cells[3] ? cells[3] : "?");
	f->n++;
	return 0;
}

/* Children first: the statements do not rely on ON DELETE CASCADE. */
static const char *const deletes[] = {
	"DELETE FROM rep_values WHERE run_id = $1",
	"DELETE FROM reps WHERE run_id = $1",
	"DELETE FROM night_metrics WHERE run_id = $1",
	"DELETE FROM cases WHERE run_id = $1",
	"DELETE FROM runs WHERE id = $1",
};

int history_delete_run(struct history_db *db, int64_t id, char *what,
		       size_t len)
{
	struct found f = { what, len, 0 };
	char idtext[32], t[160], sql[320];
	const char *p[1] = { idtext };
	size_t i;

	snprintf(idtext, sizeof(idtext), "%" PRId64, id);
	history_schema_time_text(db->ops->dialect, "time", t, sizeof(t));
	snprintf(sql, sizeof(sql),
		 "SELECT %s, host, kernel_id, source FROM runs WHERE id = $1", t);
	if (db->ops->begin(db))
		return -1;
	if (db->ops->query(db, "find the run", sql, 1, p, describe, &f))
		goto fail;
	for (i = 0; f.n && i < ARRAY_SIZE(deletes); i++)
		if (hdb_exec(db, "delete the run", deletes[i], 1, p))
			goto fail;
	if (db->ops->commit(db))
		goto fail;
	return f.n ? 1 : 0;
fail:
	db->ops->rollback(db);
	return -1;
}
