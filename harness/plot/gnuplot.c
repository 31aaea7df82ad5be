// SPDX-License-Identifier: GPL-2.0-only
#include "gnuplot.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "util/util.h"

int gnuplot_find(char *buf, size_t len)
{
	const char *env = getenv("THPBENCH_GNUPLOT");
	const char *path = getenv("PATH"), *p, *end;

	if (env) {
		if (!*env || access(env, X_OK))
			return -1;
		snprintf(buf, len, "%s", env);
		return 0;
	}
	for (p = path ? path : "/usr/bin:/bin"; *p; p = *end ? end + 1 : end) {
		end = strchrnul(p, ':');
		/* An empty PATH element means the current directory. */
		snprintf(buf, len, "%.*s%sgnuplot", (int)(end - p),
			 p, end > p ? "/" : "");
		if (!access(buf, X_OK))
			return 0;
	}
	return -1;
}

/* The child: into the script's directory, output into the pipe, exec. */
static void run_child(const char *gnuplot, const char *script, int wfd)
{
	char *dir = xstrdup(script), *slash = strrchr(dir, '/');
	const char *base = slash ? slash + 1 : script;
	int null = open("/dev/null", O_RDONLY);

	if (slash) {
		*slash = '\0';
		if (chdir(*dir ? dir : "/")) {
			dprintf(wfd, "cannot enter %s: %s\n", dir, strerror(errno));
			_exit(127);
		}
	}
	if (null >= 0)
		dup2(null, STDIN_FILENO);
	dup2(wfd, STDOUT_FILENO);
	dup2(wfd, STDERR_FILENO);
	execl(gnuplot, "gnuplot", base, (char *)NULL);
	dprintf(wfd, "cannot run %s: %s\n", gnuplot, strerror(errno));
	_exit(127);
}

static char *slurp(int fd)
{
	size_t cap = 256, n = 0;
	char *s = xmalloc(cap);
	ssize_t k;

	for (;;) {
		if (n + 1 >= cap)
			s = xrealloc(s, cap *= 2);
		k = read(fd, s + n, cap - n - 1);
		if (k < 0 && errno == EINTR)
			continue;
		if (k <= 0)
			break;
		n += (size_t)k;
	}
	s[n] = '\0';
	return s;
}

int gnuplot_start(const char *gnuplot, const char *script,
		  struct gnuplot_job *job)
{
	int fd[2];

	job->pid = -1;
	job->fd = -1;
	if (pipe2(fd, O_CLOEXEC))
		return -1;
	job->pid = fork();
	if (job->pid < 0) {
		close(fd[0]);
		close(fd[1]);
		return -1;
	}
	if (!job->pid) {
		close(fd[0]);
		run_child(gnuplot, script, fd[1]);
	}
	close(fd[1]);
	job->fd = fd[0];
	return 0;
}

int gnuplot_finish(struct gnuplot_job *job, char **out)
{
	int st;

	*out = NULL;
	if (job->pid < 0)
		return -1;
	*out = slurp(job->fd);
	close(job->fd);
	job->fd = -1;
	while (waitpid(job->pid, &st, 0) < 0)
		if (errno != EINTR)
			return -1;
	job->pid = -1;
	if (!WIFEXITED(st))
		return -1;
	return WEXITSTATUS(st);
}

int gnuplot_run(const char *gnuplot, const char *script, char **out)
{
	struct gnuplot_job job;

	*out = NULL;
	if (gnuplot_start(gnuplot, script, &job))
		return -1;
	return gnuplot_finish(&job, out);
}
