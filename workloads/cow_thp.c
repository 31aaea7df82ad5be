// SPDX-License-Identifier: GPL-2.0-only
/*
 * cow_thp - copy-on-write of THPs after fork(), the reason redis advises
 * against THP: the parent fills THP memory (checked huge via pagemap),
 * fork() is timed, then the child writes its copy (every --touch unit,
 * in random or address order, each write timed), then - with the child
 * still alive - the parent writes the same units.
 *
 * Kernel paths: fork copies the huge PMDs write-protected
 * (copy_huge_pmd(), AnonExclusive cleared). The child's first write to
 * a THP goes to do_huge_pmd_wp_page(): a shared folio is not reused, the
 * child's PMD is split (__split_huge_pmd(): thp_split_pmd) and the
 * fault falls back to do_wp_page(), copying 4 KiB; each further 4 KiB
 * written is its own COW fault. (Kernels before v5.8 copied the whole
 * THP instead: thp_fault_alloc, and the child's range stays huge.) The
 * parent's writes then meet folios the child no longer maps
 * (--touch 4K): reused whole, one fault per THP and no split; with
 * --touch 2M the child still maps 511 pages of each, so the parent
 * splits and copies too.
 *
 * What proves it: pagemap + kpageflags (wl_pagemap_is_thp()) of the
 * range before fork, in the child after its writes and in the parent
 * after its own: THPs still PMD-mapped ("copied" whole, or reused) vs no
 * longer ("split"); thp_split_pmd and thp_fault_alloc from /proc/vmstat
 * over each writer's phase (system-wide: at least this process's).
 * thp_split_pmd over the child's phase is at least the THPs the child no
 * longer maps huge. Each side's data is checked: the child's writes must
 * not show in the parent (a COW bug, exit 1).
 */
#include "wl.h"

#include <errno.h>
#include <getopt.h>
#include <gsl/gsl_permutation.h>
#include <gsl/gsl_randist.h>
#include <gsl/gsl_rng.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

static const char usage[] =
	"usage: cow_thp [--size SIZE] [--touch 4K|2M] [--order random|sequential]\n"
	"               [--seed N] [--min-huge N]\n"
	"  --size SIZE     THP memory the parent fills (default 256M, 2M steps)\n"
	"  --touch 4K      write every 4 KiB page (default): a COW fault per page\n"
	"  --touch 2M      write one 4 KiB page per THP: a COW fault per THP\n"
	"  --order random  the writes in a seeded random order (default)\n"
	"  --order sequential  in address order\n"
	"  --seed N        the random order (default 1)\n"
	"  --min-huge N    THPs that must be huge before fork (default all)\n"
	"Prints and reports as metrics: 'fork_usec X', 'huge_before N',\n"
	"'child_huge_after N', 'parent_huge_after N', 'thps_copied N' (still\n"
	"huge in the child), 'thps_split N', 'child_write_usec X',\n"
	"'parent_write_usec X', the per-write latency 'child_fault_p50_usec',\n"
	"_p99_, _max_, _mean_ and 'parent_fault_...' alike, 'child_faults N',\n"
	"'parent_faults N' (minor faults of the writes), thp_split_pmd_child,\n"
	"thp_split_pmd_parent, thp_fault_alloc_child, thp_fault_alloc_parent\n"
	"(deltas), roi_usec (fork to the parent's last write), rss_kb,\n"
	"anon_huge_kb. Exit 0 ok, 1 failure (a COW bug: the other side's data\n"
	"seen), 2 usage, 3 invalid measurement: fewer than --min-huge THPs.\n";

struct opts {
	uint64_t size;
	uint64_t touch;
	unsigned long seed;
	uint64_t min_huge;
	int sequential;
};

/* What the child reports, in memory shared across fork. */
struct child_report {
	long long huge_after;
	long faults;
	double write_usec;
	uint64_t split_pmd, fault_alloc;
	int bad;		/* index + 1 of a unit that read back wrong */
	double usec[];		/* per write, in write order */
};

static struct opts o;

