// SPDX-License-Identifier: GPL-2.0-only
/*
 * split_pinned - a THP split that fails because the folio has extra
 * references (issue 30): thp_split_page_failed and the 2048kB size's
 * stats/split_failed.
 *
 * Kernel path: MADV_PAGEOUT of part of a PMD-mapped anonymous THP
 * (madvise_cold_or_pageout_pte_range) splits the folio first
 * (split_folio); a folio with references beyond its mappings
 * (can_split_folio) cannot be split, and the split is counted failed.
 * The extra references come from vmsplice(2): one 4 KiB page of each THP
 * is spliced (not gifted) into a pipe kept open until the end, and a pipe
 * buffer holds a reference on its page. No memory cgroup, no swap device
 * and no shrinker are needed: the split is tried synchronously in the
 * madvise.
 *
 * --no-pin is the control: the same THPs and pageout without the pipe;
 * the splits succeed (thp_split_page), which shows that the pin is what
 * makes them fail.
 *
 * Lower bounds, from our own memory: each THP of ours still huge
 * (pagemap/kpageflags) after the pageout had its split tried and refused,
 * so thp_split_page_failed and split_failed rose by at least that many;
 * under --no-pin each THP of ours no longer huge was split, so
 * thp_split_page rose by at least that many.
 */
#include "wl.h"

#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/uio.h>
#include <unistd.h>

#ifndef MADV_PAGEOUT
#define MADV_PAGEOUT 21
#endif

static const char usage[] =
	"usage: split_pinned [--count N] [--part SIZE] [--no-pin] [--min-huge N]\n"
	"  --count N     THPs of 2 MiB (1..256, default 64)\n"
	"  --part SIZE   MADV_PAGEOUT of the first SIZE of each (4K..1M, default 1M)\n"
	"  --no-pin      the control: no page of the THPs is spliced into a pipe\n"
	"  --min-huge N  THPs that must be huge before (default all)\n"
	"One 4 KiB page (the last) of each THP is vmspliced into a pipe kept\n"
	"open, then part of each THP is paged out: the split fails.\n"
	"Prints huge_before, still_huge, split (ours no longer huge), the\n"
	"thp_split_page(_failed) and split(_failed) deltas, usec. Exit 0 ok,\n"
	"1 the counters moved less than our THPs show, 2 usage, 3 not\n"
	"measurable here (no THPs, pagemap unreadable, no vmsplice).\n";

#define MAX_COUNT 256

struct opts {
	uint64_t count, part, min_huge;
	int no_pin;
};

