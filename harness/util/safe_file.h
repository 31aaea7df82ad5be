/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * safe_file - files read and written as hostile input: one place for the
 * rules every reader of a results, suite, plan or state file and every
 * writer into a directory another user may have touched follow.
 *
 * Reading: open_regular() opens with O_NONBLOCK (a FIFO or a tty never
 * blocks the open), fstat()s, refuses anything but a regular file with a
 * message naming it and what it is, then clears O_NONBLOCK. SF_NOFOLLOW
 * refuses a symbolic link too (a bisection's directory: nothing in it
 * may point elsewhere); without it a link to a regular file is read, as
 * a user's `compare a.json b.json` may name one.
 *
 * Writing: sf_create() makes a file afresh: whatever is at the path (a
 * planted symlink included) is removed first, then O_CREAT | O_EXCL |
 * O_NOFOLLOW, so no write ever goes through a link. sf_replace_open()
 * and sf_replace_close() write PATH.tmp that way and rename it over
 * PATH (a rename replaces a link at PATH, never what it points to).
 *
 * json_error_safe(): jansson's error text without the "near '...'" part
 * and the escape it quotes, which echo the file's bytes (a results.json
 * that is a link to a secret would print its first token).
 */
#ifndef THPBENCH_SAFE_FILE_H
#define THPBENCH_SAFE_FILE_H

#include <stddef.h>
#include <stdio.h>

#define SF_NOFOLLOW 1

/* Read-only fd of a regular file, or -1 with errno set and err filled. */
int open_regular(const char *path, int flags, char *err, size_t errlen);
/* The whole file (up to 256 MiB), NUL-terminated, malloc'ed, its length
 * in *len; NULL with err filled ("PATH: ..."). */
char *read_regular(const char *path, int flags, size_t *len, char *err,
		   size_t errlen);
/* The first line of a small file into buf (newline stripped); -1 with
 * err filled. */
int read_regular_str(const char *path, int flags, char *buf, size_t len,
		     char *err, size_t errlen);

/* A new file at path (mode 0644) for writing; NULL with err filled. */
FILE *sf_create(const char *path, char *err, size_t errlen);
/* sf_create(PATH.tmp) (the name into tmp); NULL with err filled. */
FILE *sf_replace_open(const char *path, char *tmp, size_t tmplen, char *err,
		      size_t errlen);
/* Flush, fsync, close f and rename tmp over path; on any failure tmp is
 * removed and -1 returned with err filled. */
int sf_replace_close(FILE *f, const char *tmp, const char *path, char *err,
		     size_t errlen);

/* What kind of file mode is ("a FIFO", "a directory", ...). */
const char *sf_kind(unsigned int mode);

/* jansson's message text cut before what quotes the input; into buf. */
const char *json_error_safe(const char *text, char *buf, size_t len);

#endif
