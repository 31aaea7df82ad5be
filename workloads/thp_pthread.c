// SPDX-License-Identifier: GPL-2.0-only
/*
 * thp_pthread - seed 004 (Thorlton, "Change how we determine when to hand
 * out THPs", 2013): many threads, each touching small portions of one big
 * shared allocation. Touching one byte of an empty 2 MiB range faults a
 * whole THP, so with THP on the touching allocates and clears far more
 * memory than is used; the posting's run was slower with THP always than
 * never. The run reports the time and the resulting RSS and AnonHugePages
 * next to the memory actually touched: the bloat is part of the story.
 */
#include "wl.h"

#include <errno.h>
#include <getopt.h>
#include <numa.h>
#include <pthread.h>
#include <sched.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

#define MAX_THREADS 4096

static const char usage[] =
	"usage: thp_pthread [-C CPU] [-m NODE] [-c THREADS] [-b BYTES]\n"
	"                   [--stride SIZE] [--touch SIZE] [--madvise]\n"
	"  -C, --cpu CPU       pin thread i to the i-th allowed CPU from CPU on,\n"
	"                      round robin (default: the first allowed CPU)\n"
	"  -m, --node NODE     bind the allocation to NUMA node NODE (libnuma;\n"
	"                      default: no binding)\n"
	"  -c, --threads N     threads (default: 2 x allowed CPUs)\n"
	"  -b, --bytes SIZE    the shared allocation (k/m/g/t; default 1g)\n"
	"      --stride SIZE   touch once per SIZE (4K multiple; default 2M)\n"
	"      --touch SIZE    bytes touched per stride, one write per 4 KiB\n"
	"                      (default 4K: one base page in each 2 MiB, the\n"
	"                      memory-bloat case; --stride 2M --touch 2M touches\n"
	"                      every 4 KiB page, as the posting's program did)\n"
	"      --madvise       MADV_HUGEPAGE the allocation (THP under 'madvise')\n"
	"      --interleave    thread i touches strides i, i + N, i + 2N ... (N\n"
	"                      threads) instead of a contiguous share: with a\n"
	"                      small --stride every 2 MiB has many touchers, as\n"
	"                      the posting's threads worked on small portions\n"
	"      --placement     after touching, the share of each thread's\n"
	"                      touched pages that sit on another NUMA node than\n"
	"                      its CPU's (move_pages(2), nodes NULL)\n"
	"Each thread touches its own contiguous share of the strides (or every\n"
	"Nth with --interleave); all start\n"
	"together behind a barrier. Times the touching. Prints 'usec N',\n"
	"'touched_kb N', 'rss_kb N', 'anon_huge_kb N', 'region_rss_kb N',\n"
	"'rss_per_touched X' (the allocation's Rss / touched: the bloat); metrics\n"
	"of the same names (roi_usec for usec) and hugetlb_kb. --placement adds\n"
	"'thread T cpu C node N pages P remote R' lines and the metrics\n"
	"remote_share (mean over threads), remote_share_min, remote_share_max,\n"
	"remote_share.tT, cpu.tT and node.tT (thread T's CPU and its node).\n"
	"Exit 0 ok, 1 failure, 2 usage.\n";

struct opts {
	long cpu;		/* -1: first allowed */
	long node;		/* -1: no binding */
	uint64_t threads;	/* 0: 2 x allowed CPUs */
	uint64_t bytes;
	uint64_t stride;
	uint64_t touch;
	bool madvise;
	bool interleave;
	bool placement;
};

struct worker {
	pthread_t tid;
	char *base;
	uint64_t first, end, step;	/* strides first, first + step, ... < end */
	int cpu;		/* pinned to */
	int ran_on;		/* getcpu() after touching: the CPU */
	int node;		/* and its node, the kernel's (numa_node_id) */
	const struct opts *o;
	pthread_barrier_t *go;
};

