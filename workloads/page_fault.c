// SPDX-License-Identifier: GPL-2.0-only
/*
 * page_fault - page fault scalability, will-it-scale's page_fault1/2/3:
 * N workers (threads of one process, sharing one mm and its mmap lock /
 * per-VMA locks, or processes, each its own mm) each loop over
 * mmap -> write one byte per 4 KiB page -> munmap of --size bytes.
 *
 * Kernel paths, by --shape:
 *   anon     private anonymous: do_anonymous_page(), or with THP / mTHP
 *            do_huge_pmd_anonymous_page() / alloc_anon_folio(): one fault
 *            per folio (thp_fault_alloc, mTHP anon_fault_alloc);
 *            page_fault1.
 *   shared   MAP_SHARED of a memfd (shmem): do_shared_fault() ->
 *            shmem_fault(), the page cache pages allocated in the first
 *            loop and found in the later ones; page_fault3.
 *   private  MAP_PRIVATE of a memfd, written: do_cow_fault(), a 4 KiB
 *            anonymous copy of each shmem page on every touch;
 *            page_fault2.
 * What proves the path: the workers' own minor faults (getrusage,
 * RUSAGE_THREAD / the child's RUSAGE_SELF, around each worker's loop):
 * one per 4 KiB page touched where the folios are 4 KiB (write faults
 * get no fault-around), fewer by the folio size where they are large;
 * and thp_fault_alloc / thp_file_alloc (/proc/vmstat around the region:
 * system-wide, so at least what the workers caused).
 *
 * An op is one 4 KiB page touched (will-it-scale's unit); each worker
 * times its own loop, the region of interest runs from releasing the
 * workers together to the last one done.
 */
#include "wl.h"

#include <errno.h>
#include <getopt.h>
#include <pthread.h>
#include <sched.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

static const char usage[] =
	"usage: page_fault [--shape anon|shared|private] [--workers N]\n"
	"                  [--mode thread|process] [--size SIZE] [--loops N]\n"
	"                  [--warmup N] [--madvise]\n"
	"  --shape anon     private anonymous memory (default; page_fault1)\n"
	"  --shape shared   MAP_SHARED of a memfd per worker (page_fault3)\n"
	"  --shape private  MAP_PRIVATE of a memfd per worker, written: COW of\n"
	"                   each shmem page (page_fault2)\n"
	"  --workers N      workers looping at once (default 2)\n"
	"  --mode thread    threads of one process: one mm (default)\n"
	"  --mode process   processes: an mm each\n"
	"  --size SIZE      mapped, touched and unmapped per loop per worker\n"
	"                   (default 128M, will-it-scale's; a multiple of 4K)\n"
	"  --loops N        map/touch/unmap loops per worker (default 8)\n"
	"  --warmup N       untimed loops per worker before the timed ones\n"
	"                   (default 1): memory the host has not backed yet\n"
	"                   (free page reporting in a VM) is met there\n"
	"  --madvise        MADV_HUGEPAGE each mapping before touching it\n"
	"An op is one 4 KiB page written. Prints and reports as metrics\n"
	"'ops N', 'ops_per_sec X' (all workers, over the region of interest),\n"
	"'ops_per_sec_per_worker X' (their mean), 'workerI_ops_per_sec X',\n"
	"'faults N' (the workers' minor faults), 'faults_per_op X',\n"
	"thp_fault_alloc, thp_file_alloc (deltas), roi_usec, rss_kb,\n"
	"anon_huge_kb. Exit 0 ok, 1 failure (mmap, a page read back wrong),\n"
	"2 usage.\n";

enum shape { SHAPE_ANON, SHAPE_SHARED, SHAPE_PRIVATE };

static const char *const shape_names[] = { "anon", "shared", "private" };

struct opts {
	enum shape shape;
	uint64_t workers;
	uint64_t size;
	uint64_t loops;
	uint64_t warmup;
	int process;
	int madvise;
};

/* One per worker, in memory shared with child processes. */
struct result {
	double usec;
	uint64_t ops;
	long minflt;
	int err;		/* errno of a failed call, or -1: bad data */
	char what[24];		/* the call that failed */
};

struct shared {
	atomic_uint ready;
	atomic_uint go;
	struct result r[];
};

static struct opts o;
static struct shared *sh;

static int parse_shape(const char *arg)
{
	unsigned int i;

	for (i = 0; i < sizeof(shape_names) / sizeof(shape_names[0]); i++)
		if (!strcmp(arg, shape_names[i]))
			return (int)i;
	wl_usage_error(usage, "--shape: '%s' is not anon, shared or private", arg);
}

