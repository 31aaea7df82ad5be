/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * history_confirmation - the paired A/B run that confirms or clears a
 * night's watch, stored beside the nights (the confirmations table,
 * history_schema.h): one reader and one writer, SQLite and PostgreSQL
 * alike, every value a bound parameter.
 *
 * When a night raises a watch on a kernel change, `./run.sh nightly
 * --confirm qemu` boots the last good and the suspect kernel alternately
 * (A B A B) in one session, `thpbench history confirm` compares the
 * watched case with compare's statistics and records one row per watched
 * series: the watch's id (history_cp_id of its night), both kernels, the
 * verdict, the change with its interval, p and the runs on each side.
 * Rows are appended; the newest of a watch rules.
 *
 * history_confirmation_apply() gives each result's watch its
 * confirmation; the gate (history_gate.c) then decides on it in place of
 * the single night: a confirmed regression (or a confirmed change of a
 * neutral metric: a counter the kernel moved) fails it, a confirmation
 * that finds no change clears the watch.
 */
#ifndef THPBENCH_HISTORY_CONFIRMATION_H
#define THPBENCH_HISTORY_CONFIRMATION_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "history_db.h"
#include "history_series.h"
#include "stats/verdict.h"

struct history_result;

struct history_confirmation {
	int64_t id;		/* row id; 0 before it is recorded */
	char *cp_id;		/* the watch's id: history_cp_id(s, night) */
	char *host, *suite, *suite_hash, *case_id, *metric;
	char *night;		/* the watched night's start, ISO-8601 UTC */
	char *kernel_a, *kernel_b;	/* last good, suspect */
	char *method;		/* "qemu", "kexec", "stub" ... (a-z0-9-) */
	enum verdict verdict;
	double change, lo, hi, p;	/* relative change B vs A, its interval */
	long long na, nb;	/* runs on each side */
	char *recorded;		/* ISO-8601 UTC; NULL: now, when recorded */
};

/* -1 when s names no verdict (verdict_name's words). */
int history_verdict_parse(const char *s);

/* Append c in a transaction of its own; c->id is set. 0 or -1
 * (history_db_error). */
int history_confirmation_record(struct history_db *db,
				struct history_confirmation *c);

/* The newest row of each watch matching f (machine, suite, case, metric
 * when set), oldest first; *out malloc'ed. */
int history_confirmation_load(struct history_db *db,
			      const struct history_filter *f,
			      struct history_confirmation **out, size_t *n_out);
void history_confirmation_free(struct history_confirmation *v, size_t n);

/* Copy into r[i].watch.conf the confirmation of each present watch. */
void history_confirmation_apply(struct history_result *r, size_t n,
				const struct history_confirmation *v,
				size_t nv);

#endif