static void parse_args(int argc, char **argv, struct opts *o)
{
	static const struct option longopts[] = {
		{ "cpu", required_argument, NULL, 'C' },
		{ "node", required_argument, NULL, 'm' },
		{ "threads", required_argument, NULL, 'c' },
		{ "bytes", required_argument, NULL, 'b' },
		{ "stride", required_argument, NULL, 's' },
		{ "touch", required_argument, NULL, 't' },
		{ "madvise", no_argument, NULL, 'M' },
		{ "interleave", no_argument, NULL, 'I' },
		{ "placement", no_argument, NULL, 'P' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	int c;

	*o = (struct opts){ .cpu = -1, .node = -1, .bytes = WL_GIB,
			    .stride = WL_PMD_SIZE, .touch = WL_BASE_PAGE };
	while ((c = getopt_long(argc, argv, "C:m:c:b:h", longopts, NULL)) != -1) {
		switch (c) {
		case 'C':
			o->cpu = (long)wl_opt_count("-C", optarg, 0, CPU_SETSIZE - 1,
						    usage);
			break;
		case 'm':
			o->node = (long)wl_opt_count("-m", optarg, 0, 4095, usage);
			break;
		case 'c':
			o->threads = wl_opt_count("-c", optarg, 1, MAX_THREADS, usage);
			break;
		case 'b':
			o->bytes = wl_opt_size("-b", optarg, usage);
			break;
		case 's':
			o->stride = wl_opt_size("--stride", optarg, usage);
			break;
		case 't':
			o->touch = wl_opt_size("--touch", optarg, usage);
			break;
		case 'M':
			o->madvise = true;
			break;
		case 'I':
			o->interleave = true;
			break;
		case 'P':
			o->placement = true;
			break;
		default:
			wl_opt_fallback(c, usage);
		}
	}
	wl_no_operands(argc, argv, usage);
	if (o->stride % WL_BASE_PAGE)
		wl_usage_error(usage, "--stride must be a multiple of 4K");
	if (o->touch > o->stride)
		wl_usage_error(usage, "--touch must not be larger than --stride");
	if (o->bytes < o->stride)
		wl_usage_error(usage, "-b must be at least --stride");
}

/* "0-3,8,10-11" */
static void fmt_cpus(const int *cpus, int n, char *buf, size_t len)
{
	size_t used = 0;
	int i, j;

	buf[0] = '\0';
	for (i = 0; i < n && used < len; i = j + 1) {
		for (j = i; j + 1 < n && cpus[j + 1] == cpus[j] + 1; j++)
			;
		used += (size_t)snprintf(buf + used, len - used, "%s%d", i ? "," : "",
					 cpus[i]);
		if (j > i && used < len)
			used += (size_t)snprintf(buf + used, len - used, "-%d",
						 cpus[j]);
	}
}

/* The allowed CPUs, in order; thread i runs on cpus[(start + i) % n]. */
static int allowed_cpus(int *cpus, const struct opts *o, int *start)
{
	char list[256];
	cpu_set_t set;
	int i, n = 0;

	if (sched_getaffinity(0, sizeof(set), &set))
		wl_die("sched_getaffinity failed: %s", strerror(errno));
	*start = 0;
	for (i = 0; i < CPU_SETSIZE; i++) {
		if (!CPU_ISSET(i, &set))
			continue;
		if (i == o->cpu)
			*start = n;
		cpus[n++] = i;
	}
	if (o->cpu >= 0 && !CPU_ISSET(o->cpu, &set)) {
		fmt_cpus(cpus, n, list, sizeof(list));
		wl_die("-C %ld: this process may only run on CPUs %s", o->cpu,
		       list);
	}
	return n;
}

static uint64_t nr_allowed_cpus(void)
{
	cpu_set_t set;

	if (sched_getaffinity(0, sizeof(set), &set))
		wl_die("sched_getaffinity failed: %s", strerror(errno));
	return (uint64_t)CPU_COUNT(&set);
}

static void bind_node(char *p, const struct opts *o)
{
	if (o->node < 0)
		return;
	if (numa_available() < 0) {
		printf("note: NUMA is not available (libnuma); -m %ld ignored\n",
		       o->node);
		return;
	}
	if (o->node > numa_max_node() ||
	    !numa_bitmask_isbitset(numa_all_nodes_ptr, (unsigned int)o->node))
		wl_die("-m %ld: no such NUMA node here (nodes 0-%d)", o->node,
		       numa_max_node());
	numa_tonode_memory(p, o->bytes, (int)o->node);
}

static char marker(uint64_t stride)
{
	return (char)(stride | 1);
}

static void *worker_main(void *arg)
{
	struct worker *w = arg;
	const struct opts *o = w->o;
	uint64_t s, off;
	unsigned int cpu, node;
	volatile char *p;

	pthread_barrier_wait(w->go);
	for (s = w->first; s < w->end; s += w->step) {
		p = w->base + s * o->stride;
		for (off = 0; off < o->touch && s * o->stride + off < o->bytes;
		     off += WL_BASE_PAGE)
			p[off] = marker(s);
	}
	if (getcpu(&cpu, &node)) {
		w->ran_on = w->node = -1;
	} else {
		w->ran_on = (int)cpu;
		w->node = (int)node;
	}
	return NULL;
}

static void start_workers(struct worker *w, uint64_t n, char *base,
			  const struct opts *o, pthread_barrier_t *go)
{
	static int cpus[CPU_SETSIZE];
	uint64_t strides = (o->bytes + o->stride - 1) / o->stride, i;
	int ncpus, start, err;
	pthread_attr_t attr;
	cpu_set_t one;

	ncpus = allowed_cpus(cpus, o, &start);
	for (i = 0; i < n; i++) {
		w[i] = (struct worker){ .base = base, .o = o, .go = go,
					.first = i * strides / n,
					.end = (i + 1) * strides / n, .step = 1 };
		if (o->interleave)
			w[i] = (struct worker){ .base = base, .o = o, .go = go,
						.first = i, .end = strides, .step = n };
		w[i].cpu = cpus[(start + i) % (uint64_t)ncpus];
		CPU_ZERO(&one);
		CPU_SET(w[i].cpu, &one);
		pthread_attr_init(&attr);
		pthread_attr_setaffinity_np(&attr, sizeof(one), &one);
		err = pthread_create(&w[i].tid, &attr, worker_main, &w[i]);
		pthread_attr_destroy(&attr);
		if (err)
			wl_fail("starting thread %llu of %llu failed: %s",
				(unsigned long long)i, (unsigned long long)n,
				strerror(err));
	}
}

#define PLACEMENT_SAMPLE 65536	/* pages looked up per thread, at most */

/* Base pages thread w touched, in its order. */
static uint64_t touched_pages(const struct worker *w, const struct opts *o)
{
	uint64_t s, off, n = 0;

	for (s = w->first; s < w->end; s += w->step)
		for (off = 0; off < o->touch && s * o->stride + off < o->bytes;
		     off += WL_BASE_PAGE)
			n++;
	return n;
}

/* Every k-th page thread w touched (k spreads the sample over all). */
static unsigned long sample_pages(const struct worker *w, const struct opts *o,
				  uint64_t k, void **pages)
{
	uint64_t s, off, i = 0;
	unsigned long n = 0;

	for (s = w->first; s < w->end; s += w->step)
		for (off = 0; off < o->touch && s * o->stride + off < o->bytes;
		     off += WL_BASE_PAGE, i++)
			if (i % k == 0 && n < PLACEMENT_SAMPLE)
				pages[n++] = w->base + s * o->stride + off;
	return n;
}

/*
 * Share of thread w's touched pages on another node than its CPU's: the
 * node the kernel allocates from there (getcpu(2)). Not libnuma's
 * numa_node_of_cpu(): under numa=fake every CPU is in every fake node's
 * sysfs cpumap, so it names node 0 for all.
 */
static double remote_share(const struct worker *w, const struct opts *o,
			   uint64_t t, void **pages, int *status)
{
	uint64_t total = touched_pages(w, o);
	uint64_t k = total / PLACEMENT_SAMPLE + 1, remote = 0, seen = 0;
	unsigned long i, n = sample_pages(w, o, k, pages);
	int node = w->node;
	char name[48];
	double share;

	if (n && numa_move_pages(0, n, pages, NULL, status, 0))
		wl_fail("move_pages(2) failed: %s", strerror(errno));
	for (i = 0; i < n; i++) {
		seen += status[i] >= 0;
		remote += status[i] >= 0 && status[i] != node;
	}
	share = seen ? (double)remote / (double)seen : 0;
	printf("thread %llu cpu %d node %d pages %llu remote %llu\n",
	       (unsigned long long)t, w->cpu, node, (unsigned long long)seen,
	       (unsigned long long)remote);
	snprintf(name, sizeof(name), "remote_share.t%llu", (unsigned long long)t);
	wl_metric(name, share);
	snprintf(name, sizeof(name), "node.t%llu", (unsigned long long)t);
	wl_metric(name, node);
	snprintf(name, sizeof(name), "cpu.t%llu", (unsigned long long)t);
	wl_metric(name, w->cpu);
	return share;
}

/*
 * Where each thread's pages landed: with THP a 2 MiB region sits on the
 * node of its first toucher, so with interleaved touching about half of
 * a thread's pages are remote on two nodes; without, each base page is
 * on its own toucher's node. (numa_hit/numa_miss cannot show this: the
 * first touch allocates locally.) Looked up after the region of interest.
 */
static void report_placement(const struct worker *w, uint64_t n,
			     const struct opts *o)
{
	void **pages = malloc(PLACEMENT_SAMPLE * sizeof(*pages));
	int *status = malloc(PLACEMENT_SAMPLE * sizeof(*status));
	double share, sum = 0, lo = 1, hi = 0;
	uint64_t t;

	if (!pages || !status)
		wl_fail("out of memory for the placement sample");
	if (numa_available() < 0) {
		printf("note: NUMA is not available (libnuma); no placement\n");
		free(pages);
		free(status);
		return;
	}
	for (t = 0; t < n; t++) {
		share = remote_share(&w[t], o, t, pages, status);
		sum += share;
		lo = share < lo ? share : lo;
		hi = share > hi ? share : hi;
	}
	printf("nodes %d\nremote_share %.4f\n", numa_num_configured_nodes(),
	       sum / (double)n);
	wl_metric("remote_share", sum / (double)n);
	wl_metric("remote_share_min", lo);
	wl_metric("remote_share_max", hi);
	free(pages);
	free(status);
}

/* Each thread stayed on its CPU; print the CPUs used ("cpus 0-3"). */
static void check_pinning(const struct worker *w, uint64_t n)
{
	static int used[CPU_SETSIZE];
	cpu_set_t set;
	char list[256];
	int i, nused = 0;
	uint64_t t;

	CPU_ZERO(&set);
	for (t = 0; t < n; t++) {
		if (w[t].ran_on != w[t].cpu)
			wl_fail("thread %llu ran on CPU %d, but was pinned to %d",
				(unsigned long long)t, w[t].ran_on, w[t].cpu);
		CPU_SET(w[t].cpu, &set);
	}
	for (i = 0; i < CPU_SETSIZE; i++)
		if (CPU_ISSET(i, &set))
			used[nused++] = i;
	fmt_cpus(used, nused, list, sizeof(list));
	printf("cpus %s\n", list);
}

/* Touched bytes hold their stride's marker; the rest reads zero. */
static void verify(const char *p, const struct opts *o)
{
	uint64_t strides = (o->bytes + o->stride - 1) / o->stride, s, off;

	for (s = 0; s < strides; s++) {
		for (off = 0; off < o->stride && s * o->stride + off < o->bytes;
		     off += WL_BASE_PAGE) {
			char want = off < o->touch ? marker(s) : 0;

			if (p[s * o->stride + off] != want)
				wl_fail("byte at offset %llu reads 0x%02x, "
					"expected 0x%02x",
					(unsigned long long)(s * o->stride + off),
					(unsigned char)p[s * o->stride + off],
					(unsigned char)want);
		}
	}
}

static uint64_t touched_bytes(const struct opts *o)
{
	uint64_t full = o->bytes / o->stride, rest = o->bytes % o->stride;
	uint64_t per = (o->touch + WL_BASE_PAGE - 1) / WL_BASE_PAGE;
	uint64_t last = rest < o->touch ? rest : o->touch;

	return (full * per + (last + WL_BASE_PAGE - 1) / WL_BASE_PAGE) *
	       WL_BASE_PAGE;
}

/*
 * The memory bloat: the allocation's resident memory over the memory
 * touched. 1 when only touched pages are resident; 512 when each 2 MiB
 * stride touched once got a whole THP. The allocation's own Rss, not the
 * process's, so that small runs are not skewed by the binary and stacks.
 */
static void report_bloat(const char *p, const struct opts *o)
{
	long long rss = wl_range_kb(p, o->bytes, "Rss");
	double ratio = (double)rss * 1024 / (double)touched_bytes(o);

	wl_report_kb("region_rss_kb", rss);
	if (rss < 0)
		return;
	printf("rss_per_touched %.3f\n", ratio);
	wl_metric("rss_per_touched", ratio);
}

int main(int argc, char **argv)
{
	pthread_barrier_t go;
	struct worker *w;
	struct opts o;
	double t0, t1;
	uint64_t i;
	char *p;

	parse_args(argc, argv, &o);
	if (!o.threads)
		o.threads = 2 * nr_allowed_cpus();
	wl_check_memory(o.bytes, "-b (all of it, if every stride gets a THP)");
	p = wl_map_aligned(o.bytes, WL_PMD_SIZE, PROT_READ | PROT_WRITE);
	if (!p)
		wl_fail("mmap of %llu bytes failed: %s",
			(unsigned long long)o.bytes, strerror(errno));
	if (o.madvise && madvise(p, o.bytes, MADV_HUGEPAGE))
		wl_fail("madvise(MADV_HUGEPAGE) failed: %s", strerror(errno));
	bind_node(p, &o);
	w = calloc(o.threads, sizeof(*w));
	if (!w || pthread_barrier_init(&go, NULL, (unsigned int)o.threads + 1))
		wl_fail("out of memory setting up %llu threads",
			(unsigned long long)o.threads);
	start_workers(w, o.threads, p, &o, &go);

	wl_roi_begin();
	t0 = wl_now_usec();
	pthread_barrier_wait(&go);
	for (i = 0; i < o.threads; i++)
		pthread_join(w[i].tid, NULL);
	t1 = wl_now_usec();
	wl_roi_end();

	printf("threads %llu\n", (unsigned long long)o.threads);
	printf("usec %.0f\n", t1 - t0);
	wl_metric("roi_usec", t1 - t0);
	wl_report_kb("touched_kb", (long long)(touched_bytes(&o) / 1024));
	wl_report_self_mem();
	report_bloat(p, &o);
	check_pinning(w, o.threads);
	if (o.placement)
		report_placement(w, o.threads, &o);
	verify(p, &o);
	printf("ok\n");
	return 0;
}
