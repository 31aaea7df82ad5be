// SPDX-License-Identifier: GPL-2.0-only
/*
 * reap: a process's start time as /proc shows it and as the boot-time
 * clock brackets it, and reap_group's pid-reuse check (a recorded group
 * whose leader's start time is not the live one's is left alone).
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <errno.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include "system/reap.h"

/* A child in its own process group, blocked until killed; *t0 and *t1 the
 * boot-time clock just before and after the fork. */
static pid_t start_sleeper(unsigned long long *t0, unsigned long long *t1)
{
	pid_t pid;

	*t0 = boot_ticks();
	pid = fork();
	*t1 = boot_ticks();
	assert_true(pid >= 0);
	if (!pid) {
		setpgid(0, 0);
		for (;;)
			pause();
	}
	setpgid(pid, pid);
	return pid;
}

static void end_sleeper(pid_t pid)
{
	kill(pid, SIGKILL);
	waitpid(pid, NULL, 0);
}

/* Field 22 of /proc/PID/stat, not its neighbour: the fork happened
 * between the two clock reads. */
static void test_start_time_is_the_fork(void **state)
{
	unsigned long long t0, t1, st;
	pid_t pid = start_sleeper(&t0, &t1);

	(void)state;
	st = proc_start_time(pid);
	end_sleeper(pid);
	assert_true(t0 > 0);
	assert_true(st >= t0);
	assert_true(st <= t1);
}

static void test_gone_has_none(void **state)
{
	unsigned long long t0, t1;
	pid_t pid = start_sleeper(&t0, &t1);

	(void)state;
	end_sleeper(pid);
	assert_int_equal(proc_start_time(pid), 0);
}

/* A pid reused by another process (another start time) is not killed;
 * the recorded one is. */
static void test_reap_group_checks_start(void **state)
{
	unsigned long long t0, t1, st;
	pid_t pid = start_sleeper(&t0, &t1);
	int status;

	(void)state;
	st = proc_start_time(pid);
	assert_true(st > 0);
	assert_int_equal(reap_group(pid, st + 1), 0);
	assert_int_equal(waitpid(pid, &status, WNOHANG), 0);
	assert_true(reap_group(pid, st) >= 1);
	/* reap_group reaps the zombies of its own children as it goes, so
	 * the killed child may be waited for already: then it is gone. */
	if (waitpid(pid, &status, 0) == pid)
		assert_true(WIFSIGNALED(status) && WTERMSIG(status) == SIGKILL);
	else
		assert_int_equal(errno, ECHILD);
	assert_int_equal(kill(pid, 0), -1);
	assert_int_equal(errno, ESRCH);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_start_time_is_the_fork),
		cmocka_unit_test(test_gone_has_none),
		cmocka_unit_test(test_reap_group_checks_start),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
