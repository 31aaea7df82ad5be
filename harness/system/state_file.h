/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * state_file - the one shape of the files thpbench keeps in its state
 * dir about knobs it changed (the journal, journal.h; the record of knobs
 * that would not go back, unrestored.h), and its one writer and reader:
 *   { "version": 1, "root": "/sys/kernel/mm", "pid": 1234,
 *     "TIME": 1764460000, ["TIME_utc": "2026-11-29T23:40:00Z",]
 *     "knobs": [ { ... }, ... ] }
 * where TIME is the file's own key (struct state_file) and each knob's
 * object is the caller's (a callback turns it into and out of JSON).
 *
 * Written through trust_replace (temp file, fsync, rename, directory
 * fsync: the old or the new file after a crash, never a torn one) and
 * read through trust_open (never through a symlink, only a regular file
 * of ours; trust.h). Duplicate keys are refused. The reader checks the
 * shape and the version; what "root" may be is the caller's to check.
 */
#ifndef THPBENCH_STATE_FILE_H
#define THPBENCH_STATE_FILE_H

#include <jansson.h>
#include <stdbool.h>
#include <stddef.h>
#include <sys/types.h>

/* What differs between the files of this shape. */
struct state_file {
	const char *what;	/* "settings journal", in messages */
	const char *fix;	/* what to do about a bad one, in messages */
	const char *knob_shape;	/* after "knobs[i] ", what a knob must be */
	int version;
	const char *time_key;	/* "start_time", "time" */
	bool time_utc;		/* also TIME_utc, for whoever reads it */
	bool time_optional;	/* a file without TIME still reads (time 0) */
};

struct state_head {
	char *root;		/* the reader allocates it */
	pid_t pid;
	long long time;
};

/* Knob i as a new JSON object. */
typedef json_t *(*state_knob_out)(size_t i, const void *arg);
/* Take one knob's object (its root defaults to head's); 0, or -1 when it
 * is not of knob_shape. */
typedef int (*state_knob_in)(json_t *knob, const struct state_head *head,
			     void *arg);

/* Replace path with head and knobs 0..n-1. 0, or -1 with err set. */
int state_file_write(const char *path, const struct state_file *f,
		     const struct state_head *head, size_t n,
		     state_knob_out out, const void *arg, char *err,
		     size_t errlen);

/*
 * 1 with *head filled (free head->root) and in() called on every knob in
 * order, 0 when path does not exist, -1 with err set (head->root then
 * freed and NULL).
 */
int state_file_read(const char *path, const struct state_file *f,
		    struct state_head *head, state_knob_in in, void *arg,
		    char *err, size_t errlen);

/* state_dir/file into buf. */
void state_file_path(const char *state_dir, const char *file, char *buf,
		     size_t len);

#endif
