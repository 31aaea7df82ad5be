// SPDX-License-Identifier: GPL-2.0-only
/*
 * pchase - a pointer chase whose TLB misses are known in advance, for
 * `./run.sh pmu-check`: are this machine's TLB counters telling the truth?
 *
 * One node per 4 KiB page, at a cache line picked per page, the nodes
 * linked in one random cycle through every page (Sattolo's algorithm), so
 * each load goes to the page visited N-1 loads ago: no prefetcher guesses
 * it and no TLB holds it once N pages outnumber the TLB's entries (a few
 * thousand 4 KiB entries on any current core). With 4 KiB backing nearly
 * every load must then walk the page tables; with 2 MiB backing the same
 * memory is N/512 entries, which the second-level TLB holds, so almost
 * none may walk. Counts grow with the loads: passes x pages.
 */
#include "wl.h"

#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

static const char usage[] =
	"usage: pchase [--pages N] [--backing 4k|2m] [--passes P] [--seed S]\n"
	"  --pages N     4 KiB pages the chase runs through (default 16384: 64 MiB)\n"
	"  --backing 4k  base pages only: MADV_NOHUGEPAGE (default)\n"
	"  --backing 2m  transparent huge pages: MADV_HUGEPAGE (THP enabled must be\n"
	"                always or madvise); every 2 MiB must be huge, else exit 3\n"
	"  --passes P    times around the cycle (default 8)\n"
	"  --seed S      the order of the pages (default 1)\n"
	"Times the chase only (region of interest). Prints and reports pages,\n"
	"page_kb (the backing), accesses, roi_usec, ns_per_access, region_huge_kb,\n"
	"rss_kb, anon_huge_kb, hugetlb_kb. Exit 0 ok, 1 failure (the cycle is\n"
	"broken), 2 usage, 3 invalid measurement: the backing is not what was\n"
	"asked (no huge pages for 2m, huge pages for 4k).\n";

struct opts {
	uint64_t pages, passes, seed;
	int huge;
};

