// SPDX-License-Identifier: GPL-2.0-only
/*
 * collapse - a region of 4 KiB pages collapsed into THPs, by
 * MADV_COLLAPSE (Linux 6.1+) or by khugepaged, and what each costs.
 *
 * Kernel path: mm/khugepaged.c, hpage_collapse_scan_pmd() then
 * collapse_huge_page(): a huge page allocated (thp_collapse_alloc, or
 * thp_collapse_alloc_failed when none could be), the 512 PTEs copied into
 * it and replaced by one PMD. MADV_COLLAPSE runs it synchronously in the
 * caller (madvise_collapse(); the sysfs THP modes and the max_ptes_*
 * limits do not apply to it); khugepaged runs it from its kernel thread
 * over the mms that asked (MADV_HUGEPAGE, or THP "always"), pacing itself
 * by khugepaged/scan_sleep_millisecs and pages_to_scan, and refusing a
 * PMD range with more than max_ptes_none empty PTEs
 * (thp_scan_exceed_none_pte), max_ptes_swap swapped-out ones
 * (thp_scan_exceed_swap_pte) or max_ptes_shared pages mapped by another
 * process too (thp_scan_exceed_share_pte). Those knobs are the suite's
 * (`set = transparent_hugepage/khugepaged/...`; the harness journals and
 * restores them).
 *
 * The region (--size, 2 MiB-aligned, one VMA) is filled with
 * MADV_NOHUGEPAGE set, so every fault maps a 4 KiB page, then made
 * eligible with MADV_HUGEPAGE. --ptes says how each 2 MiB range is
 * filled: full (every page written), none (only --present pages of each
 * written, the rest empty), shared (every page written, then a child
 * forked that keeps the region mapped: each page is mapped twice, or with
 * --shared N only N pages of each 2 MiB, the child having written the
 * others first so they are its own copies), swap
 * (every page written, then all but --present paged out: MADV_PAGEOUT;
 * needs a swap device, else "not measurable here", exit 2; a suite case
 * gets one with "swap = zram"). In swap mode it prints and reports
 * swap_ranges (2 MiB ranges with a swapped-out PTE, by pagemap: the ones
 * max_ptes_swap 0 makes khugepaged refuse) and swapped_ptes.
 * --ptes compound: the region is faulted in as THPs (MADV_HUGEPAGE), then
 * each huge PMD is split by an mprotect of its first 4 KiB and back, so
 * every range is a PTE-mapped THP: the collapse meets compound pages (the
 * kernel's compound_pagelist path) instead of 4 KiB ones.
 *
 * --mode madvise: the region of interest is one madvise(MADV_COLLAPSE)
 * over the region: roi_usec (wall) and collapse_cpu_usec (this thread's
 * CPU). --mode khugepaged: from MADV_HUGEPAGE until the region is all
 * THPs, or khugepaged has made two full scans (khugepaged/full_scans:
 * every registered mm scanned through at least once since), or --wait
 * seconds passed: roi_usec, khugepaged_cpu_usec (the khugepaged thread's
 * CPU over that time, /proc/PID/stat; absent when it cannot be read),
 * full_scans.
 *
 * Then: regions (2 MiB ranges), collapsed (of them, PMD-mapped THPs by
 * pagemap + kpageflags when root, else by smaps AnonHugePages),
 * collapsed_share, and the deltas of thp_collapse_alloc,
 * thp_collapse_alloc_failed and thp_scan_exceed_{none,swap,share}_pte
 * (system-wide: at least what this process caused). Every written page's
 * marker is checked after, and every unwritten page must read zero.
 * --each (madvise mode): one MADV_COLLAPSE per 2 MiB range instead, so
 * that each failure is seen: madvise_collapse() stops at the first range
 * whose huge page cannot be allocated (SCAN_ALLOC_HUGE_PAGE_FAIL, counted
 * once in thp_collapse_alloc_failed by alloc_charge_folio()) and returns
 * ENOMEM for it alone (a failed memcg charge is EBUSY). alloc_failed,
 * the ranges that returned ENOMEM, is then a lower bound for the
 * thp_collapse_alloc_failed delta: less is a failure (exit 1). With the
 * "pinned" memory state and vm/compact_unevictable_allowed 0
 * (configs/thp-paths.conf collapse-alloc-failed) no 2 MiB block can be
 * had, and every range fails.
 *
 * Prints "collapse_errno NAME" when MADV_COLLAPSE failed (EAGAIN, ENOMEM:
 * no huge page to be had; not a failure of the workload: the share says
 * how much it did).
 *
 * Exit 0 ok; 1 a marker lost; 2 usage, memory, no MADV_COLLAPSE (EINVAL:
 * Linux < 6.1), no swap for --ptes swap; 3 invalid: --mode khugepaged
 * with THP "never" (khugepaged does not run).
 */
