/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * hugetlb_pool - what is special about the hugetlb pool knobs.
 *
 * Each pool is a directory hugepages/hugepages-<size>kB/ under the mm
 * sysfs root. Two of its files are knobs thpbench may change and must put
 * back: nr_overcommit_hugepages and nr_hugepages (the pool's size). A
 * pool size is the one knob the kernel may grant only in part (too little
 * free contiguous memory) and may refuse to take back (pages in use), so
 * its messages say so.
 */
#ifndef THPBENCH_HUGETLB_POOL_H
#define THPBENCH_HUGETLB_POOL_H

#include <stdbool.h>
#include <stddef.h>

/* A knob under hugepages/ / its .../nr_hugepages (a pool's size). */
bool hugetlb_is_pool_knob(const char *name);
bool hugetlb_is_pool_size(const char *name);

/* "hugepages/hugepages-2048kB/nr_hugepages" -> "hugepages-2048kB". */
void hugetlb_pool_of(const char *name, char *buf, size_t len);

/*
 * Call fn(root, rel, arg) for each pool knob (rel as above), pools in
 * name order, overcommit before size. -1 when root has no hugepages/.
 */
typedef void (*hugetlb_knob_fn)(const char *root, const char *rel, void *arg);
int hugetlb_pool_knobs(const char *root, hugetlb_knob_fn fn, void *arg);

/*
 * After writing want to knob name and reading back got: when name is a
 * pool size and the kernel granted fewer pages, say so in err and return
 * 1; else 0.
 */
int hugetlb_pool_shortfall(const char *name, const char *want,
			   const char *got, char *err, size_t errlen);

/*
 * The persistent pool: nr_hugepages - surplus_hugepages. nr_hugepages
 * counts surplus pages too, but writing it sets the persistent pool
 * only: pages a user still holds beyond the new size become surplus, and
 * the kernel frees each the moment it is let go. So a pool that reads 72
 * with 72 surplus is already back to 0, and writing 72 back would pin 72
 * pages for good. Every pool size thpbench snapshots, compares and
 * restores is this value.
 *
 * hugetlb_persistent: from the nr_hugepages file at nr_path and the
 * surplus_hugepages file at surplus_path (missing: 0 surplus);
 * async-signal-safe (open/read/close). 0, or -1 with errno set.
 */
int hugetlb_persistent(const char *nr_path, const char *surplus_path,
		       long *out);
/* The same from the two files' text (surplus_text NULL: none), as read by
 * a caller that keeps the files open (settings' drift check). */
int hugetlb_persistent_text(const char *nr_text, const char *surplus_text,
			    long *out);
/* surplus_hugepages next to the nr_hugepages at nr_path; false if
 * nr_path is no pool size. */
bool hugetlb_surplus_path(const char *nr_path, char *buf, size_t len);
/* A knob's value as thpbench keeps it: a pool size as its persistent
 * pool, any other knob as knob_read_path. 0 or -1. */
int hugetlb_knob_read_path(const char *abspath, char *buf, size_t len);
int hugetlb_knob_read(const char *root, const char *name, char *buf,
		      size_t len);

/*
 * Why pool size name (at abspath) reads got where want was written back,
 * into why: fewer pages than asked (the kernel found no more), or pages
 * in use, naming who holds huge pages (hugetlb_users.h, proc_root).
 */
void hugetlb_pool_stuck_why(const char *name, const char *want,
			    const char *got, const char *proc_root,
			    char *why, size_t len);

/*
 * Pool knob name names a pool this host does not have: 1 with the cause
 * in why, said as a kernel developer would look for it (a 1 GiB pool on
 * an x86 CPU without the pdpe1gb flag in proc_root/cpuinfo: "this CPU has
 * no 1 GiB pages"; nogbpages on proc_root/cmdline; a kernel without
 * hugetlb, or without that size). 0 when the pool is there.
 */
int hugetlb_pool_missing(const char *root, const char *name,
			 const char *proc_root, char *why, size_t len);

/*
 * After a pool size at abspath went back: when surplus pages of it are
 * still in use (they leave when their user lets go), describe them and
 * who holds them in note and return 1; else 0.
 */
int hugetlb_pool_surplus_note(const char *name, const char *abspath,
			      const char *proc_root, char *note, size_t len);

#endif
