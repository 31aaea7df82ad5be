/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * history_import - record a results file (store.h validates it) in the
 * history database: the run with its machine, host and kernel identity,
 * suite hash and provenance, every case, every repetition with its raw
 * values, and one summary row per case and metric (ok repetitions only;
 * neutral metrics too, with better NULL).
 *
 * The machine (the series' identity, the runs.host column) is the one
 * given (--machine), else the file's meta.machine (`thpbench run
 * --machine`), else its env.hostname: a lab that names its machines keeps
 * one series across a rename of the host. The host fingerprint is then
 * compared night by night within that machine (history_check.h).
 *
 * The run's kernel_id is the one given (the CI's git describe or commit),
 * else the file's provenance/meta "kernel_id", else `uname -r` of the run.
 * Provenance (series, patch ids, tree id, thpbench version) is read from a
 * top-level "provenance" object, else meta's, when the file has one.
 *
 * A file whose content hash (history_fingerprint.h) is already stored is
 * not imported again: importing is idempotent, also when two writers race.
 *
 * Refused, with the reason (both databases alike): an env.started after
 * the import time (a wrong clock would make that night the newest for
 * good); a host or suite name over HISTORY_NAME_MAX bytes, a case id over
 * HISTORY_CASE_ID_MAX, a metric name over HISTORY_NAME_MAX (PostgreSQL's
 * index rows hold about 2.7 kB, and the series index holds all four). A
 * value at or beyond +-STATS_MAX_ABS (stats.h) cannot be averaged or
 * compared without overflowing: that case's metric is left out of the
 * history, with a warning. A killed run's results.jsonl is imported as
 * compare reads it (the repetitions it holds, meta.incomplete), with a
 * warning.
 *
 * Nothing here prints: every error and warning goes to opts->say (the cli
 * prints them), also those of the database (history_db_error).
 *
 * A run that started at the same second as a stored run of the same
 * machine and suite version with another kernel is refused unless the two
 * kernel ids give an order (history_kernel_order.h).
 *
 * Many files go in one transaction (history_import_batch.h); a file that
 * fails takes back only itself.
 */
#define HISTORY_NAME_MAX 255
#define HISTORY_CASE_ID_MAX 1024
#ifndef THPBENCH_HISTORY_IMPORT_H
#define THPBENCH_HISTORY_IMPORT_H

#include <stdbool.h>
#include <stdint.h>

#include "history_db.h"

#define HISTORY_MACHINE_MAX 128

enum history_import_result {
	HISTORY_IMPORTED = 0,
	HISTORY_ALREADY = 1,	/* same content already stored as *run_id */
};

/* history_import_write without a savepoint: the file failed after its
 * first write (or the database did): the transaction must be rolled back. */
#define HISTORY_WRITE_BROKEN (-2)

struct history_import_cpu {
	double read_s, write_s;
};

/*
 * One message of the import: an error (the file is refused) or a warning
 * (it is imported all the same). msg has no "thpbench: " prefix and is
 * valid during the call only. The batch calls it from the thread that
 * reads ahead as well as from the caller's (history_import_batch.h).
 */
typedef void (*history_import_say_fn)(void *ctx, bool warning, const char *msg);

struct history_import_opts {
	const char *kernel_id;	/* NULL: the file's, else uname -r */
	const char *machine;	/* NULL: the file's meta.machine, else hostname */
	/* NULL, or filled by history_import_files: the CPU seconds of the
	 * thread that read and checked the files and of the one that wrote
	 * them (commit included; on two idle cores the larger bounds the
	 * import's wall time). */
	struct history_import_cpu *cpu;
	/* Where the messages go; NULL: nowhere. */
	history_import_say_fn say;
	void *say_ctx;
};

/*
 * Import path in a transaction of its own. kernel_id may be NULL. Returns
 * enum history_import_result with *run_id set, or -1 with the error in
 * history_db_error(db) (nothing was written; warnings are not kept).
 */
int history_import_file(struct history_db *db, const char *path,
			const char *kernel_id, int64_t *run_id);

/*
 * The same inside a transaction the caller began (db->ops->begin), under
 * a savepoint: -1 takes back this file only.
 */
int history_import_one(struct history_db *db, const char *path,
		       const struct history_import_opts *o, int64_t *run_id);

/*
 * The two halves of history_import_one(), for a pipeline: prepare reads
 * and checks a file without the database (no shared state: another thread
 * may prepare the next file while this one is written); write records it
 * inside the caller's transaction; the caller frees it (perhaps in the
 * reading thread). Under a savepoint, a
 * failure (-1) takes back this file only. Without one (a savepoint costs
 * SQLite a copy of every page the file touches), -1 means refused before
 * anything was written, the transaction intact, and HISTORY_WRITE_BROKEN
 * that the caller must roll the transaction back.
 */
struct history_import_prep;
struct history_import_prep *history_import_prepare(const char *path,
						   const struct history_import_opts *o);
int history_import_write(struct history_db *db,
			 const struct history_import_prep *p, int64_t *run_id,
			 bool savepoint);
void history_import_prep_free(struct history_import_prep *p);

/* 0 when id is a usable kernel id (1..128 of [A-Za-z0-9._+:/@~^-]). */
int history_kernel_id_check(const char *id);

/* 0 when name is a usable machine name (1..128 of [A-Za-z0-9._+:@-], not
 * starting with '-'). */
int history_machine_check(const char *name);

#endif