static void parse_args(int argc, char **argv, struct opts *o)
{
	static const struct option longopts[] = {
		{ "pages", required_argument, NULL, 'n' },
		{ "backing", required_argument, NULL, 'b' },
		{ "passes", required_argument, NULL, 'p' },
		{ "seed", required_argument, NULL, 's' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	int c;

	*o = (struct opts){ .pages = 16384, .passes = 8, .seed = 1 };
	while ((c = getopt_long(argc, argv, "", longopts, NULL)) != -1) {
		switch (c) {
		case 'n':
			o->pages = wl_opt_count("--pages", optarg, 2, 1ULL << 30, usage);
			break;
		case 'b':
			if (!strcmp(optarg, "4k"))
				o->huge = 0;
			else if (!strcmp(optarg, "2m"))
				o->huge = 1;
			else
				wl_usage_error(usage, "--backing: '%s' is not 4k or 2m",
					       optarg);
			break;
		case 'p':
			o->passes = wl_opt_count("--passes", optarg, 1, 1 << 20, usage);
			break;
		case 's':
			o->seed = wl_opt_count("--seed", optarg, 0, UINT64_MAX, usage);
			break;
		default:
			wl_opt_fallback(c, usage);
		}
	}
	wl_no_operands(argc, argv, usage);
}

/* xorshift64*: the order is the seed's, on every machine. */
static uint64_t next_rand(uint64_t *s)
{
	*s ^= *s >> 12;
	*s ^= *s << 25;
	*s ^= *s >> 27;
	return *s * 2685821657736338717ULL;
}

/* Page i's node: one cache line of it, chosen by the seed. */
static void **node(char *base, uint64_t page, const uint16_t *line)
{
	return (void **)(base + page * WL_BASE_PAGE + line[page] * 64ULL);
}

/*
 * Sattolo: a random permutation with a single cycle, so the chase visits
 * every page once per pass. Writing the links faults every page in.
 * Returns page 0's node, where the chase starts.
 */
static void **link_cycle(char *base, const struct opts *o)
{
	void **start;
	uint64_t *order = malloc(o->pages * sizeof(*order));
	uint16_t *line = malloc(o->pages * sizeof(*line));
	uint64_t i, j, t, s = o->seed * 0x9e3779b97f4a7c15ULL + 1;

	if (!order || !line)
		wl_fail("cannot allocate the page order (%llu pages)",
			(unsigned long long)o->pages);
	for (i = 0; i < o->pages; i++) {
		order[i] = i;
		line[i] = (uint16_t)(next_rand(&s) % (WL_BASE_PAGE / 64));
	}
	for (i = o->pages - 1; i > 0; i--) {
		j = next_rand(&s) % i;
		t = order[i];
		order[i] = order[j];
		order[j] = t;
	}
	for (i = 0; i < o->pages; i++)
		*node(base, order[i], line) = node(base, order[(i + 1) % o->pages], line);
	start = node(base, 0, line);
	free(order);
	free(line);
	return start;
}

/* The backing asked for, or exit 3 saying what it is. */
static long long check_backing(char *base, size_t len, const struct opts *o)
{
	long long kb = wl_range_anon_huge_kb(base, len);

	if (kb < 0)
		wl_die("cannot read /proc/self/smaps: cannot tell how the chase is backed");
	if (o->huge && (uint64_t)kb * WL_KIB < len)
		wl_invalid("only %lld of %llu kB are transparent huge pages: the 2 MiB "
			   "case needs THP enabled = always or madvise and free "
			   "2 MiB blocks", kb, (unsigned long long)(len / WL_KIB));
	if (!o->huge && kb > 0)
		wl_invalid("%lld kB of the 4 KiB case are huge pages despite "
			   "MADV_NOHUGEPAGE", kb);
	return kb;
}

/* Around the cycle passes times; returns where it ended (used, so the
 * loads cannot be dropped). */
static void *chase(void **start, uint64_t steps)
{
	void **p = start;
	uint64_t i;

	for (i = 0; i < steps; i++)
		p = (void **)*p;
	return p;
}

int main(int argc, char **argv)
{
	struct opts o;
	size_t len;
	uint64_t steps;
	long long huge_kb;
	double t0, usec;
	void *end, **start;
	char *base, buf[32];

	parse_args(argc, argv, &o);
	len = (o.pages * WL_BASE_PAGE + WL_PMD_SIZE - 1) & ~(WL_PMD_SIZE - 1);
	wl_check_memory(len, "the chase");
	base = wl_map_aligned(len, WL_PMD_SIZE, PROT_READ | PROT_WRITE);
	if (!base)
		wl_fail("cannot map %s", wl_fmt_size(len, buf, sizeof(buf)));
	if (madvise(base, len, o.huge ? MADV_HUGEPAGE : MADV_NOHUGEPAGE))
		wl_die("madvise(%s) failed: %s", o.huge ? "MADV_HUGEPAGE" :
		       "MADV_NOHUGEPAGE", strerror(errno));
	start = link_cycle(base, &o);
	huge_kb = check_backing(base, len, &o);
	steps = o.passes * o.pages;
	wl_roi_begin();
	t0 = wl_now_usec();
	end = chase(start, steps);
	usec = wl_now_usec() - t0;
	wl_roi_end();
	/* a broken cycle ends elsewhere than where a whole number of laps does */
	if (end != chase(start, steps % o.pages))
		wl_fail("the chase left its cycle: memory does not hold what was written");
	printf("pages %llu\npage_kb %d\naccesses %llu\nusec %.0f\nns_per_access %.2f\n",
	       (unsigned long long)o.pages, o.huge ? 2048 : 4,
	       (unsigned long long)steps, usec, usec * 1e3 / (double)steps);
	wl_metric("pages", (double)o.pages);
	wl_metric("page_kb", o.huge ? 2048 : 4);
	wl_metric("accesses", (double)steps);
	wl_metric("roi_usec", usec);
	wl_metric("ns_per_access", usec * 1e3 / (double)steps);
	wl_report_kb("region_huge_kb", huge_kb);
	wl_report_self_mem();
	printf("ok\n");
	return WL_EXIT_OK;
}
