// SPDX-License-Identifier: GPL-2.0-only
#include "spawn.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <unistd.h>

#include "system/reap.h"
#include "util/util.h"

extern char **environ;

#define CHILD_STACK (64 * 1024)

/* Used by one child at a time: the runner waits for each exec. */
static _Alignas(16) char child_stack[CHILD_STACK];

static void default_signals(void)
{
	struct sigaction sa;
	sigset_t none;
	int sig;

	for (sig = 1; sig < NSIG; sig++) {
		if (sigaction(sig, NULL, &sa) || sa.sa_handler == SIG_IGN ||
		    sa.sa_handler == SIG_DFL)
			continue;
		sa.sa_handler = SIG_DFL;
		sa.sa_flags = 0;
		sigaction(sig, &sa, NULL);
	}
	/* The harness ignores SIGPIPE; a workload should not inherit that. */
	signal(SIGPIPE, SIG_DFL);
	sigemptyset(&none);
	sigprocmask(SIG_SETMASK, &none, NULL);
}

/*
 * fd[0..2]: go, out, stderr; fd[3..3+n): the fds to keep across the exec,
 * cleared of close-on-exec, and with at > 2 moved to at, at+1, ... Any of
 * ours already in that range is first copied above it, so no dup2 lands
 * on an fd still needed.
 */
__attribute__((no_sanitize_address))
static int place_kept(int *fd, size_t n, int at)
{
	size_t i;

	if (n > SPAWN_MAX_KEEP)
		return -1;
	if (at <= 2) {
		for (i = 0; i < n; i++)
			if (fcntl(fd[3 + i], F_SETFD, 0))
				return -1;
		return 0;
	}
	for (i = 0; i < 3 + n; i++)
		if (fd[i] >= at && fd[i] < at + (int)n) {
			fd[i] = fcntl(fd[i], F_DUPFD_CLOEXEC, at + (int)n);
			if (fd[i] < 0)
				return -1;
		}
	for (i = 0; i < n; i++) {
		if (dup2(fd[3 + i], at + (int)i) < 0)
			return -1;
		fd[3 + i] = at + (int)i;
	}
	return 0;
}

/*
 * Not instrumented by AddressSanitizer (make sanitize): it runs on
 * child_stack, which ASan does not know, and would warn about the stack
 * it finds at _exit.
 */
__attribute__((no_sanitize_address))
static int child_main(void *arg)
{
	const struct spawn_req *req = arg;
	int fd[3 + SPAWN_MAX_KEEP];
	size_t i;
	char c;
	int e;

	setpgid(0, 0);
	default_signals();
	/* Set before the exec and checked after: a parent that died in
	 * between would never send it. */
	if (req->pdeathsig &&
	    (prctl(PR_SET_PDEATHSIG, req->pdeathsig) || getppid() != req->parent))
		_exit(127);
	for (i = 0; i < req->nclose; i++)
		close(req->close[i]);
	/* Locals: req is the parent's memory (CLONE_VM). */
	fd[0] = req->go_fd;
	fd[1] = req->out_fd;
	fd[2] = req->stderr_fd;
	for (i = 0; i < req->nkeep && i < SPAWN_MAX_KEEP; i++)
		fd[3 + i] = req->keep[i];
	if (place_kept(fd, req->nkeep, req->keep_at))
		_exit(127);
	if (fd[1] >= 0) {
		dup2(fd[1], STDOUT_FILENO);
		dup2(fd[1], STDERR_FILENO);
	}
	if (fd[2] >= 0)
		dup2(fd[2], STDERR_FILENO);
	if (read(fd[0], &c, 1) != 1)
		_exit(127);
	execve(req->path, req->argv, req->envp);
	e = errno;
	/* Our memory is the parent's until an exec succeeds. */
	*(volatile int *)req->exec_errno = e ? e : ENOEXEC;
	_exit(127);
}

pid_t spawn_blocked(const struct spawn_req *req, unsigned long long *start,
		    int *pidfd)
{
	unsigned long long t0, t1;
	sigset_t all, old;
	pid_t pid;
	int e;

	sigfillset(&all);
	sigprocmask(SIG_BLOCK, &all, &old);
	*pidfd = -1;
	*req->exec_errno = 0;
	t0 = boot_ticks();
	/* A kernel before 5.2 ignores CLONE_PIDFD and leaves *pidfd. */
	pid = clone(child_main, child_stack + CHILD_STACK,
		    CLONE_VM | CLONE_PIDFD | SIGCHLD, (void *)req, pidfd);
	e = errno;
	t1 = boot_ticks();
	*start = t0 == t1 ? t0 : 0;
	if (pid < 0)
		*pidfd = -1;
	sigprocmask(SIG_SETMASK, &old, NULL);
	if (pid > 0)
		setpgid(pid, pid);
	errno = e;
	return pid;
}

char *spawn_find(const char *name)
{
	const char *path = getenv("PATH");
	char buf[PATH_MAX];
	const char *p, *end;

	if (strchr(name, '/') || !*name)
		return xstrdup(name);
	for (p = path ? path : "/usr/local/bin:/usr/bin:/bin";; p = end + 1) {
		end = strchrnul(p, ':');
		/* An empty PATH element means the current directory. */
		if (end == p)
			snprintf(buf, sizeof(buf), "./%s", name);
		else
			snprintf(buf, sizeof(buf), "%.*s/%s", (int)(end - p), p, name);
		if (!access(buf, X_OK))
			return xstrdup(buf);
		if (!*end)
			break;
	}
	return xstrdup(name);
}

static size_t name_len(const char *kv)
{
	const char *eq = strchr(kv, '=');

	return eq ? (size_t)(eq - kv) : strlen(kv);
}

static bool overridden(const char *kv, char *const *extra, size_t nextra)
{
	size_t i, n = name_len(kv);

	for (i = 0; i < nextra; i++)
		if (name_len(extra[i]) == n && !strncmp(kv, extra[i], n))
			return true;
	return false;
}

char **spawn_env(char *const *extra, size_t nextra)
{
	size_t i, n = 0, nenv = 0;
	char **v;

	while (environ && environ[nenv])
		nenv++;
	v = xcalloc(nenv + nextra + 1, sizeof(*v));
	for (i = 0; i < nextra; i++)
		v[n++] = extra[i];
	for (i = 0; i < nenv; i++)
		if (!overridden(environ[i], extra, nextra))
			v[n++] = environ[i];
	v[n] = NULL;
	return v;
}
