// SPDX-License-Identifier: GPL-2.0-only
/*
 * migrate_thp - THPs moved between NUMA nodes: by move_pages(2), by
 * mbind(2) with MPOL_MF_MOVE, or by NUMA balancing (hint faults from a
 * thread on the other node).
 *
 * Kernel paths: move_pages(2) -> do_pages_move() -> add_page_for_migration()
 * (one address per 2 MiB: the whole folio is queued) -> migrate_pages();
 * mbind(MPOL_MF_MOVE) -> do_mbind() -> migrate_pages(); both end in
 * migrate_pages_batch(), which moves a THP whole (thp_migration_success)
 * or, when the destination has no free huge page, splits it and moves
 * the pieces (thp_migration_split), or gives up (thp_migration_fail);
 * pgmigrate_success counts base pages (512 per THP). NUMA balancing
 * (kernel/numa_balancing = 1; a suite sets it: `set =
 * kernel/numa_balancing=1`): task_numa_work() -> change_prot_numa() marks
 * the PMDs (numa_huge_pte_updates), the thread's next access faults
 * (do_huge_pmd_numa_page(): numa_hint_faults), and a misplaced THP is
 * migrated to the thread's node (migrate_misplaced_folio():
 * numa_pages_migrated, 512 per THP).
 *
 * What proves it: before, every 2 MiB range is a THP (pagemap +
 * kpageflags, else smaps) on the source node (move_pages(2) with nodes
 * NULL); after, each range that is a THP on the destination node
 * (huge_at_dest) was migrated whole, so thp_migration_success (system
 * wide: a lower bound is all it can give) is at least huge_at_dest. The
 * data (each 4 KiB page carries its index) is checked after the move.
 *
 * --dest-fragmented (move_pages, mbind): before the move the destination
 * node is left with free 4 KiB pages but no free 2 MiB block, so
 * migrate_folio_unmap()'s THP allocation there fails (-ENOMEM) and
 * migrate_pages_batch() counts the THP failed (thp_migration_fail), splits
 * it (try_split_folio(): thp_migration_split) and moves the 4 KiB pieces.
 * How: a filler bound to --to (MPOL_BIND, MADV_NOHUGEPAGE, mlock) takes
 * all its free memory but a margin; all but one of its pages in each
 * physical 2 MiB block (pagemap frames) are unmapped, so every block it
 * touched keeps one page; then a plug of mlocked THPs bound to --to takes
 * the blocks still free (or that compaction can make) until a THP fault
 * falls back. vm/compact_unevictable_allowed = 0 (the suite sets it) keeps
 * compaction off the mlocked pages, so no block can be emptied again. A
 * range that was a THP, has all its 512 pages on --to afterwards and is
 * no THP there (split_at_dest) was split by the migration: both
 * thp_migration_split and thp_migration_fail are at least split_at_dest.
 * 'dest_free_2m' is how many 2 MiB blocks were free on --to just before
 * the move (buddyinfo; 0 unless something freed memory meanwhile).
 *
 * On one NUMA node nothing can move: exit 3, "not measurable here: one
 * NUMA node". Under numa=fake (the guest) every CPU is in every fake
 * node's sysfs cpumap, so the CPUs of a node are found with getcpu(2).
 */
#include "wl.h"

#include <errno.h>
#include <getopt.h>
#include <numa.h>
#include <numaif.h>
#include <pthread.h>
#include <sched.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

