/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * kept_file - a /proc, sysfs or debugfs file read at every repetition,
 * through one descriptor kept open.
 *
 * kept_read(path, buf, len) puts the file's text in buf as reading it
 * from the start would (at most len - 1 bytes, NUL-terminated, nothing
 * trimmed) and returns its length, or -1 with errno set. A file on
 * procfs, sysfs or debugfs stays open after its first read and is read
 * again with pread(2) from offset 0: the kernel makes such a file's text
 * afresh at each read from 0 (seq_file resets its iterator there, a
 * kernfs attribute calls its show()), so this reads what open + read +
 * close would, for one system call instead of three (a proc file reads
 * on to its end, a sysfs attribute is whole in its first read). A file anywhere
 * else (a test's fake root, which may be replaced between reads) is
 * opened, read and closed each time, as is every file past the first
 * KEPT_MAX. The descriptors are O_CLOEXEC: a workload never sees them.
 * kept_close_all() closes them; one that fails (a sysfs file gone with
 * its device) is dropped and the next read opens the path again.
 */
#ifndef THPBENCH_KEPT_FILE_H
#define THPBENCH_KEPT_FILE_H

#include <stddef.h>
#include <sys/types.h>

#define KEPT_MAX 512

ssize_t kept_read(const char *path, char *buf, size_t len);
/* Read the whole file into *buf (grown as needed, *cap its size). */
ssize_t kept_read_all(const char *path, char **buf, size_t *cap);
void kept_close_all(void);

#endif
