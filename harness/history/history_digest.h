/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * history_digest - what a reader of a checked history must see first.
 *
 * Each series is one of:
 *   open     it fails the gate, or has a confirmed regression that is
 *            open (neither back to its old level nor triaged:
 *            history_gate.h): someone must look at it;
 *   recent   a confirmed change (any kind) starts within its last
 *            `recent` nights;
 *   quiet    neither: nothing to look at.
 * The digest lists open series first (those failing the gate before the
 * others, the newest change first), then recent ones (regressions,
 * improvements, neutral changes, environment changes; the newest first
 * within a kind), then the quiet ones in the order given. `cp` is the
 * change the entry is about: for an open series its latest open
 * regression, else its latest confirmed change (NULL for a quiet series
 * without any, and for a series failing on tonight's watch alone).
 */
#ifndef THPBENCH_HISTORY_DIGEST_H
#define THPBENCH_HISTORY_DIGEST_H

#include <stddef.h>

#include "history_check.h"

enum history_attention {
	HA_OPEN,
	HA_RECENT,
	HA_QUIET,
};

struct history_digest_item {
	size_t idx;			/* into the results */
	enum history_attention a;
	bool fails;			/* fails the gate */
	const struct history_cp *cp;	/* the change it is about, or NULL */
	const char *since;		/* start of cp's first night (or the watch's), or NULL */
};

/* Default of `recent`, in nights. */
#define HISTORY_RECENT_NIGHTS 14

/*
 * The digest of r[0..n), malloc'ed, n items; counts[a] (3 of them) how
 * many of each.
 */
struct history_digest_item *history_digest(const struct history_result *r,
					   size_t n, enum history_fail_on f,
					   size_t recent, size_t counts[3]);

/* The latest confirmed (not rejected) change of r, or NULL. */
const struct history_cp *history_latest_change(const struct history_result *r);

#endif
