// SPDX-License-Identifier: GPL-2.0-only
/*
 * shrink_thp - the THP shrinkers and the memcg charge fallback, in the
 * workload's own memory cgroup:
 *
 * --path deferred: partly unmapped THPs wait on their memcg's deferred
 *   split queue (thp_split_pmd, thp_deferred_split_page at the munmap);
 *   reclaim in the memcg runs the deferred split shrinker
 *   (deferred_split_scan -> split_folio), which splits them and frees the
 *   unmapped part: thp_split_page, at least once per THP of ours that
 *   pagemap/kpageflags shows split.
 * --path underused: THPs faulted whole but written in only --touch 4 KiB
 *   pages sit on the same queue (every anonymous THP fault puts them
 *   there since 6.12); with transparent_hugepage/shrink_underused = 1 and
 *   more zero-filled pages than khugepaged/max_ptes_none, the shrinker
 *   splits them (thp_underused) and maps the zero pages to the shared
 *   zero page: thp_underused_split_page per THP split, Rss of the region
 *   down by the zero pages (smaps).
 * --path charge: THP faults in a memcg whose limit is nearly reached: the
 *   THP's charge fails (mem_cgroup_charge in vma_alloc_anon_folio_pmd)
 *   and the fault falls back to 4 KiB pages: thp_fault_fallback_charge
 *   (and mthp 2048kB anon_fault_fallback_charge). With --shmem the THPs
 *   are a memfd's (MAP_SHARED, shmem_enabled advise or always): the
 *   charge fails in shmem_alloc_and_add_folio and the fault falls back to
 *   4 KiB folios: thp_file_fallback_charge (and 2048kB
 *   shmem_fallback_charge).
 *
 * The shrinker is run by reclaim of the workload's own memcg: cgroup v2
 * memory.reclaim; on cgroup v1 memory.force_empty, which reclaims all the
 * memcg's page cache, so only in a memcg of its own: with --force-empty,
 * or by itself in the memcg the harness made for the case (suite key
 * 'memcg =': THPBENCH_CGROUP names the memcg this process is in, a
 * thpbench-* directory), where it also sets memory.swappiness = 0 so the
 * reclaim leaves our THPs (v2 passes swappiness=0 to memory.reclaim).
 * Without either it is not measurable here (exit 3). Never global
 * reclaim (drop_caches).
 */
#include "wl.h"

#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

static const char usage[] =
	"usage: shrink_thp [--path deferred|underused|charge] [--count N]\n"
	"                  [--part SIZE] [--touch N] [--tries N] [--min-huge N]\n"
	"                  [--force-empty] [--shmem] [--chunk SIZE]\n"
	"  --path deferred   munmap --part of each THP, then reclaim in the memcg:\n"
	"                    the deferred split shrinker splits them (default)\n"
	"  --path underused  write --touch pages of each THP, then reclaim: the\n"
	"                    underused shrinker splits them (shrink_underused = 1,\n"
	"                    khugepaged/max_ptes_none < 512 - N)\n"
	"  --path charge     fault THPs up to the memcg's limit: charge fallbacks\n"
	"  --count N         THPs (default 64; charge: from the limit)\n"
	"  --shmem           charge: the THPs are a memfd's (thp_file_fallback_charge)\n"
	"  --chunk SIZE      charge: the folio size faulted, 64K..1M (mTHP, that size\n"
	"                    enabled and 2048kB never) or 2M (default)\n"
	"  --part SIZE       deferred: unmapped at the 1 MiB offset (4K..1M, default 1M)\n"
	"  --touch N         underused: 4 KiB pages written per THP (1..511, default 1)\n"
	"  --tries N         reclaim passes at most (default 8)\n"
	"  --min-huge N      THPs that must be huge before (default all)\n"
	"  --force-empty     cgroup v1: reclaim with memory.force_empty (its own memcg\n"
	"                    only; implied in the harness's memcg, THPBENCH_CGROUP)\n"
	"Exit 0 ok, 1 the path's counter did not move for our THPs, 2 usage,\n"
	"3 not measurable here (no memcg reclaim or limit, no THPs, knobs).\n";

enum path { PATH_DEFERRED, PATH_UNDERUSED, PATH_CHARGE };

static const char *const path_names[] = { "deferred", "underused", "charge" };

struct opts {
	enum path path;
	uint64_t count, part, touch, tries, min_huge, chunk;
	int min_given, force_empty, shmem;
};

static enum path parse_path(const char *arg)
{
	unsigned int i;

	for (i = 0; i < sizeof(path_names) / sizeof(path_names[0]); i++)
		if (!strcmp(arg, path_names[i]))
			return (enum path)i;
	wl_usage_error(usage, "--path: '%s' is not deferred, underused or charge",
		       arg);
}

