/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * history_analysis - one database read and checked: the series matching a
 * filter (history_db.h), their change points (history_check.h) and the
 * triage decisions applied to them (history_gate.h). What `history
 * check`, `plot`, `report` and `triage` start from.
 */
#ifndef THPBENCH_HISTORY_ANALYSIS_H
#define THPBENCH_HISTORY_ANALYSIS_H

#include <stddef.h>

#include "history_check.h"
#include "history_db.h"

struct history_analysis {
	struct history_series *v;	/* the series */
	struct history_result *r;	/* r[i] is v[i]'s */
	size_t n;
	double load_s, check_s;		/* seconds spent reading, checking */
};

/*
 * 0, or -1 with the error in err (one message a line, history_db.h). No
 * series is no error (a->n = 0).
 */
int history_analyse(const char *dbspec, const struct history_filter *f,
		    const struct history_check_opts *o,
		    struct history_analysis *a, char *err, size_t errlen);
void history_analysis_free(struct history_analysis *a);

/*
 * The confirmed change point whose id starts with id (`history triage
 * ID`: a prefix will do when only one matches), and in *series the index
 * of its series. NULL with err set when none or several match.
 */
const struct history_cp *history_analysis_find_cp(const struct history_analysis *a,
						  const char *id, size_t *series,
						  char *err, size_t errlen);

/*
 * The drift (history_trend.h) whose id starts with id, and in *series the
 * index of its series; NULL when none or several match (`history triage`
 * asks for it when no change point matches).
 */
const struct history_drift *history_analysis_find_drift(const struct history_analysis *a,
							const char *id, size_t *series);

#endif
