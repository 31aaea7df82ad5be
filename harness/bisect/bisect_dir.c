// SPDX-License-Identifier: GPL-2.0-only
/* bisect_dir - see bisect_dir.h. */
#include "bisect_dir.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "util/safe_file.h"

struct walk {
	size_t entries;
	char *err;
	size_t errlen;
};

size_t bisect_run_number(const char *name)
{
	size_t v = 0, i;
	char canon[32];

	for (i = 0; name[i]; i++) {
		if (name[i] < '0' || name[i] > '9' || i >= 9)
			return 0;
		v = v * 10 + (size_t)(name[i] - '0');
	}
	if (i < 4)
		return 0;
	snprintf(canon, sizeof(canon), "%04zu", v);
	return strcmp(canon, name) ? 0 : v;
}

static bool owner_ok(const struct stat *st)
{
	return st->st_uid == geteuid() || st->st_uid == 0;
}

static int refuse(struct walk *w, const char *path, const char *why)
{
	snprintf(w->err, w->errlen, "%s %s: a bisection's directory is read and written as root, so it must hold nothing another user planted; remove it (or restore the directory from a copy you trust) and resume",
		 path, why);
	return -1;
}

/* One entry's own kind, owner and mode (not following a link). */
static int check_entry(struct walk *w, const char *path, const struct stat *st)
{
	char why[160];

	if (S_ISLNK(st->st_mode))
		return refuse(w, path, "is a symbolic link");
	if (!S_ISDIR(st->st_mode) && !S_ISREG(st->st_mode)) {
		snprintf(why, sizeof(why), "is %s, not a regular file or directory",
			 sf_kind(st->st_mode));
		return refuse(w, path, why);
	}
	if (!owner_ok(st) || (st->st_mode & 022)) {
		snprintf(why, sizeof(why), "is owned by uid %ld with mode %04o (ours or root's, and not group/other-writable: chmod go-w)",
			 (long)st->st_uid, (unsigned)(st->st_mode & 07777));
		return refuse(w, path, why);
	}
	if (S_ISREG(st->st_mode) && st->st_nlink > 1)
		return refuse(w, path, "has another hard link (a file elsewhere)");
	return 0;
}

static bool run_dir_name(const char *name)
{
	return bisect_run_number(name) ||
	       (!strncmp(name, ".tmp-", 5) && bisect_run_number(name + 5));
}

static int walk_dir(struct walk *w, int fd, const char *path, int depth,
		    bool is_runs);

/* Entry name of directory dfd (at path/name). */
static int walk_entry(struct walk *w, int dfd, const char *path,
		      const char *name, int depth, bool in_runs)
{
	char sub[4096];
	struct stat st, st2;
	int fd, rc;

	if ((size_t)snprintf(sub, sizeof(sub), "%s/%s", path, name) >= sizeof(sub))
		return refuse(w, path, "holds a path too long");
	if (++w->entries > BISECT_DIR_MAX_ENTRIES)
		return refuse(w, path, "holds too many files for a bisection");
	if (fstatat(dfd, name, &st, AT_SYMLINK_NOFOLLOW)) {
		snprintf(w->err, w->errlen, "%s: %s", sub, strerror(errno));
		return -1;
	}
	if (check_entry(w, sub, &st))
		return -1;
	if (in_runs && (!S_ISDIR(st.st_mode) || !run_dir_name(name)))
		return refuse(w, sub, "is no run directory (runs/ holds only NNNN directories: 4 to 9 digits, as the driver numbers them from 0001)");
	if (!S_ISDIR(st.st_mode))
		return 0;
	if (depth + 1 > BISECT_DIR_MAX_DEPTH)
		return refuse(w, sub, "lies too deep for a bisection");
	fd = openat(dfd, name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
	if (fd < 0 || fstat(fd, &st2) || st2.st_ino != st.st_ino ||
	    st2.st_dev != st.st_dev) {
		if (fd >= 0)
			close(fd);
		return refuse(w, sub, "changed while it was checked");
	}
	rc = walk_dir(w, fd, sub, depth + 1, depth == 0 && !strcmp(name, "runs"));
	return rc;
}

/* Every entry of the open directory fd (closed here). */
static int walk_dir(struct walk *w, int fd, const char *path, int depth,
		    bool is_runs)
{
	DIR *d = fdopendir(fd);
	struct dirent *e;
	int rc = 0;

	if (!d) {
		snprintf(w->err, w->errlen, "%s: %s", path, strerror(errno));
		close(fd);
		return -1;
	}
	while (!rc && (e = readdir(d)))
		if (strcmp(e->d_name, ".") && strcmp(e->d_name, ".."))
			rc = walk_entry(w, dirfd(d), path, e->d_name, depth, is_runs);
	closedir(d);
	return rc;
}

int bisect_dir_check(const char *dir, char *err, size_t errlen)
{
	struct walk w = { 0, err, errlen };
	struct stat st, st2;
	int fd;

	if (strlen(dir) > 3000) {
		snprintf(err, errlen, "%.64s...: path too long", dir);
		return -1;
	}
	if (lstat(dir, &st)) {
		snprintf(err, errlen, "%s: %s (no plan.json: not a bisection's results directory)",
			 dir, strerror(errno));
		return -1;
	}
	if (!S_ISDIR(st.st_mode) && !S_ISLNK(st.st_mode)) {
		snprintf(err, errlen, "%s is %s, not a bisection's results directory",
			 dir, sf_kind(st.st_mode));
		return -1;
	}
	if (check_entry(&w, dir, &st))
		return -1;
	fd = open(dir, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
	if (fd < 0 || fstat(fd, &st2) || st2.st_ino != st.st_ino) {
		if (fd >= 0)
			close(fd);
		return refuse(&w, dir, "changed while it was checked");
	}
	return walk_dir(&w, fd, dir, 0, false);
}
