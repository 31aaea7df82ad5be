/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * history_series - the in-memory model of a nightly history: one series
 * per host, suite version, case and metric, one night per recorded run.
 *
 * The storage (history_db.h) fills it; the analysis (history_check.h),
 * the charts and the report read it. A series never mixes hosts or suite
 * versions (host, suite_hash): the loader keeps them apart. Within one
 * host the fingerprint may change (new microcode, a BIOS setting): each
 * night carries its own, and the analysis reports a change point that
 * coincides with a fingerprint change as an environment change.
 *
 * Every string is malloc'ed and owned by its struct; values holds the raw
 * per-repetition values (ok repetitions only), n of them. A night with
 * n == 0 (every repetition failed) may be present: the analysis skips it.
 */
#ifndef THPBENCH_HISTORY_SERIES_H
#define THPBENCH_HISTORY_SERIES_H

#include <stddef.h>
#include <stdint.h>

struct history_night {
	int64_t run_id;			/* database id of the run */
	char *started;			/* ISO-8601 UTC */
	char *kernel_id;		/* --kernel-id, else uname -r */
	char *kernel_release;		/* uname -r */
	char *host_fingerprint;		/* hex hash of the host identity */
	size_t n;			/* ok repetitions */
	double *values;			/* raw per-repetition values, n of them */
};

struct history_series {
	char *host;			/* hostname */
	char *suite;			/* suite name */
	char *suite_hash;		/* series never mix suite versions */
	char *case_id;			/* e.g. "mremap/thp=always" */
	char *metric;			/* e.g. "roi_usec" */
	char *better;			/* "lower", "higher" or NULL */
	size_t n_nights;
	struct history_night *nights;	/* oldest first */
};

void history_series_free(struct history_series *s);	/* frees members */
void history_series_array_free(struct history_series *v, size_t n);

/* Mean of a night's values; NAN when it has none. */
double history_night_mean(const struct history_night *n);

/* "host suite case metric" in buf, for messages and sort order. */
const char *history_series_name(const struct history_series *s, char *buf,
				size_t len);

#endif
