// SPDX-License-Identifier: GPL-2.0-only
/*
 * kbuild - the kernel compile huge-page series cite: `make -jN TARGET` of
 * a fixed configuration (tinyconfig, mm/ by default) of Debian's 6.1
 * source, its objects written to a tmpfs, timed, in a memory cgroup of
 * its own per repetition so the build's THP counts and peak are its own.
 *
 * The source is unpacked once from the archive into the cache
 * (CACHE/src-NAME) and the configuration made and `make prepare`d once
 * (CACHE/obj-NAME-CONFIG), both under a lock on the cache and stamped,
 * outside the measured region. Each run copies the prepared object tree
 * into DIR (the tmpfs: THPBENCH_MOUNT from a suite's `mount = tmpfs:...`,
 * or --dir), so the region of interest is the compile of TARGET alone.
 *
 * Counts: under a parent memcg (THPBENCH_CGROUP from `memcg =`, or
 * --cgroup) the build runs in PARENT/build-PID-N (workloads/lib/subcg.c):
 * its peak (memory.peak, v1 max_usage_in_bytes), its largest THP charge
 * sampled every 20 ms (memory.stat anon_thp, v1 rss_huge) and on cgroup
 * v2 its own thp_fault_alloc; the fallbacks, and on v1 the allocations
 * too, are /proc/vmstat deltas over the build (system-wide):
 * thp_counts_from_cgroup says which (1 the build's memcg, 0 system-wide).
 */
#include "wl.h"

#include <errno.h>
#include <fcntl.h>
#include <ftw.h>
#include <getopt.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/statfs.h>
#include <sys/time.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#ifndef TMPFS_MAGIC
#define TMPFS_MAGIC 0x01021994
#endif

static const char usage[] =
	"usage: kbuild [--dir DIR] [--tar FILE | --tree DIR] [--cache DIR]\n"
	"              [--config TARGET] [--target TARGET] [-j N] [--cgroup DIR] [--keep]\n"
	"  --dir DIR      where the objects go, a tmpfs (default $THPBENCH_MOUNT)\n"
	"  --tar FILE     the source archive (default /usr/src/linux-source-6.1.tar.xz,\n"
	"                 Debian's linux-source-6.1), unpacked once into the cache\n"
	"  --tree DIR     a source tree to build instead (its Makefile must take O=)\n"
	"  --cache DIR    unpacked source and prepared objects (default\n"
	"                 $THPBENCH_BUILD_DIR/kbuild, else /var/tmp/thpbench-kbuild)\n"
	"  --config T     the make target that writes .config (default tinyconfig)\n"
	"  --target T     what is built and timed (default mm/)\n"
	"  -j N           make's jobs (default 2)\n"
	"  --cgroup DIR   the parent memcg of the build's own (default\n"
	"                 $THPBENCH_CGROUP; none: system-wide counts only)\n"
	"  --keep         leave the objects in DIR\n"
	"Prints and reports: build_usec (= roi_usec), build_user_usec,\n"
	"build_sys_usec (make and every compiler), objects (.o files under\n"
	"TARGET), build_in_tmpfs, thp_counts_from_cgroup, thp_fault_alloc,\n"
	"thp_fault_fallback, thp_fault_fallback_charge, and in a memcg\n"
	"cg_peak_kb, cg_anon_thp_peak_kb (v2: cg_thp_fault_alloc).\n"
	"Exit 0 ok, 1 the build failed, 2 usage or environment.\n";

struct opts {
	const char *dir, *tar, *tree, *cache, *config, *target, *cgroup;
	unsigned jobs;
	int keep;
};

#define PATHLEN 1024

