// SPDX-License-Identifier: GPL-2.0-only
/*
 * Is a 2 MiB range mapped by the huge zero page? pagemap gives the frame
 * a PMD maps (the huge zero folio's for a read fault on untouched THP
 * memory with use_zero_page on), /proc/kpageflags marks that folio
 * KPF_ZERO_PAGE (fs/proc/page.c: is_huge_zero_folio()). Both need
 * CAP_SYS_ADMIN. This looks at the mapping itself: thp_zero_page_alloc
 * moves only the first time the kernel allocates the huge zero folio,
 * so it cannot say that a given range maps it.
 */
#include "wl.h"

#include <fcntl.h>
#include <unistd.h>

#define PM_PRESENT (1ULL << 63)
#define PM_PFN_MASK ((1ULL << 55) - 1)
#define KPF_ZERO_PAGE 24

/* Opened once per process (a forked child reopens its own pagemap). */
struct cached_fd {
	int fd;
	pid_t owner;
};

static int pread_u64(const char *path, struct cached_fd *c, uint64_t index,
		     uint64_t *v)
{
	int *fd = &c->fd;

	if (*fd != -1 && c->owner != getpid()) {
		close(*fd);
		*fd = -1;
	}
	if (*fd == -1) {
		*fd = open(path, O_RDONLY | O_CLOEXEC);
		c->owner = getpid();
	}
	if (*fd < 0)
		return -1;
	return pread(*fd, v, sizeof(*v), (off_t)(index * sizeof(*v))) ==
	       (ssize_t)sizeof(*v) ? 0 : -1;
}

int wl_pagemap_huge_zero(const void *addr, uint64_t *pfn)
{
	static struct cached_fd pm = { -1, 0 }, kf = { -1, 0 };
	uintptr_t va = (uintptr_t)addr;
	uint64_t first, last, flags;

	if (pread_u64("/proc/self/pagemap", &pm, va / WL_BASE_PAGE, &first) ||
	    pread_u64("/proc/self/pagemap", &pm,
		      (va + WL_PMD_SIZE) / WL_BASE_PAGE - 1, &last))
		return -1;
	if (!(first & PM_PRESENT) || !(last & PM_PRESENT))
		return 0;
	first &= PM_PFN_MASK;
	last &= PM_PFN_MASK;
	/* Without CAP_SYS_ADMIN the frames read 0: we cannot tell. */
	if (!first && !last)
		return -1;
	*pfn = first;
	if (last != first + WL_PMD_SIZE / WL_BASE_PAGE - 1 ||
	    first % (WL_PMD_SIZE / WL_BASE_PAGE))
		return 0;
	if (pread_u64("/proc/kpageflags", &kf, first, &flags))
		return -1;
	return !!(flags & (1ULL << KPF_ZERO_PAGE));
}
