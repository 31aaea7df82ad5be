/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * counters - a set of perf_event_open counters on one child process.
 *
 * The runner forks a child that waits on a pipe; counters_open() attaches
 * to it before it execs: disabled, enable_on_exec, inherit (threads and
 * children count), read_format TOTAL_TIME_ENABLED|RUNNING so values can be
 * scaled for multiplexing (perf_read.h). Events are independent, as perf
 * stat does by default, unless the list grouped them (event_spec.group):
 * a group's leader is opened first and carries disabled/enable_on_exec,
 * its members are opened on the leader's fd and follow it on and off the
 * PMU, and the whole group is read at once (PERF_FORMAT_GROUP) so they
 * share one enabled/running pair. A member whose leader could not be
 * opened is not opened either. An event that fails to open is kept with
 * open_errno and a reason and never read as 0. When the kernel refuses
 * kernel-mode counting (perf_event_paranoid), the open is retried with
 * exclude_kernel, as perf does, and that is recorded.
 *
 * Region of interest: counters_roi_begin() resets the counts and enables;
 * counters_roi_end() disables. The first begin discards what was counted
 * between exec and the region; later begin/end pairs accumulate.
 */
#ifndef THPBENCH_COUNTERS_H
#define THPBENCH_COUNTERS_H

#include <stdbool.h>
#include <stdint.h>
#include <sys/types.h>

#include "events.h"

struct counter {
	const struct event_spec *ev;
	int fd;			/* -1 when not open */
	size_t leader;		/* index of its group's leader; its own for a
				 * leader or an event counted alone */
	uint64_t read_format;
	int open_errno;		/* 0 when open */
	char reason[256];	/* why it is not supported, perf style:
				 * "<not supported>: no hardware PMU ... (ENOENT)" */
	bool user_only;		/* had to fall back to exclude_kernel */
	uint64_t raw;		/* last read count, less base_raw */
	uint64_t enabled, running;	/* last read times, less the bases */
	uint64_t base_enabled, base_running;	/* at the first ROI begin */
	uint64_t base_raw;	/* count left after the ROI reset: exited
				 * threads' counts, which the reset cannot
				 * clear, are subtracted */
};

struct counter_set {
	struct counter *c;
	size_t n;
	bool roi_started;
};

/* Open every event on pid. Returns the number opened (0 is fine: all
 * unsupported); never fails the run. */
int counters_open(struct counter_set *cs, const struct event_spec *evs,
		  size_t n, pid_t pid);
void counters_roi_begin(struct counter_set *cs);
void counters_roi_end(struct counter_set *cs);
/* Read every open counter (after the child exited, or any time). */
void counters_read(struct counter_set *cs);
/*
 * Scaled value of a counter: raw * enabled / running, and the share of the
 * enabled time it counted (percent; share_pct may be NULL). Returns false
 * when the counter is not open, never enabled, or never ran (running == 0
 * while enabled > 0: perf's "<not counted>"), with *why set to a reason.
 */
bool counter_value(const struct counter *c, double *value, double *share_pct,
		   const char **why);
void counters_close(struct counter_set *cs);

/*
 * Open ev on pid (0: the caller) the way counters_open() would, then close
 * it: for `thpbench list`. true when it opens; otherwise reason says why,
 * as counter.reason would.
 */
bool counter_probe(const struct event_spec *ev, pid_t pid, char *reason,
		   size_t len);

#endif
