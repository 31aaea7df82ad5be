/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * patch_hunks - the hunks of a patch series (unified diffs, as
 * kernel-patches/scripts/series.sh writes a series: the .patch files
 * of a directory, in name order), with the lines each adds placed in the tree after the whole
 * series (patch coverage: ./run.sh coverage --series, ab --coverage).
 *
 * A file's hunks start at "+++ b/PATH" (the -p1 prefix off; /dev/null, a
 * deleted file, has none); "@@ -A[,B] +C[,D] @@" opens a hunk, whose
 * lines are then counted from B and D exactly as patch(1) counts them (so
 * a "-- " or "+++" line inside a hunk is text); anything outside a hunk
 * (the message, the diffstat, the signature) is skipped.
 *
 * Each hunk keeps its added lines' numbers and its anchor: the new line
 * just after its last added or removed line (where a removal-only or
 * comment-only hunk changed what runs). patch_hunks_settle() moves every
 * number of patch i through the hunks of patches i+1..n on the same file
 * (a line a later patch removes or rewrites is dropped: that patch owns
 * it), so all are line numbers of the tree the kernel was built from.
 *
 * Input is hostile: a hunk header out of range, a count that runs past
 * the file, or a path over 4 KiB is refused with the patch and line; at
 * most PATCH_HUNKS_MAX hunks.
 */
#ifndef THPBENCH_PATCH_HUNKS_H
#define THPBENCH_PATCH_HUNKS_H

#include <stddef.h>

#define PATCH_HUNKS_MAX 100000

struct patch_hunk {
	char *file;		/* relative to the tree */
	int patch;		/* index of its patch in the series */
	char *patch_name;	/* its file name (not owned: patch_set.names) */
	unsigned int old_start, old_len, new_start, new_len;
	char *ops;		/* ' ', '-', '+' per hunk line */
	unsigned int *added;	/* new-side numbers of its '+' lines; 0: dropped */
	size_t nadded;
	unsigned int removed;	/* '-' lines */
	unsigned int anchor;	/* new line after its last change; 0: none */
};

struct patch_set {
	struct patch_hunk *h;
	size_t n, cap;
	char **names;
	size_t nnames, ncap;
};

/* Add the hunks of the patch at path (the next patch of the series). */
int patch_hunks_read(const char *path, struct patch_set *ps, char *err,
		     size_t errlen);
/* Every .patch of dir (byte order, as the build applies them), read
 * and settled. */
int patch_hunks_read_dir(const char *dir, struct patch_set *ps, char *err,
			 size_t errlen);
/* Place every line in the tree after the last patch (see above). */
void patch_hunks_settle(struct patch_set *ps);
void patch_hunks_free(struct patch_set *ps);

#endif
