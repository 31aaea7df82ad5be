// SPDX-License-Identifier: GPL-2.0-only
#include "history_analysis.h"
#include "history_gate.h"
#include "history_triage.h"
#include "history_confirmation.h"

#include <stdio.h>
#include <string.h>

#include "util/util.h"

int history_analyse(const char *dbspec, const struct history_filter *f,
		    const struct history_check_opts *o,
		    struct history_analysis *a, char *err, size_t errlen)
{
	struct history_triage *t = NULL;
	struct history_confirmation *cv = NULL;
	size_t ncv = 0;
	struct history_db *db;
	size_t nt = 0;
	double t0 = now_usec(), t1;
	int rc;

	memset(a, 0, sizeof(*a));
	if (history_db_open_existing(dbspec, &db, err, errlen))
		return -1;
	rc = history_db_load_series(db, f, &a->v, &a->n);
	if (!rc)
		rc = history_triage_load(db, f, true, &t, &nt);
	if (!rc)
		rc = history_confirmation_load(db, f, &cv, &ncv);
	if (rc)
		snprintf(err, errlen, "%s", history_db_error(db));
	history_db_close(db);
	if (rc) {
		history_series_array_free(a->v, a->n);
		history_triage_free(t, nt);
		history_confirmation_free(cv, ncv);
		memset(a, 0, sizeof(*a));
		return -1;
	}
	t1 = now_usec();
	a->r = history_check_all(a->v, a->n, o);
	history_triage_apply(a->r, a->n, t, nt);
	history_triage_free(t, nt);
	history_confirmation_apply(a->r, a->n, cv, ncv);
	history_confirmation_free(cv, ncv);
	a->load_s = (t1 - t0) / 1e6;
	a->check_s = (now_usec() - t1) / 1e6;
	return 0;
}

void history_analysis_free(struct history_analysis *a)
{
	history_results_free(a->r, a->n);
	history_series_array_free(a->v, a->n);
	memset(a, 0, sizeof(*a));
}

const struct history_cp *history_analysis_find_cp(const struct history_analysis *a,
						  const char *id, size_t *series,
						  char *err, size_t errlen)
{
	const struct history_cp *hit = NULL;
	size_t i, j, n = 0;

	for (i = 0; i < a->n; i++)
		for (j = 0; j < a->r[i].ncp; j++)
			if (!strncmp(a->r[i].cp[j].id, id, strlen(id))) {
				hit = &a->r[i].cp[j];
				*series = i;
				n++;
			}
	if (n == 1)
		return hit;
	if (!n)
		snprintf(err, errlen, "no confirmed change point %s in the history (history check lists them with their ids)",
			 id);
	else
		snprintf(err, errlen, "%zu change points start with %s: give more digits",
			 n, id);
	return NULL;
}

const struct history_drift *history_analysis_find_drift(const struct history_analysis *a,
							const char *id, size_t *series)
{
	const struct history_drift *hit = NULL;
	size_t i, n = 0;

	for (i = 0; i < a->n; i++)
		if (a->r[i].ndrift && !strncmp(a->r[i].drift.id, id, strlen(id))) {
			hit = &a->r[i].drift;
			*series = i;
			n++;
		}
	return n == 1 ? hit : NULL;
}
