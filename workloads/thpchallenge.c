// SPDX-License-Identifier: GPL-2.0-only
/*
 * thpchallenge - after mmtests' thpchallenge: THP faults in the
 * foreground while a background "challenge" fills memory with page cache
 * and fragments it. The foreground maps --size and touches each 2 MiB
 * once, in a seeded random order, each first touch timed; afterwards
 * each 2 MiB is looked up (pagemap + kpageflags as root): the faults that
 * got a THP and those that fell back, their share, and the latency
 * percentiles of each kind apart.
 *
 * Challenges, started before the foreground (--delay seconds ahead) and
 * killed after it on every exit path (exit, a signal to us: the process
 * group; a kill -9 of us: PR_SET_PDEATHSIG, and, under a parent memcg,
 * the harness's undo of it kills what is left in its sub-cgroup):
 *   fio   fio (Debian fio) writing 4 KiB blocks at random offsets of
 *         --files small files of --challenge-size in all, in DIR (a disk
 *         file system: THPBENCH_MOUNT from `mount = ext4:SIZE`, or --dir),
 *         --thread, so one process holds all of it;
 *   none  the control.
 * The memory-state axis's fragmenter (`memory_state = fragmented`) is
 * the third: it runs before the repetition, so use `--challenge none`.
 */
#include "wl.h"

#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <gsl/gsl_randist.h>
#include <gsl/gsl_rng.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

static const char usage[] =
	"usage: thpchallenge [--size SIZE] [--challenge fio|none] [--dir DIR]\n"
	"                    [--challenge-size SIZE] [--files N] [--delay SEC]\n"
	"                    [--seed N] [--madvise]\n"
	"  --size SIZE           foreground memory, 2 MiB at a time (default 512M)\n"
	"  --challenge fio|none  the background (default fio)\n"
	"  --dir DIR             fio's files (default $THPBENCH_MOUNT); a disk fs\n"
	"  --challenge-size SIZE fio's files in all (default 1G)\n"
	"  --files N             how many (default 256)\n"
	"  --delay SEC           the challenge alone first (default 3)\n"
	"  --seed N              the order of the 2 MiB touches (default 1)\n"
	"  --madvise             MADV_HUGEPAGE the foreground (THP madvise mode)\n"
	"Prints and reports: faults, huge_faults, fallback_faults, huge_share_pct,\n"
	"fault_p50_usec/_p99_/_max_/_mean_, huge_fault_* and fallback_fault_*\n"
	"(the same, of each kind; absent when there are none), challenge_running\n"
	"(1: the challenge was still running when the foreground ended),\n"
	"challenge_wchar_kb (what it wrote, /proc/PID/io), roi_usec.\n"
	"Exit 0 ok, 1 failure (the challenge died early), 2 usage or environment,\n"
	"3 huge pages cannot be told apart here (not root).\n";

struct opts {
	uint64_t size, csize;
	unsigned files, delay;
	unsigned long seed;
	const char *dir;
	int fio, madvise;
};

