// SPDX-License-Identifier: GPL-2.0-only
/*
 * mremap - seed 000 (Arcangeli, "thp: mremap support and TLB
 * optimization", 2011): move a filled region to a fixed address and time
 * only the mremap() call. Three layouts:
 *
 *   aligned     source and destination 2 MiB aligned: with THP the kernel
 *               moves whole huge PMDs; without, since v5.0 (HAVE_MOVE_PMD,
 *               move_normal_pmd) whole page tables, so the two are alike;
 *   misaligned  the destination 4 KiB off 2 MiB alignment: huge PMDs cannot
 *               move whole and are split (thp_split_pmd), base pages move
 *               PTE by PTE;
 *   posting     the posting's program as it ran: posix_memalign'ed p, p2
 *               and a 4 KiB p3, mremap(p -> p3). glibc puts p3 right below
 *               p2, so the move replaces most of p2 and the timed call is
 *               dominated by unmapping what lies at the destination.
 *
 * --apart times the two things MREMAP_FIXED does one after the other:
 * unmapping whatever lies at the destination (munmap, unmap_usec), then
 * the move (move_usec); roi_usec is their sum. For the posting layout
 * that shows what its timed call measures: mostly the unmap of p2.
 *
 * The moved data is compared with a reference afterwards.
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
	"usage: mremap [--size SIZE] [--layout aligned|misaligned|posting]\n"
	"              [--apart] [--madvise] [--no-verify]\n"
	"  --size SIZE   region to move (k/m/g/t suffixes, multiple of 2M; default 1G)\n"
	"  --layout aligned     source and destination 2M aligned (default)\n"
	"  --layout misaligned  destination 4K off 2M alignment: huge PMDs are split\n"
	"  --layout posting     the posting's program: posix_memalign p, p2 (SIZE) and\n"
	"                       p3 (4K), mremap p onto p3, memcmp with p2. Its timed\n"
	"                       mremap mostly measures unmapping what lies at the\n"
	"                       destination (most of p2), not moving p. 2 x SIZE memory.\n"
	"  --apart       unmap the destination first, timed on its own (unmap_usec),\n"
	"                then move (move_usec); roi_usec is their sum\n"
	"  --madvise     MADV_HUGEPAGE the source (and p2; huge pages under 'madvise')\n"
	"  --no-verify   skip the reference copy and the memcmp (half the memory;\n"
	"                posting: only the memcmp)\n"
	"Times mremap(src, SIZE, SIZE, MREMAP_FIXED|MREMAP_MAYMOVE, dst) only.\n"
	"Prints 'layout NAME', 'usec N', 'thp_split_pmd N' and 'ok'; metrics\n"
	"roi_usec (--apart: also unmap_usec, move_usec), thp_split_pmd (vmstat\n"
	"delta over the mremap), src_anon_huge_kb,\n"
	"region_anon_huge_kb, rss_kb, anon_huge_kb, hugetlb_kb.\n"
	"Exit 0 ok, 1 failure, 2 usage.\n";

enum layout { LAYOUT_ALIGNED, LAYOUT_MISALIGNED, LAYOUT_POSTING };

static const char *const layout_names[] = { "aligned", "misaligned", "posting" };

struct opts {
	uint64_t size;
	enum layout layout;
	bool madvise;
	bool verify;
	bool apart;
};

/* What moves, where to, and what it is compared with afterwards. */
struct region {
	char *src, *dst, *ref;	/* ref: the reference to compare with */
};

static enum layout parse_layout(const char *arg)
{
	size_t i;

	for (i = 0; i < sizeof(layout_names) / sizeof(layout_names[0]); i++)
		if (!strcmp(arg, layout_names[i]))
			return (enum layout)i;
	wl_usage_error(usage, "--layout: '%s' is not aligned, misaligned or posting",
		       arg);
}

static void parse_args(int argc, char **argv, struct opts *o)
{
	static const struct option longopts[] = {
		{ "size", required_argument, NULL, 's' },
		{ "layout", required_argument, NULL, 'l' },
		{ "madvise", no_argument, NULL, 'M' },
		{ "no-verify", no_argument, NULL, 'n' },
		{ "apart", no_argument, NULL, 'a' },
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
		case 'l':
			o->layout = parse_layout(optarg);
			break;
		case 'M':
			o->madvise = true;
			break;
		case 'n':
			o->verify = false;
			break;
		case 'a':
			o->apart = true;
			break;
		default:
			wl_opt_fallback(c, usage);
		}
	}
	wl_no_operands(argc, argv, usage);
	if (o->size % WL_PMD_SIZE) {
		char pmd[32];

		wl_usage_error(usage, "--size must be a multiple of the PMD size "
			       "(%s here) so that every huge page can move whole",
			       wl_fmt_size(WL_PMD_SIZE, pmd, sizeof(pmd)));
	}
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

static void advise_huge(char *p, uint64_t size, const char *what)
{
	if (madvise(p, size, MADV_HUGEPAGE))
		wl_fail("madvise(MADV_HUGEPAGE) on the %s failed: %s", what,
			strerror(errno));
}

/* Twice a size near 2^64 would wrap and pass the check. */
static uint64_t twice(uint64_t size)
{
	return size > UINT64_MAX / 2 ? UINT64_MAX : 2 * size;
}

/*
 * aligned / misaligned. The destination is a PROT_NONE reservation: it
 * costs no memory, and MREMAP_FIXED then replaces only it, never a
 * neighbouring mapping as a small destination could. For misaligned it
 * is 2 MiB longer, and the destination starts 4 KiB into it.
 */
