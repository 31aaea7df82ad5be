// SPDX-License-Identifier: GPL-2.0-only
/*
 * Aligned anonymous mappings. A PMD can map a THP only where the virtual
 * range is 2 MiB aligned (and mremap can move a huge PMD only between two
 * aligned addresses), so workloads ask for alignment explicitly instead
 * of hoping malloc provides it.
 */
#include "wl.h"

#include <errno.h>
#include <stdint.h>
#include <sys/mman.h>

void *wl_map_aligned(size_t len, size_t align, int prot)
{
	size_t span = len + align, head, tail;
	uintptr_t base, start;
	void *p;

	if (!len || !align || (align & (align - 1)) || span < len) {
		errno = EINVAL;
		return NULL;
	}
	p = mmap(NULL, span, prot, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (p == MAP_FAILED)
		return NULL;
	base = (uintptr_t)p;
	start = (base + align - 1) & ~(uintptr_t)(align - 1);
	head = start - base;
	tail = span - head - len;
	if (head)
		munmap(p, head);
	if (tail)
		munmap((void *)(start + len), tail);
	return (void *)start;
}
