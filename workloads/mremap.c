// SPDX-License-Identifier: GPL-2.0-only
/*
 * mremap - seed 000 (Arcangeli, "thp: mremap support and TLB
 * optimization", 2011): move a filled, 2 MiB-aligned region to a fixed
 * 2 MiB-aligned address and time only the mremap() call. With THP the
 * kernel can move whole huge PMDs; without, it moves page tables or PTEs.
 * The moved data is compared with a reference copy afterwards.
 */
#include "wl.h"

#include <errno.h>
#include <getopt.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

static const char usage[] =
	"usage: mremap [--size SIZE] [--madvise] [--no-verify]\n"
	"  --size SIZE   region to move (k/m/g/t suffixes, multiple of 2M; default 1G)\n"
	"  --madvise     MADV_HUGEPAGE the source (huge pages under THP 'madvise')\n"
	"  --no-verify   skip the reference copy and the memcmp (half the memory)\n"
	"Times mremap(src, SIZE, SIZE, MREMAP_FIXED|MREMAP_MAYMOVE, dst) only.\n"
	"Prints 'usec N' and 'ok'; metrics roi_usec, region_anon_huge_kb,\n"
	"rss_kb, anon_huge_kb, hugetlb_kb. Exit 0 ok, 1 failure, 2 usage.\n";

struct opts {
	uint64_t size;
	bool madvise;
	bool verify;
};

static void parse_args(int argc, char **argv, struct opts *o)
{
	static const struct option longopts[] = {
		{ "size", required_argument, NULL, 's' },
		{ "madvise", no_argument, NULL, 'M' },
		{ "no-verify", no_argument, NULL, 'n' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	int c;

	*o = (struct opts){ .size = WL_GIB, .verify = true };
	while ((c = getopt_long(argc, argv, "", longopts, NULL)) != -1) {
		switch (c) {
		case 's':
			o->size = wl_opt_size("--size", optarg, usage);
			break;
		case 'M':
			o->madvise = true;
			break;
		case 'n':
			o->verify = false;
			break;
		default:
			wl_opt_fallback(c, usage);
		}
	}
	wl_no_operands(argc, argv, usage);
	if (o->size % WL_PMD_SIZE)
		wl_usage_error(usage, "--size must be a multiple of 2M (a PMD) so "
			       "that every huge page can move whole");
}

/*
 * Each 4 KiB page carries its own index, so pages that moved to the wrong
 * place fail the memcmp, not only pages that were lost (the posting's
 * uniform 0xff would only catch the latter).
 */
static void fill(char *p, uint64_t size)
{
	uint64_t i;

	memset(p, 0xff, size);
	for (i = 0; i < size / WL_BASE_PAGE; i++) {
		memcpy(p + i * WL_BASE_PAGE, &i, sizeof(i));
		memcpy(p + i * WL_BASE_PAGE + WL_BASE_PAGE / 2, &i, sizeof(i));
	}
}

static char *map_or_fail(uint64_t size, int prot, const char *what)
{
	char *p = wl_map_aligned(size, WL_PMD_SIZE, prot);

	if (!p)
		wl_fail("mmap of the %s (%llu bytes) failed: %s", what,
			(unsigned long long)size, strerror(errno));
	return p;
}

int main(int argc, char **argv)
{
	struct opts o;
	char *src, *dst, *ref = NULL, *moved;
	double t0, t1;

	parse_args(argc, argv, &o);
	/* Twice a size near 2^64 would wrap and pass the check. */
	wl_check_memory(!o.verify ? o.size :
			o.size > UINT64_MAX / 2 ? UINT64_MAX : 2 * o.size,
			o.verify ? "--size (source + reference copy)" : "--size");

	src = map_or_fail(o.size, PROT_READ | PROT_WRITE, "source");
	/*
	 * The destination is a PROT_NONE reservation of the full size: it
	 * costs no memory, and MREMAP_FIXED then replaces only it, never a
	 * neighbouring mapping as a small destination could.
	 */
	dst = map_or_fail(o.size, PROT_NONE, "destination");
	if (o.madvise && madvise(src, o.size, MADV_HUGEPAGE))
		wl_fail("madvise(MADV_HUGEPAGE) on the source failed: %s",
			strerror(errno));
	fill(src, o.size);
	if (o.verify) {
		ref = map_or_fail(o.size, PROT_READ | PROT_WRITE, "reference copy");
		memcpy(ref, src, o.size);
	}

	wl_roi_begin();
	t0 = wl_now_usec();
	moved = mremap(src, o.size, o.size, MREMAP_FIXED | MREMAP_MAYMOVE, dst);
	t1 = wl_now_usec();
	wl_roi_end();

	if (moved == MAP_FAILED)
		wl_fail("mremap failed: %s", strerror(errno));
	if (moved != dst)
		wl_fail("mremap returned %p, not the fixed address %p",
			(void *)moved, (void *)dst);
	printf("usec %.0f\n", t1 - t0);
	wl_metric("roi_usec", t1 - t0);
	wl_report_self_mem();
	wl_report_kb("region_anon_huge_kb", wl_range_anon_huge_kb(dst, o.size));

	if (o.verify && memcmp(moved, ref, o.size)) {
		printf("mremap bug\n");
		wl_fail("the moved region differs from the reference copy");
	}
	printf("ok\n");
	return 0;
}
