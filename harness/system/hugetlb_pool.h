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

#endif
