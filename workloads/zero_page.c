// SPDX-License-Identifier: GPL-2.0-only
/*
 * zero_page - the huge zero page: read faults on untouched THP memory
 * (one read per 2 MiB, each timed), then the first write to each 2 MiB
 * (timed), with transparent_hugepage/use_zero_page as it is set (a suite
 * sets it: `set = transparent_hugepage/use_zero_page=0`).
 *
 * Kernel paths: a read fault in a THP-enabled VMA goes to
 * do_huge_pmd_anonymous_page(). With use_zero_page 1 it maps the huge
 * zero folio read-only (set_huge_zero_folio(); mm_get_huge_zero_folio()
 * allocates it the first time: thp_zero_page_alloc), so the first write
 * goes to do_huge_pmd_wp_page() -> do_huge_zero_wp_pmd(): a fresh THP
 * (thp_fault_alloc) or, when none can be had, the zero PMD split into
 * 4 KiB zero-page PTEs (thp_split_pmd, thp_fault_fallback). With
 * use_zero_page 0 the read fault itself allocates and clears a THP
 * (thp_fault_alloc on the read) and the write does not fault.
 *
 * What proves it: pagemap + kpageflags after the reads, for each 2 MiB:
 * the huge zero page (512 contiguous frames from a 2 MiB-aligned one,
 * KPF_ZERO_PAGE; wl_pagemap_huge_zero(), the same frame for every range)
 * or a THP (wl_pagemap_is_thp()); THPs after the writes likewise.
 * thp_zero_page_alloc moves only the first time the kernel allocates the
 * huge zero folio (freed again when unused; kept for good with
 * CONFIG_PERSISTENT_HUGE_ZERO_FOLIO),
 * not per mapping, so it is reported but is no evidence about this run's
 * ranges. thp_fault_alloc over each phase (system-wide: at least this
 * process's) is at least the THPs the phase made.
 *
 * When the huge zero folio cannot be allocated (get_huge_zero_folio():
 * GFP_TRANSHUGE, direct reclaim and compaction, unmovable; none free, as
 * with the "pinned" memory state and vm/compact_unevictable_allowed 0:
 * configs/thp-paths.conf zero-page-alloc-failed), each read fault of a
 * range counts thp_zero_page_alloc_failed once and falls back to the
 * 4 KiB zero page: zero_fallback_ranges, the read-faulted ranges that map
 * a 4 KiB page, neither the huge zero page nor a THP, with use_zero_page
 * 1 and the region THP-eligible (smaps THPeligible 1: the kernel's own
 * thp_vma_allowable_orders(), so the read fault went to
 * do_huge_pmd_anonymous_page(); a process with THP disabled by prctl, or
 * THP never, gets 4 KiB zero pages without trying). thp_zero_page_alloc_failed over the reads rising by less is a
 * failure (exit 1). Give --min-huge 0 where that is what is asked. The pagemap look
 * between the phases lies inside the region of interest (a few preads
 * per 2 MiB, no faults).
 */
#include "wl.h"

#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

static const char usage[] =
	"usage: zero_page [--size SIZE] [--min-huge N]\n"
	"  --size SIZE    untouched THP memory to read, then write (default 256M,\n"
	"                 2M steps); one read and one write per 2 MiB\n"
	"  --min-huge N   2 MiB ranges whose read must map the huge zero page\n"
	"                 (use_zero_page 1) or a THP (0) (default all)\n"
	"Needs root (pagemap frame numbers) to tell the huge zero page. Prints\n"
	"and reports as metrics: 'use_zero_page N', 'ranges N', 'zero_ranges N'\n"
	"(read-faulted ranges mapping the huge zero page), 'zero_pfns N' (distinct\n"
	"frames they map: 1), 'read_thp_ranges N', 'write_thp_ranges N' (THPs\n"
	"after the writes), 'zero_pfn N' (printed only, no metric: the frame\n"
	"of the huge zero folio, when any range maps it), 'read_usec X', 'write_usec X', 'read_fault_p50_usec',\n"
	"_p99_, _max_, _mean_ and 'write_fault_...' alike, the /proc/vmstat\n"
	"deltas thp_zero_page_alloc (whole run), thp_fault_alloc_read,\n"
	"thp_zero_page_alloc_failed (the reads), 'zero_fallback_ranges N' (read\n"
	"ranges mapping a 4 KiB page with use_zero_page 1),\n"
	"thp_fault_alloc_write, thp_fault_fallback_write, thp_split_pmd_write;\n"
	"roi_usec (both phases), rss_kb, anon_huge_kb. Exit 0 ok, 1 failure\n"
	"(memory not zero), 2 usage (also: not root), 3 invalid measurement:\n"
	"fewer than --min-huge ranges as above (THP off, no huge zero page).\n";

struct opts {
	uint64_t size;
	uint64_t min_huge;
};

static struct opts o;

