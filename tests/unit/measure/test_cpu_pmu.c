// SPDX-License-Identifier: GPL-2.0-only
/* cpu_pmu.h: the core PMU is found among the event sources of a fake
 * /sys/bus/event_source/devices (software, tracepoint, breakpoint,
 * uprobe are not one; of two arm64 PMUs the first by name is given), and
 * an absent directory means no PMU. Each case in a child: the answer is
 * cached per process. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "measure/cpu_pmu.h"

static char dir[] = "/tmp/thpbench-cpupmu-XXXXXX";

static void mk(const char *name)
{
	char p[256];

	snprintf(p, sizeof(p), "%s/%s", dir, name);
	assert_int_equal(mkdir(p, 0755), 0);
}

/* cpu_pmu_name() in a child with THPBENCH_EVENT_SOURCE_DIR=where: 0 when
 * it gives want (NULL: none). */
static int child_says(const char *where, const char *want)
{
	int st;
	pid_t pid = fork();

	assert_true(pid >= 0);
	if (!pid) {
		const char *got;

		setenv("THPBENCH_EVENT_SOURCE_DIR", where, 1);
		got = cpu_pmu_name();
		_exit(want ? !(got && !strcmp(got, want)) : got != NULL);
	}
	assert_int_equal(waitpid(pid, &st, 0), pid);
	return WIFEXITED(st) ? WEXITSTATUS(st) : 99;
}

static void test_cpu_pmu(void **state)
{
	(void)state;
	assert_non_null(mkdtemp(dir));
	mk("software");
	mk("tracepoint");
	mk("breakpoint");
	mk("uprobe");
	assert_int_equal(child_says(dir, NULL), 0);
	mk("armv8_pmuv3_0");
	mk("armv8_cortex_a72");
	assert_int_equal(child_says(dir, "armv8_cortex_a72"), 0);
	assert_int_equal(child_says("/nonexistent/thpbench", NULL), 0);
	{
		char cmd[300];

		snprintf(cmd, sizeof(cmd), "rm -rf '%s'", dir);
		assert_int_equal(system(cmd), 0);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_cpu_pmu),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
