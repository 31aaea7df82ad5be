// SPDX-License-Identifier: GPL-2.0-only
/*
 * clear_huge_page - seed 001 (Arora, "x86/clear_huge_page: multi-page
 * clearing", 2023): demand-fault a large huge-page region and report the
 * bandwidth. Every first touch of a huge page makes the kernel zero all of
 * it (clear_huge_page / folio_zero_user), so the fault loop measures huge
 * page clearing. hugetlb pages come from the pool (MAP_HUGETLB); THP mode
 * uses anonymous memory with MADV_HUGEPAGE (2 MiB only).
 */
#include "wl.h"

#include <errno.h>
#include <getopt.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <time.h>

#ifndef MAP_HUGE_SHIFT
#define MAP_HUGE_SHIFT 26
#endif

#define PATTERN 0x5a

static const char usage[] =
	"usage: clear_huge_page [--size SIZE] [--page-size 2M|1G]\n"
	"                       [--touch base|huge] [--mode hugetlb|thp] [--passes N]\n"
	"  --size SIZE       region to fault (multiple of the page size; default 1G)\n"
	"  --page-size 2M|1G huge page size (default 2M; thp mode: 2M only)\n"
	"  --touch huge      write one byte per huge page (default)\n"
	"  --touch base      write one byte per 4 KiB base page\n"
	"  --mode hugetlb    MAP_HUGETLB from the pool, which must hold SIZE (default)\n"
	"  --mode thp        anonymous memory with MADV_HUGEPAGE\n"
	"  --passes N        map, fault, verify and unmap N times (default 1); the\n"
	"                    figures are the last pass's, pass1_gbps pass 1's\n"
	"Times the demand-fault loop only. Prints 'usec N', 'gbps X' (GiB/s);\n"
	"metrics roi_usec, gbps, pass1_gbps, gbps_cpu (GiB per thread CPU second),\n"
	"user_clear_gbps (memset 0 of the faulted region), clear_vs_user (gbps /\n"
	"user_clear_gbps), pages, hugetlb_pages (hugetlb), region_anon_huge_kb\n"
	"(thp), rss_kb, anon_huge_kb, hugetlb_kb. Exit 0 ok, 1 failure (also: pool\n"
	"too small), 2 usage, 3 thp mode got fewer THPs than pages.\n";

enum mode { MODE_HUGETLB, MODE_THP };

struct opts {
	uint64_t size;
	uint64_t page_size;
	bool touch_base;
	enum mode mode;
	uint64_t passes;
};

/* One pass's fault loop. */
struct pass {
	double usec;		/* wall */
	double cpu_usec;	/* this thread's CPU time (user + system) */
};

static void parse_enum(const char *opt, const char *arg, const char *a,
		       const char *b, bool *is_b)
{
	if (!strcmp(arg, a))
		*is_b = false;
	else if (!strcmp(arg, b))
		*is_b = true;
	else
		wl_usage_error(usage, "%s: '%s' is neither %s nor %s", opt, arg,
			       a, b);
}

static void check_opts(const struct opts *o)
{
	char buf[32];

	if (o->page_size != WL_PMD_SIZE && o->page_size != WL_GIB)
		wl_usage_error(usage, "--page-size: %s is not 2M or 1G",
			       wl_fmt_size(o->page_size, buf, sizeof(buf)));
	if (o->mode == MODE_THP && o->page_size != WL_PMD_SIZE)
		wl_usage_error(usage, "--mode thp: anonymous THPs are 2M; "
			       "use --mode hugetlb for 1G pages");
	if (o->size % o->page_size)
		wl_usage_error(usage, "--size must be a multiple of --page-size (%s)",
			       wl_fmt_size(o->page_size, buf, sizeof(buf)));
}