static void parse_args(int argc, char **argv)
{
	static const struct option longopts[] = {
		{ "size", required_argument, NULL, 's' },
		{ "touch", required_argument, NULL, 't' },
		{ "order", required_argument, NULL, 'o' },
		{ "seed", required_argument, NULL, 'S' },
		{ "min-huge", required_argument, NULL, 'm' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	int c, min_given = 0;

	o = (struct opts){ .size = 256 * WL_MIB, .touch = WL_BASE_PAGE, .seed = 1 };
	while ((c = getopt_long(argc, argv, "h", longopts, NULL)) != -1) {
		switch (c) {
		case 's': o.size = wl_opt_size("--size", optarg, usage); break;
		case 't':
			o.touch = wl_opt_size("--touch", optarg, usage);
			if (o.touch != WL_BASE_PAGE && o.touch != WL_PMD_SIZE)
				wl_usage_error(usage, "--touch: '%s' is not 4K or 2M", optarg);
			break;
		case 'o':
			if (strcmp(optarg, "random") && strcmp(optarg, "sequential"))
				wl_usage_error(usage, "--order: '%s' is not random or sequential",
					       optarg);
			o.sequential = !strcmp(optarg, "sequential");
			break;
		case 'S':
			o.seed = (unsigned long)wl_opt_count("--seed", optarg, 0,
							    UINT32_MAX, usage);
			break;
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
		wl_usage_error(usage, "--min-huge %llu is more than the %llu THPs of --size",
			       (unsigned long long)o.min_huge,
			       (unsigned long long)(o.size / WL_PMD_SIZE));
}

static gsl_permutation *write_order(size_t n)
{
	gsl_permutation *p = gsl_permutation_alloc(n);
	gsl_rng *rng;

	if (!p)
		wl_fail("out of memory for %zu writes", n);
	gsl_permutation_init(p);
	if (o.sequential)
		return p;
	rng = gsl_rng_alloc(gsl_rng_mt19937);
	if (!rng)
		wl_fail("out of memory for the random generator");
	gsl_rng_set(rng, o.seed);
	gsl_ran_shuffle(rng, p->data, n, sizeof(size_t));
	gsl_rng_free(rng);
	return p;
}

/* Word 0 of each 4 KiB page: the parent's fill. Word 1 of each written
 * unit: 0 until written, then the writer's mark (child and parent
 * differ). */
static uint64_t fill_mark(uint64_t page) { return page * 2 + 1; }
static uint64_t child_mark(uint64_t unit) { return unit * 4 + 2; }
static uint64_t parent_mark(uint64_t unit) { return unit * 4 + 4; }

static uint64_t *word(char *p, uint64_t unit, int w)
{
	return (uint64_t *)(p + unit * o.touch) + w;
}

static void fill(char *p)
{
	uint64_t i;

	for (i = 0; i < o.size / WL_BASE_PAGE; i++)
		*(uint64_t *)(p + i * WL_BASE_PAGE) = fill_mark(i);
}

/* 0, or unit + 1 of the first unit whose words are not (fill, want). */
static int check(char *p, uint64_t (*mark)(uint64_t))
{
	uint64_t u, n = o.size / o.touch, pages = o.touch / WL_BASE_PAGE;

	for (u = 0; u < n; u++)
		if (*word(p, u, 0) != fill_mark(u * pages) ||
		    *word(p, u, 1) != (mark ? mark(u) : 0))
			return (int)(u + 1);
	return 0;
}

static long long count_huge(char *p)
{
	long long kb, n = 0;
	uint64_t i;
	int r = 0;

	for (i = 0; i < o.size / WL_PMD_SIZE && r >= 0; i++) {
		r = wl_pagemap_is_thp(p + i * WL_PMD_SIZE);
		n += r > 0;
	}
	if (r >= 0)
		return n;
	kb = wl_range_anon_huge_kb(p, o.size);
	return kb < 0 ? -1 : kb / 2048;
}

static long minflt(void)
{
	struct rusage ru;

	return getrusage(RUSAGE_SELF, &ru) ? -1 : ru.ru_minflt;
}

static const char *const counters[] = { "thp_split_pmd", "thp_fault_alloc" };

static void read_counters(uint64_t *v)
{
	if (wl_vmstat_read(counters, v, 2, NULL))
		wl_die("cannot read /proc/vmstat");
}

/* Write every unit in perm's order, timing each; the phase's time. */
static double write_all(char *p, const gsl_permutation *perm, double *usec,
			uint64_t (*mark)(uint64_t))
{
	double t0, start = wl_now_usec();
	size_t i, u;

	for (i = 0; i < perm->size; i++) {
		u = gsl_permutation_get(perm, i);
		t0 = wl_now_usec();
		*word(p, u, 1) = mark(u);
		usec[i] = wl_now_usec() - t0;
	}
	return wl_now_usec() - start;
}

static WL_NORETURN void child(char *p, const gsl_permutation *perm,
			      struct child_report *cr, int go_fd, int done_fd)
{
	uint64_t before[2], after[2];
	long f0;
	char c;

	read_counters(before);
	f0 = minflt();
	cr->write_usec = write_all(p, perm, cr->usec, child_mark);
	cr->faults = minflt() - f0;
	read_counters(after);
	cr->split_pmd = after[0] - before[0];
	cr->fault_alloc = after[1] - before[1];
	cr->bad = check(p, child_mark);
	cr->huge_after = count_huge(p);
	/* Stay alive, still mapping what was not copied, while the parent
	 * writes. */
	if (write(done_fd, "d", 1) != 1 || read(go_fd, &c, 1) < 0)
		_exit(1);
	_exit(0);
}

static void report(const char *name, double v)
{
	printf("%s %.17g\n", name, v);
	wl_metric(name, v);
}

struct parent_phase {
	double fork_usec, write_usec, roi_usec;
	long faults;
	uint64_t split_pmd, fault_alloc;
	long long huge_before, huge_after;
};

static void report_all(struct parent_phase *pp, struct child_report *cr,
		       double *parent_usec, size_t n)
{
	report("fork_usec", pp->fork_usec);
	report("huge_before", (double)pp->huge_before);
	if (cr->huge_after >= 0) {
		report("child_huge_after", (double)cr->huge_after);
		report("thps_copied", (double)cr->huge_after);
		report("thps_split", (double)(pp->huge_before - cr->huge_after));
	}
	if (pp->huge_after >= 0)
		report("parent_huge_after", (double)pp->huge_after);
	report("child_write_usec", cr->write_usec);
	report("parent_write_usec", pp->write_usec);
	report("child_faults", (double)cr->faults);
	report("parent_faults", (double)pp->faults);
	report("thp_split_pmd_child", (double)cr->split_pmd);
	report("thp_split_pmd_parent", (double)pp->split_pmd);
	report("thp_fault_alloc_child", (double)cr->fault_alloc);
	report("thp_fault_alloc_parent", (double)pp->fault_alloc);
	wl_report_latency("child_fault", cr->usec, n);
	wl_report_latency("parent_fault", parent_usec, n);
	printf("usec %.0f\n", pp->roi_usec);
	wl_metric("roi_usec", pp->roi_usec);
}

static void require_huge(long long huge)
{
	if (huge < 0)
		wl_die("neither pagemap/kpageflags nor /proc/self/smaps can be "
		       "read: cannot tell whether the pages are huge");
	if ((uint64_t)huge < o.min_huge)
		wl_invalid("only %lld of %llu pages were THPs before fork "
			   "(--min-huge %llu): there is no THP to copy on write",
			   huge, (unsigned long long)(o.size / WL_PMD_SIZE),
			   (unsigned long long)o.min_huge);
}

/* The parent's side, from fork to the child's exit. */
static void parent(char *p, const gsl_permutation *perm, struct child_report *cr,
		   double *usec, struct parent_phase *pp)
{
	int go[2], done[2], status, bad;
	uint64_t before[2], after[2];
	double t0, t1;
	pid_t pid;
	long f0;
	char c;

	if (pipe(go) || pipe(done))
		wl_fail("pipe failed: %s", strerror(errno));
	wl_roi_begin();
	t0 = wl_now_usec();
	pid = fork();
	t1 = wl_now_usec();
	if (pid < 0)
		wl_fail("fork failed: %s", strerror(errno));
	if (!pid)
		child(p, perm, cr, go[0], done[1]);
	pp->fork_usec = t1 - t0;
	if (read(done[0], &c, 1) != 1)
		wl_fail("the child died before finishing its writes");
	/* Nothing the child wrote may show here. */
	bad = check(p, NULL);
	if (bad)
		wl_fail("COW bug: after the child's writes the parent's unit %d "
			"reads 0x%llx/0x%llx", bad - 1,
			(unsigned long long)*word(p, (uint64_t)bad - 1, 0),
			(unsigned long long)*word(p, (uint64_t)bad - 1, 1));
	read_counters(before);
	f0 = minflt();
	pp->write_usec = write_all(p, perm, usec, parent_mark);
	pp->faults = minflt() - f0;
	read_counters(after);
	pp->roi_usec = wl_now_usec() - t0;
	wl_roi_end();
	pp->split_pmd = after[0] - before[0];
	pp->fault_alloc = after[1] - before[1];
	pp->huge_after = count_huge(p);
	if (write(go[1], "g", 1) != 1 || waitpid(pid, &status, 0) < 0 ||
	    !WIFEXITED(status) || WEXITSTATUS(status))
		wl_fail("the child failed");
	if (cr->bad)
		wl_fail("COW bug: the child's unit %d does not read back the "
			"parent's fill and the child's own write", cr->bad - 1);
	bad = check(p, parent_mark);
	if (bad)
		wl_fail("the parent's unit %d does not read back its fill and its "
			"own write", bad - 1);
}

int main(int argc, char **argv)
{
	struct parent_phase pp = { 0 };
	struct child_report *cr;
	gsl_permutation *perm;
	double *usec;
	size_t n, crsize;
	char *p;

	parse_args(argc, argv);
	wl_check_memory(2 * o.size, "--size, twice (the child's copy)");
	n = o.size / o.touch;
	crsize = sizeof(*cr) + n * sizeof(cr->usec[0]);
	cr = mmap(NULL, crsize, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS,
		  -1, 0);
	usec = calloc(n, sizeof(*usec));
	p = wl_map_aligned(o.size, WL_PMD_SIZE, PROT_READ | PROT_WRITE);
	if (cr == MAP_FAILED || !usec || !p)
		wl_fail("allocating %llu bytes failed: %s",
			(unsigned long long)o.size, strerror(errno));
	if (madvise(p, o.size, MADV_HUGEPAGE))
		wl_fail("madvise(MADV_HUGEPAGE) failed: %s (is THP built in?)",
			strerror(errno));
	perm = write_order(n);
	fill(p);
	pp.huge_before = count_huge(p);
	require_huge(pp.huge_before);

	parent(p, perm, cr, usec, &pp);
	report_all(&pp, cr, usec, n);
	wl_report_self_mem();
	printf("ok\n");
	gsl_permutation_free(perm);
	free(usec);
	return 0;
}
