// SPDX-License-Identifier: GPL-2.0-only
/*
 * Physical backing of one THP or mTHP range, from /proc/self/pagemap and
 * /proc/kpageflags (both need CAP_SYS_ADMIN for frame numbers). This is a
 * second opinion next to smaps' AnonHugePages: it looks at the page
 * itself, not at the counter the kernel keeps for the mapping.
 */
#include "wl.h"

#include <string.h>

#include <errno.h>

#include <fcntl.h>
#include <unistd.h>

#define PM_PRESENT (1ULL << 63)
#define PM_PFN_MASK ((1ULL << 55) - 1)
#define KPF_COMPOUND_HEAD 15
#define KPF_COMPOUND_TAIL 16
#define KPF_THP 22

/*
 * Opened once per process: a child forked after the first call must not
 * read its parent's /proc/self/pagemap through the inherited fd.
 */
static int open_once(int *fd, pid_t *owner, const char *path)
{
	if (*fd != -1 && *owner != getpid()) {
		close(*fd);
		*fd = -1;
	}
	if (*fd == -1) {
		*fd = open(path, O_RDONLY | O_CLOEXEC);
		*owner = getpid();
	}
	return *fd;
}

static int read_u64(int fd, uint64_t index, uint64_t *v)
{
	ssize_t n = pread(fd, v, sizeof(*v), (off_t)(index * sizeof(*v)));

	return n == (ssize_t)sizeof(*v) ? 0 : -1;
}

static int pfn_of(int pm, uintptr_t vaddr, uint64_t *pfn)
{
	uint64_t e;

	if (read_u64(pm, vaddr / WL_BASE_PAGE, &e))
		return -1;
	*pfn = (e & PM_PRESENT) ? (e & PM_PFN_MASK) : 0;
	return 0;
}

int wl_pagemap_is_large(const void *addr, uint64_t size)
{
	static int pm = -1, kf = -1;
	static pid_t pm_owner, kf_owner;
	uintptr_t va = (uintptr_t)addr;
	uint64_t pages = size / WL_BASE_PAGE, first, last, mid, ff, lf, mf;

	if (open_once(&pm, &pm_owner, "/proc/self/pagemap") < 0 ||
	    open_once(&kf, &kf_owner, "/proc/kpageflags") < 0)
		return -1;
	if (pfn_of(pm, va, &first) ||
	    pfn_of(pm, va + size - WL_BASE_PAGE, &last))
		return -1;
	/* Without CAP_SYS_ADMIN pagemap reads frame 0: we cannot tell. */
	if (!first && !last)
		return -1;
	if (!first || last != first + pages - 1 || first % pages)
		return 0;
	/*
	 * Smaller folios side by side (32 mTHPs of 64 KiB from one free
	 * 2 MiB block) are contiguous too, head first and tail last: the
	 * middle page must be a tail as well. A folio of any smaller size
	 * starts at a multiple of it, so one of them would have its head
	 * there.
	 */
	if (pfn_of(pm, va + size / 2, &mid))
		return -1;
	if (mid != first + pages / 2)
		return 0;
	if (read_u64(kf, first, &ff) || read_u64(kf, last, &lf) ||
	    read_u64(kf, mid, &mf))
		return -1;
	return (ff & (1ULL << KPF_THP)) && (lf & (1ULL << KPF_THP)) &&
	       (ff & (1ULL << KPF_COMPOUND_HEAD)) &&
	       (lf & (1ULL << KPF_COMPOUND_TAIL)) &&
	       (mf & (1ULL << KPF_COMPOUND_TAIL));
}

int wl_pagemap_is_thp(const void *addr)
{
	return wl_pagemap_is_large(addr, WL_PMD_SIZE);
}

int wl_pagemap_pfn(const void *addr, uint64_t *pfn)
{
	static int pm = -1;
	static pid_t pm_owner;
	uint64_t e;

	if (open_once(&pm, &pm_owner, "/proc/self/pagemap") < 0 ||
	    read_u64(pm, (uintptr_t)addr / WL_BASE_PAGE, &e))
		return -1;
	if (!(e & PM_PRESENT))
		return 0;
	*pfn = e & PM_PFN_MASK;
	/* Without CAP_SYS_ADMIN a present page reads frame 0. */
	return *pfn ? 1 : -1;
}

