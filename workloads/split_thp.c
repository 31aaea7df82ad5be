// SPDX-License-Identifier: GPL-2.0-only
/*
 * split_thp - seed 003 (Long, "mm, thp: ... split huge page", 2014):
 * break N THPs and time only the breaking. The posting munmap()ed part of
 * each of 1000 THPs; today that splits the PMD (thp_split_pmd) and queues
 * the folio for a deferred split (thp_deferred_split_page). Before timing
 * anything the pages are checked to really be THPs, since splitting base
 * pages costs nothing and would make any kernel look fast.
 *
 * --how mlock: mlock() of part of each THP splits the VMA at a non-PMD
 * boundary, and vma_adjust_trans_huge() splits the PMD (thp_split_pmd);
 * the folio stays whole and fully mapped, so the mlock queues nothing for
 * a deferred split (thp_deferred_split_page moves only later, when exit
 * unmaps the PTE-mapped THPs page by page).
 */
#include "wl.h"

#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

static const char usage[] =
	"usage: split_thp [--count N] [--how munmap|madvise|mprotect|mlock]\n"
	"                 [--part SIZE] [--min-huge N]\n"
	"  --count N      THPs to map, touch and break (default 1000, as the posting)\n"
	"  --how munmap   munmap part of each THP (default)\n"
	"  --how madvise  MADV_DONTNEED part of each THP\n"
	"  --how mprotect mprotect(PROT_READ) part of each THP\n"
	"  --how mlock    mlock part of each THP (the VMA split splits the PMD)\n"
	"  --part SIZE    how much of each THP, at its 1 MiB offset (4K..1M, 4K steps;\n"
	"                 default 4K)\n"
	"  --min-huge N   THPs that must really be huge before breaking (default all)\n"
	"Times the breaking only. Prints 'huge N', 'usec N' and the thp_split_pmd,\n"
	"thp_split_page, thp_deferred_split_page deltas; metrics of the same names\n"
	"plus roi_usec, rss_kb, anon_huge_kb, hugetlb_kb. Exit 0 ok, 1 failure\n"
	"(also: split counters did not move), 2 usage, 3 invalid measurement:\n"
	"fewer than --min-huge pages were huge.\n";

enum how { HOW_MUNMAP, HOW_MADVISE, HOW_MPROTECT, HOW_MLOCK };

static const char *const how_names[] = { "munmap", "madvise", "mprotect", "mlock" };

struct opts {
	uint64_t count;
	uint64_t min_huge;
	uint64_t part;
	enum how how;
};

static enum how parse_how(const char *arg)
{
	unsigned int i;

	for (i = 0; i < sizeof(how_names) / sizeof(how_names[0]); i++)
		if (!strcmp(arg, how_names[i]))
			return (enum how)i;
	wl_usage_error(usage, "--how: '%s' is not munmap, madvise, mprotect or mlock",
		       arg);
}

/* munmap, mprotect and mlock split a VMA in three per THP. */
static void check_map_count(const struct opts *o)
{
	FILE *f = fopen("/proc/sys/vm/max_map_count", "r");
	unsigned long long max = 0;

	if (!f)
		return;
	if (fscanf(f, "%llu", &max) != 1)
		max = 0;
	fclose(f);
	if (o->how != HOW_MADVISE && max && 2 * o->count + 1000 > max)
		wl_usage_error(usage, "--count %llu with --how %s needs about %llu "
			       "mappings, over vm.max_map_count (%llu); use "
			       "fewer or --how madvise",
			       (unsigned long long)o->count, how_names[o->how],
			       (unsigned long long)(2 * o->count + 1000), max);
}

static void check_opts(struct opts *o, int min_given)
{
	if (o->part % WL_BASE_PAGE || o->part > WL_MIB)
		wl_usage_error(usage, "--part must be a multiple of 4K, at most 1M");
	if (!min_given)
		o->min_huge = o->count;
	if (o->min_huge > o->count)
		wl_usage_error(usage, "--min-huge %llu is more than --count %llu",
			       (unsigned long long)o->min_huge,
			       (unsigned long long)o->count);
	check_map_count(o);
}

