/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * hypervisor - which hypervisor this machine runs under, named from what
 * the kernel detected, and how page-table writes reach the hardware.
 *
 * Sources, most trusted first (each may be missing; the caller passes
 * what it could read, recorded text in tests):
 *   kernel log   "Hypervisor detected: NAME" (arch/x86/kernel/cpu/
 *                hypervisor.c), "Booting paravirtualized kernel on NAME",
 *                and PVM guest lines ("pvm-guest: ...", "pvm-...:
 *                detected ..."; "not detected" and the host module's
 *                "kvm-pvm:" lines say nothing about the guest)
 *   /sys/hypervisor/type and guest_type   (Xen: "xen", "PV"/"HVM"/"PVH")
 *   cpuinfo flags  "kvm_pvm_guest", "hypervisor"
 *   cpuid        leaf 0x40000000's signature. Read from user space it is
 *                not always the hypervisor the kernel talks to: a PVM
 *                guest's user mode runs on the real CPU, and its cpuid
 *                answers for whatever lies below (a PVM host was named
 *                "bhyve bhyve" that way). It names the hypervisor only
 *                when nothing above does, and is reported beside it.
 *
 * Page tables:
 *   emulated   every page-table write or TLB flush of the guest goes
 *              through the hypervisor: PVM (shadow page tables), Xen PV
 *              (page-table updates are validated hypercalls), QEMU TCG
 *              (a software MMU). Timings of page-table-heavy work measure
 *              the hypervisor, not the kernel (claims.h withholds them).
 *   nested     a VM with hardware two-level paging (EPT/NPT), presumed:
 *              KVM without EPT shadows page tables too, and a guest
 *              cannot see that. THPBENCH_PAGE_TABLES=emulated (or
 *              =nested) states what the operator knows.
 *   native     bare metal.
 */
#ifndef THPBENCH_HYPERVISOR_H
#define THPBENCH_HYPERVISOR_H

#include <stdbool.h>
#include <stddef.h>

enum page_tables {
	PT_NATIVE,
	PT_NESTED,
	PT_EMULATED,
};

struct hv_inputs {
	const char *kernel_log;		/* dmesg or /dev/kmsg text; NULL: unread */
	const char *sys_type;		/* /sys/hypervisor/type */
	const char *sys_guest_type;	/* /sys/hypervisor/guest_type */
	const char *cpu_flags;		/* /proc/cpuinfo "flags" value */
	const char *cpuid;		/* leaf 0x40000000 signature; "" none */
	const char *override;		/* THPBENCH_PAGE_TABLES, or NULL */
};

struct hv_facts {
	bool vm;
	char name[64];		/* "KVM", "PVM", "Xen PV", ...; "" on bare metal */
	char from[256];		/* what named it: "kernel log: Hypervisor detected: KVM" */
	char cpuid[16];		/* the signature as read, "" none */
	enum page_tables pt;
	char pt_why[320];	/* why pt is what it is */
};

/* Judge the inputs; never fails (what cannot be told is said in from/pt_why). */
void hypervisor_judge(const struct hv_inputs *in, struct hv_facts *f);

/* "native", "nested", "emulated" */
const char *page_tables_name(enum page_tables pt);

/* The hypervisor a cpuid signature belongs to ("KVMKVMKVM" -> "KVM"), or
 * NULL when it is not a known one. */
const char *hypervisor_of_signature(const char *sig);

#endif
