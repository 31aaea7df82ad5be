/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * settings_guard - put the knobs back however the process ends.
 *
 * Between arm and disarm, SIGINT/SIGTERM/SIGHUP and exit() restore the
 * armed snapshot:
 * - The signal path restores with open/read/write only (no allocation),
 *   kills the registered child process group, deletes the journal when
 *   every knob went back (else keeps it for `thpbench restore`), then
 *   re-raises the signal so the parent sees how we ended.
 * - A handler the caller installed before arming gets the first signal
 *   instead (a graceful stop that ends with settings_end); the next one
 *   takes the restoring path. A signal ignored at arming stays ignored
 *   (nohup). A forked child that has not exec'ed never restores.
 * - The atexit hook calls the at_exit function given to arm (in the
 *   arming process only), so tb_die() between begin and end restores too.
 *
 * The workload's process group is also kept on disk (state_dir/child:
 * "PGID STARTTIME"), so that after a SIGKILL of the harness the next
 * start or `thpbench restore` ends it before putting the knobs back (its
 * huge pages in use would keep a pool from shrinking); so is the helper
 * (settings_set_helper), also where no journal was left.
 */
#ifndef THPBENCH_SETTINGS_GUARD_H
#define THPBENCH_SETTINGS_GUARD_H

#include <signal.h>
#include <sys/types.h>

#include "snapshot.h"
#include "resource.h"

/* snap and state_dir must stay valid until disarm. */
void settings_guard_arm(const struct snapshot *snap, const char *state_dir,
			void (*at_exit)(void *), void *arg);
/* With the signals blocked (settings_guard_block): stop guarding snap,
 * and forget the recorded child. */
void settings_guard_disarm(const struct snapshot *snap, const char *state_dir);
/* Block the guarded signals; *old gets the previous mask. */
void settings_guard_block(sigset_t *old);

/* The resources the signal path undoes (before the knobs), until disarm. */
void settings_guard_resources(struct res_set *set);

/* The child whose process group the signal path kills (0: none), with
 * its start time in clock ticks since boot (system/reap.h; 0: read it
 * from /proc). */
void settings_set_child(pid_t pgid, unsigned long long start);

/*
 * A process of the run that is no repetition's (the fragmenter holding
 * memory broken up, measure/memstate.h; in a group of its own, spared by
 * reap_leftovers): kept in state_dir/helper ("PID STARTTIME") while it
 * lives, killed by the signal path, and ended like the workload after a
 * SIGKILL of the harness. start: its start time (0: read from /proc).
 * pid 0: it is gone (the record is deleted).
 */
void settings_set_helper(pid_t pid, unsigned long long start);

/*
 * The workload a killed run recorded in state_dir: end its process group,
 * telling say (settings_say.h) that it did, or why the record could not
 * be read.
 */
void settings_guard_end_recorded_child(const char *state_dir,
				       const struct settings_sink *say);

#endif
