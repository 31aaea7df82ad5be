// SPDX-License-Identifier: GPL-2.0-only
/*
 * The base page and the PMD size of the running kernel, learned once at
 * run time instead of assumed: arm64 runs with 4K pages (2M PMDs), 16K
 * (32M) or 64K (512M); x86-64 with 4K (2M).
 *
 * Base page: sysconf(_SC_PAGESIZE). PMD size: the kernel's own
 * /sys/kernel/mm/transparent_hugepage/hpage_pmd_size; a kernel without
 * THP has no such file, and then it is what a page table page maps: a
 * page of 8-byte entries, each mapping a base page (4K * 512 = 2M,
 * 16K * 2048 = 32M, 64K * 8192 = 512M). THPBENCH_WL_SYSFS (a test's fake
 * root) replaces /sys.
 */
#include "wl.h"

#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

static uint64_t base_page, pmd_size;

uint64_t wl_page_size(void)
{
	if (!base_page) {
		long p = sysconf(_SC_PAGESIZE);

		/* A page size that is no power of two is no page size. */
		base_page = p > 0 && !(p & (p - 1)) ? (uint64_t)p : 4096;
	}
	return base_page;
}

/* hpage_pmd_size under ROOT, 0 when absent or not a power of two. */
static uint64_t read_pmd_size(const char *root)
{
	char path[512];
	unsigned long long v = 0;
	FILE *f;

	snprintf(path, sizeof(path), "%s/kernel/mm/transparent_hugepage/hpage_pmd_size", root);
	f = fopen(path, "r");
	if (!f)
		return 0;
	if (fscanf(f, "%llu", &v) != 1)
		v = 0;
	fclose(f);
	if (v < wl_page_size() || (v & (v - 1)))
		return 0;
	return v;
}

uint64_t wl_pmd_size(void)
{
	if (!pmd_size) {
		const char *root = getenv("THPBENCH_WL_SYSFS");

		pmd_size = read_pmd_size(root && *root ? root : "/sys");
		if (!pmd_size)
			pmd_size = wl_page_size() * (wl_page_size() / 8);
	}
	return pmd_size;
}