#include "wl.h"

#include <dirent.h>
#include <errno.h>
#include <getopt.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#ifndef MADV_COLLAPSE
#define MADV_COLLAPSE 25
#endif
#ifndef MADV_PAGEOUT
#define MADV_PAGEOUT 21
#endif

#define PAGES_PER_PMD (WL_PMD_SIZE / WL_BASE_PAGE)
#define THP_DIR "/sys/kernel/mm/transparent_hugepage/"

static const char usage[] =
	"usage: collapse [--size SIZE] [--mode madvise|khugepaged]\n"
	"                [--ptes full|none|shared|swap|compound] [--present N] [--shared N] [--wait SEC]\n"
	"                [--each]\n"
	"  --size SIZE     the region, a multiple of 2M (default 64M)\n"
	"  --mode madvise  collapse it with one madvise(MADV_COLLAPSE) (default)\n"
	"  --mode khugepaged  MADV_HUGEPAGE it and wait for khugepaged\n"
	"  --ptes full     every 4 KiB page written (default)\n"
	"  --ptes none     only --present pages of each 2 MiB written\n"
	"  --ptes shared   every page written, then mapped by a child too\n"
	"  --ptes swap     every page written, all but --present paged out (needs swap)\n"
	"  --ptes compound  every page written into THPs, each then PTE-mapped (a\n"
	"                  4 KiB mprotect split its PMD): collapse finds compound pages\n"
	"  --present N     pages of each 2 MiB kept present (none, swap; default 64)\n"
	"  --shared N      shared: pages of each 2 MiB left mapped by the child too\n"
	"                  (it copies the rest on write first; default all 512)\n"	"  --wait SEC      khugepaged: give up after SEC seconds (default 30)\n"
	"  --each          madvise: one MADV_COLLAPSE per 2 MiB range; reports\n"
	"                  alloc_failed (ranges that returned ENOMEM)\n"
	"Prints and reports regions, collapsed, collapsed_share, roi_usec,\n"
	"collapse_cpu_usec or khugepaged_cpu_usec and full_scans, and the\n"
	"thp_collapse_alloc(_failed) and thp_scan_exceed_*_pte deltas.\n"
	"Exit 0 ok, 1 contents lost, 2 usage or not measurable here, 3 khugepaged\n"
	"with THP never.\n";

enum mode { MODE_MADVISE, MODE_KHUGEPAGED };
enum ptes { PTES_FULL, PTES_NONE, PTES_SHARED, PTES_SWAP, PTES_COMPOUND };

static const char *const mode_names[] = { "madvise", "khugepaged" };
static const char *const ptes_names[] = { "full", "none", "shared", "swap", "compound" };

struct opts {
	uint64_t size, present, shared, wait_s;
	enum mode mode;
	enum ptes ptes;
	int each;
};

static unsigned int pick(const char *opt, const char *arg,
			 const char *const *names, unsigned int n)
{
	unsigned int i;

	for (i = 0; i < n; i++)
		if (!strcmp(arg, names[i]))
			return i;
	wl_usage_error(usage, "%s: '%s' is not one of the choices", opt, arg);
}

