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
 * The lock file is never unlinked: unlinking a flock file lets two
 * processes lock two different inodes under one name.
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
 * written there (0 when unknown).
 */
int lock_take(const char *path, pid_t *holder);

/* Empty the pid and drop the lock; fd < 0 is a no-op. */
void lock_release(int fd);

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
