/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * trust - may root believe a file or directory another user could have
 * planted? The settings journal, its temp file and the lock decide which
 * files root writes, so they must be root's (the caller's) own.
 *
 * A directory is trusted when it is a real directory (not a symlink),
 * owned by us or root, and not writable by group or others. A file is
 * opened with O_NOFOLLOW and trusted when it is a regular file owned by us
 * (or root) and not writable by group or others; a hard link to a file
 * elsewhere (st_nlink > 1) is refused too.
 */
#ifndef THPBENCH_TRUST_H
#define THPBENCH_TRUST_H

#include <stdbool.h>
#include <stddef.h>
#include <sys/types.h>

/* Check (creating it 0755 first, with its parents, when create) the
 * directory path. 0, or -1 with err naming it and what to do. */
int trust_dir(const char *path, bool create, char *err, size_t errlen);

/* open(path, flags | O_NOFOLLOW | O_CLOEXEC, mode) and check the result.
 * The fd, or -1 with errno set (ELOOP symlink, EPERM untrusted owner or
 * mode, ENOENT...) and err filled. */
int trust_open(const char *path, int flags, mode_t mode, char *err,
	       size_t errlen);

/*
 * Replace the file at path with text and a newline: written to path.tmp
 * (whatever was there, a planted symlink included, removed first; made
 * afresh by util/safe_file's sf_replace_open), fsynced, renamed over path, the directory
 * fsynced. A crash leaves the old or the new file, never a torn one.
 * 0, or -1 with err set.
 */
int trust_replace(const char *path, const char *text, char *err,
		  size_t errlen);

#endif
