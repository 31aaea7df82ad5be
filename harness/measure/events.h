/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * events - event names -> struct perf_event_attr.
 *
 * Accepted spellings, tried in this order:
 *   1. perf's generic names: cycles, instructions, cache-misses,
 *      dTLB-load-misses, iTLB-loads, page-faults, task-clock, faults,
 *      minor-faults, context-switches, cpu-migrations ... (the names
 *      `perf list` prints for hardware, software and hw-cache events);
 *   2. tracepoints "subsys:event" (id read from tracefs events/SUBSYS/EVENT/id);
 *   2b. perf raw syntax, "r1a8" and "cpu_core/event=0x12,umask=0xe/"
 *      (event_raw.h), for CPUs libpfm4 has no table for;
 *   3. anything libpfm4 knows: "perf::DTLB-LOAD-MISSES",
 *      "INST_RETIRED:ANY_P", "amd64_fam19h_zen4::..." through
 *      pfm_get_os_event_encoding(PFM_OS_PERF_EVENT_EXT).
 * A name none of these knows is an error (event_encode() returns -1 and
 * fills ev->error). A known name whose hardware is absent (no PMU in a VM)
 * encodes fine here and fails later, at open time: counters.h reports it
 * "<not supported>" with the errno.
 *
 * A user who may not read tracefs (not root: /sys/kernel/tracing is mode
 * 700) cannot resolve a tracepoint. A name shaped like one ("subsys:event",
 * lower case, digits and '_') that libpfm4 does not know then encodes with
 * ev->unavailable saying so: it is never opened, and each run records it
 * as unsupported with that reason, so a non-root run measures the rest.
 *
 * The tracefs root is found in this order: THPBENCH_TRACEFS (tests point
 * it at a fake tree; when set it is the only root tried, so a test never
 * reaches the real one), /sys/kernel/tracing, /sys/kernel/debug/tracing; if
 * none has an events/ directory, tracefs is mounted at /sys/kernel/tracing
 * (once; the mount is left in place, as perf does).
 *
 * Generic names also take perf's privilege modifiers ("cycles:u",
 * "page-faults:k", "instructions:uk"); hw-cache names match case-insensitively
 * and only for the cache/op pairs perf accepts.
 */
#ifndef THPBENCH_EVENTS_H
#define THPBENCH_EVENTS_H

#include <linux/perf_event.h>
#include <stdbool.h>
#include <stddef.h>

enum event_source {
	EVSRC_PERF_NAME,	/* perf's generic hardware/software/cache names */
	EVSRC_TRACEPOINT,
	EVSRC_LIBPFM,
	EVSRC_RAW,		/* perf raw syntax: event_raw.h */
};

/* The most events one perf group may hold here (a PMU holds far fewer). */
#define EVENT_GROUP_MAX 64

struct event_spec {
	char name[192];			/* exactly as the user spelled it, or the
					 * metric a profile names it (tlb.cycles) */
	char stands_for[192];		/* what was encoded when name is such an
					 * alias (skl::DTLB_LOAD_MISSES:STLB_HIT);
					 * "" when name itself was */
	unsigned int group;		/* 0: counted alone; else the events with
					 * this number are one perf group, read
					 * together, the first its leader */
	enum event_source source;
	struct perf_event_attr attr;
	bool hardware;			/* needs a PMU (for "<not supported>" reasons) */
	char error[256];		/* why encoding failed; "" on success */
	char unavailable[160];		/* why it cannot be counted by this user; "" */
};

/* pfm_initialize() once; safe to call again. -1 if libpfm4 failed. */
int events_init(void);

/* Encode one name. 0 on success; -1 with ev->error set ("unknown event ..."). */
int event_encode(const char *name, struct event_spec *ev);

/* Root of tracefs (see above); NULL when it cannot be found or mounted. */
const char *tracefs_root(void);

/* Print the events usable on this machine (for `thpbench list`):
 * each generic name with "ok" or "<not supported> (reason)" after trying
 * to open it on the calling process, tracepoints of interest, PMUs libpfm4
 * present, each said unusable (with the reason) when cycles cannot be
 * opened here. */
void events_print_usable(void);

#endif
