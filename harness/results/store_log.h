/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * store_log - DIR/results.jsonl: every completed repetition in the file
 * the moment it completes, so a run that is killed, loses power or fills the
 * disk keeps what it measured.
 *
 * Append-only, one JSON object per line, each line written with one
 * write(2) as its repetition ends, so a thpbench killed (even with -9)
 * loses nothing: the kernel has the line. fsync(2) is not per line, it
 * costs more than a short repetition: the header and cases are synced
 * when the log is opened; the repetitions at the end of a round
 * (store_log_sync_due() from the session's loop) when the last sync is
 * STORE_LOG_ROUND_SYNC_USEC old, by store_log_run() once
 * STORE_LOG_SYNC_USEC have passed inside a long round, and when the log
 * is closed and kept. Why not every round: a round of one short case is
 * one repetition, and an fsync (~0.4 ms on this VM's disk) was the
 * largest single cost of a repetition of /bin/true. A power loss loses at
 * most what ended in the last STORE_LOG_ROUND_SYNC_USEC before a round
 * ended (or the last second of a long round), never a line in the middle:
 *   {"schema":"thpbench-results-log/1","env":{...},"meta":{...}}
 *   {"case":{"id":...,"workload":...}}            one per case, up front
 *   {"case":N,"run":{"status":"ok",...}}          one per repetition
 * A write that fails (ENOSPC) is cut back to the last whole line and the
 * log stops there, with one warning; the run goes on in memory. When
 * results.json has been written (store.h, temp + rename) the log is
 * deleted; when it could not be, the log stays and thpbench says so.
 *
 * store_load() reads a log like a results file: the cases, each run
 * appended so far, meta.incomplete = true; a torn last line (no newline:
 * the write the crash interrupted) is dropped and meta.torn_tail = true.
 * Anything else malformed is "FILE:LINE: ...".
 */
#ifndef THPBENCH_STORE_LOG_H
#define THPBENCH_STORE_LOG_H

#include <stdbool.h>
#include <stddef.h>

#include "results.h"

#define RESULTS_LOG_SCHEMA "thpbench-results-log/1"
#define STORE_LOG_SYNC_USEC 1e6		/* at most this long unsynced in a round */
#define STORE_LOG_ROUND_SYNC_USEC 2e4	/* a round ends with a sync past this */

struct store_log {
	int fd;			/* -1: closed, or given up after an error */
	char *path;
	size_t nruns;		/* repetitions written */
	bool dirty;		/* written since the last fsync */
	double synced_usec;	/* when it was (now_usec) */
};

/* Create path (truncating), write the header and r's cases. -1 with err
 * set (lg->fd is then -1 and store_log_run a no-op). */
int store_log_open(struct store_log *lg, const char *path,
		   const struct tb_results *r, char *err, size_t errlen);
/* Append one completed repetition of case case_idx. */
void store_log_run(struct store_log *lg, size_t case_idx,
		   const struct tb_run *run);
/* fsync what was appended since the last sync; a sync that fails gives
 * the log up, with one warning, as a failed write does. */
void store_log_sync(struct store_log *lg);
/* The same when the last sync is at least usec old (a round's end). */
void store_log_sync_due(struct store_log *lg, double usec);
/* Close; delete the file when results.json now holds everything. */
void store_log_close(struct store_log *lg, bool remove);

/* True when text starts with a results log header line. */
bool store_log_is(const char *text, size_t len);
int store_log_parse(const char *name, const char *text, size_t len,
		    struct tb_results *r, char *err, size_t errlen);

#endif
