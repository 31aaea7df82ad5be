/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * lock - one harness at a time may change the global huge-page knobs.
 *
 * flock(LOCK_EX | LOCK_NB) on a lock file that also holds the holder's pid,
 * so a second harness can say who is in the way. flock, not a pid file
 * alone: the kernel drops the lock when the holder dies, however it dies,
 * so a crashed run never leaves a stale lock behind (its journal, not its
 * lock, is what the next run must deal with).
 *
 * The file lives only while it is held: lock_release unlinks it while
 * still holding it, and lock_take, once flock succeeded, checks that the
 * path still names the inode it locked (fstat against lstat) and starts
 * over when it does not (it locked a file its holder had just unlinked).
 * So exclusion holds although the name is removed, and a directory of
 * lock files, one per sysfs root ever used (each fake tree a test made
 * is one), no longer grows without bound. What a holder killed before
 * its release leaves (SIGKILL, a fatal signal) lock_sweep removes: a file
 * nobody holds may be unlinked by whoever locks it, by the same rule.
 * A thpbench from before this rule (it neither unlinks nor checks) must
 * not share the directory with a sweeping one: it could lock a swept file.
 */
#ifndef THPBENCH_LOCK_H
#define THPBENCH_LOCK_H

#include <stddef.h>
#include <sys/types.h>

/*
 * Take the lock at path (created 0644 when missing; never through a
 * symlink, and only a regular file of ours: trust.h; else EPERM/ELOOP) and write our pid into
 * it. Returns the open descriptor (O_CLOEXEC), or -1 with errno set:
 * EWOULDBLOCK when another process holds it, *holder then being the pid
 * written there (0 when unknown: a holder that has not written its pid
 * yet, still so after a short wait); ESTALE when the path was unlinked
 * under us a thousand times in a row.
 */
int lock_take(const char *path, pid_t *holder);

/* Empty the pid, unlink path (the file fd holds) and drop the lock;
 * fd < 0 is a no-op. */
void lock_release(int fd, const char *path);

/*
 * Remove the files in dir whose names start with prefix that nobody holds
 * (left by holders that were killed), each locked, checked and unlinked
 * as lock_release does; files held, or not regular files of ours, stay.
 * Returns how many were removed.
 */
size_t lock_sweep(const char *dir, const char *prefix);

/* Pid recorded in the lock file at path, 0 when none or unreadable. */
pid_t lock_holder(const char *path);

/*
 * "pid 1234: thpbench run configs/nightly.conf" from proc_root/PID/cmdline
 * (non-printable bytes shown as '?', cut at len), or "pid 1234" when it
 * cannot be read, or "an unknown process" for pid 0.
 */
void lock_holder_describe(const char *proc_root, pid_t pid, char *buf,
			  size_t len);

#endif
