/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * settings - snapshot, apply and restore the global huge-page knobs.
 *
 * A knob is a path relative to the mm sysfs root (default /sys/kernel/mm,
 * or $THPBENCH_SYSFS_ROOT; tests use a fake directory tree):
 *   transparent_hugepage/enabled, transparent_hugepage/defrag,
 *   transparent_hugepage/hugepages-64kB/enabled,
 *   transparent_hugepage/khugepaged/max_ptes_none,
 *   hugepages/hugepages-2048kB/nr_hugepages, ...
 * A knob's value is what one writes back: for choice files such as
 * "always [madvise] never" it is the bracketed word ("madvise").
 *
 * The snapshot covers every regular, writable file under
 * transparent_hugepage/ (recursively: mTHP sizes, khugepaged) and every
 * hugepages/hugepages-*kB/nr_hugepages and nr_overcommit_hugepages.
 *
 * Life cycle, as `thpbench run` uses it:
 *   settings_begin()   take the lock (/run/thpbench/lock-DEV-INO, named
 *                      after the sysfs root, whatever the state dir:
 *                      settings_lock_path; flock: a second harness gets
 *                      an error naming the holder's pid);
 *                      a journal left by a crashed run is restored first;
 *                      snapshot; write the journal (state_dir/journal.json,
 *                      temp + rename); install SIGINT/SIGTERM/SIGHUP
 *                      handlers and an atexit hook that restore.
 *   settings_apply()   write a knob, read it back, fail when it did not
 *                      take (nr_hugepages: the kernel could give fewer).
 *   settings_end()     restore the knobs that differ from the snapshot,
 *                      verify, delete the journal, unlock.
 * The signal path restores with open/read/write only (no allocation),
 * kills the registered child process group, then re-raises the signal.
 * A handler the caller installed before settings_begin gets the first
 * signal instead (a graceful stop that ends with settings_end); the next
 * one takes the restoring path. A signal ignored at settings_begin stays
 * ignored (nohup). A forked child that has not exec'ed never restores.
 * An atexit hook runs settings_end, so tb_die() between begin and end
 * restores too.
 *
 * State dir: $THPBENCH_STATE_DIR, default /run/thpbench (tmpfs: a reboot
 * clears the journal, and a reboot also resets the knobs).
 */
#ifndef THPBENCH_SETTINGS_H
#define THPBENCH_SETTINGS_H

#include <stdbool.h>
#include <stddef.h>
#include <sys/types.h>

struct knob {
	char *name;		/* relative path, "transparent_hugepage/enabled" */
	char *value;		/* value to write back */
	char *abspath;		/* root + "/" + name, prebuilt for the signal path */
};

struct snapshot {
	struct knob *v;
	size_t n, cap;
};

struct settings_ctx {
	char *root;		/* mm sysfs root */
	char *state_dir;
	int lock_fd;		/* -1 when not held */
	bool active;		/* between begin and end */
	struct snapshot orig;
};

/* Fill root/state_dir from the arguments, else the environment, else defaults. */
void settings_init(struct settings_ctx *ctx, const char *root,
		   const char *state_dir);

/* Snapshot the knobs under root (see above). 0, or -1 with err set. */
int snapshot_take(const char *root, struct snapshot *snap, char *err,
		  size_t errlen);
const char *snapshot_get(const struct snapshot *snap, const char *name);
/* Append a knob, prebuilding its abspath as root + "/" + name. */
void snapshot_add(struct snapshot *snap, const char *root, const char *name,
		  const char *value);
void snapshot_free(struct snapshot *snap);

/* Current value of one knob (bracketed choice resolved). 0 or -1. */
int knob_read(const char *root, const char *name, char *buf, size_t len);

/* Free what settings_init allocated (call after settings_end). */
void settings_free(struct settings_ctx *ctx);

/*
 * True when the knobs can be changed here: transparent_hugepage/enabled
 * has a write bit and access(W_OK) allows it (false for non-root on sysfs,
 * for a read-only /sys mount, and for a fake tree's 0444 file).
 */
bool settings_writable(const struct settings_ctx *ctx);

int settings_begin(struct settings_ctx *ctx, char *err, size_t errlen);
int settings_apply(struct settings_ctx *ctx, const char *name,
		   const char *value, char *err, size_t errlen);
/* Restore, delete the journal, unlock. 0, or -1 when a knob would not go
 * back (each such knob is reported on stderr, naming it, with its old and
 * current value; the journal is then kept for `thpbench restore`). */
int settings_end(struct settings_ctx *ctx);

/*
 * After a repetition: every snapshot knob that does not read what it
 * should - want(name, arg) (NULL: any value will do), or its snapshot
 * value when want is NULL - was changed by the workload. Each such knob is written
 * back and described in what ("transparent_hugepage/enabled always ->
 * never, ..."). Returns how many there were (0 when not active).
 */
typedef const char *(*settings_want_fn)(const char *name, void *arg);
int settings_drift(struct settings_ctx *ctx, settings_want_fn want,
		   void *arg, char *what, size_t len);

/* Path of the lock guarding the knobs under root (see settings_begin).
 * 0, or -1 with err set. */
int settings_lock_path(const char *root, char *buf, size_t len, char *err,
		       size_t errlen);

/* The child whose process group the signal path kills (0: none). */
void settings_set_child(pid_t pgid);

/*
 * `thpbench restore`: if state_dir holds a journal, write its values back,
 * verify, delete it. Returns 0 and *restored = number of knobs changed
 * back (0 and no journal: nothing to do), or -1 with err set.
 */
int settings_restore_journal(struct settings_ctx *ctx, int *restored,
			     char *err, size_t errlen);

/*
 * Tests only: route the knob writes of settings_apply, settings_end and
 * settings_restore_journal (never the signal path) through fn, so a fake
 * sysfs tree can act like a kernel that rejects a value (fn fails with
 * EINVAL) or grants fewer huge pages than asked. NULL: plain write(2).
 * fn returns 0, or -1 with errno set.
 */
typedef int (*knob_write_fn)(const char *abspath, const char *value);
void settings_set_write_hook(knob_write_fn fn);

/* The THP modes the running kernel offers ("always madvise never"). */
int thp_modes_available(const char *root, char modes[][16], size_t max);

#endif
