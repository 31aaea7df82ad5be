/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * profile - a sampled profile of one repetition's region of interest,
 * recorded by perf (Debian's linux-perf) and reduced by perf_script.h.
 *
 * profiler_start() runs `perf record -e EVENT -g -D -1 --control fd:3,4
 * -o FILE` on the workload (task: -p PID, inheriting into its children;
 * system: -a) while the workload still waits to exec, and waits until
 * perf answers a "ping" on its control fd, so no sample of the region is
 * lost to perf's start-up. perf starts disabled (-D -1): the runner
 * forwards the workload's "enable" and "disable" (the same protocol,
 * runner.h) with profiler_cmd(), which waits for perf's ack, so the
 * profile covers exactly the region the counters cover. A workload that
 * never says "enable" is not profiled (prof.samples 0, and a warning).
 *
 * profiler_finish() stops perf (SIGINT, as a user's ^C: perf then writes
 * its header), runs `perf script` on the file (kallsyms from
 * spec->kallsyms when given: the guest passes the built kernel's
 * System.map), stores the shares as metrics (perf_script.h:
 * prof_to_metrics) and writes BASE.folded. BASE.data is removed unless
 * spec->keep_data. Every failure is a warning and leaves the
 * repetition's other metrics untouched: a profile is never a reason to
 * lose a measurement.
 *
 * The event: "cycles" when a hardware cycle counter opens here, else
 * "cpu-clock" (software, hrtimer-driven: these VMs and TCG guests have no
 * PMU); profile_event() says which, once.
 */
#ifndef THPBENCH_PROFILE_H
#define THPBENCH_PROFILE_H

#include <jansson.h>
#include <stdbool.h>
#include <stddef.h>
#include <sys/types.h>

#include "results/results.h"

/* What a repetition keeps: functions at >= 0.5% self or total, 40 at most. */
#define PROFILE_FLOOR_PCT 0.5
#define PROFILE_MAX_FNS 40
/*
 * Samples a second (perf record -F): perf's own default, given
 * explicitly so a perfconfig cannot change it; at most the kernel's
 * perf_event_max_sample_rate default, 100000 (cpu-clock's shortest
 * period is 10 us). The A/B's profile boots sample at the most, in
 * qemu -icount time (docs/profiles.md).
 */
#define PROFILE_FREQ 4000
#define PROFILE_FREQ_MAX 100000

enum profile_mode {
	PROFILE_OFF,
	PROFILE_TASK,
	PROFILE_SYSTEM,
};

struct profile_spec {
	enum profile_mode mode;
	const char *perf;	/* the perf binary; NULL: $THPBENCH_PERF or "perf" */
	const char *kallsyms;	/* NULL: /proc/kallsyms */
	bool keep_data;
	long freq;		/* perf record -F; 0: PROFILE_FREQ */
	double floor_pct;	/* functions below it in a rep are not stored */
	size_t max_fns;
};

struct profiler {
	pid_t pid;
	int ctl, ack;
	bool on, enabled_once, stopped;
	char base[4096];	/* BASE of BASE.data, BASE.folded, BASE.log */
};

/* "task", "system", "off"; -1 when s is none of them. */
int profile_mode_parse(const char *s);
const char *profile_mode_name(enum profile_mode m);

/*
 * The kernel symbols for perf script: given (e.g. $THPBENCH_KALLSYMS) as
 * a file, or a directory holding System.map-RELEASE for the running
 * kernel's uname release (the A/B guest: one initramfs, two kernels, no
 * /proc/kallsyms). NULL (perf reads /proc/kallsyms) when given is NULL or
 * empty, or, with a warning, when the file is not there.
 */
const char *profile_kallsyms(const char *given, char *buf, size_t len);

/* "cycles" or "cpu-clock" (probed once). */
const char *profile_event(void);

/* The perf binary to run: spec->perf, $THPBENCH_PERF, or "perf". */
const char *profile_perf(const struct profile_spec *spec);

/*
 * Start perf for target (a pid, ignored in system mode) writing
 * BASE.data. 0, or -1 with err set (pf->on false) when perf would not
 * start or answer.
 */
int profiler_start(struct profiler *pf, const struct profile_spec *spec,
		   pid_t target, const char *base, char *err, size_t errlen);

/* Forward "enable" or "disable"; waits for the ack (5 s at most). */
void profiler_cmd(struct profiler *pf, const char *cmd);

/*
 * Stop perf (it is our child: the runner stops it before it reaps the
 * workload's leftovers, so perf is never counted as one).
 */
void profiler_stop(struct profiler *pf);

/* Stop perf if still running, reduce the profile into ms and BASE.folded (see above). */
void profiler_finish(struct profiler *pf, const struct profile_spec *spec,
		     struct metric_set *ms);

/* meta.profile of results.json: {"mode", "event", "perf", "kallsyms"}. */
json_t *profile_meta(const struct profile_spec *spec);

/*
 * A function a case's profiled repetitions (prof.samples > 0) saw in some
 * but not all of them gets 0 in the others, so its share is a sample over
 * every repetition; one that no repetition of a case saw stays absent
 * there (compare says "absent", never 0 +- 0).
 */
void profile_fill_cases(struct tb_results *r);

#endif
