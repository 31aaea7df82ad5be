/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * history_schema - the one schema of the nightly history, written out for
 * either engine (only column types differ: ids, times and reals).
 *
 *   runs           one per imported results file: time, the machine
 *                  (host: the series' identity, --machine, default the
 *                  hostname), host identity (hostname, fingerprint, CPU
 *                  model, microcode, cores, memory, NUMA nodes, kernel
 *                  command line, THP and hugetlb defaults, governor; the
 *                  identity as canonical JSON),
 *                  kernel identity (kernel_id, uname -r, /proc/version,
 *                  config hash), suite name and hash, provenance (series,
 *                  patch ids, tree id, thpbench version), the file's
 *                  content hash (UNIQUE: importing a file twice is a no-op)
 *   cases          one per case of a run (workload, args, THP mode, label)
 *   reps           one per repetition (status, reason, execution order)
 *   rep_values     one per repetition and metric: the raw values
 *   night_metrics  one per run x case x metric over the ok repetitions:
 *                  time, host, fingerprint, kernel_id, kernel_release,
 *                  suite, suite_hash, case_id, metric, better, n, mean,
 *                  stddev, median, min, max. A tool such as Apache Otava
 *                  reads a series with one SELECT (docs/history.md).
 *   triage         one row per triage decision on a change point (cp_id,
 *                  history_triage.h): its series and first bad night,
 *                  the state (accepted, false-alarm, fixed, reopened),
 *                  reason, who decided, the fix, when; the newest row of a
 *                  change point rules
 *   confirmations  one row per paired A/B run of a watch
 *                  (history_confirmation.h): the watch's id and series,
 *                  its night, both kernels, compare's verdict, change,
 *                  interval, p, runs per side; the newest of a watch rules
 *   thpbench_schema  the schema version (3; history_migrate.h brings a
 *                  version 1 or 2 database up to date when it is opened:
 *                  3 only adds the confirmations table)
 */
#ifndef THPBENCH_HISTORY_SCHEMA_H
#define THPBENCH_HISTORY_SCHEMA_H

#include <stdbool.h>
#include <stddef.h>

#define HISTORY_SCHEMA_VERSION 3

enum hdb_dialect {
	HDB_SQLITE,
	HDB_PG,
};

/* The CREATE statements (IF NOT EXISTS) for a dialect, NULL-terminated. */
const char *const *history_schema_ddl(enum hdb_dialect d);

/*
 * An expression giving the time column `col` as ISO-8601 UTC text
 * ("2026-11-30T02:00:00Z") in buf.
 */
const char *history_schema_time_text(enum hdb_dialect d, const char *col,
				     char *buf, size_t len);

#endif
