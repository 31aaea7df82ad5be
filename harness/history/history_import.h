/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * history_import - record a results file (store.h validates it) in the
 * history database, in one transaction: the run with its host and kernel
 * identity, suite hash and provenance, every case, every repetition with
 * its raw values, and one summary row per case and metric (ok repetitions
 * only; neutral metrics too, with better NULL).
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
 * history, said on stderr. A killed run's results.jsonl is imported as compare reads it
 * (the repetitions it holds, meta.incomplete), with a warning.
 */
#define HISTORY_NAME_MAX 255
#define HISTORY_CASE_ID_MAX 1024
#ifndef THPBENCH_HISTORY_IMPORT_H
#define THPBENCH_HISTORY_IMPORT_H

#include <stdint.h>

#include "history_db.h"

enum history_import_result {
	HISTORY_IMPORTED = 0,
	HISTORY_ALREADY = 1,	/* same content already stored as *run_id */
};

/*
 * Import path. kernel_id may be NULL. Returns enum history_import_result
 * with *run_id set, or -1 with the error printed (nothing was written).
 */
int history_import_file(struct history_db *db, const char *path,
			const char *kernel_id, int64_t *run_id);

/* 0 when id is a usable kernel id (1..128 of [A-Za-z0-9._+:/@~^-]). */
int history_kernel_id_check(const char *id);

#endif
