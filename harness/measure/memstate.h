/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * memstate - put free memory in a known state before a repetition (the
 * memory_state axis of axes.h), and undo it afterwards.
 *
 *   fresh       nothing is done: memory as earlier work left it
 *   compacted   "1" is written to vm/compact_memory under the sysctl root
 *               (system/sysctl_knob.h; none: refused), which
 *               compacts every zone before it returns
 *   fragmented  the fragmenter workload (workloads/fragment --share S
 *               --hold) breaks up THPs covering S of the free memory in
 *               blocks of 2 MiB or more (/proc/buddyinfo), keeping
 *               one 4 KiB page of each, and holds those pages; prepare
 *               returns once it prints "ready". memstate_release() ends
 *               it (SIGTERM, which ends it at once at any point; SIGKILL
 *               after 2 s), which gives them back. It runs in a process
 *               group of its own and dies with the harness
 *               (PR_SET_PDEATHSIG, set before its exec), so a killed run
 *               leaves no memory broken up; its pid is also recorded
 *               (memstate_opts.record) for restore and the next run.
 *               The share is passed with all its digits.
 *   pinned      the same fragmenter with --all --pin --hold instead of
 *               --share: THPs broken up until none can be had, and each
 *               kept page mlocked; with vm/compact_unevictable_allowed 0
 *               (the case sets it) no THP allocation can compact its way
 *               to a free 2 MiB block. Held and ended like fragmented.
 * What the fragmenter reports ("fragmented_kb N", ...) becomes metrics
 * "memstate.<name>"; every state but fresh records
 * "memstate.prepare_usec". Both need root; a failure is the repetition's
 * error (the state it was to run in could not be made).
 */
#ifndef THPBENCH_MEMSTATE_H
#define THPBENCH_MEMSTATE_H

#include <stddef.h>
#include <sys/types.h>

#include "axes.h"
#include "results/results.h"

struct memstate_opts {
	const char *compact_path;	/* NULL: /proc/sys/vm/compact_memory; "": none (refused) */
	const char *fragmenter;		/* NULL: workload_path("fragment") */
	double timeout_s;		/* for "ready"; 0: 600 */
	const volatile int *stop;	/* set by a signal: give up waiting */
	/* told the fragmenter's pid and start time (0: read /proc) once
	 * started, pid 0 once it is gone (the
	 * state directory's record: settings_set_helper) */
	void (*record)(pid_t pid, unsigned long long start);
};

struct memstate {
	pid_t pid;			/* the fragmenter holding memory; 0 none */
	void (*record)(pid_t pid, unsigned long long start); /* opts.record */
};

int memstate_prepare(enum mem_state st, double share,
		     const struct memstate_opts *o, struct memstate *ms,
		     struct metric_set *out, char *err, size_t errlen);
/* End what prepare started (nothing for fresh and compacted). */
void memstate_release(struct memstate *ms);

#endif
