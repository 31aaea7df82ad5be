/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * history_db - the nightly history database, backend-neutral.
 *
 * One schema (history_schema.h) in two backends, chosen by the spec given
 * to --db: "postgresql://..." or "postgres://..." is a libpq connection URI
 * (history_pg.c), anything else is the path of an SQLite file
 * (history_sqlite.c; default results/history.sqlite). Opening creates the
 * schema when it is missing (under a lock, so two first writers do not
 * race) and refuses a database written by a newer schema version.
 *
 * Every write runs in one transaction (SQLite: BEGIN IMMEDIATE with a busy
 * timeout, so concurrent writers wait instead of failing; PostgreSQL: a
 * plain transaction): a crash mid-write leaves the database as it was
 * before the write. Every value reaches SQL as a bound parameter, never
 * spliced into the statement text.
 *
 * Errors: nothing in history/ prints. A function that fails returns -1
 * (or a negative code) and leaves its message where the caller can print
 * it: in the handle (history_db_error) for a function given one, in
 * err/errlen for one that has none yet (history_db_open), or through a
 * callback for one that goes on after a failure (the batch import,
 * history_import_batch.h). The cli (harness/cli/) prints them, each line
 * as one tb_err() message, with the text it printed before.
 * Out of memory still ends the program (tb_die, as xmalloc does).
 */
#ifndef THPBENCH_HISTORY_DB_H
#define THPBENCH_HISTORY_DB_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "history_series.h"
#include "history_spec.h"

#define HISTORY_DB_DEFAULT "results/history.sqlite"

struct history_db;

/* NULL members match everything. host is the machine (history_import.h). */
struct history_filter {
	const char *host, *suite, *case_id, *metric;
};

/*
 * Open (and create, with its schema) the database named by spec. 0, or -1
 * with the error in err (errlen bytes; err may be NULL with errlen 0),
 * one message a line.
 */
int history_db_open(const char *spec, struct history_db **out, char *err,
		    size_t errlen);
/*
 * The same, but an SQLite file that does not exist yet is an error rather
 * than a new empty database (for commands that only read).
 */
int history_db_open_existing(const char *spec, struct history_db **out,
			     char *err, size_t errlen);
void history_db_close(struct history_db *db);

/*
 * The error of the last function on db that failed: one message a line
 * (a migration says what failed, then that nothing was changed), without
 * the "thpbench: " prefix. Valid until the next call on db or its close.
 */
const char *history_db_error(const struct history_db *db);

/* history_db_spec_is_pg() and how a spec may be shown: history_spec.h */

/*
 * Every series matching f: one per (host, suite, suite_hash, case_id,
 * metric), sorted by those; nights oldest first (by start time; nights
 * of one start time by kernel, history_kernel_order.h, then run id),
 * each with its ok repetitions' raw values in file order. *out is
 * malloc'ed (history_series_array_free). 0, or -1 (history_db_error).
 */
int history_db_load_series(struct history_db *db,
			   const struct history_filter *f,
			   struct history_series **out, size_t *n_out);

/* One stored run, as `history list` shows it. */
struct history_run_info {
	int64_t id;
	char *started;
	char *host;		/* the machine */
	char *hostname;		/* as the run saw it */
	char *host_fingerprint;
	char *kernel_id;
	char *kernel_release;
	char *suite;
	char *suite_hash;
	char *thpbench_version;
	char *source;		/* the path it was imported from */
	long ncases;
	long nmetrics;		/* night x case x metric rows */
};

/* Runs matching f (host and suite only), oldest first. */
int history_db_list_runs(struct history_db *db,
			 const struct history_filter *f,
			 struct history_run_info **out, size_t *n_out);
void history_run_info_free(struct history_run_info *v, size_t n);

#endif
