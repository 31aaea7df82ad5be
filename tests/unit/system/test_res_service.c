// SPDX-License-Identifier: GPL-2.0-only
/*
 * res_service's undo and its trust of a journal, without root or a
 * server: an entry is ours only as STATE/svc-* with its socket inside
 * and a plausible pid; undo kills the pid only while it is the process
 * that started when journalled (same start time), and removes the
 * directory without following a symlink out of it.
 */
#include <fcntl.h>
#include <setjmp.h>
#include <signal.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cmocka.h>

#include "system/reap.h"
#include "system/resource.h"

static char g_state[64];
static struct res_env g_env;

static int setup(void **state)
{
	(void)state;
	snprintf(g_state, sizeof(g_state), "/tmp/test_res_service.XXXXXX");
	assert_non_null(mkdtemp(g_state));
	res_env_init(&g_env, g_state);
	return 0;
}

static int teardown(void **state)
{
	char cmd[128];

	(void)state;
	snprintf(cmd, sizeof(cmd), "rm -rf %s", g_state);
	return system(cmd) ? -1 : 0;
}

static struct res entry(const char *name, const char *dev, int pid,
			long long start)
{
	struct res r = { .kind = &res_kind_service, .num = pid, .size = start };

	snprintf(r.path, sizeof(r.path), "%s/%s", g_state, name);
	if (dev)
		snprintf(r.dev, sizeof(r.dev), "%s", dev);
	snprintf(r.opt, sizeof(r.opt), "redis");
	return r;
}

static void test_owned(void **state)
{
	char why[512], sock[300];
	struct res r;

	(void)state;
	r = entry("svc-1-1", NULL, -1, 0);
	assert_int_equal(res_kind_service.owned(&r, &g_env, why, sizeof(why)), 1);
	snprintf(sock, sizeof(sock), "%s/svc-1-1/redis.sock", g_state);
	r = entry("svc-1-1", sock, 4242, 7);
	assert_int_equal(res_kind_service.owned(&r, &g_env, why, sizeof(why)), 1);
	r = entry("mnt-1-1", NULL, -1, 0);
	assert_int_equal(res_kind_service.owned(&r, &g_env, why, sizeof(why)), 0);
	assert_non_null(strstr(why, "svc-*"));
	r = entry("svc-1-1/../../etc", NULL, -1, 0);
	assert_int_equal(res_kind_service.owned(&r, &g_env, why, sizeof(why)), 0);
	r = entry("svc-1-1", "/tmp/elsewhere.sock", 4242, 7);
	assert_int_equal(res_kind_service.owned(&r, &g_env, why, sizeof(why)), 0);
	assert_non_null(strstr(why, "socket"));
	snprintf(sock, sizeof(sock), "%s/svc-1-1/a/b.sock", g_state);
	r = entry("svc-1-1", sock, 4242, 7);
	assert_int_equal(res_kind_service.owned(&r, &g_env, why, sizeof(why)), 0);
	r = entry("svc-1-1", NULL, 1, 7);	/* init */
	assert_int_equal(res_kind_service.owned(&r, &g_env, why, sizeof(why)), 0);
	r = entry("svc-1-1", NULL, 0, 7);	/* kill(0) is our group */
	assert_int_equal(res_kind_service.owned(&r, &g_env, why, sizeof(why)), 0);
	r = entry("svc-1-1", NULL, -5, 7);	/* kill(-5) is a group */
	assert_int_equal(res_kind_service.owned(&r, &g_env, why, sizeof(why)), 0);
}

static pid_t sleeper(void)
{
	pid_t pid = fork();

	assert_true(pid >= 0);
	if (!pid) {
		pause();
		_exit(0);
	}
	return pid;
}

static void test_undo_kills_only_the_same_process(void **state)
{
	unsigned long long start;
	struct res r;
	pid_t pid = sleeper();
	int st;

	(void)state;
	while (!(start = proc_start_time(pid)))
		;
	/* Another start time: a reused pid, not ours: left running. */
	r = entry("svc-2-1", NULL, pid, (long long)start + 1);
	assert_int_equal(res_kind_service.undo(&r, &g_env), 0);
	assert_true(proc_alive(pid, start));
	/* The same: stopped (SIGTERM) and reaped. */
	r = entry("svc-2-1", NULL, pid, (long long)start);
	assert_int_equal(res_kind_service.undo(&r, &g_env), 0);
	assert_false(proc_alive(pid, start));
	assert_true(waitpid(pid, &st, WNOHANG) <= 0);	/* reaped by undo */
}

static void test_undo_removes_tree_not_outside(void **state)
{
	char p[600], outside[256];
	struct stat st;
	struct res r;
	int fd;

	(void)state;
	snprintf(outside, sizeof(outside), "%s/outside", g_state);
	assert_int_equal(mkdir(outside, 0700), 0);
	snprintf(p, sizeof(p), "%s/keep", outside);
	fd = open(p, O_CREAT | O_WRONLY, 0600);
	assert_true(fd >= 0);
	close(fd);
	r = entry("svc-3-1", NULL, -1, 0);
	assert_int_equal(mkdir(r.path, 0700), 0);
	snprintf(p, sizeof(p), "%s/data", r.path);
	assert_int_equal(mkdir(p, 0700), 0);
	snprintf(p, sizeof(p), "%s/data/base", r.path);
	assert_int_equal(mkdir(p, 0700), 0);
	snprintf(p, sizeof(p), "%s/data/base/1", r.path);
	fd = open(p, O_CREAT | O_WRONLY, 0600);
	assert_true(fd >= 0);
	close(fd);
	snprintf(p, sizeof(p), "%s/data/link", r.path);
	assert_int_equal(symlink(outside, p), 0);
	assert_int_equal(res_kind_service.undo(&r, &g_env), 0);
	assert_int_equal(stat(r.path, &st), -1);
	snprintf(p, sizeof(p), "%s/keep", outside);
	assert_int_equal(stat(p, &st), 0);
	/* Idempotent: nothing there is nothing to do. */
	assert_int_equal(res_kind_service.undo(&r, &g_env), 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_owned),
		cmocka_unit_test(test_undo_kills_only_the_same_process),
		cmocka_unit_test(test_undo_removes_tree_not_outside),
	};

	signal(SIGPIPE, SIG_IGN);
	return cmocka_run_group_tests(tests, setup, teardown);
}