static void parse_args(int argc, char **argv, struct opts *o)
{
	static const struct option longopts[] = {
		{ "size", required_argument, NULL, 's' },
		{ "challenge", required_argument, NULL, 'c' },
		{ "dir", required_argument, NULL, 'd' },
		{ "challenge-size", required_argument, NULL, 'S' },
		{ "files", required_argument, NULL, 'f' },
		{ "delay", required_argument, NULL, 'D' },
		{ "seed", required_argument, NULL, 'r' },
		{ "madvise", no_argument, NULL, 'M' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	int c;

	*o = (struct opts){ .size = 512 * WL_MIB, .csize = WL_GIB, .files = 256,
			    .delay = 3, .seed = 1, .fio = 1 };
	o->dir = getenv("THPBENCH_MOUNT");
	while ((c = getopt_long(argc, argv, "h", longopts, NULL)) != -1) {
		switch (c) {
		case 's': o->size = wl_opt_size("--size", optarg, usage); break;
		case 'S': o->csize = wl_opt_size("--challenge-size", optarg, usage); break;
		case 'd': o->dir = optarg; break;
		case 'f':
			o->files = (unsigned)wl_opt_count("--files", optarg, 1, 100000, usage);
			break;
		case 'D':
			o->delay = (unsigned)wl_opt_count("--delay", optarg, 0, 600, usage);
			break;
		case 'r':
			o->seed = (unsigned long)wl_opt_count("--seed", optarg, 0,
							     UINT32_MAX, usage);
			break;
		case 'c':
			if (strcmp(optarg, "fio") && strcmp(optarg, "none"))
				wl_usage_error(usage, "--challenge: '%s' is not fio or none", optarg);
			o->fio = !strcmp(optarg, "fio");
			break;
		case 'M': o->madvise = 1; break;
		default: wl_opt_fallback(c, usage);
		}
	}
	wl_no_operands(argc, argv, usage);
	if (o->size % WL_PMD_SIZE)
		wl_usage_error(usage, "--size must be a multiple of 2M");
	if (o->fio && (!o->dir || o->dir[0] != '/'))
		wl_usage_error(usage, "the fio challenge needs --dir DIR (absolute; a disk file system), or a suite case with mount = ext4:SIZE");
	if (o->csize / o->files < WL_BASE_PAGE)
		wl_usage_error(usage, "--challenge-size over --files is under 4K");
}

/* ---- the challenge: started, watched, ended on every path ------------ */

static pid_t challenge;
static char fio_dir[1024];
static struct wl_subcg cg;
static int have_cg;

static void stop_challenge(void)
{
	int st;

	if (challenge > 0) {
		kill(-challenge, SIGKILL);
		kill(challenge, SIGKILL);
		waitpid(challenge, &st, 0);
		challenge = 0;
	}
	if (have_cg) {
		wl_subcg_close(&cg);
		have_cg = 0;
	}
	if (fio_dir[0]) {
		pid_t p = fork();

		if (!p) {
			execlp("rm", "rm", "-rf", "--one-file-system", fio_dir, (char *)NULL);
			_exit(127);
		}
		if (p > 0)
			waitpid(p, &st, 0);
		fio_dir[0] = '\0';
	}
}

static void on_signal(int sig)
{
	if (challenge > 0)
		kill(-challenge, SIGKILL);
	signal(sig, SIG_DFL);
	raise(sig);
}

static void start_fio(const struct opts *o)
{
	char dir[1100], size[32], nr[32];
	const char *parent = getenv("THPBENCH_CGROUP");

	if (snprintf(fio_dir, sizeof(fio_dir), "%s/thpchallenge-%d", o->dir,
		     (int)getpid()) >= (int)sizeof(fio_dir))
		wl_die("--dir is too long");
	if (mkdir(fio_dir, 0700))
		wl_die("cannot make %s: %s", fio_dir, strerror(errno));
	snprintf(dir, sizeof(dir), "--directory=%s", fio_dir);
	snprintf(size, sizeof(size), "--size=%llu", (unsigned long long)o->csize);
	snprintf(nr, sizeof(nr), "--nrfiles=%u", o->files);
	if (parent && *parent) {
		if (wl_subcg_open(&cg, parent) || wl_subcg_make(&cg, "challenge"))
			wl_die("cannot make the challenge's memcg under %s: %s",
			       parent, strerror(errno));
		have_cg = 1;
	}
	challenge = fork();
	if (challenge < 0)
		wl_fail("fork: %s", strerror(errno));
	if (!challenge) {
		int fd = open("/dev/null", O_RDWR);

		setpgid(0, 0);
		prctl(PR_SET_PDEATHSIG, SIGKILL);
		if (getppid() == 1)
			_exit(1);
		if (have_cg && wl_subcg_enter(&cg))
			_exit(126);
		if (fd >= 0) {
			dup2(fd, 0);
			dup2(fd, 1);
		}
		execlp("fio", "fio", "--name=thpchallenge", dir, size, nr,
		       "--rw=randwrite", "--bs=4k", "--ioengine=psync",
		       "--thread", "--time_based", "--runtime=86400",
		       "--file_service_type=random", "--create_serialize=0",
		       "--output=/dev/null", (char *)NULL);
		fprintf(stderr, "thpchallenge: cannot run fio: %s (Debian package fio; scripts/install-deps.sh)\n",
			strerror(errno));
		_exit(127);
	}
	setpgid(challenge, challenge);
}

/* Still running? 1, or 0 (reaped: its status said). */
static int challenge_running(void)
{
	int st;
	pid_t w = waitpid(challenge, &st, WNOHANG);

	if (w == 0)
		return 1;
	if (w == challenge) {
		challenge = 0;
		wl_warn("the challenge ended early: %s %d",
			WIFEXITED(st) ? "exit" : "signal",
			WIFEXITED(st) ? WEXITSTATUS(st) : WTERMSIG(st));
	}
	return 0;
}

/* wchar of /proc/PID/io (all it wrote, page cache included); -1. */
static long long wchar_kb(pid_t pid)
{
	char p[64], key[32];
	long long v;
	FILE *f;

	snprintf(p, sizeof(p), "/proc/%d/io", (int)pid);
	f = fopen(p, "re");
	if (!f)
		return -1;
	while (fscanf(f, "%31s %lld", key, &v) == 2)
		if (!strcmp(key, "wchar:")) {
			fclose(f);
			return v / 1024;
		}
	fclose(f);
	return -1;
}

/* ---- the foreground -------------------------------------------------- */

static size_t *touch_order(size_t n, unsigned long seed)
{
	size_t *ord = malloc(n * sizeof(*ord)), i;
	gsl_rng *rng = gsl_rng_alloc(gsl_rng_mt19937);

	if (!ord || !rng)
		wl_fail("out of memory for %zu ranges", n);
	for (i = 0; i < n; i++)
		ord[i] = i;
	gsl_rng_set(rng, seed);
	gsl_ran_shuffle(rng, ord, n, sizeof(*ord));
	gsl_rng_free(rng);
	return ord;
}

static void report_kind(const char *prefix, const double *usec, const int *huge,
			size_t n, int want)
{
	double *v = malloc(n * sizeof(*v));
	size_t i, k = 0;

	if (!v)
		wl_fail("out of memory");
	for (i = 0; i < n; i++)
		if (huge[i] == want)
			v[k++] = usec[i];
	wl_report_latency(prefix, v, k);
	free(v);
}

int main(int argc, char **argv)
{
	struct timespec d;
	struct opts o;
	size_t n, i, c, nhuge = 0;
	double *usec, t0, t1;
	int *huge, running;
	long long wkb = -1;
	size_t *ord;
	char *p;

	parse_args(argc, argv, &o);
	wl_check_memory(o.size, "--size");
	n = o.size / WL_PMD_SIZE;
	usec = calloc(n, sizeof(*usec));
	huge = calloc(n, sizeof(*huge));
	p = wl_map_aligned(o.size, WL_PMD_SIZE, PROT_READ | PROT_WRITE);
	if (!usec || !huge || !p)
		wl_fail("allocating %llu bytes failed: %s",
			(unsigned long long)o.size, strerror(errno));
	if (o.madvise && madvise(p, o.size, MADV_HUGEPAGE))
		wl_fail("madvise(MADV_HUGEPAGE): %s", strerror(errno));
	ord = touch_order(n, o.seed);

	atexit(stop_challenge);
	signal(SIGTERM, on_signal);
	signal(SIGINT, on_signal);
	signal(SIGHUP, on_signal);
	if (o.fio) {
		start_fio(&o);
		d = (struct timespec){ o.delay, 0 };
		while (nanosleep(&d, &d) && errno == EINTR)
			;
		if (!challenge_running())
			wl_fail("the fio challenge did not keep running (see above)");
	}

	wl_roi_begin();
	t0 = wl_now_usec();
	for (i = 0; i < n; i++) {
		double t = wl_now_usec();

		c = ord[i];
		p[c * WL_PMD_SIZE] = (char)(c | 1);
		usec[c] = wl_now_usec() - t;
	}
	t1 = wl_now_usec();
	wl_roi_end();

	running = o.fio ? challenge_running() : 0;
	if (o.fio) {
		wkb = running ? wchar_kb(challenge) : -1;
		stop_challenge();
		if (!running)
			wl_fail("the fio challenge ended before the foreground did");
	}
	for (c = 0; c < n; c++) {
		huge[c] = wl_pagemap_is_thp(p + c * WL_PMD_SIZE);
		if (huge[c] < 0)
			wl_invalid("not measurable here: pagemap and kpageflags need root to tell THPs apart");
		nhuge += (size_t)huge[c];
		if (p[c * WL_PMD_SIZE] != (char)(c | 1))
			wl_fail("range %zu lost its marker", c);
	}
	wl_metric("roi_usec", t1 - t0);
	printf("usec %.0f\n", t1 - t0);
	wl_report("faults", (double)n);
	wl_report("huge_faults", (double)nhuge);
	wl_report("fallback_faults", (double)(n - nhuge));
	printf("huge_share_pct %.2f\n", 100.0 * (double)nhuge / (double)n);
	wl_metric("huge_share_pct", 100.0 * (double)nhuge / (double)n);
	report_kind("huge_fault", usec, huge, n, 1);
	report_kind("fallback_fault", usec, huge, n, 0);
	wl_report_latency("fault", usec, n);
	if (o.fio) {
		wl_report("challenge_running", running);
		wl_report_kb("challenge_wchar_kb", wkb);
	}
	wl_report_self_mem();
	printf("ok\n");
	free(ord);
	free(usec);
	free(huge);
	return 0;
}
