/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * platform - the facts about this machine that bound what a claim can
 * show: virtual machine or bare metal, free page reporting, NUMA nodes,
 * a usable PMU, the kernel. The claim table prints them above its rows,
 * and a claim that depends on one of them carries a caveat (claims.h).
 *
 * platform_collect() returns {"virt": {"vm": bool, "how": "..."},
 * "page_reporting": {"on": bool, "order": N}} read below `root` (a fake
 * tree in tests: root/proc/cpuinfo is not used, the hypervisor signature
 * comes from cpuid; root/sys/... is read for DMI, virtio and the
 * page_reporting module). A fact that cannot be read is left out.
 */
#ifndef THPBENCH_PLATFORM_H
#define THPBENCH_PLATFORM_H

#include <jansson.h>
#include <stdbool.h>

/* root "" or NULL: the real machine. */
json_t *platform_collect(const char *root);

/* Whether a virtio balloon with free page reporting is bound, below root. */
bool platform_page_reporting(const char *root, long *order);

#endif
