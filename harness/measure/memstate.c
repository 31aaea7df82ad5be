// SPDX-License-Identifier: GPL-2.0-only
#include "memstate.h"

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "plan.h"
#include "system/reap.h"
#include "util/util.h"

#define READY_TIMEOUT_S 600
#define STOP_GRACE_MS 10000

extern char **environ;

static int compact(const struct memstate_opts *o, char *err, size_t errlen)
{
	const char *path = o->compact_path ? o->compact_path :
			   "/proc/sys/vm/compact_memory";

	if (!write_file_str(path, "1"))
		return 0;
	snprintf(err, errlen, "cannot compact memory: writing 1 to %s: %s", path,
		 strerror(errno));
	return -1;
}

static pid_t start_fragmenter(const char *path, double share, int out_fd,
			      int close_fd, char *err, size_t errlen)
{
	posix_spawn_file_actions_t fa;
	posix_spawnattr_t attr;
	char arg[32], *argv[] = { "fragment", "--share", arg, "--hold", NULL };
	pid_t pid;
	int rc;

	snprintf(arg, sizeof(arg), "%.4f", share);
	posix_spawn_file_actions_init(&fa);
	posix_spawn_file_actions_adddup2(&fa, out_fd, STDOUT_FILENO);
	posix_spawn_file_actions_addclose(&fa, close_fd);
	posix_spawnattr_init(&attr);
	posix_spawnattr_setpgroup(&attr, 0);
	posix_spawnattr_setflags(&attr, POSIX_SPAWN_SETPGROUP);
	rc = posix_spawn(&pid, path, &fa, &attr, argv, environ);
	posix_spawn_file_actions_destroy(&fa);
	posix_spawnattr_destroy(&attr);
	if (rc) {
		snprintf(err, errlen, "cannot start the fragmenter %s: %s", path,
			 strerror(rc));
		return -1;
	}
	return pid;
}

/* "name value" lines into metrics, until "ready"; 0 when it came. */
static int take_line(char *line, struct metric_set *out)
{
	char name[64], key[96];
	double v;
	int used = 0;

	line[strcspn(line, "\n")] = '\0';
	if (!strcmp(line, "ready"))
		return 1;
	if (sscanf(line, "%63s %lf%n", name, &v, &used) == 2 && !line[used]) {
		snprintf(key, sizeof(key), "memstate.%s", name);
		metric_set_put(out, key, v);
	}
	return 0;
}

static int wait_ready(int fd, const struct memstate_opts *o,
		      struct metric_set *out, char *err, size_t errlen)
{
	double timeout_s = o->timeout_s > 0 ? o->timeout_s : READY_TIMEOUT_S;
	double deadline = now_usec() + timeout_s * 1e6;
	char buf[4096], *nl;
	size_t len = 0;
	ssize_t n;
	struct pollfd p = { .fd = fd, .events = POLLIN };

	for (;;) {
		if (poll(&p, 1, 200) < 0 && errno != EINTR)
			break;
		if (o->stop && *o->stop) {
			snprintf(err, errlen, "interrupted while memory was being broken up");
			return -1;
		}
		if (now_usec() > deadline) {
			snprintf(err, errlen, "the fragmenter was not ready within %.0f s",
				 timeout_s);
			return -1;
		}
		if (!p.revents)
			continue;
		n = read(fd, buf + len, sizeof(buf) - 1 - len);
		if (n <= 0 && errno != EINTR)
			break;
		len += n > 0 ? (size_t)n : 0;
		buf[len] = '\0';
		while ((nl = strchr(buf, '\n'))) {
			*nl = '\0';
			if (take_line(buf, out))
				return 0;
			len -= (size_t)(nl + 1 - buf);
			memmove(buf, nl + 1, len + 1);
		}
		if (len == sizeof(buf) - 1)
			len = 0;	/* a line longer than any it prints */
	}
	snprintf(err, errlen, "the fragmenter exited before it was ready");
	return -1;
}

static int fragment(double share, const struct memstate_opts *o,
		    struct memstate *ms, struct metric_set *out, char *err,
		    size_t errlen)
{
	char *path = o->fragmenter ? xstrdup(o->fragmenter) : workload_path("fragment");
	int p[2], rc;

	if (pipe2(p, O_CLOEXEC)) {
		snprintf(err, errlen, "cannot create a pipe: %s", strerror(errno));
		free(path);
		return -1;
	}
	ms->pid = start_fragmenter(path, share, p[1], p[0], err, errlen);
	if (ms->pid > 0)
		reap_spare(ms->pid);
	free(path);
	close(p[1]);
	rc = ms->pid < 0 ? -1 : wait_ready(p[0], o, out, err, errlen);
	close(p[0]);
	if (ms->pid < 0)
		ms->pid = 0;
	if (rc)
		memstate_release(ms);
	return rc;
}

int memstate_prepare(enum mem_state st, double share,
		     const struct memstate_opts *o, struct memstate *ms,
		     struct metric_set *out, char *err, size_t errlen)
{
	double t0 = now_usec();
	int rc;

	ms->pid = 0;
	if (st == MEM_FRESH)
		return 0;
	rc = st == MEM_COMPACTED ? compact(o, err, errlen) :
	     fragment(share, o, ms, out, err, errlen);
	if (!rc)
		metric_set_put(out, "memstate.prepare_usec", now_usec() - t0);
	return rc;
}

void memstate_release(struct memstate *ms)
{
	int waited = 0;

	if (ms->pid <= 0)
		return;
	/* Reaped already (it died during the repetition): its pid is free. */
	if (reap_spared() == ms->pid) {
		kill(ms->pid, SIGTERM);
		while (waitpid(ms->pid, NULL, WNOHANG) == 0) {
			if (waited >= STOP_GRACE_MS) {
				kill(ms->pid, SIGKILL);
				waitpid(ms->pid, NULL, 0);
				break;
			}
			usleep(10000);
			waited += 10;
		}
	}
	reap_spare(0);
	ms->pid = 0;
}
