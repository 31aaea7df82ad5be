// SPDX-License-Identifier: GPL-2.0-only
/*
 * redis_bench - redis as kernel developers cite it, against the server a
 * `service = redis` case starts (system/res_service.c): SET and GET
 * throughput, then a BGSAVE and what it costs - the fork time redis
 * reports and the copy-on-write the save suffers, the reason redis
 * advises THP off: with THP every write the server makes while the
 * child saves copies a 2 MiB page where it would copy 4 KiB (on kernels
 * that copy THPs whole; newer ones split the PMD and copy 4 KiB), and
 * fork copies page tables that hold THPs faster.
 *
 * Each repetition: FLUSHALL, then MEMORY PURGE (jemalloc hands its free
 * pages back, so the fill faults memory under the THP mode in force now
 * rather than reusing pages faulted under the last one); SET of --keys
 * keys of --value bytes, --pipeline in flight (set_ops_s); GET of each,
 * the value checked (get_ops_s); DBSIZE must be --keys. Then BGSAVE:
 * while it runs, single GETs are timed (save_get_*_usec: the latency a
 * client sees during the save) and each --dirty'th key rewritten, so the
 * server's pages are written while the child holds them (the COW);
 * when it is done, INFO stats latest_fork_usec (fork_usec) and INFO
 * persistence rdb_last_cow_size (cow_bytes); the server's AnonHugePages before the
 * save (server_anon_huge_kb, from /proc/PID/smaps_rollup: what THP gave
 * it).
 *
 * The client is hiredis (Debian libhiredis-dev).
 */
#include "wl.h"

#include <getopt.h>
#include <stdarg.h>
#include <hiredis/hiredis.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/time.h>

static const char usage[] =
	"usage: redis_bench [--socket PATH] [--keys N] [--value SIZE] [--pipeline N]\n"
	"                   [--dirty N]\n"
	"  --socket PATH  the server's Unix socket (default $THPBENCH_SERVICE_SOCKET,\n"
	"                 set by a `service = redis` case)\n"
	"  --keys N       keys filled (default 200000)\n"
	"  --value SIZE   bytes per value (default 256, at most 1M)\n"
	"  --pipeline N   commands in flight (default 64)\n"
	"  --dirty N      during the save, every N-th GET is followed by a SET of\n"
	"                 that key (default 4; 0: none)\n"
	"Prints and reports as metrics: set_ops_s, get_ops_s, keys, fork_usec\n"
	"(latest_fork_usec), cow_bytes (rdb_last_cow_size), save_usec,\n"
	"used_memory_bytes, server_anon_huge_kb, save_get_p50_usec, _p99_, _max_,\n"
	"_mean_, save_gets. Exit 0 ok, 1 failure (a reply wrong or missing),\n"
	"2 usage or no server.\n";

struct opts {
	const char *sock;
	uint64_t keys, value, pipeline, dirty;
};

static struct opts o;
static redisContext *rc;
static char *val;

