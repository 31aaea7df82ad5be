/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * journal - the knob snapshot on disk, so that settings changed by a run
 * that crashed (or was SIGKILLed) can be put back by the next one.
 *
 * state_dir/journal.json:
 *   { "version": 1, "root": "/sys/kernel/mm", "pid": 1234,
 *     "start_time": 1764460000, "start_time_utc": "2026-11-29T23:40:00Z",
 *     "knobs": [ { "name": "transparent_hugepage/enabled",
 *                  "value": "madvise" }, ... ] }
 * The knobs are an array because their order is the restore order
 * (THP knobs before hugetlb pools). A knob under another root (a sysctl,
 * sysctl_knob.h) carries its own: { "name": "vm/compaction_proactiveness",
 * "value": "20", "root": "/proc/sys" }; without "root" a knob is under
 * the journal's, so a journal written before knobs had roots still reads
 * (and restores) the same. The reader of a journal checks every root
 * against the one it was configured with (settings.c).
 *
 * A state file (state_file.h: one writer and reader for this file and
 * unrestored.json): a crash leaves either the old or the new journal,
 * never a torn one, and the journal is on disk before any knob changes;
 * it is never opened through a symlink and must be a regular file of
 * ours (trust.h).
 */
#ifndef THPBENCH_JOURNAL_H
#define THPBENCH_JOURNAL_H

#include <stddef.h>
#include <sys/types.h>

#include "snapshot.h"

#define JOURNAL_VERSION 1
#define JOURNAL_FILE "journal.json"	/* in the state dir */

struct journal {
	char *root;		/* mm sysfs root the knobs live under */
	pid_t pid;		/* harness that wrote it */
	long long start;	/* time(2) at settings_begin */
	struct snapshot knobs;	/* abspaths prebuilt under each knob's root */
};

int journal_write(const char *path, const struct journal *j, char *err,
		  size_t errlen);
/* 1 and *j filled, 0 when path does not exist, -1 with err set. */
int journal_read(const char *path, struct journal *j, char *err,
		 size_t errlen);
void journal_free(struct journal *j);

#endif