static void parse_args(int argc, char **argv, struct opts *o)
{
	static const struct option longopts[] = {
		{ "dir", required_argument, NULL, 'd' },
		{ "tar", required_argument, NULL, 'a' },
		{ "tree", required_argument, NULL, 't' },
		{ "cache", required_argument, NULL, 'C' },
		{ "config", required_argument, NULL, 'c' },
		{ "target", required_argument, NULL, 'T' },
		{ "cgroup", required_argument, NULL, 'g' },
		{ "keep", no_argument, NULL, 'k' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	const char *bd = getenv("THPBENCH_BUILD_DIR");
	static char cache[PATHLEN];
	int c;

	*o = (struct opts){ .tar = "/usr/src/linux-source-6.1.tar.xz",
			    .config = "tinyconfig", .target = "mm/", .jobs = 2 };
	o->dir = getenv("THPBENCH_MOUNT");
	o->cgroup = getenv("THPBENCH_CGROUP");
	if (bd && *bd == '/') {
		snprintf(cache, sizeof(cache), "%s/kbuild", bd);
		o->cache = cache;
	} else {
		o->cache = "/var/tmp/thpbench-kbuild";
	}
	while ((c = getopt_long(argc, argv, "hj:", longopts, NULL)) != -1) {
		switch (c) {
		case 'd': o->dir = optarg; break;
		case 'a': o->tar = optarg; break;
		case 't': o->tree = optarg; break;
		case 'C': o->cache = optarg; break;
		case 'c': o->config = optarg; break;
		case 'T': o->target = optarg; break;
		case 'g': o->cgroup = optarg; break;
		case 'k': o->keep = 1; break;
		case 'j':
			o->jobs = (unsigned)wl_opt_count("-j", optarg, 1, 256, usage);
			break;
		default: wl_opt_fallback(c, usage);
		}
	}
	wl_no_operands(argc, argv, usage);
	if (!o->dir || !*o->dir)
		wl_usage_error(usage, "no build directory: give --dir DIR (a tmpfs), or run it in a suite case with mount = tmpfs:size=1G");
	if (o->dir[0] != '/' || o->cache[0] != '/' || (o->tree && o->tree[0] != '/'))
		wl_usage_error(usage, "--dir, --cache and --tree must be absolute paths");
	/* Make targets from a suite are hostile: no options, no variables. */
	if (o->config[0] == '-' || strchr(o->config, '=') ||
	    o->target[0] == '-' || strchr(o->target, '='))
		wl_usage_error(usage, "--config and --target are make targets, not options or variables");
	if (o->cgroup && !*o->cgroup)
		o->cgroup = NULL;
}

/* snprintf, a path too long for buf an environment error. */
WL_PRINTF(3, 4) static void pathf(char *buf, size_t len, const char *fmt, ...)
{
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = vsnprintf(buf, len, fmt, ap);
	va_end(ap);
	if (n < 0 || (size_t)n >= len)
		wl_die("a path is too long (%d bytes): %.64s...", n, buf);
}

/* Run argv (stdout to /dev/null, stderr to log when given); its status. */
static int run(char *const argv[], const char *log)
{
	int st, fd;
	pid_t pid = fork();

	if (pid < 0)
		wl_fail("fork: %s", strerror(errno));
	if (!pid) {
		fd = open("/dev/null", O_WRONLY);
		if (fd >= 0)
			dup2(fd, 1);
		if (log) {
			fd = open(log, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
			if (fd >= 0)
				dup2(fd, 2);
		}
		execvp(argv[0], argv);
		fprintf(stderr, "kbuild: cannot run %s: %s\n", argv[0], strerror(errno));
		_exit(127);
	}
	while (waitpid(pid, &st, 0) < 0)
		if (errno != EINTR)
			wl_fail("waitpid: %s", strerror(errno));
	return WIFEXITED(st) ? WEXITSTATUS(st) : 128 + WTERMSIG(st);
}

/* The last 15 lines of log on stderr, then exit 1 naming what failed. */
WL_NORETURN static void fail_with_log(const char *what, const char *log)
{
	FILE *f = fopen(log, "re");
	char line[512];
	long n = 0, skip;

	fflush(stdout);
	if (f) {
		while (fgets(line, sizeof(line), f))
			n++;
		rewind(f);
		skip = n > 15 ? n - 15 : 0;
		while (fgets(line, sizeof(line), f))
			if (skip-- <= 0)
				fputs(line, stderr);
		fclose(f);
	}
	wl_fail("%s failed (its log: %s)", what, log);
}

static int read_stamp(const char *path, char *buf, size_t len)
{
	FILE *f = fopen(path, "re");

	if (!f)
		return -1;
	if (!fgets(buf, (int)len, f))
		buf[0] = '\0';
	fclose(f);
	buf[strcspn(buf, "\n")] = '\0';
	return 0;
}

static void write_stamp(const char *path, const char *val)
{
	FILE *f = fopen(path, "we");

	if (!f || fprintf(f, "%s\n", val) < 0 || fclose(f))
		wl_fail("cannot write %s: %s", path, strerror(errno));
}

static void rm_rf(const char *path)
{
	char *argv[] = { "rm", "-rf", "--one-file-system", (char *)path, NULL };

	run(argv, NULL);
}

/* The archive's name without .tar.*: "linux-source-6.1". */
static void base_name(const char *path, char *out, size_t len)
{
	const char *b = strrchr(path, '/');
	char *dot;

	snprintf(out, len, "%s", b ? b + 1 : path);
	dot = strstr(out, ".tar");
	if (dot)
		*dot = '\0';
}

/* CACHE/src-NAME unpacked from the archive once; its path in tree. */
static void unpack(const struct opts *o, char *tree, size_t len)
{
	char name[256], stamp[PATHLEN + 32], want[PATHLEN + 64], got[PATHLEN + 64];
	char tmp[PATHLEN + 16];
	struct stat st;

	if (stat(o->tar, &st))
		wl_die("no kernel source archive %s: %s (kernel-patches/scripts/install-deps.sh --light installs linux-source-6.1, or give --tree DIR)",
		       o->tar, strerror(errno));
	base_name(o->tar, name, sizeof(name));
	pathf(tree, len, "%s/src-%s", o->cache, name);
	snprintf(stamp, sizeof(stamp), "%s/.thpbench-unpacked", tree);
	snprintf(want, sizeof(want), "%s %lld %lld", o->tar, (long long)st.st_size,
		 (long long)st.st_mtime);
	if (!read_stamp(stamp, got, sizeof(got)) && !strcmp(got, want))
		return;
	printf("unpacking %s into %s\n", o->tar, tree);
	fflush(stdout);
	snprintf(tmp, sizeof(tmp), "%s.tmp", tree);
	rm_rf(tree);
	rm_rf(tmp);
	if (mkdir(tmp, 0755))
		wl_die("cannot make %s: %s", tmp, strerror(errno));
	{
		char *argv[] = { "tar", "-xf", (char *)o->tar, "-C", tmp,
				 "--strip-components=1", NULL };

		if (run(argv, NULL))
			wl_fail("tar -xf %s -C %s failed", o->tar, tmp);
	}
	if (rename(tmp, tree))
		wl_fail("cannot rename %s to %s: %s", tmp, tree, strerror(errno));
	write_stamp(stamp, want);
}

/* CACHE/obj-NAME-CONFIG configured and prepared once; its path in obj. */
static void prepare(const struct opts *o, const char *tree, char *obj, size_t len)
{
	char stamp[PATHLEN + 32], want[PATHLEN + 64], got[PATHLEN + 64];
	char oarg[PATHLEN + 8], jarg[16], log[PATHLEN + 16], name[256];
	const char *b = strrchr(tree, '/');

	snprintf(name, sizeof(name), "%s", b && b[1] ? b + 1 : "tree");
	pathf(obj, len, "%s/obj-%s-%s", o->cache, name, o->config);
	snprintf(stamp, sizeof(stamp), "%s/.thpbench-prepared", obj);
	snprintf(want, sizeof(want), "%s %s", tree, o->config);
	if (!read_stamp(stamp, got, sizeof(got)) && !strcmp(got, want))
		return;
	printf("configuring (%s) and preparing %s\n", o->config, obj);
	fflush(stdout);
	rm_rf(obj);
	if (mkdir(obj, 0755))
		wl_die("cannot make %s: %s", obj, strerror(errno));
	snprintf(oarg, sizeof(oarg), "O=%s", obj);
	snprintf(jarg, sizeof(jarg), "-j%u", o->jobs);
	snprintf(log, sizeof(log), "%s.log", obj);
	{
		char *cfg[] = { "make", "-s", "-C", (char *)tree, oarg,
				(char *)o->config, NULL };
		char *prep[] = { "make", "-s", "-C", (char *)tree, oarg, jarg,
				 "prepare", NULL };

		if (run(cfg, log))
			fail_with_log("make config", log);
		if (run(prep, log))
			fail_with_log("make prepare", log);
	}
	write_stamp(stamp, want);
}

/* The prepared tree, made once under a lock on the cache. */
static void ready(const struct opts *o, char *tree, char *obj)
{
	char lock[PATHLEN + 16];
	int fd;

	if (mkdir(o->cache, 0755) && errno != EEXIST)
		wl_die("cannot make the cache %s: %s", o->cache, strerror(errno));
	snprintf(lock, sizeof(lock), "%s/.lock", o->cache);
	fd = open(lock, O_RDWR | O_CREAT | O_CLOEXEC, 0600);
	if (fd < 0 || flock(fd, LOCK_EX))
		wl_die("cannot lock %s: %s", lock, strerror(errno));
	if (o->tree)
		snprintf(tree, PATHLEN, "%s", o->tree);
	else
		unpack(o, tree, PATHLEN);
	prepare(o, tree, obj, PATHLEN);
	close(fd);
}

/* ---- the measured build --------------------------------------------- */

static const char *const vm_names[] = {
	"thp_fault_alloc", "thp_fault_fallback", "thp_fault_fallback_charge",
};
#define NVM (sizeof(vm_names) / sizeof(vm_names[0]))

struct build {
	double usec, user_usec, sys_usec;
	long long thp_peak;	/* bytes, sampled; -1 none */
	int status;
};

static pid_t child_pid;

/* A signal to us ends the build too (its memcg's undo would, later). */
static void on_signal(int sig)
{
	if (child_pid > 0)
		kill(-child_pid, SIGKILL);
	signal(sig, SIG_DFL);
	raise(sig);
}

static void sample_thp(const struct wl_subcg *cg, long long *peak)
{
	long long v = wl_subcg_stat(cg, cg->v2 ? "anon_thp" : "rss_huge");

	if (v > *peak)
		*peak = v;
}

static void timed_make(const struct opts *o, const char *tree, const char *work,
		       const struct wl_subcg *cg, const char *log, struct build *b)
{
	char oarg[PATHLEN + 8], jarg[16];
	char *argv[] = { "make", "-s", "-C", (char *)tree, oarg, jarg,
			 (char *)o->target, NULL };
	struct timespec nap = { 0, 20 * 1000 * 1000 };
	struct rusage ru;
	double t0;
	int st, fd;
	pid_t w;

	pathf(oarg, sizeof(oarg), "O=%s", work);
	snprintf(jarg, sizeof(jarg), "-j%u", o->jobs);
	b->thp_peak = -1;
	signal(SIGTERM, on_signal);
	signal(SIGINT, on_signal);
	signal(SIGHUP, on_signal);
	wl_roi_begin();
	t0 = wl_now_usec();
	child_pid = fork();
	if (child_pid < 0)
		wl_fail("fork: %s", strerror(errno));
	if (!child_pid) {
		setpgid(0, 0);
		if (cg && wl_subcg_enter(cg)) {
			fprintf(stderr, "kbuild: cannot enter %s: %s\n", cg->dir,
				strerror(errno));
			_exit(126);
		}
		fd = open("/dev/null", O_WRONLY);
		if (fd >= 0)
			dup2(fd, 1);
		fd = open(log, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
		if (fd >= 0)
			dup2(fd, 2);
		execvp(argv[0], argv);
		_exit(127);
	}
	for (;;) {
		w = wait4(child_pid, &st, cg ? WNOHANG : 0, &ru);
		if (w == child_pid)
			break;
		if (w < 0 && errno != EINTR)
			wl_fail("wait4: %s", strerror(errno));
		if (cg)
			sample_thp(cg, &b->thp_peak);
		nanosleep(&nap, NULL);
	}
	b->usec = wl_now_usec() - t0;
	wl_roi_end();
	child_pid = 0;
	b->user_usec = (double)ru.ru_utime.tv_sec * 1e6 + (double)ru.ru_utime.tv_usec;
	b->sys_usec = (double)ru.ru_stime.tv_sec * 1e6 + (double)ru.ru_stime.tv_usec;
	b->status = WIFEXITED(st) ? WEXITSTATUS(st) : 128 + WTERMSIG(st);
}

static long long objects;

static int count_o(const char *path, const struct stat *st, int flag, struct FTW *f)
{
	size_t n = strlen(path);

	(void)st;
	(void)f;
	if (flag == FTW_F && n > 2 && !strcmp(path + n - 2, ".o"))
		objects++;
	return 0;
}

static void copy_tree(const char *from, const char *to)
{
	char *argv[] = { "cp", "-a", (char *)from, (char *)to, NULL };

	if (run(argv, NULL))
		wl_fail("cp -a %s %s failed", from, to);
}

int main(int argc, char **argv)
{
	char tree[PATHLEN], obj[PATHLEN], work[PATHLEN + 32], log[PATHLEN + 48];
	char tdir[PATHLEN + 64];
	uint64_t before[NVM], after[NVM];
	struct wl_subcg sub, *cg = NULL;
	struct statfs sf;
	struct build b;
	size_t missing, i;
	struct opts o;
	int in_tmpfs;

	parse_args(argc, argv, &o);
	if (statfs(o.dir, &sf))
		wl_die("--dir %s: %s", o.dir, strerror(errno));
	in_tmpfs = (unsigned long)sf.f_type == TMPFS_MAGIC;
	if (!in_tmpfs)
		wl_warn("%s is not a tmpfs: the build's writes go to a disk", o.dir);
	ready(&o, tree, obj);

	snprintf(work, sizeof(work), "%s/kbuild-%d", o.dir, (int)getpid());
	snprintf(log, sizeof(log), "%s.log", work);
	rm_rf(work);
	copy_tree(obj, work);
	if (o.cgroup) {
		if (wl_subcg_open(&sub, o.cgroup) || wl_subcg_make(&sub, "build"))
			wl_die("cannot make the build's memcg under %s: %s (not root, or no memory cgroup there)",
			       o.cgroup, strerror(errno));
		cg = &sub;
		printf("cgroup %s (v%d)\n", sub.dir, sub.v2 ? 2 : 1);
	}

	if (wl_vmstat_read(vm_names, before, NVM, &missing))
		wl_die("cannot read /proc/vmstat");
	timed_make(&o, tree, work, cg, log, &b);
	wl_vmstat_read(vm_names, after, NVM, &missing);

	if (b.status) {
		if (cg)
			wl_subcg_close(cg);
		fail_with_log("make", log);
	}
	snprintf(tdir, sizeof(tdir), "%s/%s", work, o.target);
	nftw(tdir, count_o, 32, FTW_PHYS);

	wl_report("build_usec", b.usec);
	wl_metric("roi_usec", b.usec);
	wl_report("build_user_usec", b.user_usec);
	wl_report("build_sys_usec", b.sys_usec);
	wl_report("objects", (double)objects);
	wl_report("build_in_tmpfs", in_tmpfs);
	for (i = 0; i < NVM; i++)
		wl_report(vm_names[i], (double)(after[i] - before[i]));
	if (cg) {
		long long peak = wl_subcg_peak(cg), fa = -1;

		if (cg->v2)
			fa = wl_subcg_stat(cg, "thp_fault_alloc");
		wl_report_kb("cg_peak_kb", peak < 0 ? -1 : peak / 1024);
		wl_report_kb("cg_anon_thp_peak_kb", b.thp_peak < 0 ? -1 : b.thp_peak / 1024);
		if (fa >= 0)
			wl_report("cg_thp_fault_alloc", (double)fa);
		wl_report("thp_counts_from_cgroup", fa >= 0);
		if (wl_subcg_remove(cg))
			wl_fail("cannot remove %s: %s", cg->dir, strerror(errno));
		wl_subcg_close(cg);
	} else {
		wl_report("thp_counts_from_cgroup", 0);
	}
	if (!o.keep) {
		rm_rf(work);
		unlink(log);
	}
	if (objects < 1)
		wl_fail("make %s built no object under %s", o.target, tdir);
	printf("ok\n");
	return 0;
}