static const char usage[] =
	"usage: migrate_thp [--mode move_pages|mbind|balancing] [--size SIZE]\n"
	"                   [--from NODE] [--to NODE] [--min-huge N] [--wait SEC]\n"
	"                   [--dest-fragmented]\n"
	"  --mode M       move_pages (default): move_pages(2), one address per\n"
	"                 2 MiB; mbind: mbind(MPOL_BIND, MPOL_MF_MOVE) of the\n"
	"                 region; balancing: NUMA balancing (needs\n"
	"                 kernel/numa_balancing = 1) while a thread on --to\n"
	"                 writes the region until it is all there or --wait ends\n"
	"  --size SIZE    THP memory to fill on --from (default 64M, 2M steps)\n"
	"  --from NODE    the node it is filled on (default 0)\n"
	"  --to NODE      the node it moves to (default 1)\n"
	"  --min-huge N   2 MiB ranges that must be THPs on --from before the\n"
	"                 move (default all)\n"
	"  --wait SEC     balancing: at most this long for the pages to move\n"
	"                 (default 60)\n"
	"  --dest-fragmented  move_pages, mbind: first leave --to with free 4 KiB\n"
	"                 pages but no free 2 MiB block (mlocked filler; needs root\n"
	"                 and vm/compact_unevictable_allowed = 0), so the THPs are\n"
	"                 split and moved as 4 KiB pages (thp_migration_split)\n"
	"Prints and reports as metrics: 'ranges', 'huge_before', 'usec' (roi_usec:\n"
	"the move, or the balancing thread's run), 'ranges_at_dest' (2 MiB ranges\n"
	"whose first page is on --to), 'pages_at_dest', 'moved_kb' (4 KiB pages\n"
	"on --to), 'huge_after', 'huge_at_dest' (THPs on --to: needs root),\n"
	"'not_moved' (move_pages' return), 'split_at_dest' (ranges all on --to,\n"
	"no THP: split on the way; needs root), --dest-fragmented: 'filler_kb',\n"
	"'filler_kept' (4 KiB pages kept), 'plug_thps', 'dest_free_2m'; the\n"
	"/proc/vmstat deltas\n"
	"thp_migration_success, _fail, _split, pgmigrate_success, pgmigrate_fail,\n"
	"numa_pte_updates, numa_huge_pte_updates, numa_hint_faults,\n"
	"numa_hint_faults_local, numa_pages_migrated; balancing: 'settled' (0/1),\n"
	"'passes'; rss_kb, anon_huge_kb. Exit 0 ok, 1 failure (data lost, nothing\n"
	"moved), 2 usage (no such node, no CPU on a node, numa_balancing 0,\n"
	"compact_unevictable_allowed 1),\n"
	"3 not measurable here: one NUMA node, no NUMA balancing in the kernel,\n"
	"fewer than --min-huge THPs on --from before the move, or\n"
	"--dest-fragmented without root (pagemap frames) or room on --to.\n";

enum mode { MODE_MOVE_PAGES, MODE_MBIND, MODE_BALANCING };
static const char *const mode_names[] = { "move_pages", "mbind", "balancing" };

struct opts {
	enum mode mode;
	uint64_t size, min_huge, wait_sec;
	int from, to;
	int dest_frag;
};

static struct opts o;

static int parse_node(const char *opt, const char *arg)
{
	return (int)wl_opt_count(opt, arg, 0, 1023, usage);
}

static void parse_mode(const char *arg)
{
	size_t i;

	for (i = 0; i < sizeof(mode_names) / sizeof(mode_names[0]); i++)
		if (!strcmp(arg, mode_names[i])) {
			o.mode = (enum mode)i;
			return;
		}
	wl_usage_error(usage, "--mode: '%s' is not move_pages, mbind or balancing", arg);
}

