// SPDX-License-Identifier: GPL-2.0-only
/*
 * pg_bench - PostgreSQL's pgbench against the throwaway cluster a
 * `service = postgres[:huge_pages=...,shared_buffers=...]` case starts
 * (system/res_service.c), over its Unix socket.
 *
 * Each repetition: `pgbench -i -s SCALE` (tables made again: init_usec),
 * then `pgbench -c CLIENTS -j JOBS -T SECONDS -n` (TPC-B-like; tps,
 * latency_avg_ms, transactions, failed). The backends pgbench connects
 * to are forked for it, so their private memory faults under the THP
 * mode of this repetition; shared_buffers is shared memory, from the
 * hugetlb pool with huge_pages=on and under shmem_enabled otherwise.
 * What the server runs with is read back from it (`SHOW huge_pages`,
 * `SHOW shared_buffers` by psql: huge_pages 0 off, 1 on, 2 try;
 * shared_buffers_kb) and what it got from the pool is the postmaster's
 * Shared_Hugetlb + Private_Hugetlb (server_hugetlb_kb, smaps_rollup of
 * $THPBENCH_SERVICE_PID).
 *
 * The programs: $THPBENCH_PG_BINDIR, else Debian's newest
 * /usr/lib/postgresql/N/bin, else the PATH. Nothing reaches a shell.
 */
#include "wl.h"

#include <errno.h>
#include <getopt.h>
#include <glob.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

static const char usage[] =
	"usage: pg_bench [--socket DIR] [--scale N] [--clients N] [--jobs N]\n"
	"                [--time SECONDS]\n"
	"  --socket DIR   the server's socket directory (default\n"
	"                 $THPBENCH_SERVICE_SOCKET, set by a `service = postgres` case)\n"
	"  --scale N      pgbench -i scale (default 5: 500000 accounts, ~80 MiB)\n"
	"  --clients N    pgbench -c (default 4)\n"
	"  --jobs N       pgbench -j (default 2)\n"
	"  --time SECONDS pgbench -T (default 5)\n"
	"Prints and reports as metrics: tps, latency_avg_ms, transactions,\n"
	"failed, init_usec, huge_pages (0 off, 1 on, 2 try), shared_buffers_kb,\n"
	"server_hugetlb_kb. Exit 0 ok, 1 pgbench or psql failed, 2 usage.\n";

struct opts {
	const char *sock;
	uint64_t scale, clients, jobs, time_s;
};

static struct opts o;
static char bindir[512];

