/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * reap - end what a repetition left behind.
 *
 * A repetition ends when its leader (the process the runner started)
 * exits, or at the timeout. Whatever it started and left running - a
 * background child in its process group, a daemon that called setsid -
 * would keep the metric pipe open, perturb the next repetition and
 * outlive the run. reap_enable() makes this process a child subreaper
 * (prctl PR_SET_CHILD_SUBREAPER), so orphaned descendants of a workload
 * are re-parented to us instead of init, whatever session or group they
 * moved to. reap_leftovers() then finds every process in the
 * repetition's process group and every child of ours (but the one spared
 * by reap_spare()), SIGKILLs it, reaps our zombies and
 * repeats until none is left (their own children come to us as they
 * die), bounded in time.
 *
 * reap_group() ends a process group recorded by a run that died (SIGKILL
 * of the harness): it kills the group only when it is provably the same
 * one (see reap.c), and waits a moment for it to go so its huge pages are
 * free before the knobs are restored.
 *
 * proc_start_time() reads field 22 of /proc/PID/stat (clock ticks since
 * boot): with the pid, it names a process uniquely. boot_ticks() is
 * CLOCK_BOOTTIME in the same unit: the kernel stamps a new process with
 * the boot-time clock in clone() and /proc shows it as that stamp over
 * NSEC_PER_SEC / USER_HZ, rounded down (in a time namespace both are
 * offset alike), so a process cloned between two calls that return the
 * same value has that start time, without reading /proc.
 */
#ifndef THPBENCH_REAP_H
#define THPBENCH_REAP_H

#include <sys/types.h>

/* Become a child subreaper (once; harmless when it fails). */
void reap_enable(void);

/* Kill and reap the leftovers of the repetition whose group is pgid (our
 * direct children included); the number of distinct live processes found. */
int reap_leftovers(pid_t pgid);

/*
 * Kill the process group pgid recorded with its leader's start time
 * (0: unknown) by a harness that died. Returns how many processes were
 * signalled; waits up to about two seconds for them to be gone.
 */
int reap_group(pid_t pgid, unsigned long long start);

/*
 * A child of ours that is no repetition's leftover (the fragmenter holding
 * memory broken up for it, measure/memstate.h): reap_leftovers spares
 * it. 0: none. reap_spared() is that pid while it lives, 0 once reaped.
 */
void reap_spare(pid_t pid);
pid_t reap_spared(void);

/*
 * A service the case asked for (system/res_service.c): a child of ours
 * that lives across repetitions, so reap_leftovers spares it too. Up to
 * REAP_KEEP_MAX at once; reap_unkeep forgets it (signal-safe: a store).
 */
#define REAP_KEEP_MAX 16
void reap_keep(pid_t pid);
void reap_unkeep(pid_t pid);

/* Is pid alive (not a zombie) and started at start (proc_start_time)? */
int proc_alive(pid_t pid, unsigned long long start);

/* Start time of pid in clock ticks since boot; 0 when it does not exist. */
unsigned long long proc_start_time(pid_t pid);
/* CLOCK_BOOTTIME now, in proc_start_time()'s clock ticks (0: no clock). */
unsigned long long boot_ticks(void);

#endif
