/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * platform - the facts about this machine that bound what a claim can
 * show: virtual machine or bare metal, free page reporting, NUMA nodes,
 * a usable PMU, the kernel. The claim table prints them above its rows,
 * and a claim that depends on one of them carries a caveat (claims.h).
 *
 * platform_collect() returns
 *   {"virt": {"vm": bool, "how": "DMI ...", "hypervisor": "KVM",
 *             "from": "kernel log: Hypervisor detected: KVM",
 *             "cpuid": "KVMKVMKVM"},
 *    "page_tables": {"mode": "native"|"nested"|"emulated", "why": "..."},
 *    "page_reporting": {"on": bool, "order": N}}
 * read below `root` (a fake tree in tests: root/dev/kmsg may be a plain
 * file of kernel log lines, root/proc/cpuinfo and root/sys/... are read;
 * the cpuid signature is read only on the real machine, root "" or NULL).
 * The hypervisor and page tables are judged by hypervisor.h; the
 * environment variable THPBENCH_PAGE_TABLES=emulated|nested overrides
 * the page-table mode. A fact that cannot be read is left out.
 */
#ifndef THPBENCH_PLATFORM_H
#define THPBENCH_PLATFORM_H

#include <jansson.h>
#include <stdbool.h>

/* root "" or NULL: the real machine; NULL with $THPBENCH_PLATFORM_ROOT
 * set: that fake tree (tests: another host, a PVM guest say). */
json_t *platform_collect(const char *root);

/* Whether a virtio balloon with free page reporting is bound, below root. */
bool platform_page_reporting(const char *root, long *order);

#endif
