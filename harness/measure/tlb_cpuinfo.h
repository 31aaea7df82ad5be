/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * tlb_cpuinfo - which TLB profile a CPU is, from /proc/cpuinfo, for the
 * models libpfm4 4.13 cannot detect: x86 vendor_id, cpu family, model;
 * arm64 CPU implementer and CPU part (the first CPU's; on a hybrid Intel
 * part every CPU reports the same model, and the P-core profile is
 * chosen, its notes saying so).
 */
#ifndef THPBENCH_TLB_CPUINFO_H
#define THPBENCH_TLB_CPUINFO_H

/* The profile key (tlb_profile.h) for the CPU that path describes
 * (NULL: $THPBENCH_CPUINFO, else /proc/cpuinfo); NULL when none fits or
 * the file cannot be read. */
const char *tlb_cpuinfo_key(const char *path);

#endif
