/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * case_res - the resources a suite case asks for, made for the run
 * (system/resource.h: journalled, undone however the run ends).
 *
 *   swap  = zram | zram:SIZE | zram:SIZE:COMPRESSOR   (SIZE default 1G)
 *   mount = tmpfs | tmpfs:OPT[,OPT]    OPT: huge=always|within_size|
 *                                      advise|never, size=SIZE
 *         | xfs | xfs:SIZE | ext4 | ext4:SIZE         (image, default 512M;
 *                                                  xfs at least 320M)
 *   memcg = SIZE | max                                (memory.max)
 *   zswap = on | off          (/sys/module/zswap/parameters/enabled)
 *   service = redis | postgres[:huge_pages=on|off|try,shared_buffers=SIZE]
 *                 (system/service_recipe.h; a throwaway server on a Unix
 *                 socket: THPBENCH_SERVICE, THPBENCH_SERVICE_SOCKET,
 *                 THPBENCH_SERVICE_PID, "{service}" in args; huge_pages
 *                 on|try applies the case's hugetlb.* pool first)
 *
 * Made once per case when the run begins (not per repetition: mkfs and
 * a zram device take longer than most repetitions) and kept until it
 * ends, so a case's swap device is on while other cases run too. zswap
 * alone is per case: before each item it is set as the case says, else
 * back to the value found (journalled when first changed). The
 * workload finds them in its environment - THPBENCH_SWAP (/dev/zramN),
 * THPBENCH_MOUNT (the mount point), THPBENCH_CGROUP (the directory; the
 * runner moves the workload in before it execs) - and "{swap}",
 * "{mount}", "{cgroup}" in its args are replaced by the same. Where they
 * cannot be made (not root, no zram, no mkfs.xfs, no memory controller
 * on cgroup v2 or v1, no zswap)
 * the case is "not measurable here", the cause recorded.
 */
#ifndef THPBENCH_CASE_RES_H
#define THPBENCH_CASE_RES_H

#include <stddef.h>

struct session;

/* The specs are checked at parse time: case_res_spec.h. */

/* After plan_build: make each case's resources and wire them to its
 * items (env, args, the cgroup in case_res_cgroup). */
void case_res_begin(struct session *ss);

/* Before an item of case i runs: zswap as the case wants it, or as
 * found for a case that does not say (zswap is per case). */
void case_res_enter(const struct session *ss, size_t case_idx);

/* The cgroup directory the items of case i run in, or NULL. */
const char *case_res_cgroup(const struct session *ss, size_t case_idx);

#endif
