/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * series_check - a patch series (a directory of *.patch files, the form
 * kernel-patches/scripts/series.sh makes of any input) checked as
 * untrusted input before anything is applied to a kernel tree: the
 * checker behind `thpbench series check DIR`, which build-kernel.sh and
 * series.sh call (the scripts apply; this decides what may be applied).
 *
 *   names  every *.patch entry: only letters, digits, space and
 *          ._+,=@~- (what git format-patch, quilt and b4 write), and a
 *          regular file (a symlink is never followed)
 *   size   at most limits.max_patches patches, limits.max_mb MiB in all
 *   paths  every header patch(1) or git reads (---, +++, ***, Index:,
 *          diff --git, rename/copy from/to), outside the hunks (counted
 *          from their @@ lines, so a removed "-- x" line is text): no
 *          absolute path, no "..", "." or empty component, no quoted
 *          name, only [A-Za-z0-9._/+,-]; modes 100644 and 100755 only
 *          (no symlink, no submodule); no binary or context diff
 *
 * On success the files the series touches, relative to the tree (the
 * -p1 prefix off), sorted by byte and unique. On the first refusal -1
 * and err says which patch, which line, and why, with anything not
 * printable in the input shown as '?' (a name as the shell's $'...').
 */
#ifndef THPBENCH_SERIES_CHECK_H
#define THPBENCH_SERIES_CHECK_H

#include <stddef.h>
#include <stdio.h>

struct series_limits {
	long max_patches;	/* THPBENCH_SERIES_MAX_PATCHES, default 500 */
	long max_mb;		/* THPBENCH_SERIES_MAX_MB, default 64 */
};

#define SERIES_MAX_PATCHES_DEFAULT 500
#define SERIES_MAX_MB_DEFAULT 64

struct series_paths {
	char **v;
	size_t n, cap;
};

void series_paths_free(struct series_paths *p);

/*
 * The paths one patch touches, appended to out (unsorted, maybe twice).
 * 0 when every header passes; 1 at the first that does not: *line is its
 * line number (from 1) and why the reason.
 */
int series_patch_paths(FILE *f, struct series_paths *out, long *line,
		       char *why, size_t whylen);

/* DIR checked whole (names, size, every patch); out sorted, unique. */
int series_check_dir(const char *dir, const struct series_limits *lim,
		     struct series_paths *out, char *err, size_t errlen);

/* NAME as the shell's printf %q writes it (at most len - 1 bytes). */
void series_quote_name(const char *name, char *buf, size_t len);

#endif