static void parse_args(int argc, char **argv)
{
	static const struct option longopts[] = {
		{ "size", required_argument, NULL, 's' },
		{ "min-huge", required_argument, NULL, 'm' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	int c, min_given = 0;

	o = (struct opts){ .size = 256 * WL_MIB };
	while ((c = getopt_long(argc, argv, "h", longopts, NULL)) != -1) {
		switch (c) {
		case 's': o.size = wl_opt_size("--size", optarg, usage); break;
		case 'm':
			o.min_huge = wl_opt_count("--min-huge", optarg, 0, 1 << 24, usage);
			min_given = 1;
			break;
		default: wl_opt_fallback(c, usage);
		}
	}
	wl_no_operands(argc, argv, usage);
	if (o.size % WL_PMD_SIZE)
		wl_usage_error(usage, "--size must be a multiple of 2M");
	if (!min_given)
		o.min_huge = o.size / WL_PMD_SIZE;
	if (o.min_huge > o.size / WL_PMD_SIZE)
		wl_usage_error(usage, "--min-huge %llu is more than the %llu 2 MiB ranges of --size",
			       (unsigned long long)o.min_huge,
			       (unsigned long long)(o.size / WL_PMD_SIZE));
}

/* transparent_hugepage/use_zero_page: 0 or 1, -1 when unreadable. */
static int use_zero_page(void)
{
	FILE *f = fopen("/sys/kernel/mm/transparent_hugepage/use_zero_page", "r");
	int v = -1;

	if (!f)
		return -1;
	if (fscanf(f, "%d", &v) != 1)
		v = -1;
	fclose(f);
	return v;
}

enum { C_ZERO_ALLOC, C_FAULT_ALLOC, C_FALLBACK, C_SPLIT_PMD, C_ZERO_FAILED,
       NCOUNTERS };

static const char *const counters[NCOUNTERS] = {
	"thp_zero_page_alloc", "thp_fault_alloc", "thp_fault_fallback",
	"thp_split_pmd", "thp_zero_page_alloc_failed",
};

static void read_counters(uint64_t *v)
{
	if (wl_vmstat_read(counters, v, NCOUNTERS, NULL))
		wl_die("cannot read /proc/vmstat");
}

struct backing {
	long long zero, thp, pfns;
	long long small;	/* present, neither: a 4 KiB page */
	uint64_t first_pfn;	/* the huge zero folio's frame; 0: none seen */
};

/* What each 2 MiB range maps now; dies when pagemap cannot say. */
static void classify(const char *p, size_t n, struct backing *b)
{
	uint64_t pfn, first_pfn = 0;
	size_t i;
	int z, t;

	*b = (struct backing){ 0 };
	for (i = 0; i < n; i++) {
		z = wl_pagemap_huge_zero(p + i * WL_PMD_SIZE, &pfn);
		t = z > 0 ? 0 : wl_pagemap_is_thp(p + i * WL_PMD_SIZE);
		if (z < 0 || t < 0)
			wl_die("pagemap/kpageflags cannot be read (needs root): "
			       "cannot tell the huge zero page from 4 KiB zero pages");
		if (z > 0) {
			if (!b->zero || pfn != first_pfn)
				b->pfns++;
			if (!b->zero)
				first_pfn = b->first_pfn = pfn;
			b->zero++;
		}
		b->thp += t;
		if (!z && !t && wl_pagemap_pfn(p + i * WL_PMD_SIZE, &pfn) == 1)
			b->small++;
	}
}

static void report(const char *name, double v)
{
	printf("%s %.17g\n", name, v);
	wl_metric(name, v);
}

static void require_huge(const struct backing *b, int uzp)
{
	long long got = uzp ? b->zero : b->thp;

	if ((uint64_t)got >= o.min_huge)
		return;
	wl_invalid("only %lld of %llu read-faulted 2 MiB ranges map %s "
		   "(use_zero_page %d, --min-huge %llu)", got,
		   (unsigned long long)(o.size / WL_PMD_SIZE),
		   uzp ? "the huge zero page" : "a THP", uzp,
		   (unsigned long long)o.min_huge);
}

/*
 * use_zero_page 1: a read fault that mapped a 4 KiB page failed to
 * allocate the huge zero folio, each counted once.
 */
static void check_zero_failed(const struct backing *b, int tried,
			      const uint64_t *c0, const uint64_t *c1)
{
	uint64_t d = c1[C_ZERO_FAILED] - c0[C_ZERO_FAILED];

	if (!tried || d >= (uint64_t)b->small)
		return;
	wl_fail("%lld read-faulted ranges of ours fell back to 4 KiB zero pages, "
		"but thp_zero_page_alloc_failed rose by %llu only", b->small,
		(unsigned long long)d);
}

static double read_all(volatile const char *p, size_t n, double *usec)
{
	double t0, start = wl_now_usec();
	size_t i;
	char c;

	for (i = 0; i < n; i++) {
		t0 = wl_now_usec();
		c = p[i * WL_PMD_SIZE];
		usec[i] = wl_now_usec() - t0;
		if (c)
			wl_fail("untouched memory at 2 MiB range %zu reads 0x%02x",
				i, (unsigned char)c);
	}
	return wl_now_usec() - start;
}

static double write_all(volatile char *p, size_t n, double *usec)
{
	double t0, start = wl_now_usec();
	size_t i;

	for (i = 0; i < n; i++) {
		t0 = wl_now_usec();
		p[i * WL_PMD_SIZE] = 1;
		usec[i] = wl_now_usec() - t0;
	}
	return wl_now_usec() - start;
}

/* The written byte in each range, zeroes beside it and at its end. */
static void verify(const char *p, size_t n)
{
	const char *r;
	size_t i;

	for (i = 0; i < n; i++) {
		r = p + i * WL_PMD_SIZE;
		if (r[0] != 1 || r[1] || r[WL_BASE_PAGE] || r[WL_PMD_SIZE - 1])
			wl_fail("2 MiB range %zu does not read back its write and "
				"zeroes", i);
	}
}

int main(int argc, char **argv)
{
	uint64_t c0[NCOUNTERS], c1[NCOUNTERS], c2[NCOUNTERS];
	double *rusec, *wusec, read_usec, write_usec, t0, t1;
	struct backing rb, wb;
	size_t n;
	char *p;
	int uzp, tried;

	parse_args(argc, argv);
	wl_check_memory(o.size, "--size");
	n = o.size / WL_PMD_SIZE;
	uzp = use_zero_page();
	if (uzp < 0)
		wl_die("/sys/kernel/mm/transparent_hugepage/use_zero_page cannot be "
		       "read: no THP in this kernel?");
	rusec = calloc(n, sizeof(*rusec));
	wusec = calloc(n, sizeof(*wusec));
	p = wl_map_aligned(o.size, WL_PMD_SIZE, PROT_READ | PROT_WRITE);
	if (!rusec || !wusec || !p)
		wl_fail("allocating %llu bytes failed: %s",
			(unsigned long long)o.size, strerror(errno));
	if (madvise(p, o.size, MADV_HUGEPAGE))
		wl_fail("madvise(MADV_HUGEPAGE) failed: %s (is THP built in?)",
			strerror(errno));

	/* The huge zero folio is tried for only where THP faults are. */
	tried = uzp == 1 && wl_range_kb(p, o.size, "THPeligible") > 0;
	read_counters(c0);
	wl_roi_begin();
	t0 = wl_now_usec();
	read_usec = read_all(p, n, rusec);
	read_counters(c1);
	classify(p, n, &rb);
	write_usec = write_all(p, n, wusec);
	t1 = wl_now_usec();
	wl_roi_end();
	read_counters(c2);
	classify(p, n, &wb);

	report("use_zero_page", uzp);
	report("ranges", (double)n);
	report("zero_ranges", (double)rb.zero);
	report("zero_pfns", (double)rb.pfns);
	/* Printed, not a metric: a frame number is no measurement. A new
	 * one after drop_caches shows the zero folio was freed and made
	 * again (tests/workloads/zero_page_alloc.sh). */
	if (rb.zero)
		printf("zero_pfn %llu\n", (unsigned long long)rb.first_pfn);
	report("read_thp_ranges", (double)rb.thp);
	report("zero_fallback_ranges", (double)(tried ? rb.small : 0));
	report("thp_zero_page_alloc_failed",
	       (double)(c1[C_ZERO_FAILED] - c0[C_ZERO_FAILED]));
	report("write_thp_ranges", (double)wb.thp);
	report("read_usec", read_usec);
	report("write_usec", write_usec);
	wl_report_latency("read_fault", rusec, n);
	wl_report_latency("write_fault", wusec, n);
	report("thp_zero_page_alloc", (double)(c2[C_ZERO_ALLOC] - c0[C_ZERO_ALLOC]));
	report("thp_fault_alloc_read", (double)(c1[C_FAULT_ALLOC] - c0[C_FAULT_ALLOC]));
	report("thp_fault_alloc_write", (double)(c2[C_FAULT_ALLOC] - c1[C_FAULT_ALLOC]));
	report("thp_fault_fallback_write", (double)(c2[C_FALLBACK] - c1[C_FALLBACK]));
	report("thp_split_pmd_write", (double)(c2[C_SPLIT_PMD] - c1[C_SPLIT_PMD]));
	printf("usec %.0f\n", t1 - t0);
	wl_metric("roi_usec", t1 - t0);
	wl_report_self_mem();
	check_zero_failed(&rb, tried, c0, c1);
	require_huge(&rb, uzp);
	verify(p, n);
	printf("ok\n");
	free(rusec);
	free(wusec);
	return 0;
}
