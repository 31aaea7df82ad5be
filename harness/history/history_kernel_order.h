/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * history_kernel_order - which of two kernels came first, from their ids
 * alone, for nights that started at the same second on one machine (two
 * kernels tested in one night and stamped alike): the order then comes
 * from the data, never from the order of import.
 *
 * Orderable pairs:
 *   the same id                              equal
 *   git describe of one tag: TAG-N-gHEX      by N (commits since TAG);
 *                                            TAG itself is N = 0
 *   version tags vX.Y[.Z][-rcN]              by version, -rcN before the
 *                                            release
 *   linux-next tags next-YYYYMMDD            by date
 * Anything else (two commit hashes, two uname -r strings, a describe of
 * another tag) has no order: the import refuses the second such night
 * (history_import.h) rather than guess.
 */
#ifndef THPBENCH_HISTORY_KERNEL_ORDER_H
#define THPBENCH_HISTORY_KERNEL_ORDER_H

#include "history_series.h"

#define HISTORY_ORDER_UNKNOWN 2

/* -1 a before b, 0 the same, 1 after, HISTORY_ORDER_UNKNOWN. */
int history_kernel_order(const char *a, const char *b);

/*
 * Put the nights of s that share a start time in kernel order (stable:
 * an unknown or equal pair keeps its order). The loader calls it.
 */
void history_series_order_nights(struct history_series *s);

#endif
