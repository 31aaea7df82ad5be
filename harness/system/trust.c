// SPDX-License-Identifier: GPL-2.0-only
#include "trust.h"
#include "util/safe_file.h"

#include <errno.h>
#include <fcntl.h>
#include <libgen.h>
#include <limits.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "util/util.h"

static bool owner_ok(const struct stat *st)
{
	return st->st_uid == geteuid() || st->st_uid == 0;
}

int trust_dir(const char *path, bool create, char *err, size_t errlen)
{
	struct stat st;

	if (create && mkdir_p(path, 0755)) {
		snprintf(err, errlen, "cannot create directory %s: %s", path,
			 strerror(errno));
		return -1;
	}
	if (lstat(path, &st)) {
		snprintf(err, errlen, "%s: %s", path, strerror(errno));
		return -1;
	}
	if (!S_ISDIR(st.st_mode)) {
		snprintf(err, errlen, "%s is %s, not a directory; refusing to use it",
			 path, S_ISLNK(st.st_mode) ? "a symbolic link" : "a file");
		errno = S_ISLNK(st.st_mode) ? ELOOP : ENOTDIR;
		return -1;
	}
	if (!owner_ok(&st) || (st.st_mode & 022)) {
		snprintf(err, errlen,
			 "%s is owned by uid %ld with mode %04o: another user could plant files there; use a directory only you can write (chmod go-w, or another THPBENCH_STATE_DIR)",
			 path, (long)st.st_uid, (unsigned)(st.st_mode & 07777));
		errno = EPERM;
		return -1;
	}
	return 0;
}

int trust_open(const char *path, int flags, mode_t mode, char *err,
	       size_t errlen)
{
	/* O_NONBLOCK: a FIFO planted at path never blocks the open. */
	int fd = open(path, flags | O_NOFOLLOW | O_CLOEXEC | O_NONBLOCK, mode);
	struct stat st = { 0 };

	if (fd < 0) {
		snprintf(err, errlen, "%s: %s%s", path, strerror(errno),
			 errno == ELOOP ? " (a symbolic link: refusing to follow it)" : "");
		return -1;
	}
	if (fstat(fd, &st) || !S_ISREG(st.st_mode) || !owner_ok(&st) ||
	    (st.st_mode & 022) || st.st_nlink > 1) {
		snprintf(err, errlen,
			 "%s is not a regular file of ours (uid %ld, mode %04o, %ld links): refusing to use it; delete it",
			 path, (long)st.st_uid, (unsigned)(st.st_mode & 07777),
			 (long)st.st_nlink);
		close(fd);
		errno = EPERM;
		return -1;
	}
	if (!(flags & O_NONBLOCK))
		fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) & ~O_NONBLOCK);
	return fd;
}

static int fsync_dir_of(const char *path)
{
	char tmp[PATH_MAX];
	int fd, ret;

	snprintf(tmp, sizeof(tmp), "%s", path);
	fd = open(dirname(tmp), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (fd < 0)
		return -1;
	ret = fsync(fd);
	close(fd);
	return ret;
}

int trust_replace(const char *path, const char *text, char *err,
		  size_t errlen)
{
	char tmp[PATH_MAX];
	FILE *f = sf_replace_open(path, tmp, sizeof(tmp), err, errlen);

	if (!f)
		return -1;
	fputs(text, f);
	fputc('\n', f);
	if (sf_replace_close(f, tmp, path, err, errlen))
		return -1;
	if (fsync_dir_of(path)) {
		snprintf(err, errlen, "cannot sync the directory of %s: %s",
			 path, strerror(errno));
		return -1;
	}
	return 0;
}