static void parse_args(int argc, char **argv)
{
	static const struct option longopts[] = {
		{ "socket", required_argument, NULL, 's' },
		{ "scale", required_argument, NULL, 'S' },
		{ "clients", required_argument, NULL, 'c' },
		{ "jobs", required_argument, NULL, 'j' },
		{ "time", required_argument, NULL, 'T' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	int c;

	o = (struct opts){ .sock = getenv("THPBENCH_SERVICE_SOCKET"), .scale = 5,
			   .clients = 4, .jobs = 2, .time_s = 5 };
	while ((c = getopt_long(argc, argv, "h", longopts, NULL)) != -1) {
		switch (c) {
		case 's': o.sock = optarg; break;
		case 'S': o.scale = wl_opt_count("--scale", optarg, 1, 10000, usage); break;
		case 'c': o.clients = wl_opt_count("--clients", optarg, 1, 1000, usage); break;
		case 'j': o.jobs = wl_opt_count("--jobs", optarg, 1, 1000, usage); break;
		case 'T': o.time_s = wl_opt_count("--time", optarg, 1, 3600, usage); break;
		default: wl_opt_fallback(c, usage);
		}
	}
	wl_no_operands(argc, argv, usage);
	if (!o.sock || !*o.sock)
		wl_usage_error(usage, "no --socket and no THPBENCH_SERVICE_SOCKET (run it in a `service = postgres` case)");
	if (o.jobs > o.clients)
		wl_usage_error(usage, "--jobs %llu is more than --clients %llu",
			       (unsigned long long)o.jobs,
			       (unsigned long long)o.clients);
}

static void find_bindir(void)
{
	const char *env = getenv("THPBENCH_PG_BINDIR");
	glob_t g;

	if (env && *env) {
		snprintf(bindir, sizeof(bindir), "%s/", env);
		return;
	}
	if (!glob("/usr/lib/postgresql/*/bin/pgbench", 0, NULL, &g) && g.gl_pathc)
		snprintf(bindir, sizeof(bindir), "%.*s",
			 (int)(strlen(g.gl_pathv[g.gl_pathc - 1]) - strlen("pgbench")),
			 g.gl_pathv[g.gl_pathc - 1]);
	globfree(&g);
}

/*
 * Run bindir/prog with argv[1..]; its stdout into out (NUL-terminated,
 * truncated), stderr passed on. Its exit status, or -1.
 */
static int run(const char *prog, char **argv, char *out, size_t len)
{
	char path[600];
	int p[2], st;
	size_t got = 0;
	ssize_t n;
	pid_t pid;

	snprintf(path, sizeof(path), "%s%s", bindir, prog);
	argv[0] = path;
	if (pipe(p))
		wl_fail("pipe: %s", strerror(errno));
	pid = fork();
	if (pid < 0)
		wl_fail("fork: %s", strerror(errno));
	if (!pid) {
		dup2(p[1], STDOUT_FILENO);
		close(p[0]);
		close(p[1]);
		execvp(path, argv);
		fprintf(stderr, "pg_bench: cannot run %s: %s\n", path, strerror(errno));
		_exit(127);
	}
	close(p[1]);
	while ((n = read(p[0], out + got, len - 1 - got)) > 0 && got + (size_t)n < len - 1)
		got += (size_t)n;
	if (n > 0)
		got += (size_t)n;
	out[got] = '\0';
	/* Drain what did not fit, so the child does not block on the pipe. */
	while (n > 0) {
		char sink[4096];

		n = read(p[0], sink, sizeof(sink));
	}
	close(p[0]);
	while (waitpid(pid, &st, 0) < 0)
		if (errno != EINTR)
			return -1;
	return WIFEXITED(st) ? WEXITSTATUS(st) : -1;
}

/* The number after the first occurrence of key in text; fails if none. */
static double after(const char *text, const char *key)
{
	const char *p = strstr(text, key);
	char *end;
	double v;

	if (!p)
		wl_fail("pgbench printed no \"%s\"", key);
	v = strtod(p + strlen(key), &end);
	if (end == p + strlen(key))
		wl_fail("pgbench: no number after \"%s\"", key);
	return v;
}

static void show(const char *what, char *out, size_t len)
{
	char sql[64];
	char *argv[] = { NULL, "-X", "-At", "-h", (char *)o.sock, "-U", "thpbench",
			 "-d", "postgres", "-c", sql, NULL };

	snprintf(sql, sizeof(sql), "SHOW %s", what);
	if (run("psql", argv, out, len))
		wl_fail("psql -c \"%s\" failed (above)", sql);
	out[strcspn(out, "\n")] = '\0';
}

static long long server_hugetlb_kb(void)
{
	const char *pid = getenv("THPBENCH_SERVICE_PID");
	char path[64], line[256];
	long long kb, sum = -1;
	FILE *f;

	if (!pid || strspn(pid, "0123456789") != strlen(pid) || !*pid ||
	    strlen(pid) > 10)
		return -1;
	snprintf(path, sizeof(path), "/proc/%s/smaps_rollup", pid);
	f = fopen(path, "re");
	if (!f)
		return -1;
	while (fgets(line, sizeof(line), f))
		if (sscanf(line, "Shared_Hugetlb: %lld kB", &kb) == 1 ||
		    sscanf(line, "Private_Hugetlb: %lld kB", &kb) == 1)
			sum = (sum < 0 ? 0 : sum) + kb;
	fclose(f);
	return sum;
}

static void settings(void)
{
	char hp[64], sb[64];
	uint64_t v;

	show("huge_pages", hp, sizeof(hp));
	show("shared_buffers", sb, sizeof(sb));
	printf("huge_pages %s\nshared_buffers %s\n", hp, sb);
	wl_metric("huge_pages", !strcmp(hp, "on") ? 1 : !strcmp(hp, "try") ? 2 : 0);
	/* SHOW says "128MB", "16GB", "8kB": wl_parse_size takes each. */
	if (!wl_parse_size(sb, &v))
		wl_report("shared_buffers_kb", (double)(v >> 10));
	wl_report("server_hugetlb_kb", (double)server_hugetlb_kb());
}

int main(int argc, char **argv)
{
	char scale[24], clients[24], jobs[24], secs[24], out[16384];
	char *init[] = { NULL, "-i", "-q", "-s", scale, "-h", (char *)o.sock,
			 "-U", "thpbench", "postgres", NULL };
	char *bench[] = { NULL, "-n", "-c", clients, "-j", jobs, "-T", secs,
			  "-h", (char *)o.sock, "-U", "thpbench", "postgres", NULL };
	double t0;

	parse_args(argc, argv);
	find_bindir();
	init[6] = bench[9] = (char *)o.sock;
	snprintf(scale, sizeof(scale), "%llu", (unsigned long long)o.scale);
	snprintf(clients, sizeof(clients), "%llu", (unsigned long long)o.clients);
	snprintf(jobs, sizeof(jobs), "%llu", (unsigned long long)o.jobs);
	snprintf(secs, sizeof(secs), "%llu", (unsigned long long)o.time_s);
	settings();
	t0 = wl_now_usec();
	if (run("pgbench", init, out, sizeof(out)))
		wl_fail("pgbench -i failed (above)");
	wl_report("init_usec", wl_now_usec() - t0);
	wl_roi_begin();
	if (run("pgbench", bench, out, sizeof(out)))
		wl_fail("pgbench failed (above): %.200s", out);
	wl_roi_end();
	wl_report("transactions", after(out, "number of transactions actually processed: "));
	if (strstr(out, "number of failed transactions: "))
		wl_report("failed", after(out, "number of failed transactions: "));
	wl_metric("latency_avg_ms", after(out, "latency average = "));
	wl_metric("tps", after(out, "tps = "));
	printf("latency_avg_ms %.3f\ntps %.1f\n", after(out, "latency average = "),
	       after(out, "tps = "));
	return WL_EXIT_OK;
}
