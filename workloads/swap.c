// SPDX-License-Identifier: GPL-2.0-only
/*
 * swap - swap THPs and mTHPs out and back in (issue 30, item 4).
 *
 * Kernel path: MADV_PAGEOUT of a region of large folios (2 MiB THPs, or
 * mTHPs of --chunk) reclaims them through shrink_folio_list ->
 * add_to_swap; a whole large folio goes to swap when the swap device can
 * take it (THP_SWAP, a contiguous cluster: thp_swpout in /proc/vmstat,
 * the size's stats/swpout), else it is split first (thp_swpout_fallback,
 * stats/swpout_fallback). Touching the region back faults it in
 * (pswpin; a large folio read back whole on a synchronous device such as
 * zram: stats/swpin; split: swpin_fallback).
 *
 * Proof it got there, for its own memory: before the page-out every
 * chunk is checked to be one large folio (pagemap + kpageflags); after
 * it, smaps' Swap for the region says how much went out. Every chunk that
 * was large and is now entirely swapped was counted by thp_swpout or
 * thp_swpout_fallback (2 MiB), or the size's swpout or swpout_fallback
 * (mTHP), or the size's zswpout when zswap took it (zswap = on in the
 * case): the sum rising by less is a failure (exit 1). The counters are
 * system-wide, so this is a lower bound, never an equality.
 *
 * --fragment-swap first leaves no contiguous free swap range (see
 * fragment_swap()): every large folio is split on the way out, and each
 * large chunk whose swap entries (pagemap) are not one aligned run
 * (went_split) must have been counted by thp_swpout_fallback (2 MiB) or
 * the size's swpout_fallback: rising by less is a failure (exit 1), none
 * split is not measurable here (exit 3). went_whole counts every large
 * chunk all out, whole or split.
 *
 * --charge-fallback (an mTHP --chunk, in a memcg with a limit: the suite
 * keys "memcg = SIZE" and "set = transparent_hugepage/defrag=never")
 * drives the swap-in charge fallback: mm/memory.c do_swap_page ->
 * alloc_swap_folio allocates the chunk's large folio with
 * vma_thp_gfp_mask() (defrag never: GFP_TRANSHUGE_LIGHT, no direct
 * reclaim) and charges it with mem_cgroup_swapin_charge_folio(); a failed
 * charge counts the size's swpin_fallback_charge and swpin_fallback, a
 * failed allocation swpin_fallback only, and the fault falls back to a
 * 4 KiB page. After the page-out a 4 KiB filler brings the memcg to less
 * than a chunk under its limit; then the first page of each large chunk
 * that went out whole (pagemap: one aligned run of swap entries) is read.
 * A read that left the other pages of the chunk swap entries was a
 * fallback; those with less than a chunk of room before the read
 * (charge_fallbacks) each failed the large folio's allocation or charge:
 * swpin_fallback must rise by at least that many (exit 1 if not), and
 * swpin_fallback_charge by that less the system's allocation failures
 * (swpin_fallback - swpin_fallback_charge): swpin_fallback_charge_min.
 * None fell back: not measurable here (exit 3). Large-folio swap-in needs
 * zswap never enabled since boot (zswap_never_enabled()) and a
 * synchronous device (zram).
 *
 * --small-ok makes a run with no large folio the 4 KiB baseline of an
 * A/B (thp = always,never: the same page-out and swap-in timed for 4 KiB
 * pages, pswpout/pswpin) instead of "not measurable here"; the checks
 * above then hold trivially (no large chunk went out) and large reads 0.
 *
 * Needs a swap device (the harness makes a zram one for a case with
 * "swap = zram"); without one, or with no large folios to be had (and no
 * --small-ok), it is not measurable here (exit 3).
 */
#include "wl.h"

#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sched.h>
#include <sys/mman.h>

#ifndef MADV_PAGEOUT
#define MADV_PAGEOUT 21
#endif

