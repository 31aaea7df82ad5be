/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * lava_job - the one writer of the LAVA job definitions thpbench submits
 * (configs/lava/README.md): deploy a kernel and thpbench's initramfs,
 * boot it to the shell init.c starts (thpbench.shell=1, prompt
 * "thpbench-lava# "), run /bin/thpbench-lava-test as an inline test
 * definition (kernel-patches/init/lava-test.sh).
 *
 * Boot methods:
 *   qemu     deploy to tmpfs; the ramdisk is a gzip'd newc cpio and LAVA
 *            appends its overlay to it (overlays: lava: true), so no
 *            guestfs image is made; the kernel command line goes in the
 *            kernel's image_arg
 *   u-boot, grub, ipxe   bare metal: deploy to tftp (the lab's
 *            dispatcher serves it), boot the "ramdisk" commands of the
 *            device type, the kernel command line in context
 *            extra_kernel_args (which LAVA's base templates append); the
 *            overlay goes into the ramdisk (LAVA unpacks and repacks it)
 * The document is JSON, which is YAML too: every string is quoted and
 * escaped by jansson, so no value can add a key or end the document.
 *
 * What is checked (lava_job_check, before anything is written):
 *   image locations are http(s):// URLs, or absolute paths written as
 *   file:// URLs, with no blank, quote or control character;
 *   the kernel command line and the label hold only [A-Za-z0-9._,=:/+-]
 *   and blanks (LAVA puts the command line into qemu's shell command);
 *   names, the device type and metadata keys are lava_token words;
 *   timeouts are 1..10080 minutes.
 */
#ifndef THPBENCH_LAVA_JOB_H
#define THPBENCH_LAVA_JOB_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

enum lava_boot { LAVA_BOOT_QEMU, LAVA_BOOT_UBOOT, LAVA_BOOT_GRUB, LAVA_BOOT_IPXE };

#define LAVA_JOB_META_MAX 16

struct lava_job {
	const char *name;		/* job_name */
	const char *device_type;	/* "qemu", or the lab's type */
	enum lava_boot boot;
	const char *kernel;		/* URL or absolute path */
	const char *ramdisk;
	const char *cmdline;		/* kernel command line (without thpbench.*) */
	const char *label;		/* thpbench.label= (A, B, a commit) */
	const char *arch;		/* context arch, "amd64" or "arm64" */
	bool no_kvm;			/* context no_kvm: qemu under TCG */
	int timeout_min;		/* the test action's; the job gets 30 more */
	const char *meta_key[LAVA_JOB_META_MAX];
	const char *meta_val[LAVA_JOB_META_MAX];
	size_t nmeta;
};

/* 0, or -1 with the reason in err. */
int lava_job_check(const struct lava_job *j, char *err, size_t errlen);
/* 0, or -1 (lava_job_check's refusal, or a write error) with err. */
int lava_job_write(FILE *f, const struct lava_job *j, char *err, size_t errlen);
/* "qemu", "u-boot", "grub", "ipxe" -> enum; -1 for anything else. */
int lava_boot_parse(const char *s);

#endif
