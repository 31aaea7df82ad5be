/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * history_delete - take a wrongly imported run out of the history (a
 * night stamped with a wrong clock, a run from the wrong box or suite):
 * the run and everything of it (cases, repetitions, values, night
 * summaries), in one transaction, so the series read as if it had never
 * been imported. `thpbench history delete RUN_ID...`; `history list`
 * shows the ids.
 */
#ifndef THPBENCH_HISTORY_DELETE_H
#define THPBENCH_HISTORY_DELETE_H

#include <stddef.h>
#include <stdint.h>

#include "history_db.h"

/*
 * Delete run id. 1 and what (the run as "TIME host HOST kernel ID from
 * SOURCE") when it was there, 0 when no such run, -1 with the error in
 * history_db_error(db).
 */
int history_delete_run(struct history_db *db, int64_t id, char *what,
		       size_t len);

#endif
