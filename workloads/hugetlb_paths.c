// SPDX-License-Identifier: GPL-2.0-only
/*
 * hugetlb_paths - hugetlb beyond clearing: the fault, private COW after
 * fork, mremap of a hugetlb region, and growing and shrinking the pool
 * (surplus pages), in 2 MiB or 1 GiB pages. The harness owns the pools
 * (a suite's hugetlb.<size>kB = N, nr_overcommit_hugepages and
 * vm/hugetlb_optimize_vmemmap through `set =`); this program never
 * writes them.
 *
 * Kernel paths, by --path:
 *   fault   hugetlb_fault() -> hugetlb_no_page(): a pool page taken
 *           against the mapping's reservation and cleared; each first
 *           touch timed. Proof: the range's Private_ + Shared_Hugetlb
 *           (smaps) is the whole region.
 *   cow     MAP_PRIVATE region filled, fork(), the child writes each
 *           page: hugetlb_wp() allocates a pool page and copies
 *           (copy_user_large_folio()); each write timed. Proof: the
 *           child's range is Shared_Hugetlb before its writes, and after
 *           them every page of it is at another frame than the parent's
 *           (pagemap, root: cow_copied); the parent's data unchanged.
 *   mremap  a filled region moved to a page-aligned address:
 *           move_hugetlb_page_tables() (PMD/PUD entries moved, no
 *           fault, no copy). Proof: the destination's hugetlb memory
 *           (smaps) is the region, its data intact (mremap_minflt: the
 *           minor faults around the call, reported).
 *   pool    the pool grown by the reservation of an mmap and shrunk by
 *           its munmap, both timed: gather_surplus_pages() allocates
 *           surplus pages from the buddy allocator (htlb_buddy_alloc_
 *           success), each folio's vmemmap optimized when
 *           vm/hugetlb_optimize_vmemmap is 1 (hugetlb_vmemmap_optimize_
 *           folio()), and return_unused_surplus_pages() frees them,
 *           restoring the vmemmap first. Needs fewer free pool pages than
 *           --count (the rest are surplus; grow_usec_per_page is per
 *           surplus page) and nr_overcommit_hugepages >= --count.
 *           Proof: surplus_hugepages rose by the pages the free pool
 *           lacked and fell back; htlb_buddy_alloc_success rose at least
 *           as much. 2 MiB only: gigantic pages are never surplus.
 */
#include "wl.h"

#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#ifndef MAP_HUGE_SHIFT
#define MAP_HUGE_SHIFT 26
#endif

static const char usage[] =
	"usage: hugetlb_paths [--path fault|cow|mremap|pool] [--page-size 2M|1G]\n"
	"                     [--count N]\n"
	"  --path fault   first touch of each page of a MAP_HUGETLB region (default)\n"
	"  --path cow     fill, fork, the child writes each page: private COW\n"
	"  --path mremap  move a filled region to a page-aligned address\n"
	"  --path pool    grow the pool by surplus pages (mmap's reservation) and\n"
	"                 shrink it (munmap); pages the free pool lacks are\n"
	"                 surplus; needs nr_overcommit_hugepages >= N; 2M only\n"
	"  --page-size    2M (default) or 1G\n"
	"  --count N      huge pages in the region (default 32); cow needs 2N\n"
	"                 free in the pool, fault and mremap N\n"
	"Prints and reports as metrics 'pages N', roi_usec and, by path: fault:\n"
	"'region_hugetlb_kb N', 'fault_p50_usec' _p99_ _max_ _mean_; cow:\n"
	"'fork_usec X', 'child_shared_kb_before N', 'child_private_kb_after N',\n"
	"'child_hugetlb_kb_after N', 'cow_copied N' (root), 'cow_fault_p50_usec' ...;\n"
	"mremap: 'dst_hugetlb_kb N', 'mremap_minflt N';\n"
	"pool: 'grow_usec X', 'shrink_usec X', 'surplus_grown N',\n"
	"'surplus_left N', 'htlb_buddy_alloc_success N', 'grow_usec_per_page X',\n"
	"'hugetlb_optimize_vmemmap N' (absent: no such sysctl); and rss_kb,\n"
	"anon_huge_kb, hugetlb_kb. Exit 0 ok, 1 failure (mmap: the pool too\n"
	"small, data read back wrong), 2 usage, 3 not measurable here (no pool of\n"
	"that size: no 1 GiB pages; pool: the free pool covered the mapping, or\n"
	"1G pages).\n";

