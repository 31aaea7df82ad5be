// SPDX-License-Identifier: GPL-2.0-only
#include "lock.h"
#include "trust.h"
#include "util/util.h"

#include <errno.h>
#include <limits.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/file.h>
#include <unistd.h>

static pid_t pid_from_fd(int fd)
{
	char buf[32];
	ssize_t n = pread(fd, buf, sizeof(buf) - 1, 0);
	long pid;

	if (n <= 0)
		return 0;
	buf[n] = '\0';
	if (parse_long(str_trim(buf), &pid) || pid <= 0)
		return 0;
	return (pid_t)pid;
}

pid_t lock_holder(const char *path)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	pid_t pid;

	if (fd < 0)
		return 0;
	pid = pid_from_fd(fd);
	close(fd);
	return pid;
}

int lock_take(const char *path, pid_t *holder)
{
	char buf[32], why[512];
	int fd, len, saved;

	*holder = 0;
	fd = trust_open(path, O_RDWR | O_CREAT, 0644, why, sizeof(why));
	if (fd < 0)
		return -1;
	if (flock(fd, LOCK_EX | LOCK_NB)) {
		saved = errno;
		if (saved == EWOULDBLOCK)
			*holder = pid_from_fd(fd);
		close(fd);
		errno = saved;
		return -1;
	}
	len = snprintf(buf, sizeof(buf), "%ld\n", (long)getpid());
	if (ftruncate(fd, 0) || pwrite(fd, buf, len, 0) != len) {
		saved = errno;
		close(fd);
		errno = saved;
		return -1;
	}
	return fd;
}

void lock_release(int fd)
{
	if (fd < 0)
		return;
	/*
	 * A stale pid in an unlocked file would name an innocent process;
	 * failing to clear it is harmless, the flock is what excludes.
	 */
	if (ftruncate(fd, 0)) {
	}
	flock(fd, LOCK_UN);
	close(fd);
}

void lock_holder_describe(const char *proc_root, pid_t pid, char *buf,
			  size_t len)
{
	char path[PATH_MAX], cmd[256], safe[256];
	ssize_t n, i;
	int fd;

	if (pid <= 0) {
		snprintf(buf, len, "an unknown process");
		return;
	}
	snprintf(path, sizeof(path), "%s/%ld/cmdline", proc_root, (long)pid);
	fd = open(path, O_RDONLY | O_CLOEXEC);
	n = fd < 0 ? -1 : read(fd, cmd, sizeof(cmd) - 1);
	if (fd >= 0)
		close(fd);
	while (n > 0 && cmd[n - 1] == '\0')
		n--;
	if (n <= 0) {
		snprintf(buf, len, "pid %ld", (long)pid);
		return;
	}
	/* argv is NUL-separated; what it holds never reaches a terminal raw */
	for (i = 0; i < n; i++)
		if (!cmd[i])
			cmd[i] = ' ';
	cmd[n] = '\0';
	snprintf(buf, len, "pid %ld: %s", (long)pid,
		 str_printable(cmd, safe, sizeof(safe)));
}
