// SPDX-License-Identifier: GPL-2.0-only
#include "kept_file.h"

#include <errno.h>
#include <fcntl.h>
#include <linux/magic.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <sys/vfs.h>
#include <unistd.h>

#include "util.h"

struct kept {
	char *path;
	unsigned long hash;	/* of path: most paths share a long prefix */
	int fd;
	bool one_read;	/* sysfs: a short read is the end */
};

static struct kept kept[KEPT_MAX];
static size_t nkept;

static bool regenerated(int fd, bool *one_read)
{
	struct statfs sf;

	if (fstatfs(fd, &sf))
		return false;
	*one_read = sf.f_type == SYSFS_MAGIC;
	return sf.f_type == PROC_SUPER_MAGIC || sf.f_type == SYSFS_MAGIC ||
	       sf.f_type == DEBUGFS_MAGIC;
}

/* FNV-1a: a cheap test before strcmp. */
static unsigned long path_hash(const char *s)
{
	unsigned long h = 2166136261u;

	while (*s)
		h = (h ^ (unsigned char)*s++) * 16777619u;
	return h;
}

static struct kept *find(const char *path, unsigned long hash)
{
	size_t i;

	for (i = 0; i < nkept; i++)
		if (kept[i].hash == hash && !strcmp(kept[i].path, path))
			return &kept[i];
	return NULL;
}

static void drop(struct kept *k)
{
	close(k->fd);
	free(k->path);
	*k = kept[--nkept];
}

/*
 * Up to len bytes from offset 0. A short read is not the end of a proc
 * seq_file (a record that does not fit its buffer waits for the next
 * read); a sysfs attribute is one show() of at most a page, all there in
 * the first read.
 */
static ssize_t read_from_start(int fd, char *buf, size_t len, bool one_read)
{
	size_t got = 0;
	ssize_t n;

	while (got < len) {
		n = pread(fd, buf + got, len - got, (off_t)got);
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0)
			return -1;
		if (n == 0)
			break;
		got += (size_t)n;
		if (one_read)
			break;
	}
	return (ssize_t)got;
}

ssize_t kept_read(const char *path, char *buf, size_t len)
{
	unsigned long hash = path_hash(path);
	struct kept *k = find(path, hash);
	ssize_t n;
	bool one_read = false;
	int fd, saved;

	if (!len) {
		errno = EINVAL;
		return -1;
	}
	if (k) {
		n = read_from_start(k->fd, buf, len - 1, k->one_read);
		if (n >= 0) {
			buf[n] = '\0';
			return n;
		}
		drop(k);
	}
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -1;
	n = read_from_start(fd, buf, len - 1, false);
	saved = errno;
	if (n >= 0 && nkept < KEPT_MAX && regenerated(fd, &one_read)) {
		kept[nkept++] = (struct kept){
			.path = xstrdup(path), .hash = hash, .fd = fd,
			.one_read = one_read,
		};
	} else {
		close(fd);
	}
	errno = saved;
	if (n < 0)
		return -1;
	buf[n] = '\0';
	return n;
}

ssize_t kept_read_all(const char *path, char **buf, size_t *cap)
{
	ssize_t n;

	if (!*buf || *cap < 4096) {
		*cap = 4096;
		*buf = xrealloc(*buf, *cap);
	}
	while ((n = kept_read(path, *buf, *cap)) >= 0 &&
	       (size_t)n == *cap - 1 && *cap < (1u << 26)) {
		*cap *= 2;
		*buf = xrealloc(*buf, *cap);
	}
	return n;
}

void kept_close_all(void)
{
	while (nkept)
		drop(&kept[nkept - 1]);
}
