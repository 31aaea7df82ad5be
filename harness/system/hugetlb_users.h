/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * hugetlb_users - which processes hold hugetlb pages now, so that a pool
 * that will not shrink can name who is in the way (a lab's PostgreSQL
 * with huge_pages=try, say).
 *
 * From proc_root/PID/status "HugetlbPages:" (Linux 4.4+; all pool sizes
 * together) and "Name:". Pages held by hugetlbfs files or SysV shared
 * memory that no process maps are not found here.
 */
#ifndef THPBENCH_HUGETLB_USERS_H
#define THPBENCH_HUGETLB_USERS_H

#include <stddef.h>

/* proc_root: "/proc", or $THPBENCH_PROC_ROOT for tests (a fake tree). */
const char *hugetlb_proc_root(void);

/*
 * "pid 1234 (postgres, 147456 kB), pid 99 (x, 2048 kB) and 3 more": the
 * holders by pages held, most first, at most three named (buf "" when
 * none). Returns how many processes hold hugetlb pages.
 */
int hugetlb_users(const char *proc_root, char *buf, size_t len);

#endif
