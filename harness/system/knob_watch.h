/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * knob_watch - has anything written a knob since the last look?
 *
 * One inotify descriptor, a watch on each knob file: every write(2) to a
 * file, sysfs and procfs ones included, is an IN_MODIFY event on it (the
 * VFS reports it, whatever the file system). After a repetition whose
 * workload wrote no knob, one read that finds no event then stands for
 * reading some forty knobs (settings_drift). What changes a value with no
 * write to a watched file is not seen here: another file for the same
 * setting (the watcher adds /proc/sys/vm's and the per-node pool files
 * for the pools) or the kernel itself; settings_drift therefore still
 * reads every knob at least every KNOB_WATCH_FULL_USEC.
 *
 * knob_watch_changed() answers true, and empties the queue, when any
 * event came; and from then on always once a watched file went away or
 * was replaced or the queue overflowed, as when there is no inotify
 * descriptor or a path could not be watched: without a watch on every
 * file, every look is "changed".
 */
#ifndef THPBENCH_KNOB_WATCH_H
#define THPBENCH_KNOB_WATCH_H

#include <stdbool.h>

#define KNOB_WATCH_FULL_USEC 1e6

struct knob_watch {
	int fd;			/* -1: none, every look says changed */
	bool partial;		/* a path could not be watched */
};

/* fd -1: the state before open, after close. */
void knob_watch_open(struct knob_watch *w);
/* Watch path; one that cannot be watched makes every look "changed". */
void knob_watch_add(struct knob_watch *w, const char *path);
/* The pools' other files (/proc/sys/vm, nodes), for the real sysfs root. */
void knob_watch_add_pool_aliases(struct knob_watch *w);
bool knob_watch_changed(struct knob_watch *w);
void knob_watch_close(struct knob_watch *w);

#endif
