// SPDX-License-Identifier: GPL-2.0-only
/*
 * The runner against small shell programs: the metric fd, the control
 * protocol (counters cover only the region), exit statuses, the fake
 * vmstat deltas and the huge-page judgement.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <signal.h>
#include <unistd.h>

#include "measure/event_list.h"
#include "measure/events.h"
#include "measure/runner.h"
#include "util/util.h"

static struct tb_run run_sh(const char *script, const char *events,
			    double timeout_s)
{
	char *argv[] = { "sh", "-c", (char *)script, NULL };
	struct event_spec *evs = NULL;
	struct run_spec spec = {
		.path = "/bin/sh", .argv = argv, .timeout_s = timeout_s,
		.out_fd = -1,
	};
	struct tb_run run;
	char err[256];
	size_t n = 0;

	memset(&run, 0, sizeof(run));
	run.huge = -1;
	if (events)
		assert_int_equal(events_parse_list(events, &evs, &n, err, sizeof(err)), 0);
	spec.evs = evs;
	spec.nevs = n;
	runner_run(&spec, &run);
	free(evs);
	return run;
}

static double metric(const struct tb_run *run, const char *name)
{
	const struct metric *m = metric_set_find(&run->metrics, name);

	if (!m)
		fail_msg("metric %s missing", name);
	return m->value;
}

static void run_free(struct tb_run *run)
{
	free(run->reason);
	metric_set_free(&run->metrics);
	metric_set_free(&run->counted_pct);
	note_set_free(&run->unsupported);
}

static void test_metric_fd(void **state)
{
	struct tb_run run = run_sh("echo 'gbps 12.5' >&$THPBENCH_METRIC_FD; "
				   "echo 'roi_usec 7521' >&$THPBENCH_METRIC_FD; "
				   "echo 'not a metric line' >&$THPBENCH_METRIC_FD",
				   NULL, 0);

	(void)state;
	assert_int_equal(run.status, RUN_OK);
	assert_true(metric(&run, "gbps") == 12.5);
	assert_true(metric(&run, "roi_usec") == 7521);
	assert_null(metric_set_find(&run.metrics, "not"));
	assert_true(metric(&run, "wall_usec") > 0);
	assert_non_null(metric_set_find(&run.metrics, "maxrss_kb"));
	run_free(&run);
}

/*
 * The harness itself inherited fds up to 12 (a CI runner's, flock's): the
 * workload still gets its protocol fds as 3, 4, 5, which dash (sh) can
 * redirect to; on 10 or more it fails with "Bad fd number".
 */
static void test_protocol_fds_low(void **state)
{
	int held[10], i;
	struct tb_run run;

	(void)state;
	for (i = 0; i < 10; i++)
		held[i] = open("/dev/null", O_RDONLY);
	run = run_sh("echo \"metric_fd $THPBENCH_METRIC_FD\" >&$THPBENCH_METRIC_FD; "
		     "echo \"ctl_fd $PERF_CTL_FD\" >&$THPBENCH_METRIC_FD; "
		     "echo \"ack_fd $PERF_ACK_FD\" >&$THPBENCH_METRIC_FD",
		     NULL, 0);
	for (i = 0; i < 10; i++)
		close(held[i]);
	assert_int_equal(run.status, RUN_OK);
	assert_true(metric(&run, "metric_fd") == 5);
	assert_true(metric(&run, "ctl_fd") == 3);
	assert_true(metric(&run, "ack_fd") == 4);
	run_free(&run);
}

/*
 * Faults before the region are many (100 programs started, each faulting
 * in its loader and libc: base pages whatever THP is set to, where a big
 * awk array's heap would be a handful of THP faults under "always");
 * inside, few (shell builtins).
 */
#define MANY_EXECS "i=0; while [ $i -lt 100 ]; do /bin/true; i=$((i + 1)); done; "