enum path { PATH_FAULT, PATH_COW, PATH_MREMAP, PATH_POOL };

static const char *const path_names[] = { "fault", "cow", "mremap", "pool" };

struct opts {
	enum path path;
	uint64_t page_size;
	uint64_t count;
};

static struct opts o;

static void parse_args(int argc, char **argv)
{
	static const struct option longopts[] = {
		{ "path", required_argument, NULL, 'p' },
		{ "page-size", required_argument, NULL, 's' },
		{ "count", required_argument, NULL, 'c' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	unsigned int i;
	int c;

	o = (struct opts){ .page_size = WL_PMD_SIZE, .count = 32 };
	while ((c = getopt_long(argc, argv, "h", longopts, NULL)) != -1) {
		switch (c) {
		case 'p':
			for (i = 0; i < 4 && strcmp(optarg, path_names[i]); i++)
				;
			if (i == 4)
				wl_usage_error(usage, "--path: '%s' is not fault, cow, mremap or pool",
					       optarg);
			o.path = (enum path)i;
			break;
		case 's':
			o.page_size = wl_opt_size("--page-size", optarg, usage);
			if (o.page_size != WL_PMD_SIZE && o.page_size != WL_GIB)
				wl_usage_error(usage, "--page-size: '%s' is not 2M or 1G", optarg);
			break;
		case 'c':
			o.count = wl_opt_count("--count", optarg, 1, 1 << 20, usage);
			break;
		default: wl_opt_fallback(c, usage);
		}
	}
	wl_no_operands(argc, argv, usage);
}

static uint64_t region(void)
{
	return o.count * o.page_size;
}

static const char *psize(void)
{
	return o.page_size == WL_GIB ? "1 GiB" : "2 MiB";
}

/* Exit 3 when the kernel (or CPU) has no pool of the page size. */
static void require_pool(void)
{
	if (wl_hugetlb_total(o.page_size) >= 0)
		return;
	wl_invalid("not measurable here: no %s pages (no /sys/kernel/mm/hugepages/"
		   "hugepages-%llukB: %s)", psize(),
		   (unsigned long long)(o.page_size / 1024),
		   o.page_size == WL_GIB ? "the CPU lacks pdpe1gb or the kernel "
		   "gigantic pages" : "no hugetlb in this kernel");
}

static char *map_huge(int flags)
{
	int shift = o.page_size == WL_GIB ? 30 : 21;
	char *p = mmap(NULL, region(), PROT_READ | PROT_WRITE,
		       flags | MAP_ANONYMOUS | MAP_HUGETLB | (shift << MAP_HUGE_SHIFT),
		       -1, 0);

	if (p != MAP_FAILED)
		return p;
	wl_fail("mmap(MAP_HUGETLB) of %llu %s pages failed: %s; the pool has %ld "
		"free (the harness reserves it: hugetlb.%llukB = N in the suite)",
		(unsigned long long)o.count, psize(), strerror(errno),
		wl_hugetlb_free(o.page_size), (unsigned long long)(o.page_size / 1024));
}

/* The pool must hold need free pages now. */
static void require_free(uint64_t need)
{
	long f = wl_hugetlb_free(o.page_size);

	if (f >= 0 && (uint64_t)f >= need)
		return;
	wl_fail("--path %s of %llu %s pages needs %llu free in the pool, it has "
		"%ld (the harness reserves it: hugetlb.%llukB = %llu)",
		path_names[o.path], (unsigned long long)o.count, psize(),
		(unsigned long long)need, f, (unsigned long long)(o.page_size / 1024),
		(unsigned long long)need);
}

static uint64_t mark(uint64_t page, int side)
{
	return page * 4 + (uint64_t)side + 1;
}

/* Word 0 of each 4 KiB page at the start and the end of each huge page. */
static void fill(char *p, int side)
{
	uint64_t i;

	for (i = 0; i < o.count; i++) {
		*(uint64_t *)(p + i * o.page_size) = mark(i, side);
		*(uint64_t *)(p + (i + 1) * o.page_size - WL_BASE_PAGE) = mark(i, side);
	}
}

static void verify(const char *p, int side, const char *what)
{
	uint64_t i;

	for (i = 0; i < o.count; i++)
		if (*(const uint64_t *)(p + i * o.page_size) != mark(i, side) ||
		    *(const uint64_t *)(p + (i + 1) * o.page_size - WL_BASE_PAGE) !=
			    mark(i, side))
			wl_fail("%s: huge page %llu does not read back what was "
				"written", what, (unsigned long long)i);
}

static void report(const char *name, double v)
{
	printf("%s %.17g\n", name, v);
	wl_metric(name, v);
}

/*
 * The region's hugetlb memory mapped here, Private_ + Shared_Hugetlb: smaps
 * calls a page shared when it may be (folio_maybe_mapped_shared()), which
 * a 1 GiB page just faulted by one process can be; -1 when unreadable.
 */
static long long range_hugetlb_kb(const char *p)
{
	long long priv = wl_range_kb(p, region(), "Private_Hugetlb");
	long long shared = wl_range_kb(p, region(), "Shared_Hugetlb");

	return priv < 0 || shared < 0 ? -1 : priv + shared;
}

static double *latencies(void)
{
	double *v = calloc(o.count, sizeof(*v));

	if (!v)
		wl_fail("out of memory for %llu latencies", (unsigned long long)o.count);
	return v;
}

static double fault_all(char *p, double *usec, int side)
{
	double t0, start = wl_now_usec();
	uint64_t i;

	for (i = 0; i < o.count; i++) {
		t0 = wl_now_usec();
		*(volatile uint64_t *)(p + i * o.page_size) = mark(i, side);
		usec[i] = wl_now_usec() - t0;
		*(uint64_t *)(p + (i + 1) * o.page_size - WL_BASE_PAGE) = mark(i, side);
	}
	return wl_now_usec() - start;
}

static void run_fault(void)
{
	double *usec = latencies(), roi;
	char *p;

	require_free(o.count);
	p = map_huge(MAP_PRIVATE);
	wl_roi_begin();
	roi = fault_all(p, usec, 0);
	wl_roi_end();
	report("roi_usec", roi);
	wl_report_kb("region_hugetlb_kb", range_hugetlb_kb(p));
	wl_report_latency("fault", usec, o.count);
	verify(p, 0, "fault");
	free(usec);
}

/* What the child tells the parent, in memory shared across fork. */
struct cow_report {
	long long shared_before, private_after, hugetlb_after;
	long long copied;	/* pages at another frame than the parent's; -1 */
	uint64_t *parent_pfn;	/* per page, before fork; NULL: unreadable */
	double usec[];
};

/* Frames of each huge page of p; NULL when pagemap cannot tell (not root). */
static uint64_t *frames(const char *p)
{
	uint64_t *pfn = calloc(o.count, sizeof(*pfn)), i;

	for (i = 0; pfn && i < o.count; i++) {
		if (wl_pagemap_pfn(p + i * o.page_size, &pfn[i]) <= 0) {
			free(pfn);
			return NULL;
		}
	}
	return pfn;
}

static long long count_moved(const uint64_t *before, const uint64_t *after)
{
	long long n = 0;
	uint64_t i;

	if (!before || !after)
		return -1;
	for (i = 0; i < o.count; i++)
		n += before[i] != after[i];
	return n;
}

static WL_NORETURN void cow_child(char *p, struct cow_report *cr)
{
	uint64_t *after;

	cr->shared_before = wl_range_kb(p, region(), "Shared_Hugetlb");
	fault_all(p, cr->usec, 1);
	cr->private_after = wl_range_kb(p, region(), "Private_Hugetlb");
	cr->hugetlb_after = range_hugetlb_kb(p);
	after = frames(p);
	cr->copied = count_moved(cr->parent_pfn, after);
	free(after);
	verify(p, 1, "cow child");
	_exit(0);
}

static void run_cow(void)
{
	size_t crsize = sizeof(struct cow_report) + o.count * sizeof(double);
	struct cow_report *cr = mmap(NULL, crsize, PROT_READ | PROT_WRITE,
				     MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	double t0, t1, t2;
	int status;
	pid_t pid;
	char *p;

	if (cr == MAP_FAILED)
		wl_fail("mmap of the child's report failed: %s", strerror(errno));
	/* The child's copies come from the pool too, without a reservation:
	 * short of them it would be killed mid-write. */
	require_free(2 * o.count);
	p = map_huge(MAP_PRIVATE);
	fill(p, 0);
	cr->parent_pfn = frames(p);
	wl_roi_begin();
	t0 = wl_now_usec();
	pid = fork();
	t1 = wl_now_usec();
	if (pid < 0)
		wl_fail("fork failed: %s", strerror(errno));
	if (!pid)
		cow_child(p, cr);
	if (waitpid(pid, &status, 0) < 0 || !WIFEXITED(status) || WEXITSTATUS(status))
		wl_fail("the child failed writing its copy (status 0x%x)", status);
	t2 = wl_now_usec();
	wl_roi_end();
	verify(p, 0, "COW bug: parent after the child's writes");
	report("roi_usec", t2 - t0);
	report("fork_usec", t1 - t0);
	wl_report_kb("child_shared_kb_before", cr->shared_before);
	wl_report_kb("child_private_kb_after", cr->private_after);
	wl_report_kb("child_hugetlb_kb_after", cr->hugetlb_after);
	if (cr->copied >= 0)
		report("cow_copied", (double)cr->copied);
	wl_report_latency("cow_fault", cr->usec, o.count);
}

static long minflt(void)
{
	struct rusage ru;

	return getrusage(RUSAGE_SELF, &ru) ? -1 : ru.ru_minflt;
}

static void run_mremap(void)
{
	char *src, *dst, *got;
	double t0, t1;
	long f0, f1;

	require_free(o.count);
	src = map_huge(MAP_PRIVATE);
	fill(src, 0);
	dst = wl_map_aligned(region(), o.page_size, PROT_NONE);
	if (!dst)
		wl_fail("reserving the destination failed: %s", strerror(errno));
	wl_roi_begin();
	f0 = minflt();
	t0 = wl_now_usec();
	got = mremap(src, region(), region(), MREMAP_MAYMOVE | MREMAP_FIXED, dst);
	t1 = wl_now_usec();
	f1 = minflt();
	wl_roi_end();
	if (got == MAP_FAILED)
		wl_fail("mremap of the hugetlb region failed: %s", strerror(errno));
	if (got != dst)
		wl_fail("mremap returned %p, not the destination %p", (void *)got,
			(void *)dst);
	report("roi_usec", t1 - t0);
	report("mremap_minflt", (double)(f1 - f0));
	wl_report_kb("dst_hugetlb_kb", range_hugetlb_kb(dst));
	verify(dst, 0, "mremap destination");
}

static long pool_counter(const char *file)
{
	char path[128];
	long v = -1;
	FILE *f;

	snprintf(path, sizeof(path), "/sys/kernel/mm/hugepages/hugepages-%llukB/%s",
		 (unsigned long long)(o.page_size / 1024), file);
	f = fopen(path, "r");
	if (!f)
		return -1;
	if (fscanf(f, "%ld", &v) != 1)
		v = -1;
	fclose(f);
	return v;
}

static void report_vmemmap(void)
{
	FILE *f = fopen("/proc/sys/vm/hugetlb_optimize_vmemmap", "r");
	int v;

	if (!f)
		return;
	if (fscanf(f, "%d", &v) == 1)
		report("hugetlb_optimize_vmemmap", v);
	fclose(f);
}

static void require_surplus_room(long free_pages, long resv)
{
	long over = pool_counter("nr_overcommit_hugepages");
	long avail = free_pages - resv;

	if (o.page_size == WL_GIB)
		wl_invalid("not measurable here: --path pool needs surplus pages, "
			   "and 1 GiB (gigantic) pages are never surplus");
	if (avail >= (long)o.count)
		wl_invalid("not measurable here: the pool has %ld free unreserved "
			   "pages, which cover the %llu asked for: nothing to grow "
			   "(ask for more pages than the pool holds)", avail,
			   (unsigned long long)o.count);
	if (over < (long)o.count)
		wl_fail("--path pool needs nr_overcommit_hugepages >= %llu, it is %ld "
			"(the suite sets hugepages/hugepages-2048kB/nr_overcommit_hugepages)",
			(unsigned long long)o.count, over);
}

static void run_pool(void)
{
	static const char *const name[] = { "htlb_buddy_alloc_success" };
	long free0 = pool_counter("free_hugepages"), resv = pool_counter("resv_hugepages");
	long s0 = pool_counter("surplus_hugepages"), s1, s2, lacking;
	uint64_t b0, b1;
	double t0, t1, t2;
	char *p;

	require_surplus_room(free0, resv);
	lacking = (long)o.count - (free0 - resv);
	if (wl_vmstat_read(name, &b0, 1, NULL))
		wl_die("cannot read /proc/vmstat");
	wl_roi_begin();
	t0 = wl_now_usec();
	p = mmap(NULL, region(), PROT_READ | PROT_WRITE,
		 MAP_PRIVATE | MAP_ANONYMOUS | MAP_HUGETLB | (21 << MAP_HUGE_SHIFT),
		 -1, 0);
	t1 = wl_now_usec();
	s1 = pool_counter("surplus_hugepages");
	if (p != MAP_FAILED && munmap(p, region()))
		wl_fail("munmap of the hugetlb region failed: %s", strerror(errno));
	t2 = wl_now_usec();
	wl_roi_end();
	if (p == MAP_FAILED)
		wl_fail("mmap(MAP_HUGETLB) reserving %llu pages failed: %s (%ld "
			"lacking from the free pool; the buddy allocator could not "
			"give them as surplus pages)", (unsigned long long)o.count,
			strerror(errno), lacking);
	s2 = pool_counter("surplus_hugepages");
	if (wl_vmstat_read(name, &b1, 1, NULL))
		wl_die("cannot read /proc/vmstat");
	report("roi_usec", t2 - t0);
	report("grow_usec", t1 - t0);
	report("shrink_usec", t2 - t1);
	report("lacking", (double)lacking);
	report("surplus_grown", (double)(s1 - s0));
	report("surplus_left", (double)(s2 - s0));
	report("htlb_buddy_alloc_success", (double)(b1 - b0));
	report("grow_usec_per_page", (t1 - t0) / (double)lacking);
	report_vmemmap();
}

int main(int argc, char **argv)
{
	parse_args(argc, argv);
	require_pool();
	wl_check_memory_total((o.path == PATH_COW ? 2 : 1) * region(), "--count pages");
	printf("path %s\n", path_names[o.path]);
	report("pages", (double)o.count);
	switch (o.path) {
	case PATH_FAULT: run_fault(); break;
	case PATH_COW: run_cow(); break;
	case PATH_MREMAP: run_mremap(); break;
	case PATH_POOL: run_pool(); break;
	}
	wl_report_self_mem();
	printf("ok\n");
	return 0;
}
