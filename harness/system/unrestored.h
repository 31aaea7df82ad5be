/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * unrestored - the knobs the kernel would not take back, and why.
 *
 * A restore puts back every knob it can. What stays off its snapshot
 * value (a pool the kernel can no longer fill, a knob that ignores
 * writes) is recorded in state_dir/unrestored.json in place of the
 * journal, so the next run goes on with a warning naming each knob
 * instead of refusing for good, and `thpbench restore` tries them again
 * (or, with --forget, keeps the current values and drops the record):
 *   { "version": 1, "root": "/sys/kernel/mm", "pid": 1234,
 *     "time": 1764460000,
 *     "knobs": [ { "name": "hugepages/hugepages-2048kB/nr_hugepages",
 *                  "want": "100", "got": "60", "why": "the kernel found
 *                  only 60 of 100 huge pages ..." } ] }
 * A state file like the journal (state_file.h, trust.h): never read
 * through a symlink, only a regular file of ours; its root must be the
 * caller's.
 */
#ifndef THPBENCH_UNRESTORED_H
#define THPBENCH_UNRESTORED_H

#include <stddef.h>
#include <sys/types.h>

#define UNRESTORED_FILE "unrestored.json"

struct unrestored_knob {
	char *name;
	char *want;		/* the value it should have gone back to */
	char *got;		/* what it read instead */
	char *why;
};

struct unrestored {
	char *root;
	pid_t pid;		/* the run that could not put them back */
	long long time;
	struct unrestored_knob *v;
	size_t n, cap;
};

/* Add name (replacing an entry of that name). */
void unrestored_add(struct unrestored *u, const char *name, const char *want,
		    const char *got, const char *why);
void unrestored_free(struct unrestored *u);
/* "NAME (should be WANT, is GOT: WHY)", "; " between knobs. */
void unrestored_describe(const struct unrestored *u, char *buf, size_t len);

/* path: state_dir/UNRESTORED_FILE. n == 0 removes the file. 0 or -1. */
int unrestored_write(const char *path, const struct unrestored *u, char *err,
		     size_t errlen);
/* 1 and *u filled, 0 when there is none, -1 with err set. */
int unrestored_read(const char *path, struct unrestored *u, char *err,
		    size_t errlen);

#endif