static void setup_own(const struct opts *o, struct region *r)
{
	bool mis = o->layout == LAYOUT_MISALIGNED;

	wl_check_memory(o->verify ? twice(o->size) : o->size,
			o->verify ? "--size (source + reference copy)" : "--size");
	r->src = map_or_fail(o->size, PROT_READ | PROT_WRITE, "source");
	r->dst = map_or_fail(o->size + (mis ? WL_PMD_SIZE : 0), PROT_NONE,
			     "destination");
	if (mis)
		r->dst += WL_BASE_PAGE;
	if (o->madvise)
		advise_huge(r->src, o->size, "source");
	fill(r->src, o->size);
	r->ref = NULL;
	if (o->verify) {
		r->ref = map_or_fail(o->size, PROT_READ | PROT_WRITE,
				     "reference copy");
		memcpy(r->ref, r->src, o->size);
	}
}

static char *memalign_or_fail(uint64_t size, const char *what)
{
	void *p;
	int err = posix_memalign(&p, WL_PMD_SIZE, size);

	if (err)
		wl_fail("posix_memalign of %s (%llu bytes) failed: %s", what,
			(unsigned long long)size, strerror(err));
	return p;
}

/*
 * The posting's program: p and p2 of SIZE, p3 of 4 KiB, all 2 MiB
 * aligned by posix_memalign; p and p2 filled with 0xff, p3 with 0x77.
 * p2 is the reference. Where p3 lands is glibc's choice, as it was.
 */
static void setup_posting(const struct opts *o, struct region *r)
{
	wl_check_memory(twice(o->size), "--size (--layout posting: p and p2)");
	r->src = memalign_or_fail(o->size, "p");
	r->ref = memalign_or_fail(o->size, "p2");
	r->dst = memalign_or_fail(WL_BASE_PAGE, "p3");
	if (o->madvise) {
		advise_huge(r->src, o->size, "source (p)");
		advise_huge(r->ref, o->size, "p2");
	}
	memset(r->src, 0xff, o->size);
	memset(r->ref, 0xff, o->size);
	memset(r->dst, 0x77, WL_BASE_PAGE);
	if (!o->verify)
		r->ref = NULL;
}

/*
 * AnonHugePages of [p, p + size). smaps sums whole VMAs, and the
 * posting's p and p2 are adjacent mappings that may share one, so there
 * each 2 MiB page is asked instead (pagemap + kpageflags: root; -1, not
 * reported, when they cannot be read).
 */
static long long huge_kb(const char *p, const struct opts *o)
{
	uint64_t off, huge = 0;
	int thp;

	if (o->layout != LAYOUT_POSTING)
		return wl_range_anon_huge_kb(p, o->size);
	for (off = 0; off < o->size; off += WL_PMD_SIZE) {
		thp = wl_pagemap_is_thp(p + off);
		if (thp < 0)
			return -1;
		huge += (uint64_t)thp;
	}
	return (long long)(huge * (WL_PMD_SIZE / WL_KIB));
}

static int read_split_pmd(uint64_t *v)
{
	static const char *const name[] = { "thp_split_pmd" };
	size_t missing = 1;

	return wl_vmstat_read(name, v, 1, &missing) || missing ? -1 : 0;
}

int main(int argc, char **argv)
{
	uint64_t split0 = 0, split1 = 0;
	struct region r;
	struct opts o;
	char *moved;
	double t0, tu, t1;
	int splits_ok;

	parse_args(argc, argv, &o);
	if (o.layout == LAYOUT_POSTING)
		setup_posting(&o, &r);
	else
		setup_own(&o, &r);
	printf("layout %s\n", layout_names[o.layout]);
	wl_report_kb("src_anon_huge_kb", huge_kb(r.src, &o));
	fflush(stdout);

	splits_ok = read_split_pmd(&split0) == 0;
	wl_roi_begin();
	t0 = wl_now_usec();
	if (o.apart && munmap(r.dst, o.size))
		wl_fail("munmap of the destination failed: %s", strerror(errno));
	tu = wl_now_usec();
	moved = mremap(r.src, o.size, o.size, MREMAP_FIXED | MREMAP_MAYMOVE, r.dst);
	t1 = wl_now_usec();
	wl_roi_end();
	splits_ok = splits_ok && read_split_pmd(&split1) == 0;

	if (moved == MAP_FAILED)
		wl_fail("mremap failed: %s", strerror(errno));
	if (moved != r.dst)
		wl_fail("mremap returned %p, not the fixed address %p",
			(void *)moved, (void *)r.dst);
	printf("usec %.0f\n", t1 - t0);
	wl_metric("roi_usec", t1 - t0);
	if (o.apart) {
		printf("unmap_usec %.0f\nmove_usec %.0f\n", tu - t0, t1 - tu);
		wl_metric("unmap_usec", tu - t0);
		wl_metric("move_usec", t1 - tu);
	}
	if (splits_ok) {
		printf("thp_split_pmd %llu\n", (unsigned long long)(split1 - split0));
		wl_metric("thp_split_pmd", (double)(split1 - split0));
	}
	wl_report_self_mem();
	wl_report_kb("region_anon_huge_kb", huge_kb(moved, &o));

	if (r.ref && memcmp(moved, r.ref, o.size)) {
		printf("mremap bug\n");
		wl_fail("the moved region differs from the reference");
	}
	printf("ok\n");
	return 0;
}