static void parse_args(int argc, char **argv, struct opts *o)
{
	static const struct option longopts[] = {
		{ "size", required_argument, NULL, 's' },
		{ "mode", required_argument, NULL, 'm' },
		{ "each", no_argument, NULL, 'E' },
		{ "ptes", required_argument, NULL, 'p' },
		{ "present", required_argument, NULL, 'n' },
		{ "shared", required_argument, NULL, 'S' },
		{ "wait", required_argument, NULL, 'w' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	int c;

	*o = (struct opts){ .size = 64 * WL_MIB, .present = 64,
			    .shared = PAGES_PER_PMD, .wait_s = 30 };
	while ((c = getopt_long(argc, argv, "", longopts, NULL)) != -1) {
		switch (c) {
		case 's':
			o->size = wl_opt_size("--size", optarg, usage);
			break;
		case 'm':
			o->mode = (enum mode)pick("--mode", optarg, mode_names, 2);
			break;
		case 'E':
			o->each = 1;
			break;
		case 'p':
			o->ptes = (enum ptes)pick("--ptes", optarg, ptes_names, 5);
			break;
		case 'n':
			o->present = wl_opt_count("--present", optarg, 1,
						  PAGES_PER_PMD - 1, usage);
			break;
		case 'S':
			o->shared = wl_opt_count("--shared", optarg, 1,
						 PAGES_PER_PMD, usage);
			break;
		case 'w':
			o->wait_s = wl_opt_count("--wait", optarg, 1, 3600, usage);
			break;
		default:
			wl_opt_fallback(c, usage);
		}
	}
	wl_no_operands(argc, argv, usage);
	if (o->each && o->mode != MODE_MADVISE)
		wl_usage_error(usage, "--each is for --mode madvise");
	if (o->size % WL_PMD_SIZE || o->size > UINT64_MAX / 4)
		wl_usage_error(usage, "--size must be a multiple of 2M");
}

/* The marker of base page i: never 0, so an unwritten page is told apart. */
static char marker(uint64_t i)
{
	return (char)((i * 2654435761u) >> 8 | 1);
}

static int written(const struct opts *o, uint64_t i)
{
	return o->ptes != PTES_NONE || i % PAGES_PER_PMD < o->present;
}

/* --ptes compound: each huge PMD split, its THP kept (PTE-mapped). */
static void pte_map(char *p, const struct opts *o)
{
	uint64_t r;

	for (r = 0; r < o->size / WL_PMD_SIZE; r++) {
		char *q = p + r * WL_PMD_SIZE;

		if (mprotect(q, WL_BASE_PAGE, PROT_READ) ||
		    mprotect(q, WL_BASE_PAGE, PROT_READ | PROT_WRITE))
			wl_fail("mprotect failed: %s", strerror(errno));
	}
}

static void fill(char *p, const struct opts *o)
{
	uint64_t i, n = o->size / WL_BASE_PAGE;
	int advice = o->ptes == PTES_COMPOUND ? MADV_HUGEPAGE : MADV_NOHUGEPAGE;

	if (madvise(p, o->size, advice))
		wl_fail("madvise(%s) failed: %s", o->ptes == PTES_COMPOUND ?
			"MADV_HUGEPAGE" : "MADV_NOHUGEPAGE", strerror(errno));
	for (i = 0; i < n; i++)
		if (written(o, i))
			p[i * WL_BASE_PAGE] = marker(i);
	if (o->ptes == PTES_COMPOUND)
		pte_map(p, o);
}

static int swap_devices(void)
{
	FILE *f = fopen("/proc/swaps", "r");
	char line[512];
	int n = -1;

	if (!f)
		return 0;
	while (fgets(line, sizeof(line), f))
		n++;
	fclose(f);
	return n;
}

/* All but the first --present pages of each 2 MiB out to swap. */
static void page_out(char *p, const struct opts *o)
{
	uint64_t r, skip = o->present * WL_BASE_PAGE;

	for (r = 0; r < o->size; r += WL_PMD_SIZE)
		if (madvise(p + r + skip, WL_PMD_SIZE - skip, MADV_PAGEOUT))
			wl_fail("madvise(MADV_PAGEOUT) failed: %s", strerror(errno));
}

/*
 * The 2 MiB ranges with at least one swap entry now (pagemap): the ones
 * khugepaged must refuse under max_ptes_swap 0. Printed and reported as
 * swap_ranges; the swapped-out PTEs as swapped_ptes.
 */
static void report_swapped(const char *p, const struct opts *o)
{
	uint64_t r, ranges = 0, ptes = 0;
	long long n;

	for (r = 0; r < o->size; r += WL_PMD_SIZE) {
		n = wl_pagemap_swapped(p + r, PAGES_PER_PMD);
		if (n < 0)
			wl_die("cannot read /proc/self/pagemap: which ranges "
			       "went to swap is the evidence");
		ranges += n > 0;
		ptes += (uint64_t)n;
	}
	printf("swap_ranges %llu\nswapped_ptes %llu\n",
	       (unsigned long long)ranges, (unsigned long long)ptes);
	wl_metric("swap_ranges", (double)ranges);
	wl_metric("swapped_ptes", (double)ptes);
	if (!ranges)
		wl_die("not measurable here: MADV_PAGEOUT swapped nothing out "
		       "(swap full?)");
}

/* A child that maps the region too, until it is killed (or we die). */
/*
 * A child that keeps the region mapped. With --shared N it first writes
 * every page of each 2 MiB but the first N (copy on write: those become
 * its own), so N pages a range stay mapped twice; it says so on a pipe
 * before the collapse starts.
 */
static pid_t share(char *p, const struct opts *o)
{
	uint64_t i, n = o->size / WL_BASE_PAGE;
	int fds[2];
	pid_t pid;
	char c = 0;

	if (pipe(fds))
		wl_fail("pipe failed: %s", strerror(errno));
	pid = fork();
	if (pid < 0)
		wl_fail("fork failed: %s", strerror(errno));
	if (pid == 0) {
		prctl(PR_SET_PDEATHSIG, SIGKILL);
		for (i = 0; i < n; i++)
			if (i % PAGES_PER_PMD >= o->shared)
				p[i * WL_BASE_PAGE] = marker(i);
		if (write(fds[1], &c, 1) != 1)
			_exit(1);
		for (;;)
			pause();
	}
	close(fds[1]);
	if (read(fds[0], &c, 1) != 1)
		wl_fail("the sharing child died before it was ready");
	close(fds[0]);
	return pid;
}

static uint64_t count_collapsed(char *p, const struct opts *o)
{
	long long kb = wl_range_anon_huge_kb(p, o->size);
	uint64_t r, n = 0;
	int is;

	for (r = 0; r < o->size; r += WL_PMD_SIZE) {
		is = wl_pagemap_is_thp(p + r);
		if (is < 0)
			return kb < 0 ? 0 : (uint64_t)kb / 2048;
		n += is > 0;
	}
	return n;
}

static const char *const counters[] = {
	"thp_collapse_alloc", "thp_collapse_alloc_failed",
	"thp_scan_exceed_none_pte", "thp_scan_exceed_swap_pte",
	"thp_scan_exceed_share_pte",
};
#define NCOUNTERS (sizeof(counters) / sizeof(counters[0]))

static void read_counters(uint64_t *v)
{
	if (wl_vmstat_read(counters, v, NCOUNTERS, NULL))
		wl_die("cannot read /proc/vmstat: the collapse counters are the "
		       "evidence of what was collapsed");
}

static long long read_knob(const char *name)
{
	char path[256];
	long long v = -1;
	FILE *f;

	snprintf(path, sizeof(path), THP_DIR "%s", name);
	f = fopen(path, "r");
	if (!f)
		return -1;
	if (fscanf(f, "%lld", &v) != 1)
		v = -1;
	fclose(f);
	return v;
}

static int thp_never(void)
{
	char buf[128] = "";
	FILE *f = fopen(THP_DIR "enabled", "r");

	if (!f)
		return 0;
	if (!fgets(buf, sizeof(buf), f))
		buf[0] = '\0';
	fclose(f);
	return strstr(buf, "[never]") != NULL;
}

/* The khugepaged thread's CPU time in usec (utime + stime), -1 unknown. */
static double khugepaged_cpu_usec(void)
{
	char path[300], buf[512], *p;
	unsigned long long ut, st;
	struct dirent *e;
	double v = -1;
	DIR *d = opendir("/proc");
	FILE *f;

	while (d && v < 0 && (e = readdir(d))) {
		if (e->d_name[0] < '1' || e->d_name[0] > '9')
			continue;
		snprintf(path, sizeof(path), "/proc/%.200s/stat", e->d_name);
		f = fopen(path, "r");
		if (!f)
			continue;
		if (fgets(buf, sizeof(buf), f) && strstr(buf, "(khugepaged)")) {
			p = strrchr(buf, ')');
			/* after ")": state, then fields 4..13, utime 14, stime 15 */
			if (p && sscanf(p + 2, "%*c %*d %*d %*d %*d %*d %*u %*u %*u %*u %*u %llu %llu",
					&ut, &st) == 2)
				v = (double)(ut + st) * 1e6 / (double)sysconf(_SC_CLK_TCK);
		}
		fclose(f);
	}
	if (d)
		closedir(d);
	return v;
}

static double thread_cpu_usec(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
	return (double)ts.tv_sec * 1e6 + (double)ts.tv_nsec / 1e3;
}

static const char *errno_name(int e)
{
	switch (e) {
	case EAGAIN: return "EAGAIN";
	case ENOMEM: return "ENOMEM";
	case EINVAL: return "EINVAL";
	case EPERM: return "EPERM";
	default: return "other";
	}
}

/*
 * --each: the ranges one by one; ENOMEM is the range's huge page not
 * allocated (SCAN_ALLOC_HUGE_PAGE_FAIL). The errno of the first failure
 * is returned in *err (0: none failed); the ENOMEMs are counted.
 */
static uint64_t collapse_each(char *p, const struct opts *o, int *err)
{
	uint64_t r, enomem = 0;

	*err = 0;
	for (r = 0; r < o->size; r += WL_PMD_SIZE) {
		if (!madvise(p + r, WL_PMD_SIZE, MADV_COLLAPSE))
			continue;
		if (!*err)
			*err = errno;
		enomem += errno == ENOMEM;
		if (errno == EINVAL)
			break;
	}
	return enomem;
}

static uint64_t by_madvise(char *p, const struct opts *o)
{
	uint64_t enomem = 0;
	double t0, t1, c0, c1;
	int rc, e;

	if (madvise(p, o->size, MADV_HUGEPAGE))
		wl_fail("madvise(MADV_HUGEPAGE) failed: %s", strerror(errno));
	c0 = thread_cpu_usec();
	wl_roi_begin();
	t0 = wl_now_usec();
	if (o->each) {
		enomem = collapse_each(p, o, &e);
		rc = e ? -1 : 0;
	} else {
		rc = madvise(p, o->size, MADV_COLLAPSE);
		e = errno;
	}
	t1 = wl_now_usec();
	wl_roi_end();
	c1 = thread_cpu_usec();
	if (rc && e == EINVAL)
		wl_die("not measurable here: madvise(MADV_COLLAPSE) is EINVAL "
		       "(needs Linux 6.1+ with CONFIG_TRANSPARENT_HUGEPAGE)");
	if (rc) {
		printf("collapse_errno %s\n", errno_name(e));
		wl_warn("madvise(MADV_COLLAPSE): %s: collapsed what it could",
			strerror(e));
	}
	printf("usec %.1f\ncollapse_cpu_usec %.1f\n", t1 - t0, c1 - c0);
	wl_metric("roi_usec", t1 - t0);
	wl_metric("collapse_cpu_usec", c1 - c0);
	if (o->each)
		wl_report("alloc_failed", (double)enomem);
	return enomem;
}

static void by_khugepaged(char *p, const struct opts *o)
{
	long long scans0 = read_knob("khugepaged/full_scans"), scans = scans0;
	uint64_t want = o->size / WL_PMD_SIZE;
	double t0, t1, c0, c1;
	struct timespec nap = { 0, 10 * 1000 * 1000 };

	if (thp_never())
		wl_invalid("THP is \"never\": khugepaged does not run; use thp = "
			   "always or madvise");
	c0 = khugepaged_cpu_usec();
	wl_roi_begin();
	t0 = wl_now_usec();
	if (madvise(p, o->size, MADV_HUGEPAGE))
		wl_fail("madvise(MADV_HUGEPAGE) failed: %s", strerror(errno));
	for (;;) {
		t1 = wl_now_usec();
		if (t1 - t0 > (double)o->wait_s * 1e6)
			break;
		scans = read_knob("khugepaged/full_scans");
		if (scans0 >= 0 && scans >= scans0 + 2)
			break;
		if (wl_range_anon_huge_kb(p, o->size) >= (long long)(want * 2048))
			break;
		nanosleep(&nap, NULL);
	}
	wl_roi_end();
	c1 = khugepaged_cpu_usec();
	printf("usec %.1f\nfull_scans %lld\n", t1 - t0, scans - scans0);
	wl_metric("roi_usec", t1 - t0);
	if (scans0 >= 0 && scans >= 0)
		wl_metric("full_scans", (double)(scans - scans0));
	if (c0 >= 0 && c1 >= 0) {
		printf("khugepaged_cpu_usec %.0f\n", c1 - c0);
		wl_metric("khugepaged_cpu_usec", c1 - c0);
	}
}

static void verify(const char *p, const struct opts *o)
{
	uint64_t i, n = o->size / WL_BASE_PAGE;
	char want;

	for (i = 0; i < n; i++) {
		want = written(o, i) ? marker(i) : 0;
		if (p[i * WL_BASE_PAGE] != want)
			wl_fail("page %llu reads 0x%02x after the collapse, expected 0x%02x",
				(unsigned long long)i, (unsigned char)p[i * WL_BASE_PAGE],
				(unsigned char)want);
	}
}

/* counters[1]: each ENOMEM of ours was one allocation failure counted. */
static void report(char *p, const struct opts *o, const uint64_t *before,
		   uint64_t enomem)
{
	uint64_t after[NCOUNTERS], regions = o->size / WL_PMD_SIZE;
	uint64_t got = count_collapsed(p, o);
	size_t i;

	read_counters(after);
	printf("regions %llu\ncollapsed %llu\n", (unsigned long long)regions,
	       (unsigned long long)got);
	wl_metric("regions", (double)regions);
	wl_metric("collapsed", (double)got);
	wl_metric("collapsed_share", (double)got / (double)regions);
	for (i = 0; i < NCOUNTERS; i++) {
		printf("%s %llu\n", counters[i],
		       (unsigned long long)(after[i] - before[i]));
		wl_metric(counters[i], (double)(after[i] - before[i]));
	}
	if (after[1] - before[1] < enomem)
		wl_fail("%llu MADV_COLLAPSEs of ours returned ENOMEM (no huge page "
			"allocated), but thp_collapse_alloc_failed rose by %llu only",
			(unsigned long long)enomem,
			(unsigned long long)(after[1] - before[1]));
}

int main(int argc, char **argv)
{
	uint64_t before[NCOUNTERS], enomem = 0;
	pid_t child = -1;
	struct opts o;
	char *p;

	parse_args(argc, argv, &o);
	if (o.ptes == PTES_SWAP && swap_devices() <= 0)
		wl_die("not measurable here: --ptes swap needs a swap device "
		       "(none in /proc/swaps)");
	/* the region, and its huge copy while both exist */
	wl_check_memory(2 * o.size, "--size, twice (4 KiB pages and THPs at once)");
	p = wl_map_aligned(o.size, WL_PMD_SIZE, PROT_READ | PROT_WRITE);
	if (!p)
		wl_fail("mmap of %llu bytes failed: %s",
			(unsigned long long)o.size, strerror(errno));
	fill(p, &o);
	if (o.ptes == PTES_SWAP) {
		page_out(p, &o);
		report_swapped(p, &o);
	}
	if (o.ptes == PTES_SHARED)
		child = share(p, &o);
	read_counters(before);
	if (o.mode == MODE_MADVISE)
		enomem = by_madvise(p, &o);
	else
		by_khugepaged(p, &o);
	report(p, &o, before, enomem);
	if (child > 0) {
		kill(child, SIGKILL);
		waitpid(child, NULL, 0);
	}
	verify(p, &o);
	wl_report_self_mem();
	printf("ok\n");
	return WL_EXIT_OK;
}