static void parse_args(int argc, char **argv, struct opts *o)
{
	static const struct option longopts[] = {
		{ "count", required_argument, NULL, 'c' },
		{ "how", required_argument, NULL, 'w' },
		{ "part", required_argument, NULL, 'p' },
		{ "min-huge", required_argument, NULL, 'm' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	int c, min_given = 0;

	*o = (struct opts){ .count = 1000, .part = WL_BASE_PAGE };
	while ((c = getopt_long(argc, argv, "", longopts, NULL)) != -1) {
		switch (c) {
		case 'c':
			o->count = wl_opt_count("--count", optarg, 1, 1 << 24, usage);
			break;
		case 'w':
			o->how = parse_how(optarg);
			break;
		case 'p':
			o->part = wl_opt_size("--part", optarg, usage);
			break;
		case 'm':
			o->min_huge = wl_opt_count("--min-huge", optarg, 0,
						   1 << 24, usage);
			min_given = 1;
			break;
		default:
			wl_opt_fallback(c, usage);
		}
	}
	wl_no_operands(argc, argv, usage);
	check_opts(o, min_given);
}

/*
 * Marker bytes in each THP: two outside the part that gets broken, which
 * must survive the split, and one at the start of the part, which after
 * MADV_DONTNEED must read zero and after mprotect must still be there.
 */
static void touch(char *p, uint64_t count)
{
	uint64_t i;

	for (i = 0; i < count; i++) {
		p[i * WL_PMD_SIZE] = (char)(i | 1);
		p[i * WL_PMD_SIZE + WL_MIB - 1] = (char)(i | 1);
		p[i * WL_PMD_SIZE + WL_MIB] = (char)(i | 1);
	}
}

static void verify_markers(const char *p, const struct opts *o)
{
	const char *thp;
	char part;
	uint64_t i;

	for (i = 0; i < o->count; i++) {
		thp = p + i * WL_PMD_SIZE;
		if (thp[0] != (char)(i | 1) || thp[WL_MIB - 1] != (char)(i | 1))
			wl_fail("THP %llu lost its contents when it was split",
				(unsigned long long)i);
		if (o->how == HOW_MUNMAP)
			continue;
		part = o->how == HOW_MADVISE ? 0 : (char)(i | 1);
		if (thp[WL_MIB] != part)
			wl_fail("THP %llu: the %s part reads 0x%02x, expected 0x%02x",
				(unsigned long long)i, how_names[o->how],
				(unsigned char)thp[WL_MIB], (unsigned char)part);
	}
}

static void read_sysfs(const char *knob, char *buf, size_t len)
{
	char path[128];
	FILE *f;

	snprintf(path, sizeof(path), "/sys/kernel/mm/transparent_hugepage/%s",
		 knob);
	snprintf(buf, len, "?");
	f = fopen(path, "r");
	if (!f)
		return;
	if (!fgets(buf, (int)len, f))
		snprintf(buf, len, "?");
	buf[strcspn(buf, "\n")] = '\0';
	fclose(f);
}

/* How many of the THPs are huge, by every source that can be read. */
static uint64_t count_huge(char *p, const struct opts *o)
{
	long long kb = wl_range_anon_huge_kb(p, o->count * WL_PMD_SIZE);
	uint64_t huge = kb < 0 ? o->count : (uint64_t)kb / 2048, kpf = 0, i;
	int r = 0;

	for (i = 0; i < o->count && r >= 0; i++) {
		r = wl_pagemap_is_thp(p + i * WL_PMD_SIZE);
		kpf += r > 0;
	}
	if (kb < 0 && r < 0)
		wl_die("neither /proc/self/smaps nor pagemap/kpageflags can be "
		       "read: cannot tell whether the pages are huge");
	printf("huge_smaps %lld\n", kb < 0 ? -1 : kb / 2048);
	if (r < 0)
		printf("huge_kpageflags unreadable (needs root)\n");
	else
		printf("huge_kpageflags %llu\n", (unsigned long long)kpf);
	if (r >= 0 && kpf < huge)
		huge = kpf;
	printf("huge %llu\n", (unsigned long long)huge);
	wl_metric("huge", (double)huge);
	return huge;
}

static void require_huge(uint64_t huge, const struct opts *o)
{
	char enabled[128], defrag[128];

	if (huge >= o->min_huge)
		return;
	read_sysfs("enabled", enabled, sizeof(enabled));
	read_sysfs("defrag", defrag, sizeof(defrag));
	wl_invalid("only %llu of %llu pages were THPs (--min-huge %llu); THP "
		   "enabled: %s, defrag: %s",
		   (unsigned long long)huge, (unsigned long long)o->count,
		   (unsigned long long)o->min_huge, enabled, defrag);
}

static int break_one(char *thp, const struct opts *o)
{
	char *at = thp + WL_MIB;

	switch (o->how) {
	case HOW_MUNMAP:
		return munmap(at, o->part);
	case HOW_MADVISE:
		return madvise(at, o->part, MADV_DONTNEED);
	case HOW_MPROTECT:
		return mprotect(at, o->part, PROT_READ);
	case HOW_MLOCK:
		return mlock(at, o->part);
	}
	return -1;
}

static const char *const counters[] = {
	"thp_split_pmd", "thp_split_page", "thp_deferred_split_page",
};
#define NCOUNTERS (sizeof(counters) / sizeof(counters[0]))

static void read_counters(uint64_t *v)
{
	if (wl_vmstat_read(counters, v, NCOUNTERS, NULL))
		wl_die("cannot read /proc/vmstat: the split counters are the "
		       "evidence that THPs were split");
}

static void report_splits(const uint64_t *before, const uint64_t *after,
			  uint64_t huge, const struct opts *o)
{
	uint64_t d;
	size_t i;

	for (i = 0; i < NCOUNTERS; i++) {
		d = after[i] - before[i];
		printf("%s %llu\n", counters[i], (unsigned long long)d);
		wl_metric(counters[i], (double)d);
	}
	/* Every way of breaking part of a PMD-mapped THP splits the PMD. */
	d = after[0] - before[0];
	if (d < huge)
		wl_fail("thp_split_pmd rose by %llu, but %llu THPs were broken "
			"with %s: they were not split",
			(unsigned long long)d, (unsigned long long)huge,
			how_names[o->how]);
}

int main(int argc, char **argv)
{
	uint64_t before[NCOUNTERS], after[NCOUNTERS], huge, i;
	int err = 0;
	struct opts o;
	double t0, t1;
	char *p;

	parse_args(argc, argv, &o);
	wl_check_memory(o.count * WL_PMD_SIZE, "--count THPs of 2 MiB");
	p = wl_map_aligned(o.count * WL_PMD_SIZE, WL_PMD_SIZE,
			   PROT_READ | PROT_WRITE);
	if (!p)
		wl_fail("mmap of %llu THPs failed: %s",
			(unsigned long long)o.count, strerror(errno));
	if (madvise(p, o.count * WL_PMD_SIZE, MADV_HUGEPAGE))
		wl_fail("madvise(MADV_HUGEPAGE) failed: %s (is THP built in?)",
			strerror(errno));
	touch(p, o.count);
	huge = count_huge(p, &o);
	require_huge(huge, &o);

	read_counters(before);
	wl_roi_begin();
	t0 = wl_now_usec();
	for (i = 0; i < o.count && !err; i++)
		err = break_one(p + i * WL_PMD_SIZE, &o);
	t1 = wl_now_usec();
	wl_roi_end();
	read_counters(after);

	if (err)
		wl_fail("%s of part of THP %llu failed: %s", how_names[o.how],
			(unsigned long long)(i - 1), strerror(errno));
	printf("usec %.0f\n", t1 - t0);
	wl_metric("roi_usec", t1 - t0);
	report_splits(before, after, huge, &o);
	wl_report_self_mem();
	verify_markers(p, &o);
	printf("ok\n");
	return 0;
}
