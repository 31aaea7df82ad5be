// SPDX-License-Identifier: GPL-2.0-only
#include "memstate.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <poll.h>
#include <stdbool.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "plan.h"
#include "spawn.h"
#include "system/reap.h"
#include "util/util.h"

#define READY_TIMEOUT_S 600
#define STOP_GRACE_MS 2000	/* it dies at once on SIGTERM; else it is stuck */

extern char **environ;

/* Where a failed exec of the fragmenter leaves its errno (spawn.h). */
static int g_exec_errno;

/* The fewest digits that read back as share (0.9, not 0.90000000000000002). */
static void share_arg(double share, char *buf, size_t len)
{
	int digits;

	for (digits = 6; digits < 17; digits++) {
		snprintf(buf, len, "%.*g", digits, share);
		if (strtod(buf, NULL) == share)
			return;
	}
	snprintf(buf, len, "%.17g", share);
}

static int compact(const struct memstate_opts *o, char *err, size_t errlen)
{
	const char *path = o->compact_path ? o->compact_path :
			   "/proc/sys/vm/compact_memory";

	if (!*path) {
		snprintf(err, errlen, "cannot compact memory: no sysctl root in use (a fake mm root without THPBENCH_PROC_SYS_ROOT; the real /proc/sys is never written for it)");
		return -1;
	}
	if (!write_file_str(path, "1"))
		return 0;
	snprintf(err, errlen, "cannot compact memory: writing 1 to %s: %s", path,
		 strerror(errno));
	return -1;
}

/*
 * In a process group of its own, with PR_SET_PDEATHSIG SIGTERM set before
 * the exec (spawn.h): a harness killed at any moment after the clone takes
 * it along. Its stdout and stderr go to out_fd. What the child reads
 * before its exec is static: it must stay until the child has exec'ed or
 * is reaped, past this function. The share is passed with all its
 * digits: "%.4f" made 0.00001 "0.0000", which it refuses.
 */
static pid_t start_fragmenter(const char *path, double share, bool pin, int out_fd,
			      int close_fd, unsigned long long *start,
			      char *err, size_t errlen)
{
	static char exe[PATH_MAX], arg[40], name[] = "fragment";
	static char opt[] = "--share", hold[] = "--hold", all[] = "--all";
	static char pin_opt[] = "--pin";
	static char *argv[] = { name, opt, arg, hold, NULL };
	static char *argv_pin[] = { name, all, pin_opt, hold, NULL };
	static struct spawn_req req;
	static int closes[2];
	int go[2], pidfd, e;
	pid_t pid;

	snprintf(exe, sizeof(exe), "%s", path);
	share_arg(share, arg, sizeof(arg));
	if (pipe2(go, O_CLOEXEC)) {
		snprintf(err, errlen, "cannot create a pipe: %s", strerror(errno));
		return -1;
	}
	closes[0] = close_fd;
	closes[1] = go[1];
	req = (struct spawn_req){
		.path = exe, .argv = pin ? argv_pin : argv, .envp = environ, .go_fd = go[0],
		.exec_errno = &g_exec_errno, .out_fd = out_fd, .stderr_fd = -1,
		.close = closes, .nclose = ARRAY_SIZE(closes),
		.pdeathsig = SIGTERM, .parent = getpid(),
	};
	pid = spawn_blocked(&req, start, &pidfd);
	e = errno;
	close(go[0]);
	if (pidfd >= 0)
		close(pidfd);
	/* A child that died already reads EOF and exits: reaped later. */
	if (pid > 0 && write(go[1], "g", 1) != 1)
		e = errno;
	close(go[1]);
	if (pid < 0)
		snprintf(err, errlen, "cannot start the fragmenter %s: %s", path,
			 strerror(e));
	return pid;
}

/* What it said that is no metric (why it stopped), kept printable. */
static void keep_note(const char *line, char *note, size_t len)
{
	size_t i;

	for (i = 0; line[i] && i + 1 < len; i++)
		note[i] = line[i] >= ' ' && line[i] < 127 ? line[i] : '?';
	if (len)
		note[i] = '\0';
}

/* "name value" lines into metrics, until "ready"; 1 when it came. */
static int take_line(char *line, struct metric_set *out, char *note,
		     size_t notelen)
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
	} else if (*line) {
		keep_note(line, note, notelen);
	}
	return 0;
}

static int wait_ready(int fd, const struct memstate_opts *o,
		      struct metric_set *out, char *err, size_t errlen)
{
	double timeout_s = o->timeout_s > 0 ? o->timeout_s : READY_TIMEOUT_S;
	double deadline = now_usec() + timeout_s * 1e6;
	char buf[4096], note[200] = "", *nl;
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
			if (take_line(buf, out, note, sizeof(note)))
				return 0;
			len -= (size_t)(nl + 1 - buf);
			memmove(buf, nl + 1, len + 1);
		}
		if (len == sizeof(buf) - 1)
			len = 0;	/* a line longer than any it prints */
	}
	snprintf(err, errlen, "the fragmenter exited before it was ready%s%s",
		 *note ? ": " : "", note);
	return -1;
}

static int fragment(double share, bool pin, const struct memstate_opts *o,
		    struct memstate *ms, struct metric_set *out, char *err,
		    size_t errlen)
{
	char *path = o->fragmenter ? xstrdup(o->fragmenter) : workload_path("fragment");
	unsigned long long start = 0;
	int p[2], rc;

	if (pipe2(p, O_CLOEXEC)) {
		snprintf(err, errlen, "cannot create a pipe: %s", strerror(errno));
		free(path);
		return -1;
	}
	ms->pid = start_fragmenter(path, share, pin, p[1], p[0], &start, err, errlen);
	ms->record = o->record;
	if (ms->pid > 0) {
		reap_spare(ms->pid);
		/* Before its preparation: a harness killed during it leaves
		 * the record for restore and the next run. */
		if (ms->record)
			ms->record(ms->pid, start);
	}
	close(p[1]);
	rc = ms->pid < 0 ? -1 : wait_ready(p[0], o, out, err, errlen);
	close(p[0]);
	if (ms->pid < 0)
		ms->pid = 0;
	if (rc)
		memstate_release(ms);
	/* Reaped by now: its exec's errno, if that is what failed. */
	if (rc && g_exec_errno)
		snprintf(err, errlen, "cannot start the fragmenter %s: %s", path,
			 strerror(g_exec_errno));
	free(path);
	return rc;
}

int memstate_prepare(enum mem_state st, double share,
		     const struct memstate_opts *o, struct memstate *ms,
		     struct metric_set *out, char *err, size_t errlen)
{
	double t0 = now_usec();
	int rc;

	ms->pid = 0;
	ms->record = NULL;
	if (st == MEM_FRESH)
		return 0;
	rc = st == MEM_COMPACTED ? compact(o, err, errlen) :
	     fragment(share, st == MEM_PINNED, o, ms, out, err, errlen);
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
	if (ms->record)
		ms->record(0, 0);
	ms->pid = 0;
}
