/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * history_triage - what people decided about a change point, stored in
 * the history database (the triage table, history_schema.h), so that the
 * gate (history_gate.h) stops failing on a regression someone has looked
 * at, and every report says who decided what and why.
 *
 * A change point is named by its id (history_cp_id): 12 hex digits of a
 * SHA-256 over its series (machine, suite version, case, metric) and its
 * first bad night (start time and kernel id). Change points never move
 * once confirmed (history_window.h), so the id stays valid as nights are
 * added. `history check` prints it; `history triage ID ...` records:
 *
 *   accepted     the change is intended (a trade-off, a new default):
 *                a reason and a name are required
 *   false-alarm  not a real change (a noisy night, a lab incident)
 *   fixed        linked to a fix (commit, URL) before the data show it
 *   reopened     takes back the decision before it
 *
 * Decisions are appended, never updated: the newest one of a change point
 * rules (REOPENED: as if never triaged), the older ones stay for the
 * record. Every value reaches SQL as a bound parameter.
 *
 * For the report page: history_triage_apply() fills each change point's
 * `triage` (history_check.h), history_cp_status() (history_gate.h) says
 * open, fixed, accepted, false alarm or fix linked.
 */
#ifndef THPBENCH_HISTORY_TRIAGE_H
#define THPBENCH_HISTORY_TRIAGE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "history_db.h"
#include "history_series.h"

#define HISTORY_CP_ID_LEN 13	/* 12 hex digits and the NUL */
#define HISTORY_TRIAGE_TEXT_MAX 1000	/* reason, fix: characters at most */
/* Who decided: a name or an address, shown whole on the report's card. */
#define HISTORY_TRIAGE_NAME_MAX 100	/* characters (code points) at most */

enum triage_state {
	TRIAGE_NONE,
	TRIAGE_ACCEPTED,
	TRIAGE_FALSE_ALARM,
	TRIAGE_FIXED,
	TRIAGE_REOPENED,
};

struct history_triage {
	int64_t id;		/* row id; 0 before it is recorded */
	char *cp_id;
	char *host, *suite, *suite_hash, *case_id, *metric;
	char *night;		/* the first bad night's start, ISO-8601 UTC */
	char *kernel_id;	/* the first bad night's kernel */
	enum triage_state state;
	char *reason, *name, *fix;
	char *decided;		/* ISO-8601 UTC; NULL: now, when recorded */
};

/* The id of the change point whose first bad night is s->nights[night]. */
void history_cp_id(const struct history_series *s, size_t night,
		   char out[HISTORY_CP_ID_LEN]);

/* "accepted", "false-alarm", "fixed", "reopened" ("" for NONE). */
const char *history_triage_state_name(enum triage_state s);
/* -1 when s names no state. */
int history_triage_state_parse(const char *s);

/*
 * Check t before recording it: a known state, a name, a reason for
 * "accepted", a fix for "fixed"; each text valid UTF-8 (SQLite would keep
 * what PostgreSQL refuses), without control characters (C0, DEL, C1
 * U+0080-U+009F), of at most HISTORY_TRIAGE_NAME_MAX (the name) or
 * HISTORY_TRIAGE_TEXT_MAX characters, counted as code points. 0, or -1
 * with the error in err.
 */
int history_triage_check(const struct history_triage *t, char *err,
			 size_t errlen);

/* Append t (checked) in a transaction of its own; t->id is set. 0, or -1
 * with the error in history_db_error(db), as for history_triage_load. */
int history_triage_record(struct history_db *db, struct history_triage *t);

/*
 * The decisions matching f (machine and suite; case and metric too when
 * set), oldest first; latest_only keeps only the newest of each change
 * point (reopened ones included: they cancel). *out is malloc'ed.
 */
int history_triage_load(struct history_db *db, const struct history_filter *f,
			bool latest_only, struct history_triage **out,
			size_t *n_out);
void history_triage_free(struct history_triage *v, size_t n);

#endif
