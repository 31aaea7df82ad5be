// SPDX-License-Identifier: GPL-2.0-only
/* safe_file - see safe_file.h. */
#include "safe_file.h"

#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "util.h"

#define READ_MAX ((size_t)256 << 20)

const char *sf_kind(unsigned int mode)
{
	switch (mode & S_IFMT) {
	case S_IFREG: return "a regular file";
	case S_IFDIR: return "a directory";
	case S_IFLNK: return "a symbolic link";
	case S_IFIFO: return "a FIFO";
	case S_IFSOCK: return "a socket";
	case S_IFCHR: return "a character device";
	case S_IFBLK: return "a block device";
	default: return "not a regular file";
	}
}

static void say(char *err, size_t errlen, const char *path, int e)
{
	if (err && errlen)
		snprintf(err, errlen, "%s: %s%s", path, strerror(e),
			 e == ELOOP ? " (a symbolic link: refusing to follow it)" : "");
}

int open_regular(const char *path, int flags, char *err, size_t errlen)
{
	int fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC |
		      (flags & SF_NOFOLLOW ? O_NOFOLLOW : 0));
	struct stat st = { 0 };
	int e;

	if (fd < 0) {
		e = errno;
		say(err, errlen, path, e);
		errno = e;
		return -1;
	}
	if (fstat(fd, &st) || !S_ISREG(st.st_mode)) {
		e = S_ISREG(st.st_mode) || !st.st_mode ? errno : 0;
		if (err && errlen && e)
			say(err, errlen, path, e);
		else if (err && errlen)
			snprintf(err, errlen, "%s is %s, not a regular file: refusing to read it",
				 path, sf_kind(st.st_mode));
		close(fd);
		errno = e ? e : S_ISDIR(st.st_mode) ? EISDIR : EINVAL;
		return -1;
	}
	/* A regular file: reads block as they should (NFS, FUSE). */
	if (fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) & ~O_NONBLOCK)) {
		e = errno;
		say(err, errlen, path, e);
		close(fd);
		errno = e;
		return -1;
	}
	return fd;
}

char *read_regular(const char *path, int flags, size_t *len, char *err,
		   size_t errlen)
{
	size_t cap = 65536, n = 0;
	char *buf;
	ssize_t r;
	int fd = open_regular(path, flags, err, errlen), e;

	if (fd < 0)
		return NULL;
	buf = xmalloc(cap + 1);
	for (;;) {
		if (n == cap) {
			if (cap >= READ_MAX) {
				free(buf);
				close(fd);
				if (err && errlen)
					snprintf(err, errlen, "%s: larger than %zu MiB: not one of ours",
						 path, READ_MAX >> 20);
				errno = EFBIG;
				return NULL;
			}
			cap *= 2;
			buf = xrealloc(buf, cap + 1);
		}
		r = read(fd, buf + n, cap - n);
		if (r < 0 && errno == EINTR)
			continue;
		if (r <= 0)
			break;
		n += (size_t)r;
	}
	e = errno;
	close(fd);
	if (r < 0) {
		free(buf);
		say(err, errlen, path, e);
		errno = e;
		return NULL;
	}
	buf[n] = '\0';
	*len = n;
	return buf;
}

/* util.h's, defined here: util.c calls nothing of this file. */
char *read_whole_file(const char *path, size_t *len)
{
	return read_regular(path, 0, len, NULL, 0);
}

int read_regular_str(const char *path, int flags, char *buf, size_t len,
		     char *err, size_t errlen)
{
	int fd = open_regular(path, flags, err, errlen), e;
	ssize_t r;

	if (fd < 0)
		return -1;
	do
		r = read(fd, buf, len - 1);
	while (r < 0 && errno == EINTR);
	e = errno;
	close(fd);
	if (r < 0) {
		say(err, errlen, path, e);
		errno = e;
		return -1;
	}
	buf[r] = '\0';
	buf[strcspn(buf, "\n")] = '\0';
	return 0;
}

FILE *sf_create(const char *path, char *err, size_t errlen)
{
	FILE *f;
	int fd, e;

	if (unlink(path) && errno != ENOENT) {
		e = errno;
		snprintf(err, errlen, "cannot remove %s: %s", path, strerror(e));
		errno = e;
		return NULL;
	}
	fd = open(path, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0644);
	if (fd < 0 || !(f = fdopen(fd, "w"))) {
		e = errno;
		snprintf(err, errlen, "%s: cannot create: %s", path, strerror(e));
		if (fd >= 0)
			close(fd);
		errno = e;
		return NULL;
	}
	return f;
}

FILE *sf_replace_open(const char *path, char *tmp, size_t tmplen, char *err,
		      size_t errlen)
{
	if ((size_t)snprintf(tmp, tmplen, "%s.tmp", path) >= tmplen) {
		snprintf(err, errlen, "%.64s...: path too long", path);
		errno = ENAMETOOLONG;
		return NULL;
	}
	return sf_create(tmp, err, errlen);
}

int sf_replace_close(FILE *f, const char *tmp, const char *path, char *err,
		     size_t errlen)
{
	int e;

	if (fflush(f) || fsync(fileno(f)) || ferror(f)) {
		e = errno;
		fclose(f);
		goto bad;
	}
	if (fclose(f)) {
		e = errno;
		goto bad;
	}
	if (rename(tmp, path)) {
		e = errno;
		snprintf(err, errlen, "cannot rename %s to %s: %s", tmp, path,
			 strerror(e));
		unlink(tmp);
		errno = e;
		return -1;
	}
	return 0;
bad:
	snprintf(err, errlen, "%s: cannot write: %s", tmp, strerror(e ? e : EIO));
	unlink(tmp);
	errno = e;
	return -1;
}

const char *json_error_safe(const char *text, char *buf, size_t len)
{
	const char *near = strstr(text, " near ");
	size_t n = near ? (size_t)(near - text) : strlen(text);

	/* "invalid Unicode '\uD800'": the escape is the file's too. */
	if (!strncmp(text, "invalid Unicode", 15))
		n = 15;
	snprintf(buf, len, "%.*s", (int)n, text);
	return buf;
}
