/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * env - what a results file says about the machine it came from: kernel
 * (uname -r and -v; kernel_config: "sha256:<64 hex>" of the config text,
 * from /proc/config.gz or /boot/config-<uname -r>, else null), hostname,
 * CPU model, nr_cpus, memory, NUMA nodes, glibc version, whether a
 * hardware PMU answers and what `-e tlb` stands for here (tlb_profile,
 * tlb_profile.h), the THP knobs and hugetlb pools as found (before the
 * run changed anything), start time.
 * compare.c decides from these whether two files are comparable.
 */
#ifndef THPBENCH_ENV_H
#define THPBENCH_ENV_H

#include <jansson.h>
#include <stdbool.h>

#include "system/settings.h"

/* Build the env object; snap is the settings snapshot taken before any
 * change (NULL: read the knobs now from sysfs_root). */
json_t *env_collect(const char *sysfs_root, const struct snapshot *snap);

/* True when this glibc knows GLIBC_TUNABLES=glibc.malloc.hugetlb. */
bool glibc_has_hugetlb_tunable(void);

/* True when a hardware cycles counter can be opened on this process. */
bool env_has_pmu(void);

#endif