static void parse_args(int argc, char **argv)
{
	static const struct option longopts[] = {
		{ "shape", required_argument, NULL, 's' },
		{ "workers", required_argument, NULL, 'w' },
		{ "mode", required_argument, NULL, 'm' },
		{ "size", required_argument, NULL, 'S' },
		{ "loops", required_argument, NULL, 'l' },
		{ "warmup", required_argument, NULL, 'W' },
		{ "madvise", no_argument, NULL, 'M' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	int c;

	o = (struct opts){ .workers = 2, .size = 128 * WL_MIB, .loops = 8,
			   .warmup = 1 };
	while ((c = getopt_long(argc, argv, "h", longopts, NULL)) != -1) {
		switch (c) {
		case 's': o.shape = (enum shape)parse_shape(optarg); break;
		case 'w':
			o.workers = wl_opt_count("--workers", optarg, 1, 1024, usage);
			break;
		case 'm':
			if (strcmp(optarg, "thread") && strcmp(optarg, "process"))
				wl_usage_error(usage, "--mode: '%s' is not thread or process",
					       optarg);
			o.process = !strcmp(optarg, "process");
			break;
		case 'S': o.size = wl_opt_size("--size", optarg, usage); break;
		case 'l':
			o.loops = wl_opt_count("--loops", optarg, 1, 1 << 20, usage);
			break;
		case 'W':
			o.warmup = wl_opt_count("--warmup", optarg, 0, 1 << 20, usage);
			break;
		case 'M': o.madvise = 1; break;
		default: wl_opt_fallback(c, usage);
		}
	}
	wl_no_operands(argc, argv, usage);
	if (o.size % WL_BASE_PAGE)
		wl_usage_error(usage, "--size must be a multiple of 4K");
}

static void set_err(struct result *r, const char *what, int err)
{
	r->err = err;
	snprintf(r->what, sizeof(r->what), "%s", what);
}

static long my_minflt(void)
{
	struct rusage ru;

	if (getrusage(o.process ? RUSAGE_SELF : RUSAGE_THREAD, &ru))
		return -1;
	return ru.ru_minflt;
}

/* The file a file-backed worker maps: a memfd of --size, no mount needed. */
static int worker_file(struct result *r)
{
	int fd;

	if (o.shape == SHAPE_ANON)
		return -1;
	fd = memfd_create("thpbench-page_fault", MFD_CLOEXEC);
	if (fd < 0) {
		set_err(r, "memfd_create", errno);
		return -2;
	}
	if (ftruncate(fd, (off_t)o.size)) {
		set_err(r, "ftruncate", errno);
		close(fd);
		return -2;
	}
	return fd;
}

/* One map -> touch -> unmap; the last byte of every page is checked
 * after the touch, so a fault that mapped the wrong page fails. */
static int one_loop(int fd, unsigned char mark, struct result *r)
{
	int flags = o.shape == SHAPE_SHARED ? MAP_SHARED :
		    o.shape == SHAPE_PRIVATE ? MAP_PRIVATE : MAP_PRIVATE | MAP_ANONYMOUS;
	unsigned char *p = mmap(NULL, o.size, PROT_READ | PROT_WRITE, flags,
				o.shape == SHAPE_ANON ? -1 : fd, 0);
	uint64_t off;
	int bad = 0;

	if (p == MAP_FAILED) {
		set_err(r, "mmap", errno);
		return -1;
	}
	if (o.madvise && madvise(p, o.size, MADV_HUGEPAGE)) {
		set_err(r, "madvise(MADV_HUGEPAGE)", errno);
		munmap(p, o.size);
		return -1;
	}
	for (off = 0; off < o.size; off += WL_BASE_PAGE)
		p[off] = mark;
	for (off = 0; off < o.size && !bad; off += WL_BASE_PAGE)
		bad = p[off] != mark || p[off + WL_BASE_PAGE - 1] != 0;
	if (munmap(p, o.size)) {
		set_err(r, "munmap", errno);
		return -1;
	}
	if (bad) {
		set_err(r, "read back", -1);
		return -1;
	}
	r->ops += o.size / WL_BASE_PAGE;
	return 0;
}

static void run_worker(unsigned int id)
{
	struct result *r = &sh->r[id];
	int fd = worker_file(r);
	double t0;
	long f0;
	uint64_t l;

	for (l = 0; l < o.warmup && fd != -2 && !r->err; l++)
		one_loop(fd, 0x80, r);
	r->ops = 0;
	atomic_fetch_add(&sh->ready, 1);
	if (fd == -2 || r->err)
		return;
	while (!atomic_load(&sh->go))
		sched_yield();
	f0 = my_minflt();
	t0 = wl_now_usec();
	/* A shared file keeps its pages: the mark changes per loop, so each
	 * loop's check sees that loop's writes. */
	for (l = 0; l < o.loops; l++)
		if (one_loop(fd, (unsigned char)(l % 255 + 1), r))
			break;
	r->usec = wl_now_usec() - t0;
	r->minflt = my_minflt() - f0;
	if (fd >= 0)
		close(fd);
}

static void *thread_main(void *arg)
{
	run_worker((unsigned int)(uintptr_t)arg);
	return NULL;
}

static void start_threads(pthread_t *t)
{
	uint64_t i;
	int err;

	for (i = 0; i < o.workers; i++) {
		err = pthread_create(&t[i], NULL, thread_main, (void *)(uintptr_t)i);
		if (err)
			wl_fail("starting worker thread %llu failed: %s",
				(unsigned long long)i, strerror(err));
	}
}

static void start_processes(pid_t *pid)
{
	uint64_t i;

	for (i = 0; i < o.workers; i++) {
		pid[i] = fork();
		if (pid[i] < 0)
			wl_fail("forking worker %llu failed: %s",
				(unsigned long long)i, strerror(errno));
		if (!pid[i]) {
			run_worker((unsigned int)i);
			_exit(0);
		}
	}
}

static void join_all(pthread_t *t, pid_t *pid)
{
	uint64_t i;
	int status;

	for (i = 0; i < o.workers; i++) {
		if (!o.process) {
			pthread_join(t[i], NULL);
			continue;
		}
		if (waitpid(pid[i], &status, 0) < 0 || !WIFEXITED(status) ||
		    WEXITSTATUS(status))
			set_err(&sh->r[i], "worker process", ECHILD);
	}
}

static const char *const counters[] = { "thp_fault_alloc", "thp_file_alloc" };
#define NCOUNTERS (sizeof(counters) / sizeof(counters[0]))

static void check_results(void)
{
	const struct result *r;
	uint64_t i;

	for (i = 0; i < o.workers; i++) {
		r = &sh->r[i];
		if (r->err == -1)
			wl_fail("worker %llu: a page read back wrong after its "
				"fault (--shape %s)", (unsigned long long)i,
				shape_names[o.shape]);
		if (r->err)
			wl_fail("worker %llu: %s failed: %s", (unsigned long long)i,
				r->what, strerror(r->err));
	}
}

static void report(const char *name, double v)
{
	printf("%s %.17g\n", name, v);
	wl_metric(name, v);
}

static void report_results(double roi_usec, const uint64_t *before,
			   const uint64_t *after)
{
	double sum_rate = 0, rate;
	uint64_t ops = 0, i;
	long faults = 0;
	char name[48];

	for (i = 0; i < o.workers; i++) {
		ops += sh->r[i].ops;
		faults += sh->r[i].minflt;
		rate = sh->r[i].usec > 0 ? sh->r[i].ops / (sh->r[i].usec / 1e6) : 0;
		sum_rate += rate;
		snprintf(name, sizeof(name), "worker%llu_ops_per_sec",
			 (unsigned long long)i);
		report(name, rate);
	}
	printf("shape %s\nmode %s\nworkers %llu\nusec %.0f\n", shape_names[o.shape],
	       o.process ? "process" : "thread", (unsigned long long)o.workers,
	       roi_usec);
	wl_metric("roi_usec", roi_usec);
	report("ops", (double)ops);
	report("ops_per_sec", roi_usec > 0 ? ops / (roi_usec / 1e6) : 0);
	report("ops_per_sec_per_worker", sum_rate / (double)o.workers);
	report("faults", (double)faults);
	report("faults_per_op", ops ? (double)faults / (double)ops : 0);
	for (i = 0; i < NCOUNTERS; i++)
		report(counters[i], (double)(after[i] - before[i]));
}

int main(int argc, char **argv)
{
	uint64_t before[NCOUNTERS], after[NCOUNTERS];
	size_t shsize;
	pthread_t *t;
	pid_t *pid;
	double t0, t1;

	parse_args(argc, argv);
	/* private: the shmem page and its anonymous copy, both resident. */
	wl_check_memory(o.workers * o.size * (o.shape == SHAPE_PRIVATE ? 2 : 1),
			"--workers x --size");
	shsize = sizeof(*sh) + o.workers * sizeof(sh->r[0]);
	sh = mmap(NULL, shsize, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS,
		  -1, 0);
	t = calloc(o.workers, sizeof(*t));
	pid = calloc(o.workers, sizeof(*pid));
	if (sh == MAP_FAILED || !t || !pid)
		wl_fail("allocating the workers' results failed: %s", strerror(errno));
	memset(sh, 0, shsize);

	if (o.process)
		start_processes(pid);
	else
		start_threads(t);
	while (atomic_load(&sh->ready) < o.workers)
		sched_yield();
	if (wl_vmstat_read(counters, before, NCOUNTERS, NULL))
		wl_die("cannot read /proc/vmstat");
	wl_roi_begin();
	t0 = wl_now_usec();
	atomic_store(&sh->go, 1);
	join_all(t, pid);
	t1 = wl_now_usec();
	wl_roi_end();
	if (wl_vmstat_read(counters, after, NCOUNTERS, NULL))
		wl_die("cannot read /proc/vmstat");

	check_results();
	report_results(t1 - t0, before, after);
	wl_report_self_mem();
	printf("ok\n");
	free(t);
	free(pid);
	return 0;
}
