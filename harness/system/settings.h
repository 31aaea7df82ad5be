/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * settings - change the global huge-page knobs for a run, and put them
 * back.
 *
 * The pieces, each in its own file: one knob's value (knob.h), which
 * knobs there are (knob_tree.h, hugetlb_pool.h), a snapshot of them and
 * its restore (snapshot.h), the journal and the record of knobs that
 * would not go back on disk (journal.h, unrestored.h, one shape:
 * state_file.h), the lock (settings_lock.h over lock.h), a crashed run's
 * knobs put back and `thpbench restore` (recover.h) and the signal and
 * exit path (settings_guard.h). This file is the life cycle that ties
 * them together; this header includes the lock's and recovery's, so a
 * caller needs only it.
 *
 * Life cycle, as `thpbench run` uses it:
 *   settings_begin()   take the lock (settings_lock.h: /run/thpbench/lock-DEV-INO, named
 *                      after the sysfs root, whatever the state dir:
 *                      settings_lock_path; flock: a second harness gets
 *                      an error naming the holder's pid and command, or
 *                      with wait_s waits for it, saying who holds it, up
 *                      to wait_s seconds (< 0: for ever) or until
 *                      *cancel is set); the lock file exists only
 *                      while held: settings_end (and settings_free)
 *                      unlink it, and taking a lock removes the files
 *                      of runs killed while holding theirs (lock.h), so
 *                      /run/thpbench does not collect one file per fake
 *                      tree the tests ever used;
 *                      a journal left by a crashed run is restored first
 *                      (what will not go back is recorded, warned about,
 *                      and no longer stops the run: unrestored.h);
 *                      snapshot (the mm knobs and the sysctl knobs of
 *                      sysctl_knob.h); write the journal (state_dir/journal.json,
 *                      temp + rename); arm settings_guard.h (signals,
 *                      atexit).
 *   settings_apply()   write a knob, read it back, fail when it did not
 *                      take (nr_hugepages: the kernel could give fewer).
 *   settings_end()     restore the knobs that differ from the snapshot,
 *                      verify, delete the journal, unlock (and unlink
 *                      the lock file).
 * An atexit hook runs settings_end, so tb_die() between begin and end
 * restores too.
 *
 * State dir: $THPBENCH_STATE_DIR, default /run/thpbench (tmpfs: a reboot
 * clears the journal, and a reboot also resets the knobs).
 */
#ifndef THPBENCH_SETTINGS_H
#define THPBENCH_SETTINGS_H

#include <stdbool.h>
#include <signal.h>
#include <stddef.h>
#include <sys/types.h>

#include "knob.h"
#include "recover.h"
#include "settings_guard.h"
#include "settings_lock.h"
#include "knob_watch.h"
#include "resource.h"
#include "settings_say.h"
#include "snapshot.h"

struct settings_ctx {
	char *root;		/* mm sysfs root */
	char *state_dir;
	char *proc_root;	/* /proc, or $THPBENCH_PROC_ROOT (tests) */
	char *sysctl_root;	/* sysctl_knob.h; NULL: no sysctl knobs */
	int lock_fd;		/* -1 when not held */
	char *lock_path;	/* its path while held, else NULL */
	double wait_s;		/* for the lock: 0 not at all, < 0 for ever */
	const volatile sig_atomic_t *cancel;	/* set: stop waiting */
	bool active;		/* between begin and end */
	/* Where its messages go (settings_say.h); settings_init leaves none:
	 * stderr. A cli that prints sets it after settings_init. */
	struct settings_sink say;
	struct snapshot orig;
	/* Writes to the knobs since settings_drift last read them all, and
	 * when it did (knob_watch.h). */
	struct knob_watch watch;
	double drift_full_usec;
	/* Swap, mounts, loop devices, cgroups made for cases (resource.h),
	 * undone before the knobs go back. */
	struct res_set res;
	/* How many of a killed run's resources recovery undid (restore). */
	int res_undone;
};

/* Fill root/state_dir from the arguments, else the environment, else defaults. */
void settings_init(struct settings_ctx *ctx, const char *root,
		   const char *state_dir);

/* Free what settings_init allocated (call after settings_end). */
void settings_free(struct settings_ctx *ctx);

/*
 * True when the knobs can be changed here: transparent_hugepage/enabled
 * has a write bit and access(W_OK) allows it (false for non-root on sysfs,
 * for a read-only /sys mount, and for a fake tree's 0444 file).
 */
bool settings_writable(const struct settings_ctx *ctx);

/*
 * Where knob name lives: the sysctl root for a sysctl knob
 * (sysctl_knob.h), else the mm root. 0, or -1 when name is a sysctl knob
 * and no sysctl root is in use.
 */
int settings_knob_path(const struct settings_ctx *ctx, const char *name,
		       char *buf, size_t len);
/* Its current value (knob.h). 0 or -1. */
int settings_read(const struct settings_ctx *ctx, const char *name,
		  char *buf, size_t len);

int settings_begin(struct settings_ctx *ctx, char *err, size_t errlen);
int settings_apply(struct settings_ctx *ctx, const char *name,
		   const char *value, char *err, size_t errlen);
/*
 * Restore, delete the journal, unlock. 0, or -1 when a knob would not go
 * back: each such knob is told to ctx->say (settings_say.h: stderr when
 * there is none, as from the atexit hook), naming it, with its old and
 * current value and why (a pool the kernel cannot fill again; pages in
 * use, and by whom), and recorded in state_dir/unrestored.json
 * (unrestored.h) in place of the journal, so the next run goes on with a
 * warning. Pool sizes compare as persistent pools (hugetlb_pool.h).
 */
int settings_end(struct settings_ctx *ctx);

/*
 * Make a resource for a case (resource.h), journalled before it is made
 * and undone by settings_end, the signal path, the next run and
 * `thpbench restore`. Only between begin and end. 0 and *made, or -1.
 */
int settings_make_resource(struct settings_ctx *ctx, const struct res *proto,
			   const struct res **made, char *err, size_t errlen);

/*
 * After a repetition: every snapshot knob that does not read what it
 * should - want(name, arg) (NULL: any value will do), or its snapshot
 * value when want is NULL - was changed by the workload. Each such knob is written
 * back and described in what ("transparent_hugepage/enabled always ->
 * never, ..."). Returns how many there were (0 when not active). The
 * knobs are read only when one of their files was written since the last
 * look (knob_watch.h; the harness's own writes count too), and at least
 * every KNOB_WATCH_FULL_USEC whatever the watch says.
 */
typedef const char *(*settings_want_fn)(const char *name, void *arg);
int settings_drift(struct settings_ctx *ctx, settings_want_fn want,
		   void *arg, char *what, size_t len);

#endif