static const char usage[] =
	"usage: swap [--size SIZE] [--chunk SIZE] [--fragment-swap] [--charge-fallback]\n"
	"  --size SIZE   memory to fill, swap out and touch back (default 64M)\n"
	"  --chunk SIZE  the folio size to check and count: 2M (THP, default) or\n"
	"                an mTHP size (16K..1M) the harness enabled for the case\n"
	"  --fragment-swap  first fill all free swap with 4 KiB pages and free every\n"
	"                other slot: the large folios cannot go out whole and are\n"
	"                split (thp_swpout_fallback, swpout_fallback); reports\n"
	"                filler_kb, filler_swapped, filler_freed, fill_left_kb,\n"
	"                went_split (chunks whose swap entries are not one run)\n"
	"  --charge-fallback  (mTHP --chunk, in a memcg with a limit) fill the memcg to\n"
	"                less than a chunk under its limit after the page-out, then\n"
	"                read the first page of each chunk: swap-ins that fell back\n"
	"                (swpin_fallback, swpin_fallback_charge); reports\n"
	"                charge_fallbacks, swapin_small, swapin_large, room_kb\n"
	"  --small-ok    no large folio is the 4 KiB baseline (thp = never in an\n"
	"                A/B), timed the same way, not 'not measurable here'\n"
	"Times MADV_PAGEOUT (pageout_usec) and the touch back (swapin_usec).\n"
	"Prints and reports large (chunks that were large folios), swapped_kb\n"
	"(smaps Swap after the page-out), thp_swpout, thp_swpout_fallback,\n"
	"pswpout, pswpin, zswpout, zswpin deltas and the chunk size's stats swpout,\n"
	"swpout_fallback, zswpout, swpin, swpin_fallback, swpin_fallback_charge\n"
	"(mthp_swpout ...). Exit 0 ok, 1 failure (data\n"
	"changed; the swap-out counters rose by less than the large chunks that\n"
	"went out), 2 usage, 3 not measurable here (no swap; no large folios).\n";

struct opts {
	uint64_t size, chunk;
	int fragment, charge, small_ok;
};

