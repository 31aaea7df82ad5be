// SPDX-License-Identifier: GPL-2.0-only
/*
 * spawn: the start time spawn_blocked reports from the boot-time clock
 * is the one /proc shows for the child (what restore's pid-reuse check
 * compares), and 0 only when it cannot tell; the pidfd names the child;
 * a failed exec's errno comes back, a successful one leaves 0.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "measure/spawn.h"
#include "system/reap.h"

extern char **environ;

/* The pid a pidfd refers to, from its fdinfo's "Pid:" line. */
static pid_t pidfd_pid(int fd)
{
	char path[64], buf[512], *p;
	FILE *f;
	size_t n;

	snprintf(path, sizeof(path), "/proc/self/fdinfo/%d", fd);
	f = fopen(path, "r");
	assert_non_null(f);
	n = fread(buf, 1, sizeof(buf) - 1, f);
	fclose(f);
	buf[n] = '\0';
	p = strstr(buf, "\nPid:");
	assert_non_null(p);
	return (pid_t)atoi(p + 5);
}

static void test_start_is_procs(void **state)
{
	char *argv[] = { "true", NULL };
	unsigned long long start;
	int go[2], i, known = 0, status, pidfd, exec_errno = -1;
	pid_t pid;

	(void)state;
	for (i = 0; i < 20; i++) {
		assert_int_equal(pipe2(go, O_CLOEXEC), 0);
		struct spawn_req req = {
			.path = "/bin/true", .argv = argv, .envp = environ,
			.go_fd = go[0], .exec_errno = &exec_errno, .out_fd = -1,
			.stderr_fd = -1, .close = &go[1], .nclose = 1,
		};
		pid = spawn_blocked(&req, &start, &pidfd);
		assert_true(pid > 0);
		/* 5.2 on: a pidfd of that child, not inherited by its exec. */
		if (pidfd >= 0) {
			assert_int_equal(fcntl(pidfd, F_GETFD), FD_CLOEXEC);
			assert_int_equal(pidfd_pid(pidfd), pid);
			close(pidfd);
		}
		/* Still blocked on go: /proc has it. */
		if (start) {
			assert_int_equal(start, proc_start_time(pid));
			known++;
		}
		assert_int_equal(write(go[1], "g", 1), 1);
		assert_int_equal(waitpid(pid, &status, 0), pid);
		assert_true(WIFEXITED(status) && WEXITSTATUS(status) == 0);
		close(go[0]);
		close(go[1]);
		/* An exec that succeeded leaves it as spawn_blocked set it. */
		assert_int_equal(exec_errno, 0);
	}
	/* A clone takes far less than a clock tick (10 ms at USER_HZ 100):
	 * twenty in a row do not all cross one. */
	assert_true(known > 0);
}

/* A failed exec's errno comes back through the memory the child shares. */
static void test_exec_errno(void **state)
{
	char *argv[] = { "nope", NULL };
	unsigned long long start;
	int go[2], status, pidfd, exec_errno = 0;
	pid_t pid;

	(void)state;
	assert_int_equal(pipe2(go, O_CLOEXEC), 0);
	struct spawn_req req = {
		.path = "/nonexistent/nope", .argv = argv, .envp = environ,
		.go_fd = go[0], .exec_errno = &exec_errno, .out_fd = -1,
		.stderr_fd = -1, .close = &go[1], .nclose = 1,
	};
	pid = spawn_blocked(&req, &start, &pidfd);
	assert_true(pid > 0);
	assert_int_equal(write(go[1], "g", 1), 1);
	assert_int_equal(waitpid(pid, &status, 0), pid);
	assert_true(WIFEXITED(status) && WEXITSTATUS(status) == 127);
	assert_int_equal(exec_errno, ENOENT);
	if (pidfd >= 0)
		close(pidfd);
	close(go[0]);
	close(go[1]);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_start_is_procs),
		cmocka_unit_test(test_exec_errno),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
