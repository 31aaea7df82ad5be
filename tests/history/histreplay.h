/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * histreplay - a history gated the way a lab's CI meets it: nights
 * imported and checked one at a time, the gate (--fail-on open) read
 * after each. For the replay tests (test_history_window.c) and the bound
 * benchmark (histbound).
 */
#ifndef THPBENCH_HISTREPLAY_H
#define THPBENCH_HISTREPLAY_H

#include <stdbool.h>
#include <stddef.h>

#include "histgen.h"
#include "history/history_check.h"

/*
 * Does the gate fail on the first t nights of s (o: NULL for the
 * defaults)? The result is left in *keep when keep is not NULL
 * (history_result_release), else released.
 */
bool histreplay_gate(const struct history_series *s, size_t t,
		     const struct history_check_opts *o,
		     struct history_result *keep);

/*
 * Gate nights from..n of s one by one: the first night (0-based) on which
 * the gate fails, or -1; *last: whether it failed on the last night.
 */
long histreplay_first_fail(const struct history_series *s, size_t from,
			   const struct history_check_opts *o, bool *last);

/* What a set of replayed histories did at the gate. */
struct histreplay_tally {
	size_t histories;
	size_t failed;		/* failed on some night */
	size_t failed_last;	/* ... and on the last one */
	size_t early;		/* first failed before the step */
	size_t caught;		/* first failed within `within` nights of it */
	size_t by6;		/* ... within 6 */
};

/*
 * Replay n histories like *proto (seeds seed0, seed0 + 1, ...; defaults
 * of history check) into *t. A step history's step is proto->steps[0],
 * the night the first failure is counted from (at it or `within` nights
 * after: caught); an A/A history has no step (within unused).
 */
void histreplay_many(const struct histgen *proto, uint64_t seed0, size_t n,
		     size_t within, struct histreplay_tally *t);

#endif