static void test_roi_limits_counting(void **state)
{
	const char *script =
		MANY_EXECS
		"echo enable >&$PERF_CTL_FD; read a <&$PERF_ACK_FD; "
		"[ \"$a\" = ack ] || exit 9; "
		"echo disable >&$PERF_CTL_FD; read a <&$PERF_ACK_FD";
	struct tb_run whole = run_sh(MANY_EXECS, "page-faults", 0);
	struct tb_run roi = run_sh(script, "page-faults", 0);

	(void)state;
	assert_int_equal(whole.status, RUN_OK);
	assert_int_equal(roi.status, RUN_OK);
	assert_false(whole.roi);
	assert_true(roi.roi);
	assert_true(metric(&whole, "page-faults") > 1000);
	assert_true(metric(&roi, "page-faults") < metric(&whole, "page-faults") / 10);
	assert_non_null(metric_set_find(&roi.metrics, "roi.anon_huge_kb"));
	run_free(&whole);
	run_free(&roi);
}

static void test_statuses(void **state)
{
	struct tb_run failed = run_sh("exit 4", NULL, 0);
	struct tb_run invalid = run_sh("exit 3", NULL, 0);
	struct tb_run killed = run_sh("kill -TERM $$", NULL, 0);
	struct tb_run slow = run_sh("sleep 10", NULL, 0.3);

	(void)state;
	assert_int_equal(failed.status, RUN_FAILED);
	assert_int_equal(failed.exit_code, 4);
	assert_int_equal(invalid.status, RUN_INVALID);
	assert_int_equal(killed.status, RUN_SIGNALED);
	assert_int_equal(killed.signal, 15);
	/* killed at the timeout, not left to finish its 10 s: a timeout is
	 * a kill (how soon after 0.3 s is the machine's) */
	assert_int_equal(slow.status, RUN_TIMEOUT);
	assert_int_equal(slow.signal, SIGKILL);
	run_free(&failed);
	run_free(&invalid);
	run_free(&killed);
	run_free(&slow);
}

/* A run of script with stdout and stderr going to the file at log. */
static struct tb_run run_sh_logged(const char *script, const char *log)
{
	char *argv[] = { "sh", "-c", (char *)script, NULL };
	struct run_spec spec = { .path = "/bin/sh", .argv = argv };
	struct tb_run run;

