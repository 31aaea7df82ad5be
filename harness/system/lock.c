// SPDX-License-Identifier: GPL-2.0-only
#include "lock.h"
#include "trust.h"
#include "util/util.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <time.h>
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

/* Whether path still names the file fd has open (not unlinked or replaced). */
static bool names_fd(const char *path, int fd)
{
	struct stat a, b;

	return !fstat(fd, &a) && !lstat(path, &b) && a.st_dev == b.st_dev &&
	       a.st_ino == b.st_ino;
}

/*
 * A holder that has not written its pid yet, or a releaser or sweeper
 * between emptying the file and unlinking it: a moment, not a holder to
 * name. Tries so long, then says "unknown".
 */
#define LOCK_UNKNOWN_TRIES 50
#define LOCK_UNKNOWN_PAUSE_NS (2 * 1000 * 1000)
/* A path unlinked under us again and again: give up, say ESTALE. */
#define LOCK_STALE_TRIES 1000

int lock_take(const char *path, pid_t *holder)
{
	const struct timespec pause = { 0, LOCK_UNKNOWN_PAUSE_NS };
	int fd, len, saved, unknown = 0, stale = 0;
	char buf[32], why[512];

	*holder = 0;
	for (;;) {
		fd = trust_open(path, O_RDWR | O_CREAT, 0644, why, sizeof(why));
		if (fd < 0)
			return -1;
		if (flock(fd, LOCK_EX | LOCK_NB)) {
			saved = errno;
			if (saved == EWOULDBLOCK)
				*holder = pid_from_fd(fd);
			close(fd);
			if (saved == EWOULDBLOCK && !*holder &&
			    ++unknown < LOCK_UNKNOWN_TRIES) {
				nanosleep(&pause, NULL);
				continue;
			}
			errno = saved;
			return -1;
		}
		if (names_fd(path, fd))
			break;
		/* its holder unlinked it on release: lock the new one */
		close(fd);
		if (++stale >= LOCK_STALE_TRIES) {
			errno = ESTALE;
			return -1;
		}
	}
	len = snprintf(buf, sizeof(buf), "%ld\n", (long)getpid());
	if (ftruncate(fd, 0) || pwrite(fd, buf, len, 0) != len) {
		saved = errno;
		lock_release(fd, path);
		errno = saved;
		return -1;
	}
	return fd;
}

/* Held: empty the pid, unlink while still holding (see lock.h), unlock. */
static void unlink_held(int fd, const char *path)
{
	/*
	 * A stale pid in an unlocked file would name an innocent process;
	 * failing to clear it is harmless, the flock is what excludes.
	 */
	if (ftruncate(fd, 0)) {
	}
	if (names_fd(path, fd))
		unlink(path);
	flock(fd, LOCK_UN);
	close(fd);
}

void lock_release(int fd, const char *path)
{
	if (fd < 0)
		return;
	unlink_held(fd, path);
}

size_t lock_sweep(const char *dir, const char *prefix)
{
	size_t plen = strlen(prefix), removed = 0;
	char path[PATH_MAX], why[512];
	struct dirent *de;
	DIR *d = opendir(dir);
	int fd;

	if (!d)
		return 0;
	while ((de = readdir(d))) {
		if (strncmp(de->d_name, prefix, plen) ||
		    snprintf(path, sizeof(path), "%s/%s", dir, de->d_name) >=
			    (int)sizeof(path))
			continue;
		fd = trust_open(path, O_RDWR, 0, why, sizeof(why));
		if (fd < 0)
			continue;
		if (flock(fd, LOCK_EX | LOCK_NB) || !names_fd(path, fd)) {
			close(fd);
			continue;
		}
		unlink_held(fd, path);
		removed++;
	}
	closedir(d);
	return removed;
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
