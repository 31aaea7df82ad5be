/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * history_gate - what became of each confirmed change point, and whether
 * a series fails the CI gate (history_check.h: --fail-on).
 *
 * Status of a change point (history_cp_status):
 *   open         a regression nobody triaged that has not come back
 *   fixed        a regression whose level came back (history_window.h:
 *                recovered, by a later change point)
 *   accepted     triaged: intended (reason and name in cp->triage)
 *   false alarm  triaged: not a real change
 *   fix linked   triaged: linked to a fix (cp->triage.fix)
 *   none         not a regression: nothing to gate (improvements, changed
 *                counters, environment changes)
 * A triage decision outranks a recovery (both close it).
 *
 * A series that fails only because of triaged change points is "skipped"
 * by the CI formats (JUnit <skipped>, TAP # SKIP, LAVA skip), with the
 * triage as the reason.
 *
 * For the report page: history_cp_status() and hcp_status_name() per
 * change point, history_open_regressions() per series, cp->triage for
 * who decided what, history_cp_status_text() for one line of it.
 */
#ifndef THPBENCH_HISTORY_GATE_H
#define THPBENCH_HISTORY_GATE_H

#include <stdbool.h>
#include <stddef.h>

#include "history_check.h"
#include "history_triage.h"

enum hcp_status {
	HCP_STATUS_NONE,
	HCP_STATUS_OPEN,
	HCP_STATUS_FIXED,
	HCP_STATUS_ACCEPTED,
	HCP_STATUS_FALSE_ALARM,
	HCP_STATUS_FIX_LINKED,
};

enum hcp_status history_cp_status(const struct history_cp *cp);
/* "open", "fixed", "accepted", "false alarm", "fix linked", "" */
const char *hcp_status_name(enum hcp_status s);

/*
 * One line (no newline, malloc'ed): "open: thpbench history triage ID ...",
 * "fixed: back within 2% of the old level on night D (kernel K)",
 * "accepted by NAME on DATE: REASON", ...; NULL for HCP_STATUS_NONE.
 */
char *history_cp_status_text(const struct history_result *r,
			     const struct history_cp *cp,
			     const struct history_check_opts *o);

/* Confirmed regressions of r still open. */
size_t history_open_regressions(const struct history_result *r);

/* Did tonight's check confirm a regression that is open? */
bool history_newest_new(const struct history_result *r);

/*
 * Would r fail but for triage? Then *why (malloc'ed) says who decided what
 * ("accepted by NAME: REASON; ..."). false and *why NULL otherwise.
 */
bool history_result_skipped(const struct history_result *r,
			    enum history_fail_on f, char **why);

/*
 * Give the change points of r[0..n) their triage: the newest decision
 * among t[0..nt) with their id (history_triage_load(latest_only)); a
 * reopened one clears it.
 */
void history_triage_apply(struct history_result *r, size_t n,
			  const struct history_triage *t, size_t nt);

/* Does r's drift fail a gate: an untriaged regression drift (history_trend.h)? */
bool history_drift_open(const struct history_result *r);

#endif
