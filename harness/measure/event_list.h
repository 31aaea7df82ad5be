/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * event_list - an event list as `-e` and a suite's `events` key spell it.
 *
 *   page-faults,tlb:tlb_flush,cycles      names (events.h), comma-separated;
 *                                         tracepoints and libpfm4 modifiers
 *                                         use ':', never ','
 *   {cycles,instructions},page-faults     perf's braces: a group, counted
 *                                         and read together (one leader)
 *   tlb                                   this CPU's TLB profile
 *                                         (tlb_profile.h), with its groups
 * Items are trimmed of white space. A blank list is empty (0, *n = 0).
 * Errors (-1, *evs freed, err set): an unknown name (err names it and
 * `thpbench list`), an empty item ("a,,b"), braces that are nested,
 * unclosed, closed without opening or followed by modifiers, a group of
 * more than EVENT_GROUP_MAX events, `tlb` inside braces or twice.
 */
#ifndef THPBENCH_EVENT_LIST_H
#define THPBENCH_EVENT_LIST_H

#include <stddef.h>
#include <stdio.h>

#include "events.h"

int events_parse_list(const char *csv, struct event_spec **evs, size_t *n,
		      char *err, size_t errlen);

/*
 * For `thpbench list`: what `tlb` expands to here - the model, each event
 * with its libpfm4 name, its encoding and what it counts, by group - and
 * which models have a profile.
 */
void events_print_tlb_profile(FILE *f);

#endif
