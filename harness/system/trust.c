// SPDX-License-Identifier: GPL-2.0-only
#include "trust.h"

#include <errno.h>
#include <fcntl.h>
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
	int fd = open(path, flags | O_NOFOLLOW | O_CLOEXEC, mode);
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
	return fd;
}
