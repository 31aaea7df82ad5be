/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * spawn - start a program that waits on a pipe before it execs.
 *
 * The runner must attach counters to the child before it execs, so the
 * child cannot be a posix_spawn; a fork would do, but fork write-protects
 * the harness's memory: every page the harness then writes costs a
 * copy-on-write fault and a TLB shootdown, and the child's exec tears down
 * a copy of the harness's page tables. That was most of the harness's
 * per-repetition cost. Like posix_spawn, spawn_blocked() uses
 * clone(CLONE_VM) instead: the child runs on its own small stack in our
 * memory and makes only system calls (setpgid, prctl, fcntl, dup2, sigaction,
 * read, execve) until it execs. Everything it needs - the resolved path,
 * argv, envp - is prepared by the caller, and must stay untouched until
 * the child is reaped. Sharing our memory also tells an exec that failed
 * without a pipe (as glibc's posix_spawn does): the child stores errno in
 * *exec_errno before it exits 127; an exec that succeeded leaves it 0,
 * the new program having memory of its own. Read it once the child is
 * reaped (wait4 orders its store before our read).
 *
 * Signals are blocked across the clone and the child resets every caught
 * signal to its default, so no harness handler ever runs in the child.
 */
#ifndef THPBENCH_SPAWN_H
#define THPBENCH_SPAWN_H

#include <stddef.h>
#include <sys/types.h>

/*
 * keep_at: the protocol fds go to fixed low numbers in the child, whatever
 * fds the harness itself inherited (a CI runner's, flock's): dash can
 * redirect only fds 0-9 (">&$THPBENCH_METRIC_FD").
 */
#define SPAWN_MAX_KEEP 4

struct spawn_req {
	const char *path;	/* contains a '/': spawn_find() first */
	char *const *argv;
	char *const *envp;
	int go_fd;		/* the child reads one byte here before exec */
	int *exec_errno;	/* spawn_blocked sets 0; execve's errno if it fails */
	int out_fd;		/* stdout and stderr; -1: inherit */
	int stderr_fd;		/* stderr instead (after out_fd); -1: as out_fd */
	const int *keep;	/* fds to keep open across the exec */
	size_t nkeep;		/* at most SPAWN_MAX_KEEP */
	int keep_at;		/* > 2: keep[i] becomes fd keep_at + i in the child */
	const int *close;	/* fds the child must not hold (the parent's ends) */
	size_t nclose;
	int pdeathsig;		/* PR_SET_PDEATHSIG before the exec; 0: none */
	pid_t parent;		/* with it: our pid (the child exits if it is gone) */
};

/*
 * The child's pid, in its own process group; -1 with errno set. *start
 * gets its start time as /proc/PID/stat's field 22 shows it
 * (system/reap.h), from the boot-time clock read on both sides of the
 * clone, or 0 when the clone crossed a clock tick and only /proc can say.
 * *pidfd gets a pidfd of the child from the clone itself (CLONE_PIDFD,
 * close-on-exec), or -1 where the kernel gave none (before 5.2; the
 * caller uses pidfd_open then).
 */
pid_t spawn_blocked(const struct spawn_req *req, unsigned long long *start,
		    int *pidfd);

/* name as execvp would find it (malloc'd); name itself when it has a '/'
 * or is not found (execve then reports ENOENT). */
char *spawn_find(const char *name);

/* environ with extra ("KEY=VALUE") added or replacing; NULL-terminated;
 * the strings are the callers'/environ's, free only the array. */
char **spawn_env(char *const *extra, size_t nextra);

#endif
