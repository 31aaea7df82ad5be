/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * knob - read and write one huge-page knob.
 *
 * A knob is a path relative to the mm sysfs root (default /sys/kernel/mm,
 * or $THPBENCH_SYSFS_ROOT; tests use a fake directory tree):
 *   transparent_hugepage/enabled, transparent_hugepage/defrag,
 *   transparent_hugepage/hugepages-64kB/enabled,
 *   transparent_hugepage/khugepaged/max_ptes_none,
 *   hugepages/hugepages-2048kB/nr_hugepages, ...
 * A knob's value is what one writes back: for choice files such as
 * "always [madvise] never" it is the bracketed word ("madvise").
 *
 * knob_value_span() is async-signal-safe: the signal path of
 * settings_guard.h uses it.
 */
#ifndef THPBENCH_KNOB_H
#define THPBENCH_KNOB_H

#include <stdbool.h>
#include <stddef.h>

#define KNOB_MAX 4096
#define THP_DIR "transparent_hugepage"
#define HUGETLB_DIR "hugepages"

/* Where the value sits in raw sysfs text (see above). */
void knob_value_span(const char *buf, size_t n, size_t *off, size_t *len);

/* The value of the knob at abspath, or root + "/" + name. 0 or -1. */
int knob_read_path(const char *abspath, char *buf, size_t len);
int knob_read(const char *root, const char *name, char *buf, size_t len);

/* "always [madvise] never" -> "always madvise never"; false if no choices. */
bool knob_choices(const char *raw, char *out, size_t len);
/* Is w one of the blank-separated words? */
bool knob_word_in(const char *words, const char *w);

/* The THP modes the running kernel offers ("always madvise never"). */
int thp_modes_available(const char *root, char modes[][16], size_t max);

/* Inside transparent_hugepage/ or hugepages/, no "." or ".." parts. */
bool knob_name_ok(const char *name);

/*
 * Write value to the knob at abspath: 0, or -1 with errno set.
 * Tests only: knob_set_write_hook routes the writes of settings_apply,
 * settings_end and settings_restore_journal (never the signal path)
 * through fn, so a fake sysfs tree can act like a kernel that rejects a
 * value (fn fails with EINVAL) or grants fewer huge pages than asked.
 * NULL: plain write(2).
 */
typedef int (*knob_write_fn)(const char *abspath, const char *value);
int knob_write(const char *abspath, const char *value);
void knob_set_write_hook(knob_write_fn fn);

#endif