static void parse_args(int argc, char **argv)
{
	static const struct option longopts[] = {
		{ "socket", required_argument, NULL, 's' },
		{ "keys", required_argument, NULL, 'k' },
		{ "value", required_argument, NULL, 'v' },
		{ "pipeline", required_argument, NULL, 'p' },
		{ "dirty", required_argument, NULL, 'd' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	int c;

	o = (struct opts){ .sock = getenv("THPBENCH_SERVICE_SOCKET"),
			   .keys = 200000, .value = 256, .pipeline = 64,
			   .dirty = 4 };
	while ((c = getopt_long(argc, argv, "h", longopts, NULL)) != -1) {
		switch (c) {
		case 's': o.sock = optarg; break;
		case 'k': o.keys = wl_opt_count("--keys", optarg, 1, 100000000, usage); break;
		case 'v':
			o.value = wl_opt_size("--value", optarg, usage);
			if (o.value > WL_MIB)
				wl_usage_error(usage, "--value: '%s' is over 1M", optarg);
			break;
		case 'p': o.pipeline = wl_opt_count("--pipeline", optarg, 1, 10000, usage); break;
		case 'd': o.dirty = wl_opt_count("--dirty", optarg, 0, 1000000, usage); break;
		default: wl_opt_fallback(c, usage);
		}
	}
	wl_no_operands(argc, argv, usage);
	if (!o.sock || !*o.sock)
		wl_usage_error(usage, "no --socket and no THPBENCH_SERVICE_SOCKET (run it in a `service = redis` case)");
}

static redisReply *reply(void)
{
	void *r = NULL;

	if (redisGetReply(rc, &r) != REDIS_OK || !r)
		wl_fail("redis: %s", rc->err ? rc->errstr : "no reply");
	if (((redisReply *)r)->type == REDIS_REPLY_ERROR)
		wl_fail("redis: %s", ((redisReply *)r)->str);
	return r;
}

static redisReply *cmd(const char *fmt, ...)
{
	va_list ap;
	void *r;

	va_start(ap, fmt);
	r = redisvCommand(rc, fmt, ap);
	va_end(ap);
	if (!r)
		wl_fail("redis: %s", rc->errstr);
	if (((redisReply *)r)->type == REDIS_REPLY_ERROR)
		wl_fail("redis: %s: %s", fmt, ((redisReply *)r)->str);
	return r;
}

static void cmd_ok(const char *fmt)
{
	freeReplyObject(cmd(fmt));
}

/* The value for key i: its number at the start, so a GET can check it. */
static void fill_val(uint64_t i)
{
	int n = snprintf(val, o.value + 1, "%llu:", (unsigned long long)i);

	if ((uint64_t)n < o.value)
		memset(val + n, 'x', o.value - (uint64_t)n);
	val[o.value] = '\0';
}

static double set_all(void)
{
	double t0 = wl_now_usec();
	uint64_t i, sent = 0, got = 0;

	for (i = 0; i < o.keys; i++) {
		fill_val(i);
		redisAppendCommand(rc, "SET k%llu %b", (unsigned long long)i,
				   val, (size_t)o.value);
		if (++sent - got >= o.pipeline)
			freeReplyObject(reply()), got++;
	}
	while (got < sent)
		freeReplyObject(reply()), got++;
	return wl_now_usec() - t0;
}

static double get_all(void)
{
	double t0 = wl_now_usec();
	uint64_t i, sent = 0, got = 0;
	redisReply *r;
	char want[32];

	for (i = 0; i < o.keys || got < sent;) {
		if (i < o.keys && sent - got < o.pipeline) {
			redisAppendCommand(rc, "GET k%llu", (unsigned long long)i++);
			sent++;
			continue;
		}
		r = reply();
		snprintf(want, sizeof(want), "%llu:", (unsigned long long)got);
		if (r->type != REDIS_REPLY_STRING || r->len != o.value ||
		    strncmp(r->str, want, strlen(want)))
			wl_fail("GET k%llu: not the value SET", (unsigned long long)got);
		freeReplyObject(r);
		got++;
	}
	return wl_now_usec() - t0;
}

/* The integer after "field:" in an INFO reply; -1 when absent. */
static long long info_field(const char *info, const char *field)
{
	size_t n = strlen(field);
	const char *p = info;

	while ((p = strstr(p, field))) {
		if ((p == info || p[-1] == '\n') && p[n] == ':')
			return strtoll(p + n + 1, NULL, 10);
		p += n;
	}
	return -1;
}

static long long info(const char *section, const char *field)
{
	redisReply *r = cmd(section);
	long long v;

	if (r->type != REDIS_REPLY_STRING)
		wl_fail("%s: not a string reply", section);
	v = info_field(r->str, field);
	freeReplyObject(r);
	return v;
}

static long long anon_huge_kb(long long pid)
{
	char path[64], line[256];
	long long kb = -1;
	FILE *f;

	snprintf(path, sizeof(path), "/proc/%lld/smaps_rollup", pid);
	f = fopen(path, "re");
	if (!f)
		return -1;
	while (fgets(line, sizeof(line), f))
		if (sscanf(line, "AnonHugePages: %lld kB", &kb) == 1)
			break;
	fclose(f);
	return kb;
}

/* GETs (and every --dirty'th a SET) timed while the save runs. */
static void during_save(void)
{
	size_t n = 0, cap = 1 << 16;
	double *usec = malloc(cap * sizeof(*usec)), t0, t1 = wl_now_usec();
	uint64_t k = 0;
	redisReply *r;

	if (!usec)
		wl_fail("out of memory");
	t0 = t1;
	for (;;) {
		if (n % 32 == 0 &&
		    !info("INFO persistence", "rdb_bgsave_in_progress"))
			break;
		if (t1 - t0 > 120e6)
			wl_fail("BGSAVE still running after 120 s");
		k = (k + 7919) % o.keys;
		t1 = wl_now_usec();
		r = cmd("GET k%llu", (unsigned long long)k);
		if (n < cap)
			usec[n++] = wl_now_usec() - t1;
		freeReplyObject(r);
		if (o.dirty && n % o.dirty == 0) {
			fill_val(k);
			freeReplyObject(cmd("SET k%llu %b", (unsigned long long)k,
					    val, (size_t)o.value));
		}
		t1 = wl_now_usec();
	}
	wl_report("save_gets", (double)n);
	wl_report_latency("save_get", usec, n);
	free(usec);
}

static void bgsave(void)
{
	long long pid = info("INFO server", "process_id"), st, cow, fork_us;
	redisReply *r;
	double t0;

	wl_report("server_anon_huge_kb", (double)anon_huge_kb(pid));
	wl_report("used_memory_bytes", (double)info("INFO memory", "used_memory"));
	t0 = wl_now_usec();
	r = cmd("BGSAVE");
	freeReplyObject(r);
	during_save();
	wl_report("save_usec", wl_now_usec() - t0);
	r = cmd("INFO persistence");
	st = r->type == REDIS_REPLY_STRING && strstr(r->str, "rdb_last_bgsave_status:ok") != NULL;
	if (!st)
		wl_fail("BGSAVE failed (INFO persistence: rdb_last_bgsave_status not ok)");
	cow = info_field(r->str, "rdb_last_cow_size");
	freeReplyObject(r);
	fork_us = info("INFO stats", "latest_fork_usec");
	if (cow < 0 || fork_us < 0)
		wl_fail("INFO has no %s: not a redis that reports it (>= 6.0)",
			cow < 0 ? "rdb_last_cow_size" : "latest_fork_usec");
	wl_report("fork_usec", (double)fork_us);
	wl_report("cow_bytes", (double)cow);
}

int main(int argc, char **argv)
{
	struct timeval tv = { 10, 0 };
	redisReply *r;
	double us;

	parse_args(argc, argv);
	rc = redisConnectUnixWithTimeout(o.sock, tv);
	if (!rc || rc->err)
		wl_die("cannot connect to redis at %s: %s", o.sock,
		       rc ? rc->errstr : "out of memory");
	val = malloc(o.value + 1);
	if (!val)
		wl_fail("out of memory");
	cmd_ok("FLUSHALL");
	cmd_ok("MEMORY PURGE");
	wl_roi_begin();
	us = set_all();
	wl_report("set_ops_s", (double)o.keys / (us / 1e6));
	us = get_all();
	wl_report("get_ops_s", (double)o.keys / (us / 1e6));
	r = cmd("DBSIZE");
	if (r->type != REDIS_REPLY_INTEGER || (uint64_t)r->integer != o.keys)
		wl_fail("DBSIZE %lld, not the %llu keys SET", r->integer,
			(unsigned long long)o.keys);
	wl_report("keys", (double)r->integer);
	freeReplyObject(r);
	bgsave();
	wl_roi_end();
	free(val);
	redisFree(rc);
	return WL_EXIT_OK;
}