int wl_pagemap_pfns(const void *addr, uint64_t pages, uint64_t *pfn)
{
	static int pm = -1;
	static pid_t pm_owner;
	uint64_t i, done = 0, seen = 0, present = 0;
	ssize_t got;
	size_t want;

	if (open_once(&pm, &pm_owner, "/proc/self/pagemap") < 0)
		return -1;
	while (done < pages) {
		want = (size_t)(pages - done < 4096 ? pages - done : 4096);
		got = pread(pm, pfn + done, want * sizeof(*pfn),
			    (off_t)(((uintptr_t)addr / WL_BASE_PAGE + done) *
				    sizeof(*pfn)));
		if (got != (ssize_t)(want * sizeof(*pfn)))
			return -1;
		for (i = done; i < done + want; i++) {
			present += !!(pfn[i] & PM_PRESENT);
			pfn[i] = (pfn[i] & PM_PRESENT) ? (pfn[i] & PM_PFN_MASK) : 0;
			seen += !!pfn[i];
		}
		done += want;
	}
	/* Without CAP_SYS_ADMIN every present page reads frame 0. */
	return present && !seen ? -1 : 0;
}

#define PM_SWAP (1ULL << 62)

long long wl_pagemap_swapped(const void *addr, uint64_t pages)
{
	static int pm = -1;
	static pid_t pm_owner;
	uint64_t e[512], i, done = 0;
	long long n = 0;
	ssize_t got;
	size_t want;

	if (open_once(&pm, &pm_owner, "/proc/self/pagemap") < 0)
		return -1;
	while (done < pages) {
		want = (size_t)(pages - done < 512 ? pages - done : 512);
		got = pread(pm, e, want * sizeof(*e),
			    (off_t)(((uintptr_t)addr / WL_BASE_PAGE + done) *
				    sizeof(*e)));
		if (got != (ssize_t)(want * sizeof(*e)))
			return -1;
		for (i = 0; i < want; i++)
			n += !!(e[i] & PM_SWAP);
		done += want;
	}
	return n;
}

int wl_pagemap_in_thp(const void *addr)
{
	static int kf = -1;
	static pid_t kf_owner;
	uint64_t pfn, flags;
	int r = wl_pagemap_pfn(addr, &pfn);

	if (r <= 0)
		return r;
	if (open_once(&kf, &kf_owner, "/proc/kpageflags") < 0 ||
	    read_u64(kf, pfn, &flags))
		return -1;
	return !!(flags & (1ULL << KPF_THP));
}

int wl_pagemap_swap_entries(const void *addr, uint64_t pages, uint64_t *ent)
{
	static int pm = -1;
	static pid_t pm_owner;
	uint64_t e[512], i, done = 0;
	ssize_t got;
	size_t want;

	if (open_once(&pm, &pm_owner, "/proc/self/pagemap") < 0)
		return -1;
	while (done < pages) {
		want = (size_t)(pages - done < 512 ? pages - done : 512);
		got = pread(pm, e, want * sizeof(*e),
			    (off_t)(((uintptr_t)addr / WL_BASE_PAGE + done) *
				    sizeof(*e)));
		if (got != (ssize_t)(want * sizeof(*e)))
			return -1;
		for (i = 0; i < want; i++) {
			ent[done + i] = (e[i] & PM_SWAP) ? e[i] & PM_PFN_MASK :
				       WL_NO_SWAP;
			/* type 0 offset 0 is a swap header: the entry is hidden */
			if (ent[done + i] == 0)
				return -1;
		}
		done += want;
	}
	return 0;
}

uint64_t wl_count_large(const void *p, uint64_t size, uint64_t chunk)
{
	uint64_t i, n = 0;
	int r;

	for (i = 0; i < size / chunk; i++) {
		errno = 0;
		r = wl_pagemap_is_large((const char *)p + i * chunk, chunk);
		if (r < 0)
			wl_die("pagemap/kpageflags cannot be read (%s; not root, "
			       "or memory short in a memcg at its limit): cannot "
			       "tell which chunks are large folios",
			       errno ? strerror(errno) : "a short read");
		n += r > 0;
	}
	return n;
}