static void parse_args(int argc, char **argv)
{
	static const struct option longopts[] = {
		{ "mode", required_argument, NULL, 'M' },
		{ "size", required_argument, NULL, 's' },
		{ "from", required_argument, NULL, 'f' },
		{ "to", required_argument, NULL, 't' },
		{ "min-huge", required_argument, NULL, 'm' },
		{ "wait", required_argument, NULL, 'w' },
		{ "dest-fragmented", no_argument, NULL, 'F' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	int c, min_given = 0;

	o = (struct opts){ .size = 64 * WL_MIB, .to = 1, .wait_sec = 60 };
	while ((c = getopt_long(argc, argv, "h", longopts, NULL)) != -1) {
		switch (c) {
		case 'M': parse_mode(optarg); break;
		case 's': o.size = wl_opt_size("--size", optarg, usage); break;
		case 'f': o.from = parse_node("--from", optarg); break;
		case 't': o.to = parse_node("--to", optarg); break;
		case 'F': o.dest_frag = 1; break;
		case 'w': o.wait_sec = wl_opt_count("--wait", optarg, 1, 3600, usage); break;
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
	if (o.from == o.to)
		wl_usage_error(usage, "--from and --to are both node %d", o.to);
	if (o.dest_frag && o.mode == MODE_BALANCING)
		wl_usage_error(usage, "--dest-fragmented works with --mode move_pages or mbind: "
			       "NUMA balancing never splits a THP it cannot place");
	if (!min_given)
		o.min_huge = o.size / WL_PMD_SIZE;
	if (o.min_huge > o.size / WL_PMD_SIZE)
		wl_usage_error(usage, "--min-huge %llu is more than the %llu 2 MiB ranges of --size",
			       (unsigned long long)o.min_huge,
			       (unsigned long long)(o.size / WL_PMD_SIZE));
}

/* Two nodes with memory, and both of ours among them; else exit 3 or 2. */
static void check_nodes(void)
{
	int max;

	if (numa_available() < 0 || numa_num_configured_nodes() < 2)
		wl_invalid("not measurable here: one NUMA node (THP migration needs "
			   "two: ./run.sh guest configs/thp-paths-numa.conf --nodes 2)");
	max = numa_max_node();
	if (o.from > max || !numa_bitmask_isbitset(numa_all_nodes_ptr, (unsigned int)o.from))
		wl_die("--from %d: no such NUMA node with memory here (nodes 0-%d)", o.from, max);
	if (o.to > max || !numa_bitmask_isbitset(numa_all_nodes_ptr, (unsigned int)o.to))
		wl_die("--to %d: no such NUMA node with memory here (nodes 0-%d)", o.to, max);
}

/* /proc/sys/kernel/numa_balancing: exit 3 when the kernel lacks it, 2 when off. */
static void check_balancing(void)
{
	FILE *f = fopen("/proc/sys/kernel/numa_balancing", "r");
	int v = -1;

	if (!f)
		wl_invalid("not measurable here: no /proc/sys/kernel/numa_balancing "
			   "(a kernel without CONFIG_NUMA_BALANCING)");
	if (fscanf(f, "%d", &v) != 1)
		v = -1;
	fclose(f);
	if (!(v & 1))
		wl_die("/proc/sys/kernel/numa_balancing is %d: --mode balancing needs 1 "
		       "(a suite sets it: set = kernel/numa_balancing=1)", v);
}

/*
 * /proc/sys/vm/compact_unevictable_allowed must be 0 for --dest-fragmented
 * (exit 2 when 1); a kernel without the file has no compaction to fear.
 */
static void check_unevictable(void)
{
	FILE *f = fopen("/proc/sys/vm/compact_unevictable_allowed", "r");
	int v = -1;

	if (!f)
		return;
	if (fscanf(f, "%d", &v) != 1)
		v = -1;
	fclose(f);
	if (v != 0)
		wl_die("/proc/sys/vm/compact_unevictable_allowed is %d: --dest-fragmented "
		       "needs 0, or compaction moves the mlocked filler and rebuilds free "
		       "2 MiB blocks (a suite sets it: set = vm/compact_unevictable_allowed=0)", v);
}

/* The CPUs this process may use, as it started (before any pinning). */
static cpu_set_t allowed;

static void pin_cpu(int cpu)
{
	cpu_set_t one;

	CPU_ZERO(&one);
	CPU_SET(cpu, &one);
	if (sched_setaffinity(0, sizeof(one), &one))
		wl_die("sched_setaffinity(CPU %d) failed: %s", cpu, strerror(errno));
}

/*
 * An allowed CPU that the kernel places on node (getcpu(2) there;
 * libnuma's cpumaps are wrong under numa=fake), or -1. Leaves the calling
 * thread on the allowed CPUs again.
 */
static int cpu_on_node(int node)
{
	unsigned int cpu, got_node;
	int i, found = -1;

	for (i = 0; i < CPU_SETSIZE && found < 0; i++) {
		if (!CPU_ISSET(i, &allowed))
			continue;
		pin_cpu(i);
		if (!getcpu(&cpu, &got_node) && (int)got_node == node)
			found = i;
	}
	if (sched_setaffinity(0, sizeof(allowed), &allowed))
		wl_die("sched_setaffinity failed: %s", strerror(errno));
	return found;
}

/* cpu_on_node(), or exit 2 naming the node. */
static int need_cpu_on_node(int node)
{
	int cpu = cpu_on_node(node);

	if (cpu < 0)
		wl_die("no CPU this process may use is on node %d (getcpu(2)): "
		       "--mode balancing needs one on --from and on --to", node);
	return cpu;
}

enum {
	C_SUCCESS, C_FAIL, C_SPLIT, C_PG_SUCCESS, C_PG_FAIL, C_PTE, C_HUGE_PTE,
	C_HINT, C_HINT_LOCAL, C_NUMA_MIGRATED, NCOUNTERS
};

static const char *const counters[NCOUNTERS] = {
	"thp_migration_success", "thp_migration_fail", "thp_migration_split",
	"pgmigrate_success", "pgmigrate_fail", "numa_pte_updates",
	"numa_huge_pte_updates", "numa_hint_faults", "numa_hint_faults_local",
	"numa_pages_migrated",
};

static void read_counters(uint64_t *v)
{
	if (wl_vmstat_read(counters, v, NCOUNTERS, NULL))
		wl_die("cannot read /proc/vmstat");
}

static void report(const char *name, double v)
{
	printf("%s %.17g\n", name, v);
	wl_metric(name, v);
}

/* Each 4 KiB page gets its index in its first word. */
static void fill(char *p, size_t npages)
{
	size_t i;

	for (i = 0; i < npages; i++)
		*(uint64_t *)(p + i * WL_BASE_PAGE) = i;
}

static void verify(const char *p, size_t npages)
{
	size_t i;

	for (i = 0; i < npages; i++)
		if (*(const uint64_t *)(p + i * WL_BASE_PAGE) != i)
			wl_fail("migration bug: 4 KiB page %zu reads %llu, not its index",
				i, (unsigned long long)*(const uint64_t *)(p + i * WL_BASE_PAGE));
}

/* Nodes of n pages starting at p, step apart, into status. */
static void query_nodes(char *p, size_t n, size_t step, void **pages, int *status)
{
	size_t i;

	for (i = 0; i < n; i++)
		pages[i] = p + i * step;
	if (numa_move_pages(0, n, pages, NULL, status, 0))
		wl_fail("move_pages(2) (query) failed: %s", strerror(errno));
}

struct backing {
	long long huge, on_node, huge_on_node;
	int exact;	/* from pagemap (root), else smaps */
};

/* THPs, ranges on node, THPs on node; status gets each range's node. */
static void classify(char *p, size_t n, int node, void **pages, int *status,
		     struct backing *b)
{
	size_t i;
	int t;

	*b = (struct backing){ .exact = 1 };
	query_nodes(p, n, WL_PMD_SIZE, pages, status);
	for (i = 0; i < n; i++) {
		t = wl_pagemap_is_thp(p + i * WL_PMD_SIZE);
		if (t < 0)
			b->exact = 0;
		b->on_node += status[i] == node;
		if (t > 0) {
			b->huge++;
			b->huge_on_node += status[i] == node;
		}
	}
	if (!b->exact) {
		long long kb = wl_range_anon_huge_kb(p, n * WL_PMD_SIZE);

		b->huge = kb < 0 ? -1 : kb / (long long)(WL_PMD_SIZE / WL_KIB);
		b->huge_on_node = -1;
	}
}

/* Base pages on node, every 4 KiB page looked at. */
static long long pages_on(char *p, size_t npages, int node, void **pages, int *status)
{
	long long n = 0;
	size_t i;

	query_nodes(p, npages, WL_BASE_PAGE, pages, status);
	for (i = 0; i < npages; i++)
		n += status[i] == node;
	return n;
}

static long move_by_move_pages(char *p, size_t n, void **pages, int *status)
{
	int *nodes = calloc(n, sizeof(*nodes));
	long ret;
	size_t i;

	if (!nodes)
		wl_fail("out of memory");
	for (i = 0; i < n; i++) {
		pages[i] = p + i * WL_PMD_SIZE;
		nodes[i] = o.to;
	}
	ret = numa_move_pages(0, n, pages, nodes, status, MPOL_MF_MOVE);
	if (ret < 0)
		wl_fail("move_pages(2) to node %d failed: %s", o.to, strerror(errno));
	free(nodes);
	return ret;
}

static void move_by_mbind(char *p, size_t len)
{
	struct bitmask *mask = numa_allocate_nodemask();

	numa_bitmask_setbit(mask, (unsigned int)o.to);
	if (mbind(p, len, MPOL_BIND, mask->maskp, mask->size + 1, MPOL_MF_MOVE))
		wl_fail("mbind(MPOL_BIND, MPOL_MF_MOVE) to node %d failed: %s", o.to,
			strerror(errno));
	numa_bitmask_free(mask);
}

/* --- --dest-fragmented: free 4 KiB pages on --to, no free 2 MiB block --- */

/* Free memory left on the node under the filler: above its watermarks
 * (a MPOL_BIND fault below min would wake the OOM killer). */
#define FILLER_MARGIN (64 * WL_MIB)

struct filler {
	char *p, *plug;
	size_t len, plug_len;	/* what is still mapped of each */
	long long kept, plug_thps;
	double free_2m;		/* free 2 MiB blocks on the node, before the move */
};

/* Bind [p, p + len) to node; die naming what when it fails. */
static void bind_to(void *p, size_t len, int node, const char *what)
{
	struct bitmask *mask = numa_allocate_nodemask();

	numa_bitmask_setbit(mask, (unsigned int)node);
	if (mbind(p, len, MPOL_BIND, mask->maskp, mask->size + 1, 0))
		wl_fail("mbind(MPOL_BIND) of the %s to node %d failed: %s", what, node,
			strerror(errno));
	numa_bitmask_free(mask);
}

/* Unmap pages [from, to) of the filler (no-op when empty). */
static void unmap_pages(char *p, size_t from, size_t to)
{
	if (to > from && munmap(p + from * WL_BASE_PAGE, (to - from) * WL_BASE_PAGE))
		wl_fail("munmap of filler pages failed: %s", strerror(errno));
}

/*
 * Keep the first filler page of each physical 2 MiB block and unmap the
 * rest: the block's other 511 pages go back free, and it cannot be one
 * free 2 MiB block while the kept (mlocked) page is there.
 */
static long long keep_one_per_block(char *p, size_t npages)
{
	uint64_t *pfn = malloc(npages * sizeof(*pfn)), max = 0;
	unsigned char *seen;
	size_t i, run = 0;
	long long kept = 0;

	if (!pfn)
		wl_fail("out of memory");
	if (wl_pagemap_pfns(p, npages, pfn))
		wl_invalid("not measurable here: --dest-fragmented needs the frame numbers "
			   "in /proc/self/pagemap (root)");
	for (i = 0; i < npages; i++)
		max = pfn[i] > max ? pfn[i] : max;
	seen = calloc((size_t)(max / 512) / 8 + 1, 1);
	if (!seen)
		wl_fail("out of memory");
	for (i = 0; i < npages; i++) {
		uint64_t b = pfn[i] / 512;

		if (!pfn[i] || (seen[b / 8] & (1u << (b % 8))))
			continue;
		seen[b / 8] |= (unsigned char)(1u << (b % 8));
		unmap_pages(p, run, i);
		run = i + 1;
		kept++;
	}
	unmap_pages(p, run, npages);
	free(seen);
	free(pfn);
	return kept;
}

/*
 * THPs bound to node, mlocked, one 2 MiB fault at a time until one falls
 * back (no free block left, none that compaction can make), at most cap.
 */
static long long plug_free_blocks(struct filler *f, int node, size_t cap)
{
	long long n = 0;
	size_t i;

	f->plug_len = cap * WL_PMD_SIZE;
	f->plug = wl_map_aligned(f->plug_len, WL_PMD_SIZE, PROT_READ | PROT_WRITE);
	if (!f->plug)
		wl_fail("mapping the %zu MiB plug failed: %s", (size_t)(f->plug_len / WL_MIB),
			strerror(errno));
	if (madvise(f->plug, f->plug_len, MADV_HUGEPAGE))
		wl_fail("madvise(MADV_HUGEPAGE) of the plug failed: %s", strerror(errno));
	bind_to(f->plug, f->plug_len, node, "plug");
	for (i = 0; i < cap; i++) {
		f->plug[i * WL_PMD_SIZE] = 1;
		if (wl_pagemap_is_thp(f->plug + i * WL_PMD_SIZE) != 1)
			break;
		n++;
	}
	if (n && mlock(f->plug, (size_t)n * WL_PMD_SIZE))
		wl_fail("mlock of %lld plug THPs failed: %s", n, strerror(errno));
	/* The range that fell back and the rest: unmapped, their pages freed. */
	if (munmap(f->plug + n * WL_PMD_SIZE, f->plug_len - (size_t)n * WL_PMD_SIZE))
		wl_fail("munmap of the plug's tail failed: %s", strerror(errno));
	f->plug_len = (size_t)n * WL_PMD_SIZE;
	return n;
}

/* Leave node with free 4 KiB pages and no free 2 MiB block (header). */
static void fragment_node(int node, struct filler *f)
{
	long long free_b = 0;
	double blocks;

	*f = (struct filler){ 0 };
	if (numa_node_size64(node, &free_b) < 0 || free_b < 0)
		wl_fail("cannot read node %d's free memory (sysfs nodeN/meminfo)", node);
	if ((uint64_t)free_b < FILLER_MARGIN + 64 * WL_PMD_SIZE)
		wl_invalid("not measurable here: node %d has %lld MiB free, too little to "
			   "fragment (needs %llu MiB)", node, free_b / (long long)WL_MIB,
			   (unsigned long long)((FILLER_MARGIN + 64 * WL_PMD_SIZE) / WL_MIB));
	f->len = ((uint64_t)free_b - FILLER_MARGIN) / WL_PMD_SIZE * WL_PMD_SIZE;
	f->p = mmap(NULL, f->len, PROT_READ | PROT_WRITE,
		    MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
	if (f->p == MAP_FAILED)
		wl_fail("mapping the %zu MiB filler failed: %s", (size_t)(f->len / WL_MIB),
			strerror(errno));
	if (madvise(f->p, f->len, MADV_NOHUGEPAGE))
		wl_fail("madvise(MADV_NOHUGEPAGE) of the filler failed: %s", strerror(errno));
	bind_to(f->p, f->len, node, "filler");
	if (mlock(f->p, f->len))
		wl_fail("mlock of the %zu MiB filler on node %d failed: %s",
			(size_t)(f->len / WL_MIB), node, strerror(errno));
	f->kept = keep_one_per_block(f->p, f->len / WL_BASE_PAGE);
	blocks = wl_node_free_blocks(node, 9);
	f->plug_thps = plug_free_blocks(f, node, (size_t)(blocks > 0 ? blocks : 0) + 64);
	f->free_2m = wl_node_free_blocks(node, 9);
	if (f->free_2m > 0)
		wl_warn("node %d still has %.0f free 2 MiB blocks before the move "
			"(memory freed meanwhile): some THPs may move whole", node, f->free_2m);
}

/*
 * Ranges that were THPs, have all their 512 pages on node now and are no
 * THP there: split by the migration. -1 when pagemap cannot tell (not root).
 */
static long long split_at(char *p, size_t n, int node, void **pages, int *status)
{
	size_t i, j, per = WL_PMD_SIZE / WL_BASE_PAGE;
	long long split = 0;
	int t, all;

	query_nodes(p, n * per, WL_BASE_PAGE, pages, status);
	for (i = 0; i < n; i++) {
		for (j = 0, all = 1; j < per && all; j++)
			all = status[i * per + j] == node;
		t = wl_pagemap_is_thp(p + i * WL_PMD_SIZE);
		if (t < 0)
			return -1;
		split += all && !t;
	}
	return split;
}

/* --- balancing: a thread on --to writes the region until it is there --- */

struct toucher {
	char *p;
	size_t n;		/* 2 MiB ranges */
	atomic_int stop;
	uint64_t passes;
	int cpu;
};

static void *touch_loop(void *arg)
{
	struct toucher *t = arg;
	volatile char *p = t->p;
	size_t i;

	pin_cpu(t->cpu);
	while (!atomic_load(&t->stop)) {
		for (i = 0; i < t->n * (WL_PMD_SIZE / WL_BASE_PAGE); i++)
			p[i * WL_BASE_PAGE + 8]++;
		t->passes++;
	}
	return NULL;
}

/* Until every range's first page is on --to or --wait runs out. */
static int balance(char *p, size_t n, int cpu, void **pages, int *status,
		   uint64_t *passes)
{
	struct toucher t = { .p = p, .n = n, .cpu = cpu };
	double end = wl_now_usec() + (double)o.wait_sec * 1e6;
	pthread_t th;
	size_t i, there = 0;

	if (pthread_create(&th, NULL, touch_loop, &t))
		wl_fail("pthread_create failed");
	while (wl_now_usec() < end && there < n) {
		usleep(100000);
		query_nodes(p, n, WL_PMD_SIZE, pages, status);
		for (i = 0, there = 0; i < n; i++)
			there += status[i] == o.to;
	}
	atomic_store(&t.stop, 1);
	pthread_join(th, NULL);
	*passes = t.passes;
	return there == n;
}

int main(int argc, char **argv)
{
	uint64_t c0[NCOUNTERS], c1[NCOUNTERS], passes = 0;
	size_t n, npages;
	struct backing before, after;
	long not_moved = -1;
	int *status, settled = -1, to_cpu = -1;
	long long at_dest, split = -1;
	struct filler filler = { 0 };
	void **pages;
	double t0, t1;
	char *p;

	parse_args(argc, argv);
	if (sched_getaffinity(0, sizeof(allowed), &allowed))
		wl_die("sched_getaffinity failed: %s", strerror(errno));
	check_nodes();
	if (o.mode == MODE_BALANCING)
		check_balancing();
	if (o.dest_frag)
		check_unevictable();
	wl_check_memory(o.size, "--size");
	n = o.size / WL_PMD_SIZE;
	npages = o.size / WL_BASE_PAGE;
	pages = calloc(npages, sizeof(*pages));
	status = calloc(npages, sizeof(*status));
	p = wl_map_aligned(o.size, WL_PMD_SIZE, PROT_READ | PROT_WRITE);
	if (!pages || !status || !p)
		wl_fail("allocating %llu bytes failed: %s",
			(unsigned long long)o.size, strerror(errno));
	if (madvise(p, o.size, MADV_HUGEPAGE))
		wl_fail("madvise(MADV_HUGEPAGE) failed: %s (is THP built in?)",
			strerror(errno));
	/*
	 * move_pages and mbind: bound to --from. Balancing: first touch from
	 * a CPU on --from under the default policy, which balancing may
	 * migrate (a MPOL_BIND region it leaves alone).
	 */
	if (o.mode == MODE_BALANCING) {
		to_cpu = need_cpu_on_node(o.to);
		pin_cpu(need_cpu_on_node(o.from));
	} else {
		numa_tonode_memory(p, o.size, o.from);
	}
	fill(p, npages);
	classify(p, n, o.from, pages, status, &before);
	if (before.huge < (long long)o.min_huge || before.on_node < (long long)o.min_huge)
		wl_invalid("only %lld of %zu 2 MiB ranges are THPs and %lld on node %d "
			   "before the move (--min-huge %llu)", before.huge, n,
			   before.on_node, o.from, (unsigned long long)o.min_huge);
	if (o.dest_frag)
		fragment_node(o.to, &filler);

	read_counters(c0);
	wl_roi_begin();
	t0 = wl_now_usec();
	if (o.mode == MODE_MOVE_PAGES)
		not_moved = move_by_move_pages(p, n, pages, status);
	else if (o.mode == MODE_MBIND)
		move_by_mbind(p, o.size);
	else
		settled = balance(p, n, to_cpu, pages, status, &passes);
	t1 = wl_now_usec();
	wl_roi_end();
	read_counters(c1);

	classify(p, n, o.to, pages, status, &after);
	at_dest = pages_on(p, npages, o.to, pages, status);
	if (before.exact)
		split = split_at(p, n, o.to, pages, status);
	printf("mode %s\nfrom %d\nto %d\n", mode_names[o.mode], o.from, o.to);
	report("ranges", (double)n);
	report("huge_before", (double)before.huge);
	report("ranges_at_dest", (double)after.on_node);
	report("pages_at_dest", (double)at_dest);
	report("moved_kb", (double)at_dest * (double)(WL_BASE_PAGE / WL_KIB));
	if (after.huge >= 0)
		report("huge_after", (double)after.huge);
	if (after.huge_on_node >= 0)
		report("huge_at_dest", (double)after.huge_on_node);
	if (not_moved >= 0)
		report("not_moved", (double)not_moved);
	if (split >= 0)
		report("split_at_dest", (double)split);
	if (o.dest_frag) {
		report("filler_kb", (double)(filler.len / WL_KIB));
		report("filler_kept", (double)filler.kept);
		report("plug_thps", (double)filler.plug_thps);
		report("dest_free_2m", filler.free_2m);
	}
	if (settled >= 0) {
		report("settled", settled);
		report("passes", (double)passes);
	}
	for (size_t i = 0; i < NCOUNTERS; i++)
		report(counters[i], (double)(c1[i] - c0[i]));
	printf("usec %.0f\n", t1 - t0);
	wl_metric("roi_usec", t1 - t0);
	wl_report_self_mem();
	verify(p, npages);
	if (!at_dest)
		wl_fail("%s moved none of the %zu pages to node %d", mode_names[o.mode],
			npages, o.to);
	printf("ok\n");
	free(pages);
	free(status);
	return 0;
}