static void parse_args(int argc, char **argv, struct opts *o)
{
	static const struct option lo[] = {
		{ "size", required_argument, NULL, 's' },
		{ "chunk", required_argument, NULL, 'c' },
		{ "fragment-swap", no_argument, NULL, 'f' },
		{ "charge-fallback", no_argument, NULL, 'C' },
		{ "small-ok", no_argument, NULL, 'S' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	int c;

	*o = (struct opts){ .size = 64 * WL_MIB, .chunk = WL_PMD_SIZE };
	while ((c = getopt_long(argc, argv, "", lo, NULL)) != -1) {
		switch (c) {
		case 's':
			o->size = wl_opt_size("--size", optarg, usage);
			break;
		case 'c':
			o->chunk = wl_opt_size("--chunk", optarg, usage);
			break;
		case 'f':
			o->fragment = 1;
			break;
		case 'C':
			o->charge = 1;
			break;
		case 'S':
			o->small_ok = 1;
			break;
		default:
			wl_opt_fallback(c, usage);
		}
	}
	wl_no_operands(argc, argv, usage);
	if (o->chunk < 16 * WL_KIB || o->chunk > WL_PMD_SIZE ||
	    (o->chunk & (o->chunk - 1)))
		wl_usage_error(usage, "--chunk: a power of two from 16K to 2M");
	if (o->small_ok && (o->charge || o->fragment))
		wl_usage_error(usage, "--small-ok: a plain page-out and swap-in, "
			       "without --charge-fallback or --fragment-swap");
	if (o->charge && (o->chunk == WL_PMD_SIZE || o->fragment))
		wl_usage_error(usage, "--charge-fallback: an mTHP --chunk (a PMD "
			       "THP is never swapped in whole), without --fragment-swap");
	if (o->size < o->chunk || o->size % WL_PMD_SIZE)
		wl_usage_error(usage, "--size: a multiple of 2M, at least --chunk");
}

static const char *const vm_names[] = {
	"thp_swpout", "thp_swpout_fallback", "pswpout", "pswpin", "zswpout",
	"zswpin",
};
#define NVM (sizeof(vm_names) / sizeof(vm_names[0]))

static const char *const mthp_names[] = {
	"swpout", "swpout_fallback", "zswpout", "swpin", "swpin_fallback",
	"swpin_fallback_charge",
};
#define NMTHP (sizeof(mthp_names) / sizeof(mthp_names[0]))

/* The chunk size's per-size stats; absent ones read -1. */
static void read_mthp(uint64_t chunk, long long *v)
{
	char path[256], buf[64];
	size_t i;
	FILE *f;

	for (i = 0; i < NMTHP; i++) {
		snprintf(path, sizeof(path),
			 "/sys/kernel/mm/transparent_hugepage/hugepages-%llukB/stats/%s",
			 (unsigned long long)(chunk / WL_KIB), mthp_names[i]);
		v[i] = -1;
		f = fopen(path, "r");
		if (f && fgets(buf, sizeof(buf), f))
			v[i] = strtoll(buf, NULL, 10);
		if (f)
			fclose(f);
	}
}

static void read_vm(uint64_t *v)
{
	if (wl_vmstat_read(vm_names, v, NVM, NULL))
		wl_die("cannot read /proc/vmstat: the swap counters are the "
		       "evidence the pages went to swap");
}

static void need_swap(const struct opts *o)
{
	long long total = wl_meminfo_kb("SwapTotal");
	long long free_kb = wl_meminfo_kb("SwapFree");
	char a[32];

	if (total <= 0)
		wl_invalid("not measurable here: no swap device (run it as a "
			   "suite case with \"swap = zram\", or swapon one)");
	if ((uint64_t)free_kb * WL_KIB < o->size)
		wl_invalid("not measurable here: %lld kB of swap free, --size %s "
			   "needs more", free_kb,
			   wl_fmt_size(o->size, a, sizeof(a)));
}

/* A value per 8 bytes that differs per word: not a same-filled page zram
 * would store as one word, and every word checked on the way back. */
static uint64_t word(uint64_t i)
{
	return (i * 0x9e3779b97f4a7c15ULL) ^ 0x5a5a;
}

static void fill(uint64_t *p, uint64_t n)
{
	uint64_t i;

	for (i = 0; i < n; i++)
		p[i] = word(i);
}

/* A chunk all of whose pages are swap entries (pagemap bit 62). */
static uint64_t count_swapped_chunks(char *p, const struct opts *o,
				     const uint64_t *large_map)
{
	uint64_t pages = o->chunk / WL_BASE_PAGE, i, n = 0;
	for (i = 0; i < o->size / o->chunk; i++) {
		if (!large_map[i])
			continue;
		n += wl_pagemap_swapped(p + i * o->chunk, pages) == (long long)pages;
	}
	return n;
}


/*
 * --fragment-swap: leave no swap range a large folio could take. A large
 * folio goes to swap whole only into a free cluster (512 slots) or, below
 * PMD size, a cluster already serving its order; 4 KiB pages take any free
 * slot, and the allocator moves on to any device with room. So the filler
 * is as large as all the swap free now (every device: the harness's
 * zram, and any other one on, is where a large folio could still go),
 * written one word a page (zram keeps it small), MADV_NOHUGEPAGE so its
 * pages are 4 KiB and the order-0 allocator fills every cluster, paged
 * out; then each filler page whose slot offset is odd is dropped
 * (MADV_DONTNEED frees its slot). Half the slots are free again, but no
 * two adjacent ones: the region's large folios find no contiguous range,
 * are split, counted by thp_swpout_fallback / the size's swpout_fallback,
 * and go out as 4 KiB pages into the holes.
 */
#define FILL_MAX (4ULL << 30)

struct filler {
	uint64_t *p, size;
};

static void fragment_swap(struct filler *f, uint64_t region)
{
	long long free_kb = wl_meminfo_kb("SwapFree"), left_kb;
	uint64_t pages, i, *ent, freed = 0, out = 0;
	char a[32];

	f->size = ((uint64_t)(free_kb > 0 ? free_kb : 0) * WL_KIB + 4 * WL_MIB +
		   WL_PMD_SIZE - 1) / WL_PMD_SIZE * WL_PMD_SIZE;
	if (f->size > FILL_MAX)
		wl_invalid("not measurable here: %lld kB of swap free on all "
			   "devices; --fragment-swap fills them all and stops at "
			   "%s (run it with only the case's zram device on)",
			   free_kb, wl_fmt_size(FILL_MAX, a, sizeof(a)));
	if (f->size / 2 < region)
		wl_invalid("not measurable here: %lld kB of swap free, the split "
			   "--size needs twice as much", free_kb);
	wl_check_memory(f->size + region, "--size and the swap filler");
	pages = f->size / WL_BASE_PAGE;
	f->p = wl_map_aligned(f->size, WL_PMD_SIZE, PROT_READ | PROT_WRITE);
	ent = calloc(pages, sizeof(*ent));
	if (!f->p || !ent)
		wl_fail("the swap filler (%s): out of memory",
			wl_fmt_size(f->size, a, sizeof(a)));
	if (madvise(f->p, f->size, MADV_NOHUGEPAGE))
		wl_fail("madvise(MADV_NOHUGEPAGE): %s", strerror(errno));
	for (i = 0; i < pages; i++)
		f->p[i * (WL_BASE_PAGE / sizeof(*f->p))] = i + 1;
	if (madvise(f->p, f->size, MADV_PAGEOUT))
		wl_fail("madvise(MADV_PAGEOUT) of the filler: %s", strerror(errno));
	left_kb = wl_meminfo_kb("SwapFree");
	if (wl_pagemap_swap_entries(f->p, pages, ent))
		wl_die("pagemap hides swap entries (not root?): cannot tell "
		       "which filler slots to free");
	for (i = 0; i < pages; i++) {
		if (ent[i] == WL_NO_SWAP)
			continue;
		out++;
		if (!(WL_SWAP_OFFSET(ent[i]) & 1))
			continue;
		if (madvise((char *)f->p + i * WL_BASE_PAGE, WL_BASE_PAGE,
			    MADV_DONTNEED))
			wl_fail("madvise(MADV_DONTNEED): %s", strerror(errno));
		freed++;
	}
	free(ent);
	wl_report("filler_kb", (double)(f->size / WL_KIB));
	wl_report("filler_swapped", (double)out);
	wl_report("filler_freed", (double)freed);
	wl_report("fill_left_kb", (double)left_kb);
}

/*
 * The swap entries of the pages pages at q: 1 when they are one
 * contiguous run from a slot aligned to the chunk (what a folio swapped
 * whole gets, and what alloc_swap_folio() needs to read it back whole),
 * 0 when all are swap entries but not such a run, -1 when some page is
 * not a swap entry. ent has room for pages entries.
 */
static int swap_run(const char *q, uint64_t pages, uint64_t *ent)
{
	uint64_t j;

	if (wl_pagemap_swap_entries(q, pages, ent))
		wl_die("pagemap hides swap entries (not root?)");
	for (j = 0; j < pages; j++)
		if (ent[j] == WL_NO_SWAP)
			return -1;
	for (j = 1; j < pages && ent[j] == ent[0] + (j << 5); j++)
		;
	return j == pages && !(WL_SWAP_OFFSET(ent[0]) % pages);
}

/*
 * A large chunk, all swap entries now, whose entries are not one
 * contiguous run from a slot aligned to its size (what a folio swapped
 * whole gets): it was split on the way out.
 */
static uint64_t count_split_chunks(char *p, const struct opts *o,
				   const uint64_t *large_map)
{
	uint64_t pages = o->chunk / WL_BASE_PAGE, i, n = 0;
	uint64_t *ent = calloc(pages, sizeof(*ent));
	int r;

	if (!ent)
		wl_fail("out of memory");
	for (i = 0; i < o->size / o->chunk; i++) {
		if (!large_map[i])
			continue;
		r = swap_run(p + i * o->chunk, pages, ent);
		n += r == 0;	/* all out, not one run */
	}
	free(ent);
	return n;
}

static void mark_large(char *p, const struct opts *o, uint64_t *large_map)
{
	uint64_t i;

	for (i = 0; i < o->size / o->chunk; i++)
		large_map[i] = (o->chunk == WL_PMD_SIZE ?
				wl_pagemap_is_thp(p + i * o->chunk) :
				wl_pagemap_is_large(p + i * o->chunk, o->chunk)) > 0;
}

/*
 * A large folio that goes out whole is counted once: thp_swpout (PMD
 * size) or the size's swpout when written to the device, the size's
 * zswpout when zswap takes it; split first, thp_swpout_fallback or the
 * size's swpout_fallback.
 */
static void check_counted(uint64_t went, const uint64_t *vb,
			  const uint64_t *va, const long long *mb,
			  const long long *ma, const struct opts *o)
{
	uint64_t counted;
	long long z = mb[2] >= 0 ? ma[2] - mb[2] : 0;

	if (o->chunk == WL_PMD_SIZE)
		counted = (va[0] - vb[0]) + (va[1] - vb[1]) + (uint64_t)z;
	else if (mb[0] >= 0 && mb[1] >= 0)
		counted = (uint64_t)((ma[0] - mb[0]) + (ma[1] - mb[1]) + z);
	else
		return;	/* a kernel without per-size swap stats */
	if (counted < went)
		wl_fail("%llu large chunks went to swap whole, but the swap-out "
			"counters (%s + the size's zswpout) rose by %llu only",
			(unsigned long long)went, o->chunk == WL_PMD_SIZE ?
			"thp_swpout + thp_swpout_fallback" :
			"stats/swpout + swpout_fallback",
			(unsigned long long)counted);
}

/*
 * --fragment-swap: every large chunk that went out split was counted by
 * the fallback counter (thp_swpout_fallback for 2 MiB, the size's
 * swpout_fallback otherwise); none split means the filler left a free
 * range somewhere (not what was asked: exit 3).
 */
static void check_split(uint64_t split, const uint64_t *vb, const uint64_t *vm,
			const long long *mb, const long long *mm,
			const struct opts *o)
{
	long long fb;

	if (!split)
		wl_invalid("not measurable here: every large chunk found a "
			   "contiguous swap range after the fill (a swap device "
			   "added or freed meanwhile?)");
	if (o->chunk == WL_PMD_SIZE)
		fb = (long long)(vm[1] - vb[1]);
	else if (mb[1] >= 0)
		fb = mm[1] - mb[1];
	else
		return;	/* a kernel without per-size swap stats */
	if (fb < (long long)split)
		wl_fail("%llu large chunks went to swap split, but %s rose by "
			"%lld only", (unsigned long long)split,
			o->chunk == WL_PMD_SIZE ? "thp_swpout_fallback" :
			"stats/swpout_fallback", fb);
}

/* --- --charge-fallback: the swap-in charge fallback --- */

struct charge_run {
	struct wl_memcg cg;
	long long limit, room_kb;
	char *filler;
	uint64_t filler_len, filled;
	uint64_t fallbacks, small, large;
};

/* Has zswap been on since boot (enabled Y now, or anything zswapped)? */
static int zswap_since_boot(void)
{
	static const char *const n[] = { "zswpout" };
	char buf[8] = "";
	uint64_t z = 0;
	FILE *f = fopen("/sys/module/zswap/parameters/enabled", "r");

	if (f) {
		if (!fgets(buf, sizeof(buf), f))
			buf[0] = '\0';
		fclose(f);
	}
	if (buf[0] == 'Y')
		return 1;
	wl_vmstat_read(n, &z, 1, NULL);
	return z > 0;
}

static long long room_now(const struct charge_run *c)
{
	long long u = wl_memcg_usage_held(&c->cg);

	if (u < 0)
		wl_die("cannot read the usage of %s", c->cg.dir);
	return c->limit - u;
}

static void charge_setup(struct charge_run *c, const struct opts *o)
{
	long long room;

	if (zswap_since_boot())
		wl_invalid("not measurable here: zswap has been on since boot, "
			   "every swap-in is 4 KiB until a reboot (zswap_never_enabled())");
	if (wl_memcg_self(&c->cg))
		wl_invalid("not measurable here: not in a (non-root) memory cgroup; "
			   "run it as a suite case with \"memcg = SIZE\"");
	c->limit = wl_memcg_limit(&c->cg);
	if (c->limit < 0)
		wl_invalid("not measurable here: %s has no memory limit; run it in "
			   "a memcg with one (suite key \"memcg = SIZE\")", c->cg.dir);
	room = room_now(c);
	printf("memcg %s limit_kb %lld room_kb %lld\n", c->cg.dir,
	       c->limit / 1024, room / 1024);
	if (room < (long long)(o->size + 8 * WL_MIB))
		wl_invalid("not measurable here: %lld KiB left under the memcg "
			   "limit, --size needs 8 MiB more than itself", room / 1024);
	wl_pin_here();
}

/*
 * 4 KiB pages (MADV_NOHUGEPAGE) until less than a chunk is left under the
 * limit and a page was charged exactly: the room less than a charge batch
 * (64 pages) before it and the usage rising, so no stock was taken from
 * and none refilled. The last pages taken may have needed reclaim; the
 * chunks are out already, so it finds the filler and page cache.
 */
#define CHARGE_BATCH_BYTES (64 * (long long)WL_BASE_PAGE)

static void fill_memcg(struct charge_run *c, const struct opts *o)
{
	long long before, after, room = room_now(c);
	uint64_t off;

	c->filler_len = ((uint64_t)(room > 0 ? room : 0) + 4 * WL_MIB) /
			WL_BASE_PAGE * WL_BASE_PAGE;
	c->filler = mmap(NULL, c->filler_len, PROT_READ | PROT_WRITE,
			 MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (c->filler == MAP_FAILED ||
	    madvise(c->filler, c->filler_len, MADV_NOHUGEPAGE))
		wl_fail("mmap of the 4 KiB filler: %s", strerror(errno));
	for (off = 0; off < c->filler_len; off += WL_BASE_PAGE) {
		before = room_now(c);
		c->filler[off] = 1;
		after = room_now(c);
		if (after < (long long)o->chunk && after < before &&
		    before < CHARGE_BATCH_BYTES)
			break;
	}
	c->filled = off;
	c->room_kb = room_now(c) / 1024;
}

/*
 * The first page of each large chunk that went out whole: a read that
 * brought in the whole chunk is a large swap-in; one that left the other
 * pages swap entries fell back to 4 KiB. Those with less than a chunk of
 * room before the read failed the large folio's allocation or charge.
 */
static void read_first_pages(struct charge_run *c, char *p,
			     const struct opts *o, const uint64_t *large_map)
{
	uint64_t pages = o->chunk / WL_BASE_PAGE, i;
	uint64_t *ent = calloc(pages, sizeof(*ent));
	long long room, left;
	char *q;

	if (!ent)
		wl_fail("out of memory");
	for (i = 0; i < o->size / o->chunk; i++) {
		q = p + i * o->chunk;
		if (!large_map[i] || swap_run(q, pages, ent) != 1)
			continue;
		room = room_now(c);
		(void)*(volatile char *)q;
		left = wl_pagemap_swapped(q, pages);
		if (left == 0)
			c->large++;
		else if (left == (long long)pages - 1) {
			c->small++;
			c->fallbacks += room < (long long)o->chunk;
		}
	}
	free(ent);
	munmap(c->filler, c->filler_len);
}

/*
 * Each of charge_fallbacks failed the allocation (swpin_fallback) or the
 * charge (swpin_fallback_charge and swpin_fallback) of its large folio.
 * mb/ma: the size's stats, mthp_names order (4 swpin_fallback, 5 _charge).
 */
static void check_charge_fallback(const struct charge_run *c,
				  const long long *mb, const long long *ma)
{
	long long fb = ma[4] - mb[4], fbc = ma[5] - mb[5], bound;

	wl_report("charge_fallbacks", (double)c->fallbacks);
	wl_report("swapin_small", (double)c->small);
	wl_report("swapin_large", (double)c->large);
	wl_report("filler_kb", (double)(c->filled / WL_KIB));
	printf("room_kb %lld\n", c->room_kb);
	if (mb[4] < 0 || mb[5] < 0)
		wl_invalid("not measurable here: no per-size swpin_fallback_charge "
			   "(6.12+)");
	bound = (long long)c->fallbacks - (fb - fbc);
	wl_report("swpin_fallback_charge_min", (double)(bound > 0 ? bound : 0));
	if (!c->fallbacks)
		wl_invalid("not measurable here: no swap-in of ours fell back with "
			   "less than a chunk under the memcg limit (%llu small, "
			   "%llu whole; room %lld KiB after the filler)",
			   (unsigned long long)c->small,
			   (unsigned long long)c->large, c->room_kb);
	if (fb < (long long)c->fallbacks)
		wl_fail("%llu swap-ins of ours fell back under the memcg limit, but "
			"stats/swpin_fallback rose by %lld only",
			(unsigned long long)c->fallbacks, fb);
}

int main(int argc, char **argv)
{
	uint64_t vb[NVM], va[NVM], vm[NVM], large, went, i, n, *large_map, bad;
	struct filler fl = { NULL, 0 };
	struct charge_run cr = { 0 };
	uint64_t split = 0;
	long long mb[NMTHP], ma[NMTHP], mm[NMTHP], swapped_kb;
	double t0, t1, t2;
	struct opts o;
	uint64_t *p;

	parse_args(argc, argv, &o);
	need_swap(&o);
	wl_check_memory(o.size, "--size");
	if (o.charge)
		charge_setup(&cr, &o);
	p = wl_map_aligned(o.size, WL_PMD_SIZE, PROT_READ | PROT_WRITE);
	if (!p)
		wl_fail("mmap of --size failed: %s", strerror(errno));
	if (madvise(p, o.size, MADV_HUGEPAGE))
		wl_fail("madvise(MADV_HUGEPAGE): %s", strerror(errno));
	n = o.size / sizeof(*p);
	fill(p, n);
	if (o.fragment)
		fragment_swap(&fl, o.size);
	large = wl_count_large(p, o.size, o.chunk);
	wl_report("large", (double)large);
	if (!large && !o.small_ok)
		wl_invalid("not measurable here: none of the %llu chunks of %llu kB "
			   "is a large folio (THP or that mTHP size not enabled?)",
			   (unsigned long long)(o.size / o.chunk),
			   (unsigned long long)(o.chunk / WL_KIB));
	large_map = calloc(o.size / o.chunk, sizeof(*large_map));
	if (!large_map)
		wl_fail("out of memory");
	mark_large((char *)p, &o, large_map);

	read_vm(vb);
	read_mthp(o.chunk, mb);
	wl_roi_begin();
	t0 = wl_now_usec();
	if (madvise(p, o.size, MADV_PAGEOUT))
		wl_fail("madvise(MADV_PAGEOUT): %s", strerror(errno));
	t1 = wl_now_usec();
	wl_roi_end();
	read_vm(vm);
	read_mthp(o.chunk, mm);
	swapped_kb = wl_range_kb(p, o.size, "Swap");
	went = count_swapped_chunks((char *)p, &o, large_map);
	if (o.fragment)
		split = count_split_chunks((char *)p, &o, large_map);

	if (o.charge) {
		fill_memcg(&cr, &o);
		read_first_pages(&cr, (char *)p, &o, large_map);
	}
	wl_roi_begin();
	t2 = wl_now_usec();
	/* One read per page faults it back; the count keeps the loop. */
	for (i = 0, bad = 0; i < n; i += WL_BASE_PAGE / sizeof(*p))
		bad += p[i] != word(i);
	t2 = wl_now_usec() - t2;
	wl_roi_end();
	read_vm(va);
	read_mthp(o.chunk, ma);
	if (bad)
		wl_fail("%llu pages read back wrong after swap-in",
			(unsigned long long)bad);
	for (i = 0; i < n; i++)
		if (p[i] != word(i))
			wl_fail("word %llu reads %#llx after swap-in, wrote %#llx",
				(unsigned long long)i, (unsigned long long)p[i],
				(unsigned long long)word(i));

	wl_report("pageout_usec", t1 - t0);
	wl_report("swapin_usec", t2);
	wl_report_kb("swapped_kb", swapped_kb);
	wl_report("went_whole", (double)went);
	if (o.fragment)
		wl_report("went_split", (double)split);
	for (i = 0; i < NVM; i++) {
		char name[64];

		snprintf(name, sizeof(name), "%s", vm_names[i]);
		/* Out: over the page-out; in: over both. */
		wl_report(name, (double)((i == 3 || i == 5 ? va[i] : vm[i]) - vb[i]));
	}
	for (i = 0; i < NMTHP; i++) {
		char name[64];

		if (mb[i] < 0)
			continue;
		snprintf(name, sizeof(name), "mthp_%s", mthp_names[i]);
		wl_report(name, (double)((i >= 3 ? ma[i] : mm[i]) - mb[i]));
	}
	if (!swapped_kb)
		wl_invalid("not measurable here: MADV_PAGEOUT swapped nothing out "
			   "(swap full, or memory locked)");
	check_counted(went, vb, vm, mb, mm, &o);
	if (o.fragment)
		check_split(split, vb, vm, mb, mm, &o);
	if (o.charge)
		check_charge_fallback(&cr, mb, ma);
	if (fl.p)
		munmap(fl.p, fl.size);
	wl_report_self_mem();
	printf("ok\n");
	return 0;
}