	memset(&run, 0, sizeof(run));
	run.huge = -1;
	spec.out_fd = open(log, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
	assert_true(spec.out_fd >= 0);
	runner_run(&spec, &run);
	close(spec.out_fd);
	return run;
}

/*
 * A failed run says why in the workload's own words: its last non-empty
 * stderr line follows the status (control characters shown as '?'), and
 * its output still reaches its log whole.
 */
static void test_failed_run_says_why(void **state)
{
	char log[] = "/tmp/thpbench-runner-XXXXXX", text[1024];
	struct tb_run failed, odd, quiet, fine;
	int fd = mkstemp(log);

	(void)state;
	assert_true(fd >= 0);
	close(fd);
	failed = run_sh_logged("echo result; echo 'warming up' >&2; "
			       "echo 'the pool has 1014 free, it needs 1024' >&2; "
			       "echo >&2; exit 1", log);
	assert_int_equal(failed.status, RUN_FAILED);
	assert_string_equal(failed.reason,
			    "exited with status 1: the pool has 1014 free, it needs 1024");
	assert_int_equal(read_file_str(log, text, sizeof(text)), 0);
	assert_non_null(strstr(text, "result\n"));
	assert_non_null(strstr(text, "warming up\nthe pool has 1014 free, it needs 1024"));
	odd = run_sh_logged("printf 'x\\033[2J\\rboom' >&2; kill -ABRT $$", log);
	assert_int_equal(odd.status, RUN_SIGNALED);
	assert_non_null(strstr(odd.reason, "killed by signal 6"));
	assert_non_null(strstr(odd.reason, ": x?[2J?boom"));
	quiet = run_sh_logged("echo only stdout; exit 5", log);
	assert_string_equal(quiet.reason, "exited with status 5");
	fine = run_sh_logged("echo 'a warning' >&2", log);
	assert_int_equal(fine.status, RUN_OK);
	assert_null(fine.reason);
	unlink(log);
	run_free(&failed);
	run_free(&odd);
	run_free(&quiet);
	run_free(&fine);
}

static void test_exec_failure(void **state)
{
	char *argv[] = { "nope", NULL };
	struct run_spec spec = { .path = "/nonexistent/nope", .argv = argv,
				 .out_fd = -1 };
	struct tb_run run;

	(void)state;
	memset(&run, 0, sizeof(run));
	assert_int_equal(runner_run(&spec, &run), -1);
	assert_int_equal(run.status, RUN_ERROR);
	assert_non_null(strstr(run.reason, "/nonexistent/nope"));
	run_free(&run);
}

static void test_fake_vmstat_deltas(void **state)
{
	char dir[] = "/tmp/thpbench-vmstat-XXXXXX", path[128], script[512];
	char *argv[] = { "sh", "-c", script, NULL };
	struct run_spec spec = { .path = "/bin/sh", .argv = argv, .out_fd = -1,
				 .vmstat_path = path };
	struct tb_run run;
	FILE *f;

	(void)state;
	assert_non_null(mkdtemp(dir));
	snprintf(path, sizeof(path), "%s/vmstat", dir);
	f = fopen(path, "w");
	fputs("nr_free_pages 100\nthp_fault_alloc 10\npgfault 1000\n"
	      "nr_anon_transparent_hugepages 10\n", f);
	fclose(f);
	snprintf(script, sizeof(script),
		 "printf 'nr_free_pages 5\\nthp_fault_alloc 14\\npgfault 1500\\n"
		 "nr_anon_transparent_hugepages 4\\n' > %s", path);
	memset(&run, 0, sizeof(run));
	runner_run(&spec, &run);
	assert_int_equal(run.status, RUN_OK);
	assert_true(metric(&run, "vmstat.thp_fault_alloc") == 4);
	assert_true(metric(&run, "vmstat.pgfault") == 500);
	assert_null(metric_set_find(&run.metrics, "vmstat.nr_free_pages"));
	/* a level is recorded as levels, never as a delta (-6) */
	assert_true(metric(&run, "vmstat.nr_anon_transparent_hugepages.before") == 10);
	assert_true(metric(&run, "vmstat.nr_anon_transparent_hugepages.after") == 4);
	assert_null(metric_set_find(&run.metrics, "vmstat.nr_anon_transparent_hugepages"));
	assert_int_equal(run.huge, 1);
	unlink(path);
	rmdir(dir);
	run_free(&run);
}

/*
 * A background child holds the metric fd after the leader exits: the
 * repetition still ends at the leader's exit, with the child killed and
 * counted, its pid's metric kept. No timeout: a runner that waited for
 * the child (a 974 s sleep) would be ended by the alarm, a hang guard,
 * not a measure of how soon it ended.
 */
static void check_leftover(const char *script, int want)
{
	struct tb_run run;
	pid_t left;

	alarm(120);
	run = run_sh(script, NULL, 0);
	alarm(0);
	assert_int_equal(run.status, RUN_OK);
	assert_int_equal(run.leftover, want);
	left = (pid_t)metric(&run, "left");
	assert_true(left > 1);
	assert_int_equal(kill(left, 0), -1);
	run_free(&run);
}

static void test_leftover_children(void **state)
{
	(void)state;
	check_leftover("sleep 974 & echo \"left $!\" >&$THPBENCH_METRIC_FD; exit 0", 1);
	check_leftover("setsid sleep 974 & echo \"left $!\" >&$THPBENCH_METRIC_FD; exit 0", 1);
	/* Double fork: the orphan is re-parented to the harness, not init. */
	check_leftover("(sleep 974 & echo \"left $!\" >&$THPBENCH_METRIC_FD) ; "
		       "sleep 0.2; exit 0", 1);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_metric_fd),
		cmocka_unit_test(test_protocol_fds_low),
		cmocka_unit_test(test_roi_limits_counting),
		cmocka_unit_test(test_statuses),
		cmocka_unit_test(test_failed_run_says_why),
		cmocka_unit_test(test_exec_failure),
		cmocka_unit_test(test_fake_vmstat_deltas),
		cmocka_unit_test(test_leftover_children),
	};

	events_init();
	return cmocka_run_group_tests(tests, NULL, NULL);
}