static void parse_args(int argc, char **argv, struct opts *o)
{
	static const struct option longopts[] = {
		{ "path", required_argument, NULL, 'P' },
		{ "count", required_argument, NULL, 'c' },
		{ "part", required_argument, NULL, 'p' },
		{ "touch", required_argument, NULL, 't' },
		{ "tries", required_argument, NULL, 'T' },
		{ "min-huge", required_argument, NULL, 'm' },
		{ "force-empty", no_argument, NULL, 'f' },
		{ "shmem", no_argument, NULL, 's' },
		{ "chunk", required_argument, NULL, 'C' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	int c;

	*o = (struct opts){ .count = 64, .part = WL_MIB, .touch = 1, .tries = 8,
			    .chunk = WL_PMD_SIZE };
	while ((c = getopt_long(argc, argv, "", longopts, NULL)) != -1) {
		switch (c) {
		case 'P':
			o->path = parse_path(optarg);
			break;
		case 'c':
			o->count = wl_opt_count("--count", optarg, 1, 1 << 16, usage);
			break;
		case 'p':
			o->part = wl_opt_size("--part", optarg, usage);
			break;
		case 't':
			o->touch = wl_opt_count("--touch", optarg, 1, 511, usage);
			break;
		case 'T':
			o->tries = wl_opt_count("--tries", optarg, 1, 1000, usage);
			break;
		case 'm':
			o->min_huge = wl_opt_count("--min-huge", optarg, 0, 1 << 16, usage);
			o->min_given = 1;
			break;
		case 'f':
			o->force_empty = 1;
			break;
		case 's':
			o->shmem = 1;
			break;
		case 'C':
			o->chunk = wl_opt_size("--chunk", optarg, usage);
			break;
		default:
			wl_opt_fallback(c, usage);
		}
	}
	wl_no_operands(argc, argv, usage);
	if (o->shmem && o->path != PATH_CHARGE)
		wl_usage_error(usage, "--shmem is for --path charge only");
	if (o->chunk != WL_PMD_SIZE && o->path != PATH_CHARGE)
		wl_usage_error(usage, "--chunk is for --path charge only");
	/* 64K at least: under 16 KiB of room must still take a 4 KiB page. */
	if (o->chunk < 64 * WL_KIB || o->chunk > WL_PMD_SIZE ||
	    (o->chunk & (o->chunk - 1)))
		wl_usage_error(usage, "--chunk: a power of two from 64K to 2M");
	if (o->part % WL_BASE_PAGE || o->part > WL_MIB)
		wl_usage_error(usage, "--part must be a multiple of 4K, at most 1M");
	if (o->min_given && o->min_huge > o->count)
		wl_usage_error(usage, "--min-huge %llu is more than --count %llu",
			       (unsigned long long)o->min_huge,
			       (unsigned long long)o->count);
}

/* A number from /sys/kernel/mm/transparent_hugepage/KNOB; -1 if none. */
static long long thp_knob(const char *knob)
{
	char p[160];
	long long v = -1;
	FILE *f;

	snprintf(p, sizeof(p), "/sys/kernel/mm/transparent_hugepage/%s", knob);
	f = fopen(p, "r");
	if (!f)
		return -1;
	if (fscanf(f, "%lld", &v) != 1)
		v = -1;
	fclose(f);
	return v;
}

static void report_u(const char *name, uint64_t v)
{
	printf("%s %llu\n", name, (unsigned long long)v);
	wl_metric(name, (double)v);
}

static void report_ll(const char *name, long long v)
{
	if (v < 0)
		return;
	printf("%s %lld\n", name, v);
	wl_metric(name, (double)v);
}

/* --- the memcg and its reclaim --- */

/*
 * The memcg the harness made for this case ('memcg =', res_cgroup.c):
 * THPBENCH_CGROUP names it, it is the one this process is in, and it is
 * a thpbench-* directory. Only there does cgroup v1 reclaim with
 * memory.force_empty without --force-empty: the memcg is the case's own.
 */
static int harness_memcg(const struct wl_memcg *cg)
{
	const char *env = getenv("THPBENCH_CGROUP"), *base;

	if (!env || strcmp(env, cg->dir))
		return 0;
	base = strrchr(cg->dir, '/');
	return base && !strncmp(base + 1, "thpbench-", 9);
}

/*
 * The charge path needs reclaim in the memcg to find nothing to free: with
 * swap on (a zram device of another case or test) it swaps our 4 KiB
 * filler or splits and swaps a THP of ours (thp_split_pmd), and the last
 * THP is charged after all. In the harness's memcg it turns swap off for
 * the memcg (v1 memory.swappiness 0, v2 memory.swap.max 0).
 */
static void charge_no_swap(const struct wl_memcg *cg)
{
	const char *file = cg->v2 ? "memory.swap.max" : "memory.swappiness";

	if (!harness_memcg(cg))
		return;
	if (wl_memcg_write(cg, file, "0"))
		printf("%s not set: %s\n", file, strerror(errno));
	else
		printf("%s: 0 (the harness's memcg %s)\n", file, cg->dir);
}

static void memcg_or_exit(struct wl_memcg *cg, struct opts *o)
{
	if (wl_memcg_self(cg))
		wl_invalid("not measurable here: not in a (non-root) memory cgroup "
			   "(/proc/self/cgroup); run it in one of its own");
	if (o->path == PATH_CHARGE) {
		charge_no_swap(cg);
		return;
	}
	if (!cg->v2 && !o->force_empty && harness_memcg(cg)) {
		o->force_empty = 1;
		/* Reclaim the page cache, not our THPs (v2: swappiness=0). */
		if (wl_memcg_write(cg, "memory.swappiness", "0"))
			printf("memory.swappiness not set: %s\n", strerror(errno));
		printf("force_empty: auto (the harness's memcg %s)\n", cg->dir);
	}
	if (!wl_memcg_can_reclaim(cg, o->force_empty))
		wl_invalid("not measurable here: not in a cgroup with memory.reclaim "
			   "(%s is cgroup %s%s)", cg->dir, cg->v2 ? "v2" : "v1",
			   cg->v2 ? ", memory.reclaim not writable" :
			   "; --force-empty uses memory.force_empty, in a memcg of its own only");
	printf("memcg %s (cgroup %s)\n", cg->dir, cg->v2 ? "v2" : "v1");
}

/* --- THPs: map, check, count split --- */

static char *map_thps(const struct opts *o)
{
	char *p;

	wl_check_memory(o->count * WL_PMD_SIZE, "--count THPs of 2 MiB");
	p = wl_map_aligned(o->count * WL_PMD_SIZE, WL_PMD_SIZE,
			   PROT_READ | PROT_WRITE);
	if (!p)
		wl_fail("mmap of %llu THPs failed: %s",
			(unsigned long long)o->count, strerror(errno));
	if (madvise(p, o->count * WL_PMD_SIZE, MADV_HUGEPAGE))
		wl_fail("madvise(MADV_HUGEPAGE) failed: %s", strerror(errno));
	return p;
}

/* The THPs that are huge now (pagemap + kpageflags: needs root). */
static uint64_t count_huge(const char *p, const struct opts *o, unsigned char *huge)
{
	uint64_t i, n = 0;
	int r;

	for (i = 0; i < o->count; i++) {
		r = wl_pagemap_is_thp(p + i * WL_PMD_SIZE);
		if (r < 0)
			wl_die("pagemap/kpageflags unreadable (needs root): cannot "
			       "tell which THPs the shrinker split");
		huge[i] = (unsigned char)r;
		n += (uint64_t)r;
	}
	return n;
}

static void require_huge(uint64_t huge, const struct opts *o)
{
	uint64_t want = o->min_given ? o->min_huge : o->count;

	report_u("huge_before", huge);
	if (huge < want || !huge)
		wl_invalid("only %llu of %llu pages were THPs (--min-huge %llu): "
			   "THP enabled never, or no huge pages free",
			   (unsigned long long)huge, (unsigned long long)o->count,
			   (unsigned long long)want);
}

/* Of the THPs that were huge, how many are split now (page 0 no THP). */
static uint64_t count_split(const char *p, const struct opts *o,
			    const unsigned char *huge)
{
	uint64_t i, n = 0;

	for (i = 0; i < o->count; i++)
		if (huge[i] && wl_pagemap_in_thp(p + i * WL_PMD_SIZE) == 0)
			n++;
	return n;
}

static const char *const counters[] = {
	"thp_split_pmd", "thp_split_page", "thp_deferred_split_page",
	"thp_underused_split_page", "thp_fault_fallback",
	"thp_fault_fallback_charge", "thp_file_fallback",
	"thp_file_fallback_charge",
};
#define NCOUNTERS (sizeof(counters) / sizeof(counters[0]))
enum {
	C_SPLIT_PMD, C_SPLIT_PAGE, C_DEFERRED, C_UNDERUSED, C_FALLBACK, C_CHARGE,
	C_FILE_FALLBACK, C_FILE_CHARGE,
};

static void read_counters(uint64_t *v)
{
	if (wl_vmstat_read(counters, v, NCOUNTERS, NULL))
		wl_die("cannot read /proc/vmstat: its THP counters are the evidence");
}

static void report_deltas(const char *suffix, const uint64_t *a, const uint64_t *b)
{
	char name[96];
	size_t i;

	for (i = 0; i < NCOUNTERS; i++) {
		snprintf(name, sizeof(name), "%s%s", counters[i], suffix);
		report_u(name, b[i] - a[i]);
	}
}

/*
 * The region of interest of deferred and underused: reclaim passes in the
 * memcg until every THP of ours is split or --tries ran out.
 */
static uint64_t reclaim_until_split(const struct wl_memcg *cg, const char *p,
				    const struct opts *o, const unsigned char *huge,
				    uint64_t want, uint64_t *passes)
{
	uint64_t split = 0;
	double t0, t1;

	wl_roi_begin();
	t0 = wl_now_usec();
	for (*passes = 0; *passes < o->tries && split < want; (*passes)++) {
		if (wl_memcg_reclaim(cg, o->count * WL_PMD_SIZE, o->force_empty))
			wl_fail("reclaim in %s failed: %s", cg->dir, strerror(errno));
		split = count_split(p, o, huge);
	}
	t1 = wl_now_usec();
	wl_roi_end();
	printf("usec %.0f\n", t1 - t0);
	wl_metric("roi_usec", t1 - t0);
	report_u("reclaim_passes", *passes);
	return split;
}

/* --- deferred --- */

/* Every byte non-zero, so that no page is "underused"; one marker per page. */
static void fill(char *p, const struct opts *o)
{
	uint64_t i;

	for (i = 0; i < o->count * WL_PMD_SIZE; i += WL_BASE_PAGE) {
		memset(p + i, 0x5a, WL_BASE_PAGE);
		p[i] = (char)((i / WL_BASE_PAGE) | 1);
	}
}

static void verify_fill(const char *p, const struct opts *o)
{
	uint64_t i, off;

	for (i = 0; i < o->count * WL_PMD_SIZE; i += WL_BASE_PAGE) {
		off = i % WL_PMD_SIZE;
		if (off >= WL_MIB && off < WL_MIB + o->part)
			continue;
		if (p[i] != (char)((i / WL_BASE_PAGE) | 1) ||
		    p[i + WL_BASE_PAGE - 1] != 0x5a)
			wl_fail("page at offset %llu lost its contents in the split",
				(unsigned long long)i);
	}
}

static int run_deferred(const struct wl_memcg *cg, const struct opts *o)
{
	uint64_t a[NCOUNTERS], b[NCOUNTERS], c[NCOUNTERS], huge, split, passes, i;
	long long usage0, usage1, kmem0, kmem1;
	unsigned char *is_huge = calloc(o->count, 1);
	char *p = map_thps(o);

	if (!is_huge)
		wl_fail("out of memory");
	fill(p, o);
	huge = count_huge(p, o, is_huge);
	require_huge(huge, o);
	read_counters(a);
	for (i = 0; i < o->count; i++)
		if (munmap(p + i * WL_PMD_SIZE + WL_MIB, o->part))
			wl_fail("munmap of part of THP %llu: %s",
				(unsigned long long)i, strerror(errno));
	read_counters(b);
	report_deltas("_unmap", a, b);
	usage0 = wl_memcg_usage(cg);
	kmem0 = wl_memcg_kernel(cg);
	split = reclaim_until_split(cg, p, o, is_huge, huge, &passes);
	read_counters(c);
	usage1 = wl_memcg_usage(cg);
	kmem1 = wl_memcg_kernel(cg);
	report_deltas("", b, c);
	report_u("split", split);
	if (usage0 >= 0 && usage1 >= 0)
		report_ll("memcg_freed_kb", usage0 > usage1 ? (usage0 - usage1) / 1024 : 0);
	if (usage0 >= 0 && usage1 >= 0 && kmem0 >= 0 && kmem1 >= 0)
		report_ll("memcg_user_freed_kb", usage0 - kmem0 > usage1 - kmem1 ?
			  (usage0 - kmem0 - usage1 + kmem1) / 1024 : 0);
	wl_report_self_mem();
	verify_fill(p, o);
	if (!split)
		wl_fail("the deferred split shrinker split none of %llu partly "
			"unmapped THPs in %llu reclaim passes of %s",
			(unsigned long long)huge, (unsigned long long)passes, cg->dir);
	if (c[C_SPLIT_PAGE] - b[C_SPLIT_PAGE] < split)
		wl_fail("thp_split_page rose by %llu, but %llu of our THPs were split",
			(unsigned long long)(c[C_SPLIT_PAGE] - b[C_SPLIT_PAGE]),
			(unsigned long long)split);
	printf("ok\n");
	free(is_huge);
	return 0;
}

/* --- underused --- */

static void check_underused_knobs(const struct opts *o)
{
	long long su = thp_knob("shrink_underused");
	long long none = thp_knob("khugepaged/max_ptes_none");

	if (su < 0)
		wl_invalid("not measurable here: no transparent_hugepage/shrink_underused "
			   "(kernel before 6.12)");
	if (su != 1)
		wl_invalid("not measurable here: transparent_hugepage/shrink_underused is "
			   "%lld (a suite: set = transparent_hugepage/shrink_underused=1)", su);
	if (none < 0 || none >= (long long)(WL_PMD_SIZE / WL_BASE_PAGE - o->touch))
		wl_invalid("not measurable here: transparent_hugepage/khugepaged/"
			   "max_ptes_none is %lld, not below the %llu zero pages of each "
			   "THP (set = transparent_hugepage/khugepaged/max_ptes_none=N)",
			   none, (unsigned long long)(WL_PMD_SIZE / WL_BASE_PAGE - o->touch));
	report_ll("max_ptes_none", none);
}

/* Page j of the --touch pages of a THP: spread over it. */
static uint64_t touch_off(uint64_t j, const struct opts *o)
{
	return j * (WL_PMD_SIZE / WL_BASE_PAGE / o->touch) * WL_BASE_PAGE;
}

static void write_touch(char *p, const struct opts *o)
{
	uint64_t i, j;

	for (i = 0; i < o->count; i++)
		for (j = 0; j < o->touch; j++)
			p[i * WL_PMD_SIZE + touch_off(j, o)] = (char)(i | 1);
}

static void verify_touch(const char *p, const struct opts *o)
{
	uint64_t i, j;
	const char *thp;

	for (i = 0; i < o->count; i++) {
		thp = p + i * WL_PMD_SIZE;
		for (j = 0; j < o->touch; j++)
			if (thp[touch_off(j, o)] != (char)(i | 1))
				wl_fail("THP %llu lost a written byte in the split",
					(unsigned long long)i);
		/* The last page is never written (touch_off < 2M - 4K + 1). */
		if (o->touch < WL_PMD_SIZE / WL_BASE_PAGE && thp[WL_PMD_SIZE - 1])
			wl_fail("THP %llu: a zero page reads non-zero after the split",
				(unsigned long long)i);
	}
}

static int run_underused(const struct wl_memcg *cg, const struct opts *o)
{
	uint64_t a[NCOUNTERS], b[NCOUNTERS], huge, split, passes;
	long long rss0, rss1;
	unsigned char *is_huge = calloc(o->count, 1);
	char *p;

	if (!is_huge)
		wl_fail("out of memory");
	check_underused_knobs(o);
	p = map_thps(o);
	write_touch(p, o);
	huge = count_huge(p, o, is_huge);
	require_huge(huge, o);
	rss0 = wl_range_kb(p, o->count * WL_PMD_SIZE, "Rss");
	read_counters(a);
	split = reclaim_until_split(cg, p, o, is_huge, huge, &passes);
	read_counters(b);
	rss1 = wl_range_kb(p, o->count * WL_PMD_SIZE, "Rss");
	report_deltas("", a, b);
	report_u("split", split);
	report_ll("region_rss_kb_before", rss0);
	report_ll("region_rss_kb_after", rss1);
	if (rss0 >= 0 && rss1 >= 0)
		report_ll("region_rss_freed_kb", rss0 > rss1 ? rss0 - rss1 : 0);
	wl_report_self_mem();
	verify_touch(p, o);
	if (!split)
		wl_fail("the underused shrinker split none of %llu THPs with %llu "
			"zero pages each in %llu reclaim passes of %s",
			(unsigned long long)huge, (unsigned long long)(WL_PMD_SIZE / WL_BASE_PAGE - o->touch),
			(unsigned long long)passes, cg->dir);
	if (b[C_UNDERUSED] - a[C_UNDERUSED] < split)
		wl_fail("thp_underused_split_page rose by %llu, but %llu of our THPs "
			"were split", (unsigned long long)(b[C_UNDERUSED] - a[C_UNDERUSED]),
			(unsigned long long)split);
	printf("ok\n");
	free(is_huge);
	return 0;
}

/* --- charge --- */

/*
 * Charges are cached per CPU (MEMCG_CHARGE_BATCH, 64 pages): counted in
 * usage, handed back when the limit is hit. The workload runs on one CPU
 * so that only that CPU's cache holds its charges, and leaves less than
 * 2 MiB - 2 x 256 KiB under the limit before the last THP fault, so the
 * 2 MiB charge cannot succeed even with the caches drained.
 */
#define CHARGE_STOCK (64 * WL_BASE_PAGE)
#define CHARGE_ROOM_MAX ((long long)(WL_PMD_SIZE - 2 * CHARGE_STOCK))
/*
 * An mTHP charge (16..256 pages) may come out of the stock, which a 2 MiB
 * one never does. Once less than a batch is left under the limit the
 * stock cannot be refilled: the filler's charges are exact from the first
 * one that raises the usage, and it goes on until less than 16 KiB is
 * left. A --chunk of 64 KiB or more cannot be charged then, even if
 * reclaim finds 44 KiB of page cache; its fallback 4 KiB page can.
 */
#define CHARGE_ROOM_SMALL ((long long)(16 * WL_KIB))
/*
 * The filler: the 4 MiB left after the whole chunks plus what the stock
 * holds already charged (usage counts it, the filler's first pages take
 * it): 4 MiB alone ran out with the room still over 16 KiB.
 */
#define FILLER_LEN (2 * WL_PMD_SIZE + 4 * CHARGE_STOCK)

/* Bytes touched in the last chunk: a few 4 KiB fallback pages. */
static uint64_t last_touch(uint64_t csz)
{
	return csz == WL_PMD_SIZE ? 2 * CHARGE_STOCK : WL_BASE_PAGE;
}

/* The room under the limit (the usage read through one descriptor kept
 * open: wl_memcg_usage_held). */
static long long room_now(const struct wl_memcg *cg, long long limit)
{
	long long u = wl_memcg_usage_held(cg);

	if (u <= 0)
		wl_die("cannot read the usage of %s", cg->dir);
	return limit - u;
}

static void touch_range(char *p, uint64_t from, uint64_t to)
{
	uint64_t off;

	for (off = from; off < to; off += WL_BASE_PAGE)
		p[off] = (char)((off / WL_BASE_PAGE) | 1);
}

static void verify_range(const char *p, uint64_t from, uint64_t to)
{
	uint64_t off;

	for (off = from; off < to; off += WL_BASE_PAGE)
		if (p[off] != (char)((off / WL_BASE_PAGE) | 1))
			wl_fail("page at offset %llu lost its contents",
				(unsigned long long)off);
}

/*
 * Whole THPs while 4 MiB are left, 4 KiB filler pages (no THP) until less
 * than CHARGE_ROOM_MAX is, then one THP fault more: the last chunk.
 * Returns the chunks touched (the last one is the last of them).
 */
static uint64_t fill_to_limit(const struct wl_memcg *cg, long long limit,
			      char *p, uint64_t chunks, uint64_t csz,
			      char *filler, uint64_t *filled)
{
	long long room_max = csz == WL_PMD_SIZE ? CHARGE_ROOM_MAX : CHARGE_ROOM_SMALL;
	uint64_t i;

	for (i = 0; i + 1 < chunks && room_now(cg, limit) >= (long long)(2 * WL_PMD_SIZE); i++)
		touch_range(p, i * csz, (i + 1) * csz);
	for (*filled = 0; *filled < FILLER_LEN &&
	     room_now(cg, limit) >= room_max; *filled += WL_BASE_PAGE)
		filler[*filled] = 1;
	/* The last fault, then the 4 KiB pages it fell back to. */
	touch_range(p, i * csz, i * csz + last_touch(csz));
	return i + 1;
}

/* --shmem: a memfd of the chunks, mapped shared at a 2 MiB boundary. */
static char *map_shmem_thps(const struct opts *o)
{
	size_t len = o->count * WL_PMD_SIZE;
	char *p;
	int fd;

	wl_check_memory(len, "the memfd of THPs");
	fd = memfd_create("thpbench-charge", MFD_CLOEXEC);
	if (fd < 0 || ftruncate(fd, (off_t)len))
		wl_fail("memfd of %zu bytes: %s", len, strerror(errno));
	p = wl_map_aligned(len, WL_PMD_SIZE, PROT_READ | PROT_WRITE);
	if (!p || mmap(p, len, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_FIXED,
		       fd, 0) == MAP_FAILED)
		wl_fail("mmap of the memfd: %s", strerror(errno));
	close(fd);
	/* For shmem_enabled advise; EINVAL (never, deny) shows as no THP. */
	madvise(p, len, MADV_HUGEPAGE);
	return p;
}

/* hugepages-SIZEkB/stats/NAME; -1 when the kernel has none (before 6.10). */
static long long size_stat(uint64_t csz, const char *name)
{
	char p[160];

	snprintf(p, sizeof(p), "hugepages-%llukB/stats/%s",
		 (unsigned long long)(csz / WL_KIB), name);
	return thp_knob(p);
}

/* Is hugepages-SIZEkB/enabled set to never? */
static int size_never(uint64_t csz)
{
	char p[160], buf[128] = "";
	FILE *f;

	snprintf(p, sizeof(p), "/sys/kernel/mm/transparent_hugepage/"
		 "hugepages-%llukB/enabled", (unsigned long long)(csz / WL_KIB));
	f = fopen(p, "r");
	if (!f)
		return -1;
	if (!fgets(buf, sizeof(buf), f))
		buf[0] = '\0';
	fclose(f);
	return strstr(buf, "[never]") != NULL;
}

/* An mTHP run needs the PMD size off: its THP would take the chunks. */
static void small_or_exit(const struct opts *o)
{
	if (o->chunk == WL_PMD_SIZE)
		return;
	if (size_never(o->chunk) < 0)
		wl_invalid("not measurable here: no hugepages-%llukB (mTHP sizes: 6.8+)",
			   (unsigned long long)(o->chunk / WL_KIB));
	if (size_never(WL_PMD_SIZE) == 0)
		wl_invalid("not measurable here: hugepages-2048kB/enabled is not never, "
			   "its THPs would take the %llu kB chunks (suite: mthp = %lluK)",
			   (unsigned long long)(o->chunk / WL_KIB),
			   (unsigned long long)(o->chunk / WL_KIB));
}

/*
 * Each of our THP faults left without a THP fell back on the charge or,
 * before it, on the allocation (a plain fallback, counted in fallback
 * but not in its _charge): the bound, for the vmstat counter and the
 * 2048kB stat (which count both, so the same difference holds).
 */
static void check_charge(const char *name, long long charge, long long fallback,
			 uint64_t missed)
{
	long long plain = fallback - charge, bound;
	char key[96];

	bound = (long long)missed - (plain > 0 ? plain : 0);
	snprintf(key, sizeof(key), "%s_min", name);
	report_ll(key, bound > 0 ? bound : 0);
	if (bound > 0 && charge < bound)
		wl_fail("%s rose by %lld, but %lld THP faults of ours met the "
			"memcg limit", name, charge, bound);
}

static int run_charge(const struct wl_memcg *cg, struct opts *o)
{
	uint64_t a[NCOUNTERS], b[NCOUNTERS], chunks, used, filled, i, nonhuge = 0;
	long long limit = wl_memcg_limit(cg), usage = wl_memcg_usage(cg), room;
	long long last_room, sa[2], sb[2];
	uint64_t csz = o->chunk, tail;
	int drain = 0;
	const char *const st[2] = {
		o->shmem ? "shmem_fallback_charge" : "anon_fault_fallback_charge",
		o->shmem ? "shmem_fallback" : "anon_fault_fallback",
	};
	int cc = o->shmem ? C_FILE_CHARGE : C_CHARGE;
	int cf = o->shmem ? C_FILE_FALLBACK : C_FALLBACK;
	int last_huge;
	double t0, t1;
	char *p, *filler;

	small_or_exit(o);
	if (limit < 0 || usage < 0)
		wl_invalid("not measurable here: %s has no memory limit (memory.max "
			   "or memory.limit_in_bytes); run it in a memcg with one", cg->dir);
	room = limit - usage;
	printf("memcg %s limit_kb %lld usage_kb %lld\n", cg->dir, limit / 1024,
	       usage / 1024);
	if (room < (long long)(6 * WL_MIB))
		wl_invalid("not measurable here: only %lld KiB left under the memcg "
			   "limit; give it at least 6 MiB more", room / 1024);
	wl_pin_here();
	/*
	 * mTHP: reclaim the memcg first where it is ours (v1 force_empty
	 * also drains every CPU's charge stock): less page cache for the
	 * last charge's reclaim to find, no stock of another CPU to drain.
	 */
	if (csz != WL_PMD_SIZE && wl_memcg_can_reclaim(cg, harness_memcg(cg)))
		drain = 1 + harness_memcg(cg);
	if (drain && !wl_memcg_reclaim(cg, (uint64_t)limit, drain > 1)) {
		usage = wl_memcg_usage(cg);
		room = limit - usage;
		printf("reclaimed first: usage_kb %lld\n", usage / 1024);
	}
	chunks = (uint64_t)room / csz + 1;
	o->count = (chunks * csz + WL_PMD_SIZE - 1) / WL_PMD_SIZE;
	p = o->shmem ? map_shmem_thps(o) : map_thps(o);
	tail = last_touch(csz);
	filler = mmap(NULL, FILLER_LEN, PROT_READ | PROT_WRITE,
		      MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (filler == MAP_FAILED || madvise(filler, FILLER_LEN, MADV_NOHUGEPAGE))
		wl_fail("mmap of the 4 KiB filler: %s", strerror(errno));
	sb[0] = size_stat(csz, st[0]);
	sb[1] = size_stat(csz, st[1]);
	read_counters(a);
	wl_roi_begin();
	t0 = wl_now_usec();
	used = fill_to_limit(cg, limit, p, chunks, csz, filler, &filled);
	t1 = wl_now_usec();
	last_room = room_now(cg, limit);
	/*
	 * Room for the kernel memory of what follows (the files it opens are
	 * charged too): under 16 KiB left, a charge that fails is a memcg OOM.
	 */
	munmap(filler, FILLER_LEN);
	wl_roi_end();
	read_counters(b);
	sa[0] = size_stat(csz, st[0]);
	sa[1] = size_stat(csz, st[1]);
	printf("usec %.0f\n", t1 - t0);
	wl_metric("roi_usec", t1 - t0);
	for (i = 0; i + 1 < used; i++)
		nonhuge += wl_pagemap_is_large(p + i * csz, csz) == 0;
	last_huge = wl_pagemap_is_large(p + (used - 1) * csz, csz);
	if (last_huge < 0)
		wl_die("pagemap/kpageflags unreadable (needs root): cannot tell "
		       "which faults got a THP");
	report_deltas("", a, b);
	if (sb[0] >= 0 && sa[0] >= 0 && sb[1] >= 0 && sa[1] >= 0) {
		printf("mthp_%llukB_%s %lld\n", (unsigned long long)(csz / WL_KIB),
		       st[0], sa[0] - sb[0]);
		printf("mthp_%llukB_%s %lld\n", (unsigned long long)(csz / WL_KIB),
		       st[1], sa[1] - sb[1]);
	}
	report_u("chunks", used);
	report_u("filler_kb", filled / 1024);
	report_u("nonhuge_chunks", nonhuge + !last_huge);
	report_u("last_huge", (uint64_t)last_huge);
	report_ll("room_kb_after", last_room > 0 ? last_room / 1024 : 0);
	verify_range(p, 0, (used - 1) * csz);
	verify_range(p, (used - 1) * csz, (used - 1) * csz + tail);
	wl_report_self_mem();
	if (used > 1 && nonhuge == used - 1)
		wl_invalid("no THP faulted even below the memcg limit: %s never, "
			   "or no huge pages free", o->shmem ?
			   "transparent_hugepage/shmem_enabled (advise or always "
			   "wanted)" : "THP enabled");
	if (b[C_SPLIT_PMD] != a[C_SPLIT_PMD] && last_huge)
		wl_invalid("not measurable here: reclaim in the memcg split %llu THP "
			   "PMDs (swapped them out?) and charged the last THP all the "
			   "same: swap is on and the memcg may swap (v1 memory.swappiness, "
			   "v2 memory.swap.max); run it in the harness's memcg (suite key "
			   "'memcg =') or in one without swap",
			   (unsigned long long)(b[C_SPLIT_PMD] - a[C_SPLIT_PMD]));
	if (last_huge && csz != WL_PMD_SIZE)
		wl_invalid("not measurable here: the %llu kB fault under the limit was "
			   "charged all the same (%lld KiB were left: reclaim in the memcg "
			   "found the rest, page cache or a charge stock)",
			   (unsigned long long)(csz / WL_KIB), last_room / 1024);
	if (last_huge)
		wl_invalid("not measurable here: the THP fault under the limit was "
			   "charged all the same (reclaim freed page cache or swapped in "
			   "the memcg, or per-CPU charge caches over 256 KiB?)");
	/* The vmstat thp_* counters count PMD-size folios only. */
	if (csz == WL_PMD_SIZE)
		check_charge(counters[cc], (long long)(b[cc] - a[cc]),
			     (long long)(b[cf] - a[cf]), nonhuge + 1);
	if (sb[0] >= 0 && sa[0] >= 0 && sb[1] >= 0 && sa[1] >= 0)
		check_charge(st[0], sa[0] - sb[0], sa[1] - sb[1], nonhuge + 1);
	printf("ok\n");
	return 0;
}

int main(int argc, char **argv)
{
	struct wl_memcg cg;
	struct opts o;

	parse_args(argc, argv, &o);
	memcg_or_exit(&cg, &o);
	printf("path %s\n", path_names[o.path]);
	switch (o.path) {
	case PATH_DEFERRED:
		return run_deferred(&cg, &o);
	case PATH_UNDERUSED:
		return run_underused(&cg, &o);
	case PATH_CHARGE:
		return run_charge(&cg, &o);
	}
	return WL_EXIT_USAGE;
}