static void parse_args(int argc, char **argv, struct opts *o)
{
	static const struct option longopts[] = {
		{ "count", required_argument, NULL, 'c' },
		{ "part", required_argument, NULL, 'p' },
		{ "no-pin", no_argument, NULL, 'n' },
		{ "min-huge", required_argument, NULL, 'm' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	int c, min_given = 0;

	*o = (struct opts){ .count = 64, .part = WL_MIB };
	while ((c = getopt_long(argc, argv, "", longopts, NULL)) != -1) {
		switch (c) {
		case 'c':
			o->count = wl_opt_count("--count", optarg, 1, MAX_COUNT, usage);
			break;
		case 'p':
			o->part = wl_opt_size("--part", optarg, usage);
			break;
		case 'n':
			o->no_pin = 1;
			break;
		case 'm':
			o->min_huge = wl_opt_count("--min-huge", optarg, 0,
						   MAX_COUNT, usage);
			min_given = 1;
			break;
		default:
			wl_opt_fallback(c, usage);
		}
	}
	wl_no_operands(argc, argv, usage);
	if (!o->part || o->part % WL_BASE_PAGE || o->part > WL_MIB)
		wl_usage_error(usage, "--part must be a multiple of 4K, 4K..1M");
	if (!min_given)
		o->min_huge = o->count;
	if (o->min_huge > o->count)
		wl_usage_error(usage, "--min-huge %llu is more than --count %llu",
			       (unsigned long long)o->min_huge,
			       (unsigned long long)o->count);
}

/* Every page marked, so that a lost or mixed-up page shows. */
static void fill(char *p, uint64_t count)
{
	uint64_t i;

	for (i = 0; i < count * WL_PMD_SIZE; i += WL_BASE_PAGE) {
		memset(p + i, 0x5a, WL_BASE_PAGE);
		p[i] = (char)((i / WL_BASE_PAGE) | 1);
	}
}

static void verify_fill(const char *p, uint64_t count)
{
	uint64_t i;

	for (i = 0; i < count * WL_PMD_SIZE; i += WL_BASE_PAGE)
		if (p[i] != (char)((i / WL_BASE_PAGE) | 1) ||
		    p[i + WL_BASE_PAGE - 1] != 0x5a)
			wl_fail("page at offset %llu lost its contents",
				(unsigned long long)i);
}

/* The page of THP i that the pipe holds: its last. */
static char *pinned_page(char *p, uint64_t i)
{
	return p + (i + 1) * WL_PMD_SIZE - WL_BASE_PAGE;
}

/* Splice one page of each THP into a pipe big enough to hold them all. */
static void pin_pages(int *fds, char *p, uint64_t count)
{
	struct iovec iov;
	uint64_t i;
	ssize_t n;

	if (pipe(fds))
		wl_fail("pipe: %s", strerror(errno));
	if (fcntl(fds[1], F_SETPIPE_SZ, (int)(count * WL_BASE_PAGE)) < 0)
		wl_invalid("not measurable here: a pipe of %llu pages: %s "
			   "(/proc/sys/fs/pipe-max-size)",
			   (unsigned long long)count, strerror(errno));
	for (i = 0; i < count; i++) {
		iov = (struct iovec){ pinned_page(p, i), WL_BASE_PAGE };
		n = vmsplice(fds[1], &iov, 1, 0);
		if (n != (ssize_t)WL_BASE_PAGE)
			wl_invalid("not measurable here: vmsplice of THP %llu's "
				   "page: %s", (unsigned long long)i,
				   n < 0 ? strerror(errno) : "short");
	}
}

/* The pipe gives back each page as it was when spliced. */
static void verify_pipe(int fd, char *p, uint64_t count)
{
	static char buf[WL_BASE_PAGE_MAX];
	size_t n = WL_BASE_PAGE;
	uint64_t i;

	for (i = 0; i < count; i++) {
		if (read(fd, buf, n) != (ssize_t)n)
			wl_fail("reading back THP %llu's page from the pipe: %s",
				(unsigned long long)i, strerror(errno));
		if (memcmp(buf, pinned_page(p, i), n))
			wl_fail("the pipe's copy of THP %llu's page differs",
				(unsigned long long)i);
	}
}

static uint64_t count_huge(const char *p, uint64_t count, unsigned char *huge)
{
	uint64_t i, n = 0;
	int r;

	for (i = 0; i < count; i++) {
		r = wl_pagemap_is_thp(p + i * WL_PMD_SIZE);
		if (r < 0)
			wl_invalid("not measurable here: pagemap/kpageflags "
				   "unreadable (needs root)");
		if (huge)
			huge[i] = (unsigned char)r;
		n += (uint64_t)r;
	}
	return n;
}

static const char *const vm_names[] = { "thp_split_page", "thp_split_page_failed" };
#define NVM (sizeof(vm_names) / sizeof(vm_names[0]))
static const char *const st_names[] = { "split", "split_failed" };
#define NST (sizeof(st_names) / sizeof(st_names[0]))

static void read_stats(uint64_t *vm, long long *st)
{
	char path[160], buf[64];
	size_t i;
	FILE *f;

	if (wl_vmstat_read(vm_names, vm, NVM, NULL))
		wl_die("cannot read /proc/vmstat: its counters are the evidence");
	for (i = 0; i < NST; i++) {
		snprintf(path, sizeof(path), "/sys/kernel/mm/transparent_hugepage/"
			 "hugepages-2048kB/stats/%s", st_names[i]);
		st[i] = -1;
		f = fopen(path, "r");
		if (f && fgets(buf, sizeof(buf), f))
			st[i] = strtoll(buf, NULL, 10);
		if (f)
			fclose(f);
	}
}

static void report(const char *name, long long v)
{
	if (v < 0)
		return;
	printf("%s %lld\n", name, v);
	wl_metric(name, (double)v);
}

/* The region of interest: one MADV_PAGEOUT of part of each THP. */
static void pageout(char *p, const struct opts *o)
{
	double t0, t1;
	uint64_t i;

	wl_roi_begin();
	t0 = wl_now_usec();
	for (i = 0; i < o->count; i++)
		if (madvise(p + i * WL_PMD_SIZE, o->part, MADV_PAGEOUT))
			wl_invalid("not measurable here: MADV_PAGEOUT: %s "
				   "(kernel before 5.4?)", strerror(errno));
	t1 = wl_now_usec();
	wl_roi_end();
	printf("usec %.0f\n", t1 - t0);
	wl_metric("roi_usec", t1 - t0);
}

/* Our THPs that were huge and are huge no more: split. */
static uint64_t count_split(const char *p, uint64_t count, const unsigned char *huge)
{
	uint64_t i, n = 0;

	for (i = 0; i < count; i++)
		if (huge[i] && wl_pagemap_in_thp(p + i * WL_PMD_SIZE) == 0)
			n++;
	return n;
}

static void check_at_least(const char *what, long long got, uint64_t want,
			   const char *why)
{
	if (got < 0)
		return;
	if ((uint64_t)got < want)
		wl_fail("%s rose by %lld, but %llu of our THPs %s", what, got,
			(unsigned long long)want, why);
}

int main(int argc, char **argv)
{
	uint64_t vm0[NVM], vm1[NVM], huge, still, split;
	long long st0[NST], st1[NST], dst[NST];
	unsigned char huge_at[MAX_COUNT];
	int fds[2] = { -1, -1 };
	struct opts o;
	size_t i;
	char *p;

	parse_args(argc, argv, &o);
	wl_check_memory(o.count * WL_PMD_SIZE, "--count THPs of 2 MiB");
	p = wl_map_aligned(o.count * WL_PMD_SIZE, WL_PMD_SIZE,
			   PROT_READ | PROT_WRITE);
	if (!p)
		wl_fail("mmap of %llu THPs failed: %s",
			(unsigned long long)o.count, strerror(errno));
	if (madvise(p, o.count * WL_PMD_SIZE, MADV_HUGEPAGE))
		wl_fail("madvise(MADV_HUGEPAGE) failed: %s", strerror(errno));
	fill(p, o.count);
	huge = count_huge(p, o.count, huge_at);
	report("huge_before", (long long)huge);
	if (huge < o.min_huge || !huge)
		wl_invalid("only %llu of %llu pages were THPs (--min-huge %llu): "
			   "THP enabled never, or no huge pages free",
			   (unsigned long long)huge, (unsigned long long)o.count,
			   (unsigned long long)o.min_huge);
	if (!o.no_pin)
		pin_pages(fds, p, o.count);
	read_stats(vm0, st0);
	pageout(p, &o);
	read_stats(vm1, st1);
	for (i = 0; i < NVM; i++)
		report(vm_names[i], (long long)(vm1[i] - vm0[i]));
	for (i = 0; i < NST; i++) {
		dst[i] = st0[i] < 0 || st1[i] < 0 ? -1 : st1[i] - st0[i];
		report(st_names[i], dst[i]);
	}
	still = count_huge(p, o.count, NULL);
	split = count_split(p, o.count, huge_at);
	report("still_huge", (long long)still);
	report("split_ours", (long long)split);
	wl_report_self_mem();
	verify_fill(p, o.count);
	if (o.no_pin) {
		check_at_least("thp_split_page", (long long)(vm1[0] - vm0[0]),
			       split, "were split");
		check_at_least("split (2048kB)", dst[0], split, "were split");
	} else {
		verify_pipe(fds[0], p, o.count);
		if (!still)
			wl_fail("none of %llu THPs with a page in a pipe is huge "
				"after the pageout: the pin did not stop the split",
				(unsigned long long)huge);
		check_at_least("thp_split_page_failed",
			       (long long)(vm1[1] - vm0[1]), still,
			       "with a pinned page are still huge");
		check_at_least("split_failed (2048kB)", dst[1], still,
			       "with a pinned page are still huge");
		close(fds[0]);
		close(fds[1]);
	}
	printf("ok\n");
	return 0;
}