static void parse_args(int argc, char **argv, struct opts *o)
{
	static const struct option longopts[] = {
		{ "size", required_argument, NULL, 's' },
		{ "page-size", required_argument, NULL, 'p' },
		{ "touch", required_argument, NULL, 't' },
		{ "mode", required_argument, NULL, 'm' },
		{ "passes", required_argument, NULL, 'P' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	bool thp = false;
	int c;

	*o = (struct opts){ .size = WL_GIB, .page_size = WL_PMD_SIZE, .passes = 1 };
	while ((c = getopt_long(argc, argv, "", longopts, NULL)) != -1) {
		switch (c) {
		case 's':
			o->size = wl_opt_size("--size", optarg, usage);
			break;
		case 'p':
			o->page_size = wl_opt_size("--page-size", optarg, usage);
			break;
		case 't':
			parse_enum("--touch", optarg, "huge", "base", &o->touch_base);
			break;
		case 'm':
			parse_enum("--mode", optarg, "hugetlb", "thp", &thp);
			o->mode = thp ? MODE_THP : MODE_HUGETLB;
			break;
		case 'P':
			o->passes = wl_opt_count("--passes", optarg, 1, 1000, usage);
			break;
		default:
			wl_opt_fallback(c, usage);
		}
	}
	wl_no_operands(argc, argv, usage);
	check_opts(o);
}

static const char *pool_dir(uint64_t page_size, char *buf, size_t len)
{
	snprintf(buf, len, "/sys/kernel/mm/hugepages/hugepages-%llukB",
		 (unsigned long long)(page_size / 1024));
	return buf;
}

static char *map_hugetlb(const struct opts *o)
{
	int shift = o->page_size == WL_GIB ? 30 : 21;
	uint64_t need = o->size / o->page_size;
	char dir[96], buf[32];
	void *p;

	p = mmap(NULL, o->size, PROT_READ | PROT_WRITE,
		 MAP_PRIVATE | MAP_ANONYMOUS | MAP_HUGETLB |
			 (shift << MAP_HUGE_SHIFT),
		 -1, 0);
	if (p != MAP_FAILED)
		return p;
	wl_fail("mmap(MAP_HUGETLB) of %llu x %s pages failed: %s; the pool has "
		"%ld free, it needs %llu free %s pages (as root: echo %llu > "
		"%s/nr_hugepages, or let thpbench reserve them)",
		(unsigned long long)need,
		wl_fmt_size(o->page_size, buf, sizeof(buf)), strerror(errno),
		wl_hugetlb_free(o->page_size), (unsigned long long)need, buf,
		(unsigned long long)need,
		pool_dir(o->page_size, dir, sizeof(dir)));
}

static char *map_region(const struct opts *o)
{
	char dir[96], buf[32];
	char *p;

	if (o->mode == MODE_HUGETLB) {
		wl_check_memory_total(o->size, "--size");
		if (wl_hugetlb_total(o->page_size) < 0)
			wl_die("this kernel has no hugetlb pool of %s pages "
			       "(no %s); try --page-size 2M",
			       wl_fmt_size(o->page_size, buf, sizeof(buf)),
			       pool_dir(o->page_size, dir, sizeof(dir)));
		return map_hugetlb(o);
	}
	wl_check_memory(o->size, "--size");
	p = wl_map_aligned(o->size, WL_PMD_SIZE, PROT_READ | PROT_WRITE);
	if (!p)
		wl_fail("mmap of %llu bytes failed: %s",
			(unsigned long long)o->size, strerror(errno));
	if (madvise(p, o->size, MADV_HUGEPAGE))
		wl_fail("madvise(MADV_HUGEPAGE) failed: %s (is THP built in?)",
			strerror(errno));
	return p;
}

/* The faults: the first write to each huge page clears all of it. */
static void touch(volatile char *p, uint64_t size, uint64_t step)
{
	uint64_t off;

	for (off = 0; off < size; off += step)
		p[off] = PATTERN;
}

static void expect_byte(const char *p, uint64_t off, int want)
{
	if ((unsigned char)p[off] != want)
		wl_fail("verification: byte at offset %llu reads 0x%02x, "
			"expected 0x%02x",
			(unsigned long long)off, (unsigned char)p[off], want);
}

/*
 * Each base page's first byte is the pattern where touched and zero
 * elsewhere; its middle and last bytes are zero; and in each huge page
 * one whole base page (a different one each time) is zero past byte 0.
 */
static void verify(const char *p, const struct opts *o)
{
	static const char zero[WL_BASE_PAGE_MAX];
	uint64_t per_huge = o->page_size / WL_BASE_PAGE, i, off;

	for (off = 0; off < o->size; off += WL_BASE_PAGE) {
		bool touched = o->touch_base || off % o->page_size == 0;

		expect_byte(p, off, touched ? PATTERN : 0);
		expect_byte(p, off + WL_BASE_PAGE / 2, 0);
		expect_byte(p, off + WL_BASE_PAGE - 1, 0);
	}
	for (i = 0; i < o->size / o->page_size; i++) {
		off = i * o->page_size + (i * 7919 % per_huge) * WL_BASE_PAGE;
		if (memcmp(p + off + 1, zero, WL_BASE_PAGE - 1))
			wl_fail("verification: the base page at offset %llu "
				"was not cleared", (unsigned long long)off);
	}
}

static void report_backing(const struct opts *o, char *p, long free_before)
{
	uint64_t pages = o->size / o->page_size;
	long long region_kb;
	long free_after;

	wl_report_self_mem();
	if (o->mode == MODE_HUGETLB) {
		free_after = wl_hugetlb_free(o->page_size);
		if (free_before >= 0 && free_after >= 0) {
			printf("hugetlb_pages %ld\n", free_before - free_after);
			wl_metric("hugetlb_pages", (double)(free_before - free_after));
		}
		return;
	}
	region_kb = wl_range_anon_huge_kb(p, o->size);
	wl_report_kb("region_anon_huge_kb", region_kb);
	if (region_kb >= 0 && (uint64_t)region_kb < o->size / 1024)
		wl_invalid("only %lld of %llu kB (%llu THPs) were THP-backed; "
			   "check /sys/kernel/mm/transparent_hugepage/enabled "
			   "and defrag", region_kb,
			   (unsigned long long)(o->size / 1024),
			   (unsigned long long)pages);
}

static double thread_cpu_usec(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
	return ts.tv_sec * 1e6 + ts.tv_nsec / 1e3;
}

/* The faults, timed by wall and by CPU clock; last: inside the ROI. */
static struct pass fault_pass(char *p, const struct opts *o, bool last)
{
	struct pass r;
	double t0, c0;

	if (last)
		wl_roi_begin();
	t0 = wl_now_usec();
	c0 = thread_cpu_usec();
	touch(p, o->size, o->touch_base ? WL_BASE_PAGE : o->page_size);
	r.cpu_usec = thread_cpu_usec() - c0;
	r.usec = wl_now_usec() - t0;
	if (last)
		wl_roi_end();
	return r;
}

/* GiB/s of size in usec; a clock tick can be coarser than a tiny region:
 * never divide by 0. */
static double gib_per_sec(uint64_t size, double usec)
{
	return (double)size / WL_GIB / ((usec > 1 ? usec : 1) / 1e6);
}

static void report(const char *name, double value)
{
	printf("%s %.3f\n", name, value);
	wl_metric(name, value);
}

/*
 * User-space clearing bandwidth over the same, already-faulted memory:
 * what zeroing costs once no fault, allocation or page reporting is in
 * the way. Leaves the region zero.
 */
static double user_clear_gbps(char *p, uint64_t size)
{
	double t0 = wl_now_usec(), t1;

	memset(p, 0, size);
	__asm__ volatile("" : : "r"(p) : "memory");
	t1 = wl_now_usec();
	return gib_per_sec(size, t1 - t0);
}

/* A pass before the last: map, fault, verify, unmap. Its GiB/s. */
static double earlier_pass(const struct opts *o, uint64_t n)
{
	char *p = map_region(o);
	struct pass r = fault_pass(p, o, false);

	verify(p, o);
	if (munmap(p, o->size))
		wl_fail("munmap after pass %llu failed: %s",
			(unsigned long long)n, strerror(errno));
	return gib_per_sec(o->size, r.usec);
}

int main(int argc, char **argv)
{
	double gbps, pass1_gbps = 0, user;
	long free_before;
	struct pass r;
	struct opts o;
	uint64_t i;
	char *p;

	parse_args(argc, argv, &o);
	for (i = 1; i < o.passes; i++) {
		gbps = earlier_pass(&o, i);
		if (i == 1)
			pass1_gbps = gbps;
	}
	free_before = wl_hugetlb_free(o.page_size);
	p = map_region(&o);
	r = fault_pass(p, &o, true);
	gbps = gib_per_sec(o.size, r.usec);
	if (o.passes == 1)
		pass1_gbps = gbps;

	printf("passes %llu\n", (unsigned long long)o.passes);
	printf("usec %.0f\n", r.usec);
	wl_metric("roi_usec", r.usec);
	report("gbps", gbps);
	report("pass1_gbps", pass1_gbps);
	report("gbps_cpu", gib_per_sec(o.size, r.cpu_usec));
	printf("pages %llu\n", (unsigned long long)(o.size / o.page_size));
	wl_metric("pages", (double)(o.size / o.page_size));
	report_backing(&o, p, free_before);
	verify(p, &o);
	user = user_clear_gbps(p, o.size);
	report("user_clear_gbps", user);
	report("clear_vs_user", gbps / user);
	printf("ok\n");
	return 0;
}
