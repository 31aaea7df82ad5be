/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * history_tics - the labels of a trend chart's night axis.
 *
 * At most `max` nights get a label, evenly spaced, the newest always. The
 * labels are the shortest form of the nights' start times (UTC) that tells
 * every labelled night from its neighbours: "01-07" (month-day) when the
 * labelled nights fall on different days of one year, "2025-12-30" across
 * years, "01-07 02:00" when two fall on one day, else the night's number
 * ("#12"): never the same label twice. xlabel says what they are
 * ("night (2026, UTC)").
 */
#ifndef THPBENCH_HISTORY_TICS_H
#define THPBENCH_HISTORY_TICS_H

#include <stddef.h>

#include "history_series.h"

struct history_tic {
	size_t night;		/* index into the series' nights */
	char label[24];
};

/*
 * Fill out[0..max) (max >= 2) for s; returns how many. xlabel: the axis
 * title (len bytes).
 */
size_t history_tics(const struct history_series *s, size_t max,
		    struct history_tic *out, char *xlabel, size_t len);

#endif
