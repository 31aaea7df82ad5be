/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * runner - one repetition: spawn, count, time.
 *
 * The child is forked into its own process group and blocks on a pipe;
 * the counters are opened on it (counters.h) and the vmstat snapshot taken
 * before it is released to exec, so no harness work is counted. While it
 * runs the runner serves, on pipes handed down in the environment:
 *   PERF_CTL_FD / PERF_ACK_FD  perf's control protocol: "enable\n" and
 *       "disable\n" answered with "ack\n". The first enable resets the
 *       counters, so they cover only the region of interest. At each
 *       disable (the workload is waiting for the ack, so this perturbs
 *       nothing measured) /proc/PID/smaps_rollup is sampled: the largest
 *       AnonHugePages and *_Hugetlb seen become roi.anon_huge_kb and
 *       roi.hugetlb_kb.
 *   THPBENCH_METRIC_FD  lines "name value\n": the workload's own figures
 *       (roi_usec, gbps, ...), stored as metrics under their names.
 * The repetition ends when the leader exits (or at the timeout): anything
 * it left running - in its process group, or a daemon re-parented to us
 * (reap.h) - is killed and counted in run->leftover, with a warning.
 * After exit: wall_usec, user_usec, sys_usec, minflt, majflt, maxrss_kb
 * (wait4 rusage), vmstat.* deltas, with spec->sys the mTHP stats and
 * buddyinfo levels of sysstate.h, one metric per counted event (scaled
 * as perf does, its counted share in run->counted_pct), the TLB profile's
 * derived figures (tlb_profile.h), and the events that could not be
 * counted in run->unsupported ("<not supported>" or "<not counted>").
 *
 * Exit status: 0 ok; 3 is the workloads' "invalid measurement" (e.g. the
 * pages were not huge) and gives RUN_INVALID; other codes RUN_FAILED; a
 * signal RUN_SIGNALED; the timeout kills the process group: RUN_TIMEOUT.
 * run->huge is 1 when THP or hugetlb backing was seen (vmstat thp_*alloc,
 * mTHP anon_fault_alloc or shmem_alloc, smaps samples, workload-reported
 * anon_huge_kb / hugetlb_pages), else 0.
 */
#ifndef THPBENCH_RUNNER_H
#define THPBENCH_RUNNER_H

#include <stdbool.h>
#include <stddef.h>
#include <sys/types.h>

#include "events.h"
#include "profile.h"
#include "sysstate.h"
#include "results/results.h"

#define WORKLOAD_EXIT_INVALID 3

struct run_spec {
	const char *path;		/* executable (PATH searched if no '/') */
	char *const *argv;		/* NULL-terminated, argv[0] shown to the program */
	char *const *env_extra;		/* "KEY=VALUE" added to our environment */
	size_t nenv;
	const struct event_spec *evs;
	size_t nevs;
	double timeout_s;		/* 0: none */
	int out_fd;			/* child's stdout and stderr; -1: inherit */
	const char *vmstat_path;	/* NULL: /proc/vmstat */
	const struct sysstate_spec *sys;	/* mTHP stats, buddyinfo; NULL: none */
	/* told the child's pid and start time (spawn.h; 0: unknown), pid 0
	 * after it is reaped */
	void (*on_spawn)(pid_t pid, unsigned long long start);
	const char *cgroup;		/* a cgroup dir the child is moved into before it execs; NULL none */
	/* A profile of the region of interest (profile.h); NULL or mode off:
	 * none. Its files are prof_base.{folded,log[,data]}. */
	const struct profile_spec *prof;
	const char *prof_base;
};

/* Run once, filling run (status, metrics, unsupported...). Returns 0 when
 * the program ran (whatever its status), -1 when it could not start. */
int runner_run(const struct run_spec *spec, struct tb_run *run);

/* Ask a running runner_run() to kill its child and return (signal-safe). */
void runner_abort(void);

#endif
